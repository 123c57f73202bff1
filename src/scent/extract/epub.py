"""E-books (.epub): the chapters in reading order (the spine), each read as an HTML page is, so
a chapter is cut into sections at its h1-h3 headings; the stretch before a chapter's first
heading is titled by the book's table of contents (or the chapter's <title>). A chapter whose
XHTML is broken is read as far as the forgiving HTML parser gets. When Limits.describe is on, each
picture a chapter shows (<img>, or SVG <image>, as cover pages do) is an `epub_image` section
titled by the heading it stands under (or its chapter), once per book, as a Word file's pictures are."""
from __future__ import annotations

import posixpath
import zipfile
import zlib
from functools import partial

from scent.units import Extracted, Picture, Section
from . import package
from .base import Limits, joined, laid_out, named, unreadable
from .html import _BREAK, _CUT, _HEADINGS, _normalise, _parse, _title, _visible_pieces, _words
from .pictures import described
from .word import load_picture

EXTENSIONS = (".epub",)
_DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, KeyError, ValueError, TypeError, SyntaxError,
            IndexError, AttributeError)


def _toc_titles(book) -> dict[str, str]:
    """Chapter file -> its title in the table of contents."""
    titles: dict[str, str] = {}
    stack = list(book.toc)
    while stack:
        entry = stack.pop()
        if isinstance(entry, tuple):  # (section, [children])
            entry, children = entry
            stack.extend(children)
        href = (getattr(entry, "href", "") or "").split("#")[0]
        if href and getattr(entry, "title", ""):
            titles.setdefault(posixpath.normpath(href), " ".join(entry.title.split()))
    return titles


def _parts(path: str, book, limit: int, meta: dict, placed: list[tuple[str, str]] | None = None) -> list[tuple[str, str]]:
    """The chapters' (title, text) parts; and, given `placed`, the pictures they show appended to
    it as (the heading they stand under or the chapter's title, href relative to the book's
    package document)."""
    from ebooklib import ITEM_DOCUMENT

    toc = _toc_titles(book)
    parts, size = [], 0
    for idref, _linear in book.spine:
        item = book.get_item_with_id(idref)
        if item is None:
            meta.setdefault("left_out", []).append(f"chapter {idref} is listed but missing from the file")
            continue
        if item.get_type() != ITEM_DOCUMENT or "nav" in (getattr(item, "properties", None) or []):
            continue  # the EPUB 3 table of contents repeats every chapter title
        raw = item.get_content()
        size += len(raw)
        if size > limit:
            meta.setdefault("left_out", []).append(
                f"only the first {limit // (1024 * 1024)} MB of chapters were indexed (max_file_mb); raise it to read the rest")
            break
        page = raw.decode("utf-8", errors="replace")
        soup = _parse(path, page.replace(_CUT, "").replace(_BREAK, ""))
        pieces, titles = _visible_pieces(soup)
        before, *rest = "".join(pieces).split(_CUT)
        chapter = toc.get(posixpath.normpath(item.get_name())) or _title(soup)
        if placed is not None:
            here, heading = posixpath.dirname(item.get_name()), chapter
            for tag in soup.find_all([*_HEADINGS, "img", "image"]):  # in document order
                if tag.name in _HEADINGS:
                    heading = _words(tag) or heading
                    continue
                src = tag.get("src") or tag.get("xlink:href") or tag.get("href") or ""
                if src and ":" not in src.split("/")[0]:  # in the book, not a link to the web
                    placed.append((heading, posixpath.normpath(posixpath.join(here, src.split("#")[0]))))
        parts.append((chapter, _normalise(before)))
        parts.extend(zip(titles, map(_normalise, rest)))
    return parts


def extract(path: str, limits: Limits) -> Extracted:
    what = "EPUB e-book"
    package.check(path, limits, what)
    from ebooklib import epub

    meta: dict = {}
    placed: list[tuple[str, str]] | None = [] if limits.describe else None
    try:
        # ignore_ncx: the EPUB 3 nav document is read instead, and the NCX warning is not printed.
        book = epub.read_epub(path, options={"ignore_ncx": True})
        parts = _parts(path, book, limits.max_text_bytes, meta, placed)
        titles = book.get_metadata("DC", "title")  # [(value, attributes), ...]
        title = " ".join(str(titles[0][0] or "").split()) if titles else ""
    except (*_DAMAGED, epub.EpubException) as e:
        raise unreadable(path, what, named(e), "it may be damaged or DRM-protected",
                         "download it again, or add it to .scentignore") from e
    pictures = _pictures(path, book, placed, limits, meta) if placed else []
    sections = laid_out(joined(parts, "epub") + [Section(text=text, kind="epub_image", title=heading, picture=pixels)
                                                 for heading, text, pixels in pictures])
    return Extracted(kind="epub", sections=sections, title=title, meta=meta)


def _pictures(path: str, book, placed: list[tuple[str, str]], limits: Limits, meta: dict) -> list[tuple[str, str, Picture]]:
    """(heading, text, where its pixels are) of each picture the chapters show, once each, in order."""
    def read(href: str) -> bytes:
        item = book.get_item_with_href(href)
        if item is None:
            raise KeyError(href)  # shown, but missing from the book
        return item.get_content()

    found = described(placed, read, limits, meta)
    if not found:
        return []
    with zipfile.ZipFile(path) as z:  # the zip member: an href is relative to the package document's folder
        members = z.namelist()

    def member(href: str) -> str:
        return next((m for m in members if m == href or m.endswith("/" + href)), href)

    return [(heading, text, Picture(member(href), partial(load_picture, path, member(href))))
            for heading, text, href in found]
