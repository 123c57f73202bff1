"""Apple iWork documents saved since 2013: Pages (.pages, a `docx`), Keynote (.key, `slides`) and
Numbers (.numbers, a `sheet`). Their words are read, not their layout.

Such a file is a zip (the bundle a Mac shows as one file; its parts may sit in an inner
Index.zip, under a top folder) whose Index/*.iwa parts are streams of protobuf objects, each part
cut into Snappy-compressed chunks (a 4-byte header each, no checksum). Each object is led by an
ArchiveInfo naming its id and its message's type. Text lives in TSWP.StorageArchive objects
(types 2001 and 2005): field 3 holds a flow's whole text (a Pages body, a header, a text box, a
slide's title or body, speaker notes, a rich table cell), field 1 its kind. Plain table cells
are the strings of TST.TableDataList objects (6005, 6201) of the string kind, each once. Sources:
obriensp/iWorkFileFormat and the protobuf definitions keynote-parser and numbers-parser read by.

- Pages: the body, then its text boxes, table cells, headers and footers, footnotes, and notes,
  a section each; the title is the body's first line when it is short.
- Keynote: a section per slide (its number the page), in the order of the show's slide tree
  (Document -> show -> slide tree -> slide nodes -> slides), each slide's text from the part it
  is stored in, speaker notes after it; master slides are not read (their text is the
  template's "Double-tap to edit"). Table cells follow as a section of their own.
- Numbers: the sheets' and tables' names, then the cells' words; cells of numbers, dates and
  formulas are not read (they sit in tiles of packed cell records).

A password-protected document (its parts encrypted: an .iwph part) and one from iWork '09 (XML,
not protobuf) are one line each; so is a .key file that is no package at all (a key or a
certificate, which scent leaves alone). A part that does not decode costs only itself."""
from __future__ import annotations

import io
import os
import posixpath
import re
import zipfile
import zlib
from collections.abc import Iterator

from scent.errors import ExtractError
from scent.units import Extracted, Section
from . import package
from .base import SECTION_SEPARATOR, Limits, joined, named, unreadable

KINDS = {".pages": "docx", ".key": "slides", ".numbers": "sheet"}
EXTENSIONS = tuple(KINDS)
_WHAT = {".pages": "Pages document", ".key": "Keynote presentation", ".numbers": "Numbers spreadsheet"}

_STORAGE = frozenset({2001, 2005})  # TSWP.StorageArchive
_DATA_LIST = frozenset({6005, 6201})  # TST.TableDataList
_STRINGS = 1  # TableDataList.listType of plain cell text
_TABLE_MODEL = 6001  # TST.TableModelArchive: table_name = 8
_SHEET = 2  # TN.SheetArchive (Numbers): name = 1
_SLIDE_NODE, _SLIDES = 4, frozenset({5, 6})  # KN.SlideNodeArchive, KN.SlideArchive
BODY, HEADER, FOOTNOTE, TEXTBOX, NOTE, CELL, UNCLASSIFIED, CONTENTS = range(8)  # StorageArchive.kind
# What each kind of flow is called as a Pages section (a table of contents repeats the headings).
_PAGES_PARTS = (((BODY,), ""), ((TEXTBOX, UNCLASSIFIED), "text boxes"), ((CELL,), "tables"),
                ((HEADER,), "headers and footers"), ((FOOTNOTE,), "footnotes"), ((NOTE,), "notes"))
# Parts without words of the document: styles, themes, masters and templates (placeholder text).
_PASSED = re.compile(r"(DocumentStylesheet|ThemeStylesheet|MasterSlide|TemplateSlide|AnnotationAuthorStorage|"
                     r"CalculationEngine|ViewState|Metadata|DocumentMetadata)\b")
# Control characters iWork puts in a flow's text: object anchors (U+FFFC), section, page and
# column breaks, line and paragraph separators.
_BREAKS = re.compile("[\x00-\x08\x0b-\x1f\u2028\u2029]")
MAX_STRINGS = 100_000  # table cells' words read from one document
# What reading a damaged part can raise: zipfile's errors (a bad CRC, an encrypted member, a method
# it does not read: RuntimeError, NotImplementedError), a broken deflate stream, and this reader's
# own ValueError for a stream that does not parse.
_DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError, ValueError)


class _Object:
    __slots__ = ("type", "payload", "part")

    def __init__(self, type_: int, payload: bytes, part: str):
        self.type, self.payload, self.part = type_, payload, part


def extract(path: str, limits: Limits) -> Extracted:
    ext = os.path.splitext(path)[1].lower()
    what = _WHAT[ext]
    if os.path.isdir(path):  # saved as a package folder: its Index parts, zipped in memory
        source = _zipped(path, limits, what)
    elif not package.starts_with(path, package.ZIP_MAGIC):
        if ext == ".key":
            raise ExtractError(path, "scent does not index .key files other than Keynote presentations (this one is "
                                     "no package: a key or a certificate?); add it to .scentignore to stop seeing this")
        raise unreadable(path, what, "not a zip package")
    else:
        package.check(path, limits, what)
        source = path
    meta: dict = {}
    try:
        with zipfile.ZipFile(source) as z:
            objects = _read(z, path, what, limits, meta)
    except (*_DAMAGED, KeyError) as e:
        raise unreadable(path, what, named(e)) from None
    if not objects:
        raise unreadable(path, what, "no part of it could be read")
    title = os.path.basename(path)
    if ext == ".key":
        return Extracted(kind="slides", sections=_slides(objects), title=title, meta=meta)
    storages = _storages(objects.values())
    cells = _cell_words(objects.values())
    if ext == ".pages":
        flows = {name: [text for kind, text in storages if kind in kinds] for kinds, name in _PAGES_PARTS}
        flows["tables"].append(cells)
        parts = [(name, "\n".join(filter(None, texts))) for name, texts in flows.items()]
        first = next(iter(parts[0][1].splitlines()), "")
        return Extracted(kind="docx", sections=joined(parts, "docx"), title=first if len(first) <= 100 else title,
                         meta=meta)
    names = [_string(o.payload, 1) for o in objects.values() if o.type == _SHEET]
    names += [_string(o.payload, 8) for o in objects.values() if o.type == _TABLE_MODEL]
    parts = [("sheets and tables", "\n".join(filter(None, names))), ("", cells),
             ("text boxes", "\n".join(text for kind, text in storages if kind != CELL))]
    return Extracted(kind="sheet", sections=joined(parts, "sheet"), title=title, meta=meta)


def _zipped(path: str, limits: Limits, what: str) -> io.BytesIO:
    """A package folder's Index parts (Index/*.iwa, or Index.zip) as a zip in memory, the form the
    rest of this reader reads; its pictures (Data/) are left out. Refused past the room a zipped
    document may inflate to (package.check's)."""
    room = 4 * limits.max_text_bytes
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        for top, _, files in sorted(os.walk(path)):
            for name in sorted(files):
                inner = os.path.join(top, name)
                rel = os.path.relpath(inner, path).replace(os.sep, "/")
                if (rel == "Index.zip" or rel.startswith("Index/")) and not os.path.islink(inner):
                    if out.tell() + os.path.getsize(inner) > room:
                        raise unreadable(path, what, f"its parts come to over {room // 2**20} MB", maybe="",
                                         fix="raise max_file_mb or add it to .scentignore")
                    z.write(inner, rel)
    out.seek(0)
    return out


def _read(z: zipfile.ZipFile, path: str, what: str, limits: Limits, meta: dict) -> dict[int, _Object]:
    """The document's objects by id, from its Index parts (Index.zip's, when it has one)."""
    names = z.namelist()
    if any(n.endswith(".iwph") for n in names):
        raise ExtractError(path, f"password-protected (encrypted) {what}; export it without a password, "
                                 "or add it to .scentignore")
    top = _top(names)
    inner = next((n for n in names if n == top + "Index.zip"), None)
    if inner is not None:
        z = zipfile.ZipFile(io.BytesIO(z.read(inner)))
        names, top = z.namelist(), _top(z.namelist())
    parts = sorted((n for n in names if n.startswith(top + "Index/") and n.endswith(".iwa")), key=_natural)
    if not parts:
        if any(posixpath.basename(n) in ("index.xml.gz", "index.apxl.gz", "index.xml") for n in names):
            raise ExtractError(path, f"scent does not index iWork '09 documents (this {what} is one); open it in a "
                                     "current version and save it, or add it to .scentignore")
        raise unreadable(path, what, "it holds no Index parts")
    budget = package.TEXT_LIMIT_MULTIPLE * limits.max_text_bytes
    objects: dict[int, _Object] = {}
    for name in parts:
        part = name[len(top) + len("Index/"):-len(".iwa")]
        if _PASSED.match(part):
            continue
        try:
            if z.getinfo(name).file_size > budget:
                raise ValueError("it is over the max_file_mb limit")
            stream = _unframed(z.read(name), budget)
            budget -= len(stream)
            for ident, type_, payload in _archives(stream):
                objects[ident] = _Object(type_, payload, part)
        except _DAMAGED as e:
            meta.setdefault("left_out", []).append(f"its part {part} was not read ({e}); the rest of it is indexed")
    return objects


def _top(names: list[str]) -> str:
    """The folder the Index parts sit under ("Trip.pages/" when a bundle was zipped), or ""."""
    for name in names:
        for mark in ("Index/", "Index.zip"):
            at = name.find(mark)
            if at >= 0 and (at == 0 or name[at - 1] == "/") and name[:at].count("/") <= 1:
                return name[:at]
    return ""


def _natural(name: str) -> list:
    """Slide-2 before Slide-10."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def _unframed(data: bytes, budget: int) -> bytes:
    """An .iwa part's protobuf stream: its Snappy chunks inflated and joined. ValueError for a
    part compressed otherwise (LZFSE, in documents edited together) or inflating past `budget`."""
    import cramjam

    out, at = [], 0
    while at < len(data):
        if data[at] != 0 or at + 4 > len(data):
            raise ValueError("not Snappy-compressed" if at == 0 else f"a damaged chunk at byte {at}")
        size = int.from_bytes(data[at + 1:at + 4], "little")
        chunk = data[at + 4:at + 4 + size]
        at += 4 + size
        inflated, _ = _varint(chunk, 0)  # a raw Snappy block starts with its inflated length
        budget -= inflated
        if budget < 0:
            raise ValueError("it inflates past the max_file_mb limit")
        try:
            out.append(bytes(cramjam.snappy.decompress_raw(chunk)))
        except cramjam.DecompressionError as e:
            raise ValueError(f"a chunk does not inflate: {e}") from None
    return b"".join(out)


def _archives(stream: bytes) -> Iterator[tuple[int, int, bytes]]:
    """(object id, message type, payload) of each object in a part's stream."""
    at = 0
    while at < len(stream):
        size, at = _varint(stream, at)
        info, at = stream[at:at + size], at + size
        ident = 0
        for number, value in _fields(info):
            if number == 1 and isinstance(value, int):
                ident = value
            elif number == 2 and isinstance(value, bytes):  # a MessageInfo: its payload follows
                fields = dict(_fields(value))
                length = fields.get(3, 0)
                if not isinstance(length, int) or at + length > len(stream):
                    raise ValueError("an object is cut short")
                type_ = fields.get(1, 0)
                yield ident, type_ if isinstance(type_, int) else 0, stream[at:at + length]
                at += length


def _varint(buf: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(buf) or shift > 63:
            raise ValueError("a number is cut short")
        byte = buf[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def _fields(buf: bytes) -> Iterator[tuple[int, int | bytes]]:
    """(field number, value) of a protobuf message: a varint's number, else the bytes."""
    at = 0
    while at < len(buf):
        key, at = _varint(buf, at)
        wire = key & 7
        if wire == 0:
            value, at = _varint(buf, at)
        elif wire == 2:
            size, at = _varint(buf, at)
            value, at = buf[at:at + size], at + size
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            value, at = buf[at:at + size], at + size
        else:
            raise ValueError(f"a field of wire type {wire}")
        if at > len(buf):
            raise ValueError("a field is cut short")
        yield key >> 3, value


def _string(payload: bytes, number: int) -> str:
    """Field `number` of a message, as text ("" when absent)."""
    try:
        return next((_text(v) for n, v in _fields(payload) if n == number and isinstance(v, bytes)), "")
    except ValueError:
        return ""


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace").replace("\ufffc", " ")


def _flow(payload: bytes) -> tuple[int, str]:
    """A StorageArchive's (kind, text), its lines stripped and blank ones dropped."""
    kind, texts = TEXTBOX, []
    try:
        for number, value in _fields(payload):
            if number == 1 and isinstance(value, int):
                kind = value
            elif number == 3 and isinstance(value, bytes):
                texts.append(_text(value))
    except ValueError:
        pass
    lines = (" ".join(line.split()) for line in _BREAKS.sub("\n", "\n".join(texts)).splitlines())
    return kind, "\n".join(line for line in lines if line)


def _storages(objects) -> list[tuple[int, str]]:
    return [flow for o in objects if o.type in _STORAGE and (flow := _flow(o.payload))[1]]


def _cell_words(objects) -> str:
    """The words of the tables' plain text cells, each string once, a line each."""
    seen: dict[str, None] = {}
    for o in objects:
        if o.type not in _DATA_LIST:
            continue
        try:
            fields = list(_fields(o.payload))
            if dict(fields).get(1) != _STRINGS:
                continue
            for number, entry in fields:
                if number == 3 and isinstance(entry, bytes) and len(seen) < MAX_STRINGS:
                    said = " ".join(_string(entry, 3).split())
                    if said:
                        seen.setdefault(said)
        except ValueError:
            continue
    return "\n".join(seen)


def _slides(objects: dict[int, _Object]) -> list[Section]:
    """A Keynote show's slides in order, each a section (see the module's docstring)."""
    order = _slide_order(objects)
    parts = list(dict.fromkeys(objects[i].part for i in order if i in objects))
    if not parts:  # no slide tree read: the slides' parts in their names' order
        parts = list(dict.fromkeys(o.part for o in objects.values() if o.type in _SLIDES))
    sections: list[Section] = []
    offset = 0

    def add(text: str, number: int | None, title: str) -> None:
        nonlocal offset
        sections.append(Section(text=text, kind="slide", page=number, title=title, start=offset))
        offset += len(text) + len(SECTION_SEPARATOR)

    by_part: dict[str, list[_Object]] = {}
    for o in objects.values():
        by_part.setdefault(o.part, []).append(o)
    for number, part in enumerate(parts, 1):
        flows = _storages(by_part[part])
        lines = [text for kind, text in flows if kind != NOTE]
        notes = [text for kind, text in flows if kind == NOTE]
        text = "\n\n".join(filter(None, ("\n".join(lines), "\n".join(notes))))
        if text:
            add(text, number, lines[0].splitlines()[0] if lines else f"slide {number}")
    cells = _cell_words(objects.values())
    if cells:
        add(cells, None, "tables")
    return sections


def _slide_order(objects: dict[int, _Object]) -> list[int]:
    """The ids of the show's slides in order: KN.DocumentArchive (id 1) -> show (2) ->
    ShowArchive.slideTree (3, inline) -> slides (2) or the old rootSlideNode (1) -> each
    SlideNodeArchive's slide (2), then its children (1), depth first."""
    def refs(payload: bytes, number: int) -> list[int]:
        out = []
        for n, value in _fields(payload):
            if n == number and isinstance(value, bytes):
                ident = dict(_fields(value)).get(1)
                if isinstance(ident, int):
                    out.append(ident)
        return out

    try:
        document = objects.get(1)
        show = objects.get(next(iter(refs(document.payload, 2)), -1)) if document else None
        tree = next((v for n, v in _fields(show.payload) if n == 3 and isinstance(v, bytes)), b"") if show else b""
        nodes = refs(tree, 2) or [child for root in refs(tree, 1) if root in objects
                                  for child in refs(objects[root].payload, 1)]
        order: list[int] = []
        seen: set[int] = set()

        def walk(node: int) -> None:
            if node in seen or node not in objects or objects[node].type != _SLIDE_NODE:
                return
            seen.add(node)
            order.extend(i for i in refs(objects[node].payload, 2) if i in objects and objects[i].type in _SLIDES)
            for child in refs(objects[node].payload, 1):
                walk(child)

        for node in nodes:
            walk(node)
        return order
    except ValueError:
        return []
