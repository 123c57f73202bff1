"""FictionBook e-books (.fb2): the XML e-book format of Russian and East European libraries and
readers (FBReader, PocketBook, Calibre's). Read as an EPUB is (file kind `epub`): one section per
chapter (a top-level <section> of the book's body, titled by its <title>, a chapter's own
sub-sections' titles kept as lines), then the notes body's; the book's title, authors, genres,
keywords, language and annotation (its blurb) as the first section's words, its year as its date.
Its pictures (base64 <binary> elements) are not read. Parsed by lxml without entities or the
network; a file over 4x max_file_mb is refused, as other books read whole are.
"""
from __future__ import annotations

import os
import re
from datetime import datetime, timezone

from lxml import etree

from scent.units import Extracted, Section
from .base import Limits, held_whole, laid_out, unreadable

EXTENSIONS = (".fb2",)
KIND = "epub"
_WHAT = "FictionBook e-book"
# Its <binary> pictures run to megabytes of base64 in one text node, past lxml's default 10 MB.
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True, remove_comments=True,
                          remove_pis=True)
_BLOCKS = ("p", "v", "subtitle", "text-author", "td", "th")  # a line each
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")


def extract(path: str, limits: Limits) -> Extracted:
    held_whole(path, limits, _WHAT)
    try:
        root = etree.parse(path, _PARSER).getroot()
    except etree.XMLSyntaxError as e:
        raise unreadable(path, _WHAT, f"its XML does not parse: {e}") from None
    if etree.QName(root).localname != "FictionBook":
        raise unreadable(path, _WHAT, f"its XML is a <{etree.QName(root).localname}>, not a <FictionBook>")
    info = _first(root, "description", "title-info")
    title = _text(_first(info, "book-title")) if info is not None else ""
    about, date = _about(info) if info is not None else ("", None)
    sections = [Section(text=about, kind=KIND, title=title)] if about else []
    for body in _children(root, "body"):
        for chapter in _children(body, "section") or [body]:
            lines = _lines(chapter)
            if lines:
                sections.append(Section(text="\n".join(lines), kind=KIND, title=_title(_first(chapter, "title"))))
    return Extracted(kind=KIND, sections=laid_out(sections), title=title or os.path.basename(path), date=date)


def _about(info) -> tuple[str, float | None]:
    """The title-info's words a person finds a book by, and its year."""
    lines = []
    if title := _text(_first(info, "book-title")):
        lines.append(title)
    authors = [" ".join(filter(None, (_text(_first(a, part)) for part in ("first-name", "middle-name", "last-name"))))
               or _text(_first(a, "nickname")) for a in _children(info, "author")]
    if any(authors):
        lines.append("by " + ", ".join(filter(None, authors)))
    genres = [_text(g).replace("_", " ") for g in _children(info, "genre")]
    if any(genres):
        lines.append("genre: " + ", ".join(filter(None, genres)))
    if keywords := _text(_first(info, "keywords")):
        lines.append("keywords: " + keywords)
    if (annotation := _first(info, "annotation")) is not None:
        lines += _lines(annotation)
    when = _first(info, "date")
    year = _YEAR.search((when.get("value") or "") + " " + _text(when)) if when is not None else None
    date = datetime(int(year[1]), 1, 1, tzinfo=timezone.utc).timestamp() if year else None
    return "\n".join(lines), date


def _lines(element) -> list[str]:
    """A line for each paragraph, verse line, subtitle and title below `element`, in order."""
    out = []
    for node in element.iter(*(f"{{*}}{tag}" for tag in (*_BLOCKS, "title"))):
        if etree.QName(node).localname == "title":
            if said := _title(node):
                out.append(said)
        elif etree.QName(node.getparent()).localname != "title" and (said := _text(node)):
            out.append(said)
    return out


def _title(title) -> str:
    """A <title>'s paragraphs on one line ("Chapter 1 January")."""
    if title is None:
        return ""
    return " ".join(filter(None, (_text(p) for p in _children(title, "p")))) or _text(title)


def _children(element, tag: str) -> list:
    return [c for c in element if isinstance(c.tag, str) and etree.QName(c).localname == tag]


def _first(element, *path: str):
    for tag in path:
        if element is None:
            return None
        element = next(iter(_children(element, tag)), None)
    return element


def _text(element) -> str:
    return " ".join("".join(element.itertext()).split()) if element is not None else ""
