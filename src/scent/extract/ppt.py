"""PowerPoint 97-2003 .ppt files: each slide's text and speaker notes, in the order the slides are
shown, read from the file's records ([MS-PPT]) inside its OLE container (olefile).

Why the records are followed, not scanned: PowerPoint saved "fast" by appending the slides it
changed, so a file holds old versions of its slides beside the new ones. The newest edit (the
Current User stream points at it) names, through the persist directories of every edit, where
each slide's current version is; the slide list gives their order. Text sits in two places: in
the slide list itself after each slide's SlidePersistAtom (PowerPoint's title and body
placeholders) and in the slide's drawing (text boxes, tables, and every text of some writers).
"""
from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass, field

STREAM = "PowerPoint Document"
_DOCUMENT, _SLIDE, _SLIDE_ATOM, _NOTES = 0x03E8, 0x03EE, 0x03EF, 0x03F0
_SLIDE_PERSIST, _SLIDE_LIST = 0x03F3, 0x0FF0
_TEXT_HEADER, _TEXT_CHARS, _TEXT_BYTES = 0x0F9F, 0x0FA0, 0x0FA8
_USER_EDIT, _PERSIST_DIRECTORY = 0x0FF5, 0x1772
_BLIP_STORE, _BLIP_ENTRY, _SHAPE_OPTIONS = 0xF001, 0xF007, 0xF00B  # OfficeArt ([MS-ODRAW])
_PICTURE_ID = 0x0104  # the shape option "pib": which blip store entry (from 1) the shape shows
_TITLE_TYPES = (0, 6)  # TextHeaderAtom: title, centred title
_ENCRYPTED_TOKEN = 0xF3D1C4DF  # CurrentUserAtom.headerToken of an encrypted file
MAX_DEPTH = 64  # containers nest a dozen deep in real files


class PptError(ValueError):
    """The records do not add up: a damaged, cut short or foreign file."""


class PptEncrypted(PptError):
    pass


@dataclass
class PptSlide:
    title: str = ""
    lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    pictures: list[int] = field(default_factory=list)  # where each picture's blip starts in the Pictures stream


def slides(current_user: bytes, document: bytes) -> list[PptSlide]:
    """The slides of a presentation, in order, from its two streams ("Current User" and
    "PowerPoint Document")."""
    if len(current_user) < 20:
        raise PptError("no Current User record")
    token, edit = struct.unpack_from("<II", current_user, 12)
    if token == _ENCRYPTED_TOKEN:
        raise PptEncrypted("encrypted")
    where, document_ref = _persist_directory(document, edit)
    doc = _container(document, where, document_ref, _DOCUMENT)
    notes_at = {notes_id: ref for ref, notes_id in _notes_list(document, doc)}
    blips = _blip_offsets(document, doc)
    out = []
    for ref, outline in _slide_list(document, doc):
        slide = PptSlide()
        at = where.get(ref)
        texts = list(outline)
        notes_ref = None
        if at is not None and _header(document, at)[1] == _SLIDE:
            start, end = _body(document, at)
            texts += [t for t in _texts(document, start, end) if t not in outline]
            notes_ref = _notes_ref(document, start, end)
            shown = [blips[pib - 1] for pib in _picture_ids(document, start, end) if 0 < pib <= len(blips)]
            slide.pictures = list(dict.fromkeys(offset for offset in shown if offset >= 0))
        slide.title = next((text for kind, text in texts if kind in _TITLE_TYPES), "")
        slide.lines = [line for _, text in texts for line in _lines(text)]
        notes = where.get(notes_at.get(notes_ref))
        if notes is not None and _header(document, notes)[1] == _NOTES:
            start, end = _body(document, notes)
            slide.notes = [line for _, text in _texts(document, start, end) for line in _lines(text)]
        out.append(slide)
    return out


def _header(buf: bytes, at: int) -> tuple[int, int, int]:
    """(instance, type, length) of the record at `at`."""
    if at < 0 or at + 8 > len(buf):
        raise PptError(f"a record at byte {at} lies outside the stream")
    ver_instance, kind, length = struct.unpack_from("<HHI", buf, at)
    return ver_instance >> 4, kind, length


def _body(buf: bytes, at: int) -> tuple[int, int]:
    _, _, length = _header(buf, at)
    return at + 8, min(at + 8 + length, len(buf))


def _records(buf: bytes, start: int, end: int, depth: int = 0) -> Iterator[tuple[int, int, int, int]]:
    """(instance, type, body start, body end) of every record from start to end, containers'
    children after their container, depth first (as they are stored)."""
    if depth > MAX_DEPTH:
        raise PptError("records nested too deeply")
    at = start
    while at + 8 <= end:
        ver_instance, kind, length = struct.unpack_from("<HHI", buf, at)
        body, stop = at + 8, min(at + 8 + length, end)
        yield ver_instance >> 4, kind, body, stop
        if ver_instance & 0xF == 0xF:  # a container: its children are records too
            yield from _records(buf, body, stop, depth + 1)
        at = stop


def _persist_directory(buf: bytes, edit: int) -> tuple[dict[int, int], int]:
    """Where each persist object's newest version starts, from the newest edit back to the
    first; and the document container's persist id."""
    where: dict[int, int] = {}
    document_ref = None
    seen: set[int] = set()
    while edit and edit not in seen:
        seen.add(edit)
        if _header(buf, edit)[1] != _USER_EDIT:
            raise PptError("the Current User record does not point at an edit")
        start, end = _body(buf, edit)
        if end - start < 20:
            raise PptError("an edit record is cut short")
        last_edit, directory, ref = struct.unpack_from("<III", buf, start + 8)
        document_ref = ref if document_ref is None else document_ref
        if _header(buf, directory)[1] != _PERSIST_DIRECTORY:
            raise PptError("an edit's persist directory is missing")
        at, stop = _body(buf, directory)
        while at + 4 <= stop:
            word = struct.unpack_from("<I", buf, at)[0]
            first, count = word & 0xFFFFF, word >> 20
            at += 4
            for k in range(min(count, (stop - at) // 4)):
                where.setdefault(first + k, struct.unpack_from("<I", buf, at + 4 * k)[0])
            at += 4 * count
        edit = last_edit
    if document_ref is None:
        raise PptError("no edit record")
    return where, document_ref


def _container(buf: bytes, where: dict[int, int], ref: int, kind: int) -> tuple[int, int]:
    at = where.get(ref)
    if at is None or _header(buf, at)[1] != kind:
        raise PptError("the document record is missing")
    return _body(buf, at)


def _slide_list(buf: bytes, doc: tuple[int, int]) -> list[tuple[int, list[tuple[int, str]]]]:
    """The slides in their order: (persist id, the texts the slide list holds for it)."""
    out: list[tuple[int, list[tuple[int, str]]]] = []
    for instance, kind, start, end in _records(buf, *doc):
        if kind == _SLIDE_LIST and instance == 0:
            for _, child, body, stop in _records(buf, start, end):
                if child == _SLIDE_PERSIST and stop - body >= 4:
                    out.append((struct.unpack_from("<I", buf, body)[0], []))
                elif out and child in (_TEXT_CHARS, _TEXT_BYTES, _TEXT_HEADER):
                    out[-1][1].append((child, _decode(buf, child, body, stop)))
            for _, texts in out:
                texts[:] = _typed(texts)
            break
    return out


def _notes_list(buf: bytes, doc: tuple[int, int]) -> list[tuple[int, int]]:
    """(persist id, notes id) of each notes page: a slide names its notes by the notes id."""
    for instance, kind, start, end in _records(buf, *doc):
        if kind == _SLIDE_LIST and instance == 2:
            return [struct.unpack_from("<I", buf, body)[0:1] + struct.unpack_from("<I", buf, body + 12)
                    for _, child, body, stop in _records(buf, start, end)
                    if child == _SLIDE_PERSIST and stop - body >= 16]
    return []


def _texts(buf: bytes, start: int, end: int) -> list[tuple[int, str]]:
    """(text type, text) of every text atom in start..end, in order."""
    found = [(kind, _decode(buf, kind, body, stop)) for _, kind, body, stop in _records(buf, start, end)
             if kind in (_TEXT_HEADER, _TEXT_CHARS, _TEXT_BYTES)]
    return _typed(found)


def _typed(atoms: list[tuple[int, object]]) -> list[tuple[int, str]]:
    """Text atoms paired with the type their TextHeaderAtom gave (-1: none); field placeholders
    ("*": the slide number) and blank texts left out."""
    out, kind = [], -1
    for record, value in atoms:
        if record == _TEXT_HEADER:
            kind = value
        elif value.strip() and value.strip() != "*":
            out.append((kind, value))
    return out


def _decode(buf: bytes, kind: int, start: int, end: int):
    if kind == _TEXT_HEADER:
        return struct.unpack_from("<I", buf, start)[0] if end - start >= 4 else -1
    raw = buf[start:end]
    return raw.decode("utf-16-le", "replace") if kind == _TEXT_CHARS else raw.decode("cp1252", "replace")


def _notes_ref(buf: bytes, start: int, end: int) -> int | None:
    for _, kind, body, stop in _records(buf, start, end):
        if kind == _SLIDE_ATOM and stop - body >= 20:
            return struct.unpack_from("<I", buf, body + 16)[0] or None
    return None


def _lines(text: str) -> list[str]:
    # \r ends a paragraph, \x0b is a line break inside one.
    return [" ".join(line.split()) for line in text.replace("\x0b", "\r").split("\r") if line.strip()]


def _blip_offsets(buf: bytes, doc: tuple[int, int]) -> list[int]:
    """For each blip store entry (pib 1, 2 ...), where its blip starts in the Pictures stream (-1
    when the entry is cut short)."""
    for _, kind, start, end in _records(buf, *doc):
        if kind == _BLIP_STORE:
            return [struct.unpack_from("<I", buf, body + 28)[0] if stop - body >= 32 else -1
                    for _, entry, body, stop in _records(buf, start, end) if entry == _BLIP_ENTRY]
    return []


def _picture_ids(buf: bytes, start: int, end: int) -> list[int]:
    """The pib of every shape in start..end that shows a picture, in drawing order."""
    out = []
    for count, kind, body, stop in _records(buf, start, end):
        if kind == _SHAPE_OPTIONS:
            for at in range(body, min(body + 6 * count, stop - 5), 6):
                option, value = struct.unpack_from("<HI", buf, at)
                if option & 0x3FFF == _PICTURE_ID:
                    out.append(value)
    return out
