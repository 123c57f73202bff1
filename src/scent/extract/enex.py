"""Evernote exports (.enex): the notes a person kept in Evernote, as its Export writes them (one
note, or a whole notebook in one XML file). Each note is a file of its own inside the export
(scent.extract.members), `Notebook.enex#3.md` for note 3, so that each is a result of its own, dated
by when it was made (a date filter finds the note, not the day of the export), shown and filtered
as a file is; the export itself is a line naming how many notes it holds and when they were made.
A note's text: its title, its body (ENML, read as a page is: lists, tables, a checkbox as [x] or
[ ]), its tasks, its tags, who wrote it, where it was written (GPS, in words: scent.places) and the
page it was clipped from.

A note's attachments (a scanned receipt, a PDF, a photo of a whiteboard) are files inside the
export too, each indexed as a file of its own: `Notebook.enex#3/receipt.png` for note 3's, named by
their file name (else `attachment-N` and their type's extension), dated by their note; where the
body shows one, its name stands there in brackets.

An export inside another file (a zip) is one file whose sections are its notes, each dated, its
attachments unread: files inside files are read one level deep.

Read in one pass by lxml's iterparse, without entities, DTDs or the network, one note held at a
time (an export of 10,000 notes with their attachments runs to gigabytes), and handed to the
indexer one note at a time (members.Spool), all of them. A note past max_file_mb of text keeps its
first max_file_mb. Encrypted text (en-crypt) is said to be there, not read.
"""
from __future__ import annotations

import binascii
import hashlib
import io
import os
import re
from collections.abc import Iterator
from datetime import datetime, timezone

from lxml import etree

from scent.errors import ExtractError
from scent.places import place_words
from scent.units import Extracted, Member, Section
from .base import Limits, laid_out, one_line, unreadable
from .html import _BREAK, _CUT, _normalise, _parse, _visible_pieces
from .members import Dates, Entry, MemberReader, Spool, attach, attachment_name, bounded

EXTENSIONS = (".enex",)
KIND = "text"

_MEDIA = re.compile(r"<en-media\b[^>]*?\bhash\s*=\s*[\"']([0-9a-fA-F]+)[\"'][^>]*?(?:/>|>\s*</en-media>)", re.I)
_TODO = re.compile(r"<en-todo\b([^>]*?)(?:/>|>\s*</en-todo>)", re.I)
_CHECKED = re.compile(r"\bchecked\s*=\s*[\"']true[\"']", re.I)
_CRYPT = re.compile(r"<en-crypt\b.*?</en-crypt>", re.I | re.S)


VERSION = 2  # 2: an export's notes are files of their own (Notebook.enex#3.md), not its pages


def extract(path: str, limits: Limits) -> Extracted:
    """The export: a line naming its notes, which are its members `N.md` (with their attachments
    `N/NAME`), handed over in a spool (members.Spool) as they are read. A note the index holds as
    it is, none of whose attachments it has, is named and not read again (`limits.indexed`)."""
    if limits.member_depth <= 0:  # inside another file (a zip): files inside files are one level deep
        return _sectioned(path)
    meta, more = {}, True
    indexed = dict(limits.indexed)
    with_parts = {name.partition("/")[0] for name in indexed if "/" in name}
    dates = Dates()
    with MemberReader(path, limits, "export", Spool(limits.spool)) as reader:
        spool = reader.members
        spool.expect(_note_tags(path))
        for number, note in _notes(path, meta):
            raw = etree.tostring(note)
            digest = hashlib.sha1(raw).hexdigest()
            date = _made(note)
            dates.add(date)
            name = f"{number}.md"
            if digest == indexed.get(name) and str(number) not in with_parts:
                spool.append(Member(name, date=date, size=len(raw), hash=digest, unchanged=True))
                continue
            names = _attachments(note)
            title = one_line(note.findtext("title"))
            text = _note_text(note, names)[:limits.max_text_bytes] or title
            if text:  # a note of a title alone is its title
                got = Extracted(kind=KIND, sections=[Section(text=text, kind=KIND, title=title)],
                                title=title or f"note {number}", date=date)
                spool.append(Member(name, got, date=date, size=len(raw), hash=digest))
            for attached, data, _ in names if more else ():
                if not reader.add(Entry(f"{number}/{attached}", len(data), lambda data=data: data, date=date)):
                    more = False
                    break
        line = dates.line(os.path.basename(path), "Evernote export", "note", "written")
        got = Extracted(kind=KIND, sections=[Section(text=line, kind=KIND, title=os.path.basename(path))],
                        title=os.path.basename(path), meta=meta)
        return attach(got, reader)


def _sectioned(path: str) -> Extracted:
    """The export as one file whose sections are its notes, each dated when it was made; its
    attachments are not read (said, as another container's files inside a container are)."""
    meta: dict = {}
    sections, attached = [], 0
    for number, note in _notes(path, meta):
        names = _attachments(note)
        attached += len(names)
        title = one_line(note.findtext("title"))
        text = _note_text(note, names) or title
        if text:
            sections.append(Section(text=text, kind=KIND, title=title or f"note {number}", date=_made(note)))
    if attached:
        meta["unopened"] = attached  # the container this one is inside says so
    return Extracted(kind=KIND, sections=laid_out(sections), title=os.path.basename(path), meta=meta)


def _note_tags(path: str) -> int:
    """How many <note> tags the export holds: its notes, before they are read, for the run's
    progress (a note whose text spells one out counts too, until the notes given are counted)."""
    count, tail = 0, b""
    with open(path, "rb") as f:
        while chunk := f.read(1 << 24):
            chunk = tail + chunk
            count += chunk.count(b"<note>")
            tail = chunk[-5:]
    return count


def read_member(path: str, name: str, max_bytes: int) -> bytes:
    """The bytes of member `name`: note N's text as Markdown (`N.md`: its title, then what the index
    read of it), or an attachment (`N/file`); ExtractError when it is not there."""
    number, slash, wanted = name.partition("/")
    if not slash:
        number = number.removesuffix(".md")
    if number.isdigit():
        for n, note in _notes(path):
            if n == int(number):
                names = _attachments(note)
                if not slash:
                    title = one_line(note.findtext("title"))
                    data = f"# {title}\n\n{_note_text(note, names)}\n".encode()
                    return bounded(io.BytesIO(data), path, name, len(data), max_bytes)
                for found, data, _ in names:
                    if found == wanted:
                        return bounded(io.BytesIO(data), path, name, len(data), max_bytes)
                break
    raise ExtractError(path, f"the export holds no note or attachment {name} (any more); re-index the folder")


def _notes(path: str, meta: dict | None = None) -> Iterator[tuple[int, etree._Element]]:
    """Each <note> of the export, numbered from 1, whole; dropped from memory once the next is read.
    An export cut short gives the notes before the break, and says so in `meta`."""
    events = etree.iterparse(path, events=("start", "end"), resolve_entities=False, no_network=True,
                             load_dtd=False, huge_tree=True, remove_comments=True, remove_pis=True)
    number, depth = 0, 0
    try:
        for event, element in events:
            if event == "start":
                if depth == 0 and element.tag != "en-export":
                    raise unreadable(path, "Evernote export", f"its XML is a <{element.tag}>, not an <en-export>")
                depth += 1
                continue
            depth -= 1
            if element.tag == "note" and depth == 1:
                number += 1
                yield number, element
                element.clear()
                parent = element.getparent()
                while parent is not None and element.getprevious() is not None:
                    del parent[0]
    except etree.XMLSyntaxError as e:
        if number == 0:
            raise unreadable(path, "Evernote export", f"its XML does not parse: {e}") from None
        if meta is not None:
            meta.setdefault("left_out", []).append(f"its XML breaks off after note {number} ({e}): the notes "
                                                   "before are indexed")


def _attachments(note) -> list[tuple[str, bytes, str]]:
    """(name, bytes, MD5) of each of the note's resources, named as the index shows them."""
    out, seen = [], set()
    for n, resource in enumerate(note.iterfind("resource"), 1):
        try:
            data = binascii.a2b_base64(resource.findtext("data") or "")
        except (binascii.Error, ValueError):
            data = b""  # read as empty, so its reader says what it is
        name = attachment_name(resource.findtext("resource-attributes/file-name") or "", n,
                               one_line(resource.findtext("mime")), seen)
        out.append((name, data, hashlib.md5(data).hexdigest()))
    return out


def _note_text(note, attached: list[tuple[str, bytes, str]]) -> str:
    """The note's body (each attachment it shows named in brackets: `attached` is _attachments'), then
    its tasks, tags, author, place and source, a line each."""
    named = {digest: name for name, _, digest in attached}
    content = note.findtext("content") or ""
    content = _MEDIA.sub(lambda m: f" [{named.get(m.group(1).lower(), 'attachment')}] ", content)
    content = _TODO.sub(lambda m: "[x] " if _CHECKED.search(m.group(1)) else "[ ] ", content)
    content = _CRYPT.sub(" (encrypted text) ", content)
    soup = _parse("note", content.replace(_CUT, "").replace(_BREAK, ""))
    lines = [_normalise(" ".join("".join(_visible_pieces(soup)[0]).split(_CUT)))]
    lines += [f"Task: {title}" for task in note.iterfind("task") if (title := one_line(task.findtext("title")))]
    tags = [t for tag in note.iterfind("tag") if (t := one_line(tag.text))]
    if tags:
        lines.append("Tags: " + ", ".join(tags))
    attributes = note.find("note-attributes")
    if attributes is not None:
        if author := one_line(attributes.findtext("author")):
            lines.append(f"Author: {author}")
        if place := _place(attributes):
            lines.append(f"Written {place}")
        if source := one_line(attributes.findtext("source-url")):
            lines.append(f"Source: {source}")
    return "\n".join(line for line in lines if line)


def _place(attributes) -> str:
    try:
        lat, lon = float(attributes.findtext("latitude") or ""), float(attributes.findtext("longitude") or "")
    except ValueError:
        return ""
    return place_words(lat, lon)


def _made(note) -> float | None:
    """When the note was made (else last changed)."""
    return _time(note.findtext("created")) or _time(note.findtext("updated"))


def _time(text: str | None) -> float | None:
    """Evernote's 20240105T091500Z as seconds since the epoch."""
    try:
        return datetime.strptime((text or "").strip(), "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc).timestamp()
    except ValueError:
        return None

