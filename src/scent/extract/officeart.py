"""OfficeArt pictures ([MS-ODRAW]): the blip records in which Word 97-2003 and PowerPoint 97-2003
keep the picture files they show. Bitmaps only (JPEG, PNG, TIFF): a metafile (WMF, EMF, PICT) is
drawing commands, which nothing here turns into pixels."""
from __future__ import annotations

import struct

BITMAPS = (0xF01D, 0xF01E, 0xF029, 0xF02A)  # JPEG, PNG, TIFF, CMYK JPEG blips
# The first bytes of the pictures those blips hold.
_STARTS = (b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"II*\x00", b"MM\x00*")


def blip(buf: bytes, at: int) -> bytes | None:
    """The picture file held by the blip record at `at` of `buf` (a JPEG, PNG or TIFF), or None
    for a metafile or a record that is not a blip."""
    if at < 0 or at + 8 > len(buf):
        return None
    ver_instance, kind, length = struct.unpack_from("<HHI", buf, at)
    if kind not in BITMAPS:
        return None
    return buf[at + 8 + _ids(ver_instance):at + 8 + length] or None


def _ids(ver_instance: int) -> int:
    """Bytes before a blip's picture: one or two 16-byte ids (the instance's low bit), then a tag byte."""
    return 16 * (2 if (ver_instance >> 4) & 1 else 1) + 1


def load_picture(path: str, name: str, side: int):
    """The picture `name` ("STREAM@OFFSET": the blip at that offset of that stream) of the Office
    97-2003 file at `path`, as pixels for an image-text model."""
    import olefile

    from .pictures import decoded

    stream, _, at = name.rpartition("@")
    with olefile.OleFileIO(path) as ole:
        data = blip(ole.openstream(stream).read(), int(at))
    if data is None:
        raise ValueError(f"{name} is not a picture")
    return decoded(data, side)


def blips(buf: bytes) -> list[int]:
    """Where each bitmap blip record of `buf` starts, in order, for a stream whose drawing records
    are not read (a .doc's Data stream holds a picture's blip after its own headers). Each is found
    by its picture's first bytes and checked against the record header before them: a bitmap's
    type, as many ids as its instance says, a length within `buf` that holds the picture. So the
    bytes of text, or a thumbnail inside another picture, that look like a picture's start are
    passed over."""
    found = []
    for start in _STARTS:
        i = buf.find(start)
        while i >= 0:
            for ids in (17, 33):
                at = i - ids - 8
                if at < 0:
                    continue
                ver_instance, kind, length = struct.unpack_from("<HHI", buf, at)
                if kind in BITMAPS and _ids(ver_instance) == ids and ids < length and at + 8 + length <= len(buf):
                    found.append((at, at + 8 + length))
            i = buf.find(start, i + 1)
    out, end = [], 0
    for at, stop in sorted(found):
        if at >= end:  # not inside the picture before it
            out.append(at)
            end = stop
    return out
