"""How far a PDF's streams decode, counted before PDFium decodes them: the PDF bomb guard.

PDFium decodes a stream whole: a 1 MB PDF whose page inflates to 1,000 MiB took it 2.1 GB of
memory, and one whose attached file inflates to 1 GiB 4 GB (it inflates an attachment even to
tell its size); a 463 KB page of LZW decoding to 600 MiB 1.4 GB, and one of 2 GiB aborted the
process. A stream may be encoded more than once (`/Filter [/ASCII85Decode /FlateDecode]`, or a
deflated stream deflated again: 3.4 KB to 2 GiB) and its filters may go by their short names
(`/Fl`). So each stream that could decode past MAX_STREAM_BYTES is decoded here through its
filters a piece at a time, and only counted. A filter not decoded here (an image codec) ends the
count: what reaches it is counted. A stream's dictionary is always plain in the file (no object
stream holds a stream); one not found here, or whose data does not decode, is left to PDFium.
"""
from __future__ import annotations

import base64
import binascii
import mmap
import os
import re
import zlib
from collections.abc import Iterable, Iterator
from math import prod

from .base import Limits, _size
from .members import RATIO_FLOOR

MAX_STREAM_BYTES = 512 << 20  # a page's stream decoding past this is no page anyone made (PDFium stops at 1 GiB)
PEEK = 4096  # bytes before a stream's data in which its dictionary is looked for
PIECE = 4096  # bytes of a stream read at a time: few, so that a bomb is stopped, and named, near what it took
# The most bytes one byte of each filter's input can decode to: deflate cannot inflate a byte to more
# than ~1032; a 12-bit LZW code stands for at most ~3,840 bytes (a table of 4,096 strings, each one
# byte longer than one before it): 1.5 bytes to 2,560, a run of one byte, LZW's best case, half
# that; ASCII85's `z` is four zero bytes; a run-length pair repeats a byte 128 times.
MAX_RATIO = {"flate": 1100, "lzw": 2600, "a85": 4, "hex": 0.5, "rl": 64}
_FILTERS = {b"FlateDecode": "flate", b"Fl": "flate", b"LZWDecode": "lzw", b"LZW": "lzw",
            b"ASCII85Decode": "a85", b"A85": "a85", b"ASCIIHexDecode": "hex", b"AHx": "hex",
            b"RunLengthDecode": "rl", b"RL": "rl"}
_FILTER = re.compile(rb"/Filter\s*(\[[^\]]*\]|/[^\s/\[\]<>()]+)")
_NAME = re.compile(rb"/([^\s/\[\]<>()]+)")
_OBJ = re.compile(rb"\d+\s+\d+\s+obj\b")
_NOT_HEX = re.compile(rb"[^0-9A-Fa-f]")


def bombs(path: str, limits: Limits) -> tuple[str | None, str | None]:
    """Why the PDF is not read (a stream in it would decode past MAX_STREAM_BYTES), and why its
    attached files are not (one would decode past an archive member's limits), or None each."""
    with open(path, "rb") as f:
        if not os.fstat(f.fileno()).st_size:
            return None, None
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            attached = None
            for begin in _streams(data):
                head = data[max(0, begin - PEEK):begin]
                if b"/Filter" not in head:
                    continue
                objects = list(_OBJ.finditer(head))  # its own dictionary, not the object's before it
                head = head[objects[-1].end():] if objects else head
                filters = filters_of(head)
                if not filters:
                    continue
                embedded = b"/EmbeddedFile" in head
                end = data.find(b"endstream", begin)
                end = end if end >= 0 else len(data)
                if not embedded and (end - begin) * prod(MAX_RATIO[f] for f in filters) <= MAX_STREAM_BYTES:
                    continue  # too short to decode that far: most streams are, and cost nothing here
                early = 0 if re.search(rb"/EarlyChange\s+0\b", head) else 1
                packed, out = decoded_size(data, begin, end, filters, early, limits if embedded else None)
                if out > MAX_STREAM_BYTES:
                    return (f"a stream in it would inflate {_size(packed)} to over {_size(out)} (a zip bomb?); "
                            "add it to .scentignore"), None
                if embedded and attached is None and _too_far(packed, out, limits):
                    attached = (f"its attached files were not read: one would inflate {_size(packed)} to over "
                                f"{_size(out)} (a zip bomb?); the PDF itself is indexed")
    return None, attached


def filters_of(head: bytes) -> list[str]:
    """The filters of the stream whose dictionary is `head`, in the order they decode, up to the
    first one not decoded here."""
    found = _FILTER.search(head)
    known = []
    for name in _NAME.findall(found.group(1)) if found else ():
        if name not in _FILTERS:
            break
        known.append(_FILTERS[name])
    return known


def decoded_size(data, begin: int, end: int, filters: list[str], early: int,
                 limits: Limits | None) -> tuple[int, int]:
    """(bytes of the stream read, bytes they decode to) of the stream in data[begin:end], stopped
    past MAX_STREAM_BYTES, or (when `limits` is given) past an archive member's limits."""
    read = begin

    def pieces() -> Iterator[bytes]:
        nonlocal read
        while read < end:
            piece = data[read:min(end, read + PIECE)]
            read += len(piece)
            yield piece

    out = 0
    for chunk in decode(pieces(), filters, early):
        out += len(chunk)
        if out > MAX_STREAM_BYTES or (limits is not None and _too_far(read - begin, out, limits)):
            break
    return read - begin, out


def _too_far(packed: int, out: int, limits: Limits) -> bool:
    return out > limits.max_member_bytes or (out > RATIO_FLOOR and out > limits.max_ratio * packed)


def decode(pieces: Iterable[bytes], filters: list[str], early: int = 1) -> Iterator[bytes]:
    """The stream's bytes decoded through `filters`, a piece at a time; where a filter's data does
    not decode, the output ends there, as PDFium's does."""
    stages = {"flate": _flate, "lzw": lambda p: _lzw(p, early), "a85": _ascii85, "hex": _hex, "rl": _run_length}
    for name in filters:
        pieces = stages[name](pieces)
    return iter(pieces)


def _flate(pieces: Iterable[bytes]) -> Iterator[bytes]:
    inflater = zlib.decompressobj()
    try:
        for piece in pieces:
            while piece:
                yield inflater.decompress(piece, 1 << 20)
                if inflater.eof:
                    return
                piece = inflater.unconsumed_tail
    except zlib.error:
        return


def _lzw(pieces: Iterable[bytes], early: int) -> Iterator[bytes]:
    """PDF's LZW: codes of 9 to 12 bits, high bit first, 256 clears the table, 257 ends, `early` the
    EarlyChange parameter. A code no table holds ends it, as it ends PDFium's decoding."""
    table = [bytes([byte]) for byte in range(256)] + [b"", b""]
    width, last, bits, held = 9, b"", 0, 0
    out = bytearray()
    for piece in pieces:
        for byte in piece:
            bits, held = (bits << 8) | byte, held + 8
            while held >= width:
                held -= width
                code = bits >> held
                bits &= (1 << held) - 1
                if code == 256:
                    del table[258:]
                    width, last = 9, b""
                    continue
                if code < 256 or 257 < code < len(table):
                    string = table[code]
                elif code == len(table) and last:  # the string being added: the last one and its first byte
                    string = last + last[:1]
                else:
                    yield bytes(out)
                    return
                out += string
                if len(out) >= 1 << 20:  # a run decodes ~2,600 times its codes: its output goes on in pieces
                    yield bytes(out)
                    out.clear()
                if last and len(table) < 4096:
                    table.append(last + string[:1])
                    if len(table) + early >= 1 << width and width < 12:
                        width += 1
                last = string
        yield bytes(out)
        out.clear()


def _ascii85(pieces: Iterable[bytes]) -> Iterator[bytes]:
    held = b""
    for piece in pieces:
        text = held + piece.translate(None, b" \t\r\n\f\0").replace(b"z", b"!!!!!")  # z stands between groups
        stop = text.find(b"~")
        text = text[:stop] if stop >= 0 else text
        whole = len(text) if stop >= 0 else len(text) - len(text) % 5
        held = text[whole:]
        try:
            yield base64.a85decode(text[:whole])
        except ValueError:
            return
        if stop >= 0:
            return
    if held:
        try:
            yield base64.a85decode(held)
        except ValueError:
            pass


def _hex(pieces: Iterable[bytes]) -> Iterator[bytes]:
    held = b""
    for piece in pieces:
        stop = piece.find(b">")
        digits = held + _NOT_HEX.sub(b"", piece[:stop] if stop >= 0 else piece)
        whole = len(digits) - len(digits) % 2
        held = digits[whole:]
        yield binascii.unhexlify(digits[:whole])
        if stop >= 0:
            break
    if held:
        yield binascii.unhexlify(held + b"0")


def _run_length(pieces: Iterable[bytes]) -> Iterator[bytes]:
    held = b""
    for piece in pieces:
        data, at, out = held + piece, 0, bytearray()
        while at < len(data):
            length = data[at]
            if length == 128:
                yield bytes(out)
                return
            if length < 128:
                if at + length + 2 > len(data):
                    break
                out += data[at + 1:at + length + 2]
                at += length + 2
            else:
                if at + 2 > len(data):
                    break
                out += data[at + 1:at + 2] * (257 - length)
                at += 2
            if len(out) >= 1 << 20:
                yield bytes(out)
                out.clear()
        held = data[at:]
        yield bytes(out)


def _streams(data) -> Iterator[int]:
    """Where each stream's data begins: after a `stream` keyword and its end of line (found by
    bytes.find, ~50x a regular expression's speed on a file of pictures), not `endstream`."""
    at = data.find(b"stream")
    while at >= 0:
        after = at + 6
        if data[after:after + 2] == b"\r\n":
            after += 2
        elif data[after:after + 1] == b"\n":
            after += 1
        else:
            after = -1
        if after > 0 and data[max(0, at - 3):at] != b"end":
            yield after
        at = data.find(b"stream", at + 6)
