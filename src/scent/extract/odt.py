"""OpenDocument text (.odt): paragraphs, lists and tables in document order, a section per
heading, as Word files are; and, when Limits.describe is on, an `odt_image` section per picture
in the body (its Pictures/ member), titled with the heading it stands under: what it shows
(scent.describe) and the text read in it. A picture that does not decode costs only itself."""
from __future__ import annotations

import zipfile
import zlib
from functools import partial

from scent.units import Extracted, Picture, Section
from . import package
from .base import Limits, joined, laid_out, named, unreadable
from .pictures import described
from .word import load_picture

EXTENSIONS = (".odt",)
_DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, KeyError, ValueError, TypeError, SyntaxError,
            IndexError, AttributeError)


def _parts(body, pictures: bool) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The text parts (heading, text) and the pictures ((heading, member), in document order). A
    heading with nothing but pictures under it titles them instead of being a one-word part
    (when pictures are read)."""
    from odf import teletype
    from odf.draw import Image
    from odf.namespaces import DRAWNS, TABLENS, TEXTNS, XLINKNS

    parts, placed, title, lines, pictured = [], [], "", [], False

    def close() -> None:
        if not (pictures and pictured and lines == [title]):
            parts.append((title, "\n".join(lines)))

    # Document order without recursion: lists and sections nest, and so may a hostile file.
    stack = [iter(body.childNodes)]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            continue
        qname = getattr(node, "qname", None)
        if pictures and qname in ((TEXTNS, "h"), (TEXTNS, "p"), (TABLENS, "table-row"), (DRAWNS, "frame")):
            for image in node.getElementsByType(Image):
                member = (image.getAttrNS(XLINKNS, "href") or "").removeprefix("./")
                if member and not member.startswith(("http:", "https:", "../", "/")):  # linked, not held
                    placed.append((title, member))
                    pictured = True
        if qname == (TEXTNS, "h"):
            text = " ".join(teletype.extractText(node).split())
            if text:
                close()
                title, lines, pictured = text, [text], False
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
    close()
    return parts, placed


def _pictures(path: str, placed: list[tuple[str, str]], limits: Limits, meta: dict) -> list[tuple[str, str, Picture]]:
    """(heading, text, where its pixels are) of each picture the body shows, once each, in order."""
    with zipfile.ZipFile(path) as z:
        found = described(placed, z.read, limits, meta)
    return [(heading, text, Picture(member, partial(load_picture, path, member))) for heading, text, member in found]


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
        parts, placed = _parts(document.text, limits.describe)
        title = _title(document)
    except _DAMAGED as e:
        raise unreadable(path, what, named(e)) from e
    headings = [heading for heading, _ in parts if heading] + [heading for heading, _ in placed if heading]
    meta: dict = {}
    pictures = _pictures(path, placed, limits, meta) if placed else []
    sections = laid_out(joined(parts, "odt") + [Section(text=text, kind="odt_image", title=heading, picture=pixels)
                                                for heading, text, pixels in pictures])
    return Extracted(kind="odt", sections=sections, title=title or (headings[0] if headings else ""), meta=meta)
