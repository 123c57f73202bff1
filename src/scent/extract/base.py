"""What every extractor shares: the limits, reading text files safely, and building sections."""
from __future__ import annotations

import codecs
import json
import os
import re
import sys
from dataclasses import dataclass

from scent.dates import from_datetime
from scent.errors import ExtractError
from scent.ocr import MAX_SIDE, OcrEngine
from scent.units import Section

# A transformed file (HTML, Word, CSV, JSON) has no character offsets of its own, so its
# "extracted text" is defined as its sections joined by this separator; Section.start
# points into that string.
SECTION_SEPARATOR = "\n\n"
_SNIFF_BYTES = 8192


@dataclass(frozen=True)
class Limits:
    max_text_bytes: int = 50 * 1024 * 1024  # text-like files larger than this are refused
    max_pdf_pages: int = 2000  # pages beyond this are not read (meta["truncated"] says so)
    max_image_pixels: int = 100_000_000  # larger images keep only their name/EXIF unit
    # OCR of pictures and scanned PDF pages: None reads no pixels (the default, so extraction
    # alone never runs a program); Index passes an engine when the `ocr` setting is on.
    ocr: OcrEngine | None = None
    ocr_langs: str = "auto"  # "auto" or Tesseract codes such as "eng+hin"
    ocr_max_side: int = MAX_SIDE  # pictures and rendered pages are scaled down to this (px)
    # Pictures (image files, pictures inside PDFs and Word files, drawn PDF pages) get a section
    # of words for what they show (scent.describe). Off by default, as OCR is, so extraction
    # alone reads no pixels; Index turns it on with the `describe` setting.
    describe: bool = False
    max_pdf_images: int = 8  # pictures read per PDF page / per Word file is 4x this
    max_drawn_pages: int = 50  # PDF pages with many vector paths rendered per file to find drawings
    root: str | None = None  # the indexed folder: picture units name only the folders below it
    # Files inside files (archive members, mail attachments: scent.extract.members).
    max_members: int = 1000  # files read from one archive or mailbox; the rest are left out with a line
    max_member_bytes: int = 512 * 1024 * 1024  # bytes inflated from one container, all members together
    max_ratio: int = 200  # a member (or a tar stream) inflating more than this, and past 8 MB, is a bomb
    member_depth: int = 1  # how deep files inside files are read: a zip inside a zip is listed, not opened
    # Parts read from one file (a subtitle file's minutes, a calendar's events): each is held in
    # memory until the file is written, so a file of 100,000 parts stops here, with a line. A
    # mailbox's messages and an Evernote export's notes are files of their own, not parts.
    max_sections: int = 5000
    # Where a container's files (a mailbox's messages, an archive's members, an export's notes) wait
    # between its reader and the indexer (members.Spool), one at a time in memory however many it
    # holds; None: the system's temporary folder. The indexer gives each file a folder of its own,
    # and takes the files there while the reader reads on.
    spool: str | None = None
    # The files inside this one that the index has, (name, sha1 of its bytes; "" where it must read
    # it again or skipped it): a mailbox's message it holds as it is is not parsed again, only named
    # (mail.py), so a mailbox of 100,000 messages that gained one parses one. Given by the indexer for
    # the file it reads; empty for the files inside.
    indexed: tuple[tuple[str, str], ...] = ()


def load_json(text: str | bytes):
    """json.loads, except that an integer too long for Python to convert (its guard against slow
    parsing, 4,300 digits) stays its digits: one such number cost the whole file."""
    return json.loads(text, parse_int=_integer)


def _integer(digits: str) -> int | str:
    return int(digits) if len(digits) <= (sys.get_int_max_str_digits() or len(digits)) else digits


def _size(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MB" if n >= 1024 * 1024 else f"{n / 1024:.1f} KB"


def read_bytes(path: str, limits: Limits) -> bytes:
    """The raw bytes of a text-like file, refusing ones too large or that are really binary."""
    too_big = "text file is {size}, over the {limit} limit; raise the max_file_mb setting (--max-file-mb) or add it to .scentignore"
    size = os.stat(path).st_size
    if size > limits.max_text_bytes:
        shown, limit = _size(size), _size(limits.max_text_bytes)
        if shown == limit:  # just over: "50.0 MB, over the 50.0 MB limit" said nothing
            shown, limit = f"{size:,} bytes", f"{limits.max_text_bytes:,}-byte ({limit})"
        raise ExtractError(path, too_big.format(size=shown, limit=limit))
    with open(path, "rb") as f:
        # Read one byte past the limit: the file may have grown since stat.
        raw = f.read(limits.max_text_bytes + 1)
    if len(raw) > limits.max_text_bytes:
        raise ExtractError(path, too_big.format(size=f"over {_size(len(raw) - 1)}",
                                                limit=_size(limits.max_text_bytes)))
    utf16 = raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    if not utf16 and b"\0" in raw[:_SNIFF_BYTES]:
        raise ExtractError(path, "binary data in a text file (NUL bytes in the first 8 KB); "
                                 "rename it to its real type or add it to .scentignore")
    return raw


def _byte(b: int) -> str:
    try:
        return bytes([b]).decode("cp1252")
    except UnicodeDecodeError:
        return chr(b)  # latin-1, for the five bytes cp1252 leaves undefined


# cp1252 is what most non-UTF-8 text on people's disks is.
_CP1252 = [_byte(b) for b in range(256)]


def _as_cp1252(err: UnicodeDecodeError) -> tuple[str, int]:
    return "".join(_CP1252[b] for b in err.object[err.start:err.end]), err.end


codecs.register_error("scent.cp1252", _as_cp1252)


def decode(raw: bytes) -> tuple[str, str]:
    """(text, encoding). Newlines become \\n, so offsets do not depend on the platform that wrote it."""
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text, encoding = raw.decode("utf-16", errors="replace"), "utf-16"
    else:
        try:
            text, encoding = raw.decode("utf-8-sig"), "utf-8"
        except UnicodeDecodeError:
            # Byte by byte, not the whole file: one stray byte in a UTF-8 file turned every
            # "crème" in it into "crÃ¨me". Each valid UTF-8 sequence stays UTF-8, each other byte
            # is read as cp1252; a cp1252 file is then read as cp1252 throughout (its accented
            # letters seldom form valid UTF-8 sequences).
            text = raw.decode("utf-8-sig", errors="scent.cp1252")
            # Every byte read as cp1252 is one character, so fewer characters than bytes means
            # some of the text was UTF-8.
            body = len(raw) - len(codecs.BOM_UTF8) * raw.startswith(codecs.BOM_UTF8)
            encoding = "utf-8" if len(text) < body else "cp1252"
    return text.replace("\r\n", "\n").replace("\r", "\n"), encoding


def unreadable(path: str, what: str, detail: str, maybe: str = "it may be damaged or another format renamed",
               fix: str = "open and save it again, or add it to .scentignore") -> ExtractError:
    """The one line for a file its reader could not read: "not a readable WHAT (DETAIL: the
    reader's own words); what may be wrong; what to do"."""
    return ExtractError(path, "; ".join(filter(None, (f"not a readable {what} ({detail})", maybe, fix))))


def one_line(value) -> str:
    """A name, title or address as read: its words on one line, runs of blank space as one; "" for
    anything that is not text (a JSON field may hold a number or null)."""
    return " ".join(value.split()) if isinstance(value, str) else ""


def named(e: BaseException) -> str:
    """An exception as a reader's error is quoted: "BadZipFile: File is not a zip file"."""
    return f"{type(e).__name__}: {e}"


def held_whole(path: str, limits: Limits, what: str) -> None:
    """Refuse a file its reader holds whole in memory (Word and PowerPoint 97-2003) when it is
    over 4x max_file_mb: the same room a zip package may inflate to."""
    size = os.stat(path).st_size
    if size > 4 * limits.max_text_bytes:
        raise ExtractError(path, f"{what} is {_size(size)}, over the {_size(4 * limits.max_text_bytes)} limit (4x "
                                 "max_file_mb); raise the max_file_mb setting (--max-file-mb) or add it to .scentignore")


def ole_created(path: str) -> float | None:
    """When an Office 97-2003 file (.doc, .xls, .ppt) says it was made: its SummaryInformation's
    create time, kept when the file is copied, unlike its mtime (as a .docx's core `created`).
    None when it has none or it cannot be read: the date is all that is lost."""
    import struct

    import olefile

    try:
        with olefile.OleFileIO(path) as ole:
            return from_datetime(ole.get_metadata().create_time)
    except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError, struct.error):
        return None


def read_text(path: str, limits: Limits) -> tuple[str, str]:
    return decode(read_bytes(path, limits))


def numbered_lines(text: str, sections: list[Section]) -> list[Section]:
    """`sections` of `text` (a file's own text: a note, code) with the line each begins at."""
    line, at = 1, 0
    for section in sorted(sections, key=lambda s: s.start):
        line += text.count("\n", at, section.start)
        at = max(at, section.start)
        section.line = line
    return sections


def span(text: str, start: int, end: int, kind: str, title: str = "") -> Section | None:
    """The section text[start:end] without its surrounding blank space, or None when blank."""
    piece = text[start:end]
    stripped = piece.strip()
    if not stripped:
        return None
    lead = len(piece) - len(piece.lstrip())
    return Section(text=stripped, kind=kind, title=title, start=start + lead)


def split_at(text: str, cuts: list[tuple[int, str]], kind: str, first_title: str = "",
             begin: int = 0) -> list[Section]:
    """Sections of `text` from offset `begin` on, cut at the given (offset, title) points; the
    part before the first cut is titled `first_title`. A heading with nothing under it before the
    next one ("# Reading list" over "## Read in 2025") opens the next section instead of being a
    section of its own: alone, its few words matched short queries by their brevity and its file
    was shown by a snippet of nothing but a heading."""
    bounds = [(begin, first_title), *sorted(cuts)] if not cuts or cuts[0][0] > begin else sorted(cuts)
    sections = []
    opened = None  # where a heading with nothing under it began
    for i, (start, title) in enumerate(bounds):
        end = bounds[i + 1][0] if i + 1 < len(bounds) else len(text)
        section = span(text, start if opened is None else opened, end, kind, title)
        opened = None
        if section is None:
            continue
        if i + 1 < len(bounds) and title and _only(title, section.text):
            opened = section.start
            continue
        sections.append(section)
    return sections


# LaTeX's commands with their arguments: "\\chapter{Results}\n\\label{ch:results}" is a bare heading too.
_COMMANDS = re.compile(r"\\[A-Za-z]+\*?(?:\[[^\]\n]*\])?(?:\{(?:[^{}\n]|\{[^{}\n]*\})*\})?")


def _only(title: str, text: str) -> bool:
    """Whether `text` is the heading `title` and its markup alone (#, *, an underline, LaTeX's commands)."""
    rest = text.replace(title.strip(), "", 1)
    return title.strip() in text and not any(ch.isalnum() for ch in _COMMANDS.sub("", rest))


def joined(parts: list[tuple[str, str]], kind: str) -> list[Section]:
    """Sections from (title, text) parts, with starts as offsets into the parts joined by
    SECTION_SEPARATOR. Blank parts are dropped and take no room."""
    return laid_out([Section(text=text.strip(), kind=kind, title=title) for title, text in parts if text.strip()])


def headed(text: str, titles: list[str]) -> str:
    """A page's text headed by the titles a document's outline (bookmarks) points to it: "the
    chapter on tides" finds the page a chapter starts on. Titles the page says already are not
    said again."""
    new = [t for t in dict.fromkeys(titles) if t.lower() not in text.lower()]
    return "\n".join((*new, text)).strip() if new else text


def laid_out(sections: list[Section]) -> list[Section]:
    """`sections` with their starts set as offsets into their texts joined by SECTION_SEPARATOR:
    the extracted text of a format that is rebuilt from parts (Word, notebooks, calendars)."""
    offset = 0
    for section in sections:
        section.start = offset
        offset += len(section.text) + len(SECTION_SEPARATOR)
    return sections


_WORD_BREAKS = re.compile(r"[\W_]+|(?<=[a-z])(?=[A-Z])|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])")


def name_words(name: str) -> str:
    """A file or folder name as words a person would type: IMG_4120 -> "IMG 4120",
    lighthouse-sunset -> "lighthouse sunset", BeachDay2 -> "Beach Day 2"."""
    return " ".join(w for w in _WORD_BREAKS.split(name) if w)
