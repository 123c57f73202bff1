"""Jupyter notebooks (.ipynb): what a person wrote and what the code showed, not the JSON around it.

The markdown cells are text, cut at their headings; the code cells under a heading are one code
section with the text they printed (stdout, results, an error's name and message; not the
traceback's frames). When Limits.describe is on, each picture a cell drew (a plot, a PNG or JPEG
output) is a `notebook_image` section titled with the heading it stands under, described and read
by OCR as a picture in a Word file is. Cells of one kind under one heading make one section, so a
notebook of many two-line cells is not a hundred tiny units.

Read as JSON (nbformat 4; 3's worksheets too): the format is small and stable, and nbformat would
validate what is only read here. A damaged notebook is refused with its reason; a damaged picture
costs only that picture."""
from __future__ import annotations

import base64
import binascii
import re
from functools import partial

from PIL import Image

from scent.errors import ExtractError
from scent.units import Extracted, Picture, Section
from .base import Limits, laid_out, load_json, read_bytes
from .pictures import PICTURES_PER_FILE, decoded, picture_text
from .text import markdown_headings

EXTENSIONS = (".ipynb",)
OUTPUT_CHARS = 2000  # text kept of one output: a printed DataFrame's first rows, not all of them
PICTURE_TYPES = ("image/png", "image/jpeg")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")  # the colours of a traceback or a progress bar


def _text(value) -> str:
    """A notebook string: one string, or a list of lines as nbformat writes them."""
    if isinstance(value, list):
        return "".join(v for v in value if isinstance(v, str))
    return value if isinstance(value, str) else ""


def cells(notebook) -> list[dict]:
    """The cells in order, nbformat 4 or 3 (whose cells sit in worksheets)."""
    if not isinstance(notebook, dict):
        raise ValueError("the file is JSON, but not a notebook (no cells)")
    found = notebook.get("cells")
    if found is None and isinstance(notebook.get("worksheets"), list):
        found = [c for sheet in notebook["worksheets"] if isinstance(sheet, dict) for c in sheet.get("cells") or ()]
    if not isinstance(found, list):
        raise ValueError("the file is JSON, but not a notebook (no cells)")
    return [c for c in found if isinstance(c, dict)]


def _source(cell: dict) -> str:
    text = _text(cell.get("source", cell.get("input")))  # nbformat 3 calls a code cell's source input
    if cell.get("cell_type") == "heading":  # nbformat 3's heading cells
        level = cell.get("level") if isinstance(cell.get("level"), int) else 1
        return f"{'#' * max(1, min(level, 6))} {text.strip()}"
    return text


def _printed(output: dict) -> str:
    """What one output says in words: a stream, a result's or display's text/plain, an error."""
    kind = output.get("output_type")
    if kind == "stream":
        text = _text(output.get("text"))
    elif kind == "error" or kind == "pyerr":
        text = f"{_text(output.get('ename'))}: {_text(output.get('evalue'))}"
    else:
        data = output.get("data") if isinstance(output.get("data"), dict) else output  # 3 keeps it flat
        text = _text(data.get("text/plain", data.get("text")))
    text = _ANSI.sub("", text).strip()
    return text[:OUTPUT_CHARS] + (" ..." if len(text) > OUTPUT_CHARS else "")


def _pictures(cell: dict) -> list[tuple[int, bytes | None]]:
    """(output number, decoded bytes, or None when its base64 is broken) of the cell's PNG and JPEG outputs."""
    found = []
    for j, output in enumerate(cell.get("outputs") or ()):
        if not isinstance(output, dict):
            continue
        data = output.get("data") if isinstance(output.get("data"), dict) else output
        for mime in PICTURE_TYPES:
            encoded = _text(data.get(mime, data.get(mime.split("/")[1])))  # 3: "png", "jpeg"
            if encoded:
                try:
                    found.append((j, base64.b64decode(encoded)))
                except (binascii.Error, ValueError):
                    found.append((j, None))
                break
    return found


def _load(path: str, limits: Limits):
    raw = read_bytes(path, limits)
    try:
        return cells(load_json(raw))
    except (ValueError, RecursionError) as e:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise ExtractError(path, f"not a readable Jupyter notebook ({type(e).__name__}: {e}); it may be damaged or "
                                 "cut short: open it in Jupyter and save it again") from None


def extract(path: str, limits: Limits) -> Extracted:
    parts: list[tuple[str, str, str, Picture | None]] = []  # (heading, text, kind, picture)
    meta: dict = {}
    heading, title, seen_pictures = "", "", 0

    def add(text: str, kind: str, picture: Picture | None = None) -> None:
        # Runs of one kind under one heading are one section; pictures stand alone.
        if picture is None and parts and parts[-1][0] == heading and parts[-1][2] == kind:
            parts[-1] = (heading, f"{parts[-1][1]}\n\n{text}", kind, None)
        else:
            parts.append((heading, text, kind, picture))

    for i, cell in enumerate(_load(path, limits)):
        source = _source(cell)
        if cell.get("cell_type") in ("markdown", "heading"):
            cuts = markdown_headings(source)
            bounds = [0, *(offset for offset, _ in cuts), len(source)]
            for n, (start, end) in enumerate(zip(bounds, bounds[1:])):
                piece = source[start:end].strip()
                if n > 0:
                    heading = cuts[n - 1][1].strip()
                    title = title or heading
                    # A heading alone opens what follows (its title), as in a Markdown file.
                    piece = piece if piece.partition("\n")[2].strip() else ""
                if piece:
                    add(piece, "text")
            continue
        if cell.get("cell_type") == "raw":
            if source.strip():
                add(source.strip(), "text")
            continue
        printed = [p for p in (_printed(o) for o in cell.get("outputs") or () if isinstance(o, dict)) if p]
        code = "\n".join(t for t in (source.strip(), *printed) if t)
        if code:
            add(code, "code")
        if not limits.describe:
            continue
        for j, blob in _pictures(cell):
            name = f"cell {i + 1}, output {j + 1}"
            if blob is None:
                meta.setdefault("picture_errors", []).append(f"{name} is not valid base64")
                continue
            if seen_pictures >= PICTURES_PER_FILE * limits.max_pdf_images:
                meta["pictures_skipped"] = True
                break
            seen_pictures += 1
            said = picture_text(blob, name, limits, meta)
            if said is not None:
                add(said, "notebook_image", Picture(f"{i}#{j}", partial(load_picture, path, i, j)))
    sections = laid_out([Section(text=text, kind=kind, title=heading_of, picture=picture)
                         for heading_of, text, kind, picture in parts])
    return Extracted(kind="notebook", sections=sections, title=title, meta=meta)


def load_picture(path: str, cell: int, output: int, side: int) -> Image.Image:
    """Output `output` of cell `cell` decoded, for an image-text model."""
    for j, blob in _pictures(_load(path, Limits())[cell]):
        if j == output and blob is not None:
            return decoded(blob, side)
    raise ValueError(f"cell {cell + 1} of {path} has no picture {output + 1}")
