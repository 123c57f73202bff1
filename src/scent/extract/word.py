"""Word .docx files: paragraphs and tables in document order, a section per heading; and, when
Limits.describe is on, a `docx_image` section per picture in the body, titled with the heading it
stands under: what it shows (scent.describe) and the text read in it. A picture that does not
decode costs only itself."""
from __future__ import annotations

import zipfile
import zlib
from functools import partial

import docx
from docx.opc.exceptions import OpcError
from docx.table import Table

from PIL import Image

from scent.dates import from_datetime
from scent.units import Extracted, Picture, Section
from . import package
from .base import Limits, joined, laid_out, named, unreadable
from .pictures import decoded, described

EXTENSIONS = (".docx",)
# python-docx reports a damaged or foreign file through whichever layer noticed:
# the zip reader, the package parts, or the XML parser (lxml's errors are SyntaxErrors).
_DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, KeyError, ValueError, SyntaxError, OpcError,
            NotImplementedError)  # zipfile: a compression method or version it cannot read


def _is_heading(paragraph) -> bool:
    name = paragraph.style.name if paragraph.style is not None else ""
    return name.startswith("Heading") or name == "Title"


def _table_lines(table: Table) -> list[str]:
    lines = []
    for row in table.rows:
        cells, seen = [], set()
        for cell in row.cells:
            # A merged cell comes back once per grid column it spans; keep it once.
            if id(cell._tc) not in seen:
                seen.add(id(cell._tc))
                cells.append(" ".join(cell.text.split()))
        if any(cells):
            lines.append(" | ".join(cells))
    return lines


def _parts(document, pictures: bool) -> tuple[list[tuple[str, str]], dict[str, str], str]:
    """(heading, text) per heading's stretch (the stretch before the first heading has no title),
    the heading each picture of the body stands under (its part name -> heading), and the first
    heading.

    When the `pictures` are indexed, a heading whose stretch holds nothing but pictures ("Layout"
    over the kitchen plan) is no text part of its own: alone, its one word matched any short
    query by meaning; it titles its pictures instead."""
    parts, title, lines, placed, pictured, first = [], "", [], {}, False, ""
    for block in document.iter_inner_content():
        for name in _pictures_in(document, block) if pictures else ():
            placed.setdefault(name, title)
            pictured = True
        if isinstance(block, Table):
            lines.extend(_table_lines(block))
        elif _is_heading(block) and block.text.strip():
            if not (pictures and pictured and lines == [title]):
                parts.append((title, "\n".join(lines)))
            title, lines, pictured = " ".join(block.text.split()), [block.text.strip()], False
            first = first or title
        elif block.text.strip():
            lines.append(block.text.strip())
    if not (pictures and pictured and lines == [title]):
        parts.append((title, "\n".join(lines)))
    return parts, placed, first


def _pictures_in(document, block) -> list[str]:
    """The part names of the pictures drawn in a paragraph or table."""
    element = block._tbl if isinstance(block, Table) else block._p
    related = document.part.related_parts
    return [str(related[rid].partname) for rid in element.xpath(".//a:blip/@r:embed") if rid in related]


def _pictures(document, limits: Limits, meta: dict, path: str,
              placed: dict[str, str]) -> list[tuple[str, str, Picture]]:
    """(heading it stands under, text, where its pixels are) of the body's pictures: those drawn in
    the body in their order, then any other the package holds; broken ones are noted in meta."""
    parts = {str(getattr(p, "partname", "picture")): p for p in document.part.related_parts.values()
             if (getattr(p, "content_type", "") or "").startswith("image/")}
    order = {name: i for i, name in enumerate(placed)}
    names = sorted(parts, key=lambda name: order.get(name, len(order)))
    found = described([(placed.get(name, ""), name) for name in names], lambda name: parts[name].blob, limits, meta)
    return [(heading, text, Picture(name.lstrip("/"), partial(load_picture, path, name.lstrip("/"))))
            for heading, text, name in found]


def load_picture(path: str, member: str, side: int) -> Image.Image:
    """The picture stored as `member` of the .docx package, for an image-text model."""
    try:
        with zipfile.ZipFile(path) as package:
            blob = package.read(member)
    except _DAMAGED as e:
        raise ValueError(f"{member} is not readable ({type(e).__name__}: {e})") from e
    return decoded(blob, side)


def extract(path: str, limits: Limits) -> Extracted:
    # python-docx inflates document.xml whole: a zip bomb would cost gigabytes before it parses.
    package.check(path, limits, "Word .docx file")
    with open(path, "rb") as f:  # opened here so a missing file is an OSError, not a python-docx error
        try:
            document = docx.Document(f)
            parts, placed, first_heading = _parts(document, limits.describe)
            title = (document.core_properties.title or "").strip()
            created = _created(document)
        except _DAMAGED as e:
            raise unreadable(path, "Word .docx file", named(e), "it may be damaged, or another format renamed .docx",
                             fix="") from e
    meta: dict = {}
    sections = joined(parts, "docx")
    if limits.describe:
        try:
            pictures = _pictures(document, limits, meta, path, placed)
        except _DAMAGED as e:  # the package's picture list itself is damaged: the text stands
            meta.setdefault("picture_errors", []).append(f"pictures not read ({type(e).__name__}: {e})")
            pictures = []
        sections = laid_out(sections + [Section(text=text, kind="docx_image", title=heading, picture=pixels)
                                        for heading, text, pixels in pictures])
    return Extracted(kind="docx", sections=sections, title=title or first_heading, date=created, meta=meta)


def _created(document) -> float | None:
    """The core property `created` (kept when the file is copied, unlike its mtime), or None."""
    try:
        return from_datetime(document.core_properties.created)
    except ValueError:  # a dcterms:created python-docx cannot read: the mtime will do
        return None
