"""What the zip-based office and e-book formats (.xlsx, .pptx, .ods, .odp, .odt, .epub) share:
a look at the package before a library opens it, so a zip bomb, an encrypted Office file or a
file that is no package at all is one clear ExtractError instead of minutes of inflating or a
library's traceback."""
from __future__ import annotations

import posixpath
import struct
import xml.etree.ElementTree as ET
import zipfile

from lxml import etree

from scent.errors import ExtractError
from .base import Limits, _size, named, unreadable

# Office writes an encrypted .xlsx/.pptx/.docx as an OLE compound file (EncryptionInfo and
# EncryptedPackage streams), not as a zip; so does Office 97-2003 for .xls/.ppt/.doc.
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGIC = b"PK\x03\x04"
# XML and text inflate 5-20x; a member that inflates beyond this ratio (and is big) is a bomb.
MAX_RATIO = 200
RATIO_FLOOR = 8 * 1024 * 1024  # small members may inflate as much as they like
MAX_MEMBERS = 20_000
# The package as a whole may inflate to this multiple of the text limit (pictures inside it
# are stored compressed already, so they count about their own size).
TEXT_LIMIT_MULTIPLE = 4


# The end of central directory record, and ZIP64's locator and record for more than 65,535 entries.
EOCD, ZIP64_LOCATOR, ZIP64_EOCD = b"PK\x05\x06", b"PK\x06\x07", b"PK\x06\x06"
EOCD_SIZE, MAX_COMMENT = 22, 65_535


def zip_entries(path: str) -> int | None:
    """How many entries a zip's end record says its central directory holds; None when there is
    no end record (no zip, or cut short). Read before zipfile parses the directory, which costs
    ~0.5 KB of memory an entry: a zip of a million empty names is 24 MB on disk, half a GB read."""
    with open(path, "rb") as f:
        size = f.seek(0, 2)
        f.seek(max(0, size - EOCD_SIZE - MAX_COMMENT))
        tail = f.read()
        at = tail.rfind(EOCD)
        if at < 0 or len(tail) - at < EOCD_SIZE:
            return None
        total = struct.unpack_from("<H", tail, at + 10)[0]
        locator = at - 20
        if total == 0xFFFF and locator >= 0 and tail[locator:locator + 4] == ZIP64_LOCATOR:
            f.seek(struct.unpack_from("<Q", tail, locator + 8)[0])
            record = f.read(40)
            if len(record) == 40 and record[:4] == ZIP64_EOCD:
                total = struct.unpack_from("<Q", record, 32)[0]
        return total


def check(path: str, limits: Limits, what: str) -> None:
    """Refuse, with what to do, a package that is encrypted, not a zip, or would inflate too far.
    `what` names the format for the message ("Excel .xlsx workbook")."""
    with open(path, "rb") as f:
        head = f.read(8)
    if head == OLE_MAGIC:
        raise ExtractError(path, f"password-protected (encrypted) {what}, or an old binary Office file "
                                 "renamed: scent cannot read it; save it without a password or add it to .scentignore")
    declared = zip_entries(path)
    if declared is not None and declared > MAX_MEMBERS:
        raise ExtractError(path, f"{what} holds {declared} parts (over {MAX_MEMBERS}); "
                                 "it looks built to exhaust readers, add it to .scentignore")
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
    # NotImplementedError: a zip version or compression method zipfile does not read.
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, NotImplementedError) as e:
        raise unreadable(path, what, named(e), "it may be damaged, cut short, or another format renamed",
                         "save it again or add it to .scentignore") from e
    if len(infos) > MAX_MEMBERS:
        raise ExtractError(path, f"{what} holds {len(infos)} parts (over {MAX_MEMBERS}); "
                                 "it looks built to exhaust readers, add it to .scentignore")
    total = 0
    for info in infos:
        total += info.file_size
        if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise ExtractError(path, f"{what} part {info.filename} would inflate {info.compress_size} bytes to "
                                     f"{_size(info.file_size)} (a zip bomb?); add it to .scentignore")
    limit = TEXT_LIMIT_MULTIPLE * limits.max_text_bytes
    if total > limit:
        raise ExtractError(path, f"{what} inflates to {_size(total)}, over {_size(limit)} (4x max_file_mb); "
                                 "raise the max_file_mb setting (--max-file-mb) or add it to .scentignore")


def load_odf(path: str):
    """The odfpy document, or ValueError when its content.xml is missing or not well-formed.
    odfpy itself swallows both: it prints the broken XML to stdout (which would corrupt
    `--json` output) and returns an empty or half-read document."""
    import contextlib
    import io

    from odf.opendocument import load

    with zipfile.ZipFile(path) as z:
        if "content.xml" not in z.namelist():
            raise ValueError("the package has no content.xml")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        document = load(path)
    if "SAX FAILED TO PARSE" in printed.getvalue():
        raise ValueError("its content.xml is not well-formed XML (cut short or edited by hand?)")
    return document


def starts_with(path: str, magic: bytes) -> bool:
    """Whether the file begins with `magic`, past a byte-order mark and blank space: what it really
    is, whatever its name says (an .xlsx named .xls, a web page named .doc)."""
    with open(path, "rb") as f:
        return f.read(64).lstrip(b"\xef\xbb\xbf \t\r\n").startswith(magic)


_RELATIONSHIP = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"


def relationships(z: zipfile.ZipFile, part: str) -> list[tuple[str, str, str]]:
    """(type, the part it names, id) of each relationship of `part` ("" for the package's own) in
    an Office package (Open Packaging Conventions: `folder/_rels/name.rels`, targets relative to the
    part's folder or absolute). KeyError when the part has no relationships part."""
    folder, name = posixpath.split(part)
    found = ET.fromstring(z.read(posixpath.join(folder, "_rels", name + ".rels")))
    return [(r.get("Type", ""), _target(folder, r.get("Target", "")), r.get("Id", "")) for r in found.iter(_RELATIONSHIP)]


def _target(folder: str, target: str) -> str:
    if not target:
        return ""
    return target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))


# An Office part's XML parsed as python-docx parses the document's: no entities, no network,
# bounded, its comments dropped.
SAFE_XML = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True)


def related(part, kinds: tuple[str, ...]):
    """(kind, bytes) of each part a python-docx or python-pptx `part` relates to by a relationship
    whose type ends in one of `kinds` ("footnotes", "chart", "comments" ...): the parts those
    libraries load but do not read. One the package lacks is passed by."""
    for rel in part.rels.values():
        kind = rel.reltype.rsplit("/", 1)[-1]
        if rel.is_external or kind not in kinds:
            continue
        try:
            blob = rel.target_part.blob
        except (KeyError, ValueError):
            continue
        yield kind, blob


def related_xml(part, kinds: tuple[str, ...], meta: dict | None = None):
    """Those parts parsed (SAFE_XML). A damaged one costs only itself, and says so in
    meta["left_out"] when `meta` is given."""
    for kind, blob in related(part, kinds):
        try:
            yield etree.fromstring(blob, parser=SAFE_XML)
        except etree.XMLSyntaxError as e:
            if meta is not None:
                meta.setdefault("left_out", []).append(f"its {kind} part was not read (damaged: {e}); "
                                                       "the rest of it is indexed")
