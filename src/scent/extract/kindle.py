"""Kindle e-books (.mobi, .azw, .azw3): read as an EPUB is (file kind `epub`): the book's text,
cut into sections at its chapters (a Mobipocket 6 book's page breaks, KF8's headings), its title, and its author, publisher, subject and description
(EXTH records) in the first section's words.

A Mobipocket file is a Palm database: record 0 holds the PalmDOC header (compression, text
length, how many text records) and the MOBI header (text encoding, the book's full name, where
the EXTH metadata is, which trailing entries each text record carries); records 1..N hold the
text, each up to 4 KB once decompressed. Kindle's KF8 format (.azw3, and the second half of a
"joint" .mobi) keeps the same layout with HTML split into skeletons and fragments: the records are
read in order, which keeps every word (a fragment's place inside its skeleton aside). The first
header's book is the one read. Read here, byte by byte, as KindleUnpack and calibre read it (GPL
code, so none of it is used); PalmDOC's LZ77 is decompressed here. A book under DRM
(encrypted), or compressed with Amazon's HUFF/CDIC, is one line: neither is readable without
Amazon's keys or tables.
"""
from __future__ import annotations

import re
import struct

from scent.units import Extracted
from .base import Limits, held_whole, joined, laid_out, unreadable
from .html import _BREAK, _CUT, _normalise, _parse, _visible_pieces

EXTENSIONS = (".mobi", ".azw", ".azw3")
KIND = "epub"
_WHAT = "Kindle e-book"
_NONE, _PALMDOC, _HUFF = 1, 2, 17480
# EXTH record types: what a person searches a book by, beside its text.
_PAGE_BREAK = re.compile(r"<mbp:pagebreak\s*/?>(?:\s*</mbp:pagebreak>)?", re.I)
_EXTH = {100: "author", 101: "publisher", 103: "description", 105: "subject", 503: "title"}


def extract(path: str, limits: Limits) -> Extracted:
    held_whole(path, limits, _WHAT)  # its pictures too: refused past 4x max_file_mb
    with open(path, "rb") as f:
        data = f.read()
    try:
        records = _records(data)
        header = records[0]
        compression, _, text_length, count = struct.unpack_from(">HHIH", header, 0)
        encryption = struct.unpack_from(">H", header, 12)[0]
        if header[16:20] != b"MOBI":
            raise ValueError("its first record has no MOBI header")
    except (struct.error, ValueError, IndexError) as e:
        raise unreadable(path, _WHAT, str(e) or type(e).__name__) from None
    if encryption:
        raise unreadable(path, _WHAT, "it is DRM-protected (encrypted)", maybe="",
                         fix="scent reads Kindle books without DRM (your own documents, calibre's); add it to .scentignore")
    if compression not in (_NONE, _PALMDOC):
        how = "Amazon's HUFF/CDIC compression" if compression == _HUFF else f"compression {compression}"
        raise unreadable(path, _WHAT, f"its text uses {how}, which scent does not read", maybe="",
                         fix="convert it with calibre (to EPUB), or add it to .scentignore")
    try:
        return _book(path, records, compression, text_length, count, limits)
    except (struct.error, ValueError, IndexError) as e:  # a header field pointing past its record
        raise unreadable(path, _WHAT, f"its header is damaged ({type(e).__name__}: {e})") from None


def _book(path: str, records: list[bytes], compression: int, text_length: int, count: int,
          limits: Limits) -> Extracted:
    header = records[0]
    length, encoding = struct.unpack_from(">II", header, 20)[0], struct.unpack_from(">I", header, 28)[0]
    codec = "utf-8" if encoding == 65001 else "cp1252"
    flags = struct.unpack_from(">H", header, 0xF2)[0] if length >= 0xE4 and len(header) >= 0xF4 else 0
    meta: dict = {}
    text, size = [], 0
    for record in records[1:1 + count]:
        body = record[:len(record) - _trailing(record, flags)]
        try:
            piece = _palmdoc(body) if compression == _PALMDOC else body
        except IndexError:
            meta.setdefault("left_out", []).append("a text record is damaged: the text from there on is not indexed")
            break
        size += len(piece)
        if size > limits.max_text_bytes:
            meta.setdefault("left_out", []).append(
                f"only the first {limits.max_text_bytes // 2**20} MB of its text were indexed (max_file_mb)")
            break
        text.append(piece)
    raw = b"".join(text)[:text_length]
    book = raw[:_main_flow_end(records, header, length)].decode(codec, errors="replace")
    facts = _exth(header, 16 + length, codec) if struct.unpack_from(">I", header, 0x80)[0] & 0x40 else {}
    title = facts.pop("title", "") or _full_name(header, codec)
    byline = "\n".join(f"{what}: {value}" for what, value in facts.items())
    parts = [(title, byline)]
    # A Mobipocket 6 book marks its chapters with page breaks, and draws their titles as big bold
    # type, not headings: a chapter is titled by its first line. KF8's chapters have headings.
    for chapter in _PAGE_BREAK.split(book.replace(_CUT, "").replace(_BREAK, "")):
        pieces, titles = _visible_pieces(_parse(path, chapter))
        before, *rest = map(_normalise, "".join(pieces).split(_CUT))
        first = before.split("\n", 1)[0]
        parts.append((first if 0 < len(first) <= 100 else parts[-1][0], before))
        parts += list(zip(titles, rest))
    return Extracted(kind=KIND, sections=laid_out(joined(parts, "epub")), title=title, meta=meta)


def _records(data: bytes) -> list[bytes]:
    """The Palm database's records. ValueError when it is not one of a book."""
    if len(data) < 78 or data[60:68] not in (b"BOOKMOBI", b"TEXtREAd"):
        raise ValueError("not a Mobipocket book: no BOOKMOBI Palm database header")
    count = struct.unpack_from(">H", data, 76)[0]
    starts = [struct.unpack_from(">I", data, 78 + 8 * i)[0] for i in range(count)]
    ends = starts[1:] + [len(data)]
    if not starts or any(not 0 < s <= e <= len(data) for s, e in zip(starts, ends)):
        raise ValueError("its record list points outside the file (cut short?)")
    return [data[s:e] for s, e in zip(starts, ends)]


def _trailing(record: bytes, flags: int) -> int:
    """How many bytes at a text record's end are not text: the entries `flags` announces (each
    its size in a backward variable-length number at the end), then the multibyte overlap."""
    size, cut = len(record), 0
    rest = flags >> 1
    while rest:
        if rest & 1:
            value, shift, at = 0, 0, size - cut
            while at > 0:
                byte = record[at - 1]
                value |= (byte & 0x7F) << shift
                shift += 7
                at -= 1
                if byte & 0x80 or shift >= 28:
                    break
            cut += value
        rest >>= 1
    if flags & 1 and size - cut > 0:
        cut += (record[size - cut - 1] & 0x3) + 1
    return min(cut, size)


MAX_RECORD = 64 * 1024  # a text record is 4 KB of text; a damaged (or hostile) one stops here


def _palmdoc(data: bytes) -> bytes:
    """PalmDOC's LZ77: literals, runs of literals, "space + letter" pairs, and back references of
    3-10 bytes up to 2,047 back. IndexError on a damaged stream, or one inflating past MAX_RECORD."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        if len(out) > MAX_RECORD:
            raise IndexError("a text record inflates past 64 KB")
        c = data[i]
        i += 1
        if 1 <= c <= 8:
            out += data[i:i + c]
            i += c
        elif c < 0x80:
            out.append(c)
        elif c >= 0xC0:
            out += bytes((0x20, c ^ 0x80))
        else:
            pair = (c << 8) | data[i]
            i += 1
            distance, length = (pair >> 3) & 0x7FF, (pair & 7) + 3
            if not 0 < distance <= len(out):
                raise IndexError("a back reference before the start")
            for _ in range(length):
                out.append(out[-distance])
    return bytes(out)


def _exth(header: bytes, at: int, codec: str) -> dict[str, str]:
    """The EXTH records scent says (_EXTH), first of each kind, in _EXTH's order."""
    if header[at:at + 4] != b"EXTH":
        return {}
    found: dict[int, str] = {}
    count = struct.unpack_from(">I", header, at + 8)[0]
    at += 12
    for _ in range(count):
        if at + 8 > len(header):
            break
        kind, size = struct.unpack_from(">II", header, at)
        if size < 8:
            break
        if kind in _EXTH and kind not in found:
            value = " ".join(header[at + 8:at + size].decode(codec, errors="replace").split())
            if kind == 103:  # a description is HTML
                value = _normalise("".join(_visible_pieces(_parse("", value))[0]))
            if value:
                found[kind] = value
        at += size
    return {_EXTH[k]: found[k] for k in _EXTH if k in found}


def _main_flow_end(records: list[bytes], header: bytes, length: int) -> int | None:
    """Where a KF8 book's text ends and its other flows (style sheets, SVG) begin, from its FDST
    record; None (all of it) for a Mobipocket 6 book, which has one flow."""
    if length < 0xE4 or len(header) < 0xC8:
        return None
    index, count = struct.unpack_from(">II", header, 0xC0)
    if count < 2 or not 0 < index < len(records) or records[index][:4] != b"FDST":
        return None
    start, end = struct.unpack_from(">II", records[index], 12)
    return end if start == 0 and end > 0 else None


def _full_name(header: bytes, codec: str) -> str:
    at, size = struct.unpack_from(">II", header, 84)
    return " ".join(header[at:at + size].decode(codec, errors="replace").split())
