"""OpenDocument text (.odt): paragraphs, lists and tables in document order, a section per
heading, as Word files are."""
from __future__ import annotations

import zipfile
import zlib

from scent.errors import ExtractError
from scent.units import Extracted
from . import package
from .base import Limits, joined

EXTENSIONS = (".odt",)
_DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, KeyError, ValueError, TypeError, SyntaxError,
            IndexError, AttributeError)


def _parts(body) -> list[tuple[str, str]]:
    from odf import teletype
    from odf.namespaces import TABLENS, TEXTNS

    parts, title, lines = [], "", []
    # Document order without recursion: lists and sections nest, and so may a hostile file.
    stack = [iter(body.childNodes)]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            continue
        qname = getattr(node, "qname", None)
        if qname == (TEXTNS, "h"):
            text = " ".join(teletype.extractText(node).split())
            if text:
                parts.append((title, "\n".join(lines)))
                title, lines = text, [text]
        elif qname == (TEXTNS, "p"):
            text = " ".join(teletype.extractText(node).split())
            if text:
                lines.append(text)
        elif qname == (TABLENS, "table-row"):
            cells = [" ".join(teletype.extractText(c).split()) for c in node.childNodes
                     if getattr(c, "qname", None) == (TABLENS, "table-cell")]
            if any(cells):
                lines.append(" | ".join(cells))
        elif qname is not None and qname[0] in (TEXTNS, TABLENS):  # lists, sections, tables, rows' groups
            stack.append(iter(node.childNodes))
    parts.append((title, "\n".join(lines)))
    return parts


def _title(document) -> str:
    from odf.namespaces import DCNS
    from odf import teletype

    for node in document.meta.childNodes:
        if getattr(node, "qname", None) == (DCNS, "title"):
            return " ".join(teletype.extractText(node).split())
    return ""


def extract(path: str, limits: Limits) -> Extracted:
    what = "OpenDocument .odt text"
    package.check(path, limits, what)
    try:
        document = package.load_odf(path)
        parts = _parts(document.text)
        title = _title(document)
    except _DAMAGED as e:
        raise ExtractError(path, f"not a readable {what} ({type(e).__name__}: {e}); it may be damaged "
                                 "or another format renamed; open and save it again, or add it to .scentignore") from e
    headings = [heading for heading, _ in parts if heading]
    return Extracted(kind="odt", sections=joined(parts, "odt"), title=title or (headings[0] if headings else ""))
