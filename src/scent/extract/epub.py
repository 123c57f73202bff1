"""E-books (.epub): the chapters in reading order (the spine), each read as an HTML page is, so
a chapter is cut into sections at its h1-h3 headings; the stretch before a chapter's first
heading is titled by the book's table of contents (or the chapter's <title>). A chapter whose
XHTML is broken is read as far as the forgiving HTML parser gets."""
from __future__ import annotations

import posixpath
import zipfile
import zlib

from scent.errors import ExtractError
from scent.units import Extracted
from . import package
from .base import Limits, joined
from .html import _BREAK, _CUT, _normalise, _parse, _title, _visible_pieces

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


def _parts(path: str, book, limit: int, meta: dict) -> list[tuple[str, str]]:
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
        parts.append((chapter, _normalise(before)))
        parts.extend(zip(titles, map(_normalise, rest)))
    return parts


def extract(path: str, limits: Limits) -> Extracted:
    what = "EPUB e-book"
    package.check(path, limits, what)
    from ebooklib import epub

    meta: dict = {}
    try:
        # ignore_ncx: the EPUB 3 nav document is read instead, and the NCX warning is not printed.
        book = epub.read_epub(path, options={"ignore_ncx": True})
        parts = _parts(path, book, limits.max_text_bytes, meta)
        titles = book.get_metadata("DC", "title")  # [(value, attributes), ...]
        title = " ".join(str(titles[0][0] or "").split()) if titles else ""
    except (*_DAMAGED, epub.EpubException) as e:
        raise ExtractError(path, f"not a readable {what} ({type(e).__name__}: {e}); it may be damaged "
                                 "or DRM-protected; download it again, or add it to .scentignore") from e
    return Extracted(kind="epub", sections=joined(parts, "epub"), title=title, meta=meta)
