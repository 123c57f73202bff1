"""Word .docx files: paragraphs and tables in document order, a section per heading."""
from __future__ import annotations

import zipfile
import zlib

import docx
from docx.opc.exceptions import OpcError
from docx.table import Table

from scent.errors import ExtractError
from scent.units import Extracted
from .base import Limits, joined

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


def _parts(document) -> list[tuple[str, str]]:
    """(heading, text) per heading's stretch; the stretch before the first heading has no title."""
    parts, title, lines = [], "", []
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            lines.extend(_table_lines(block))
        elif _is_heading(block) and block.text.strip():
            parts.append((title, "\n".join(lines)))
            title, lines = " ".join(block.text.split()), [block.text.strip()]
        elif block.text.strip():
            lines.append(block.text.strip())
    parts.append((title, "\n".join(lines)))
    return parts


def extract(path: str, limits: Limits) -> Extracted:
    with open(path, "rb") as f:  # opened here so a missing file is an OSError, not a python-docx error
        try:
            document = docx.Document(f)
            parts = _parts(document)
            title = (document.core_properties.title or "").strip()
        except _DAMAGED as e:
            raise ExtractError(path, f"not a readable Word .docx file ({type(e).__name__}: {e}); "
                                     "it may be damaged, or another format renamed .docx") from e
    headings = [heading for heading, _ in parts if heading]
    return Extracted(kind="docx", sections=joined(parts, "docx"),
                     title=title or (headings[0] if headings else ""))
