"""SVG drawings (.svg, and .svgz: the same gzipped): a picture (kind `image`) whose words are known exactly. Diagrams, charts,
floor plans and icons exported from draw.io, Inkscape, Excalidraw or a plotting library hold
their labels as text: the title and description, every `<text>`, and the HTML labels a diagram
tool writes in `<foreignObject>`. They are read from the XML as the section a photo's OCR would
fill (kind `ocr`), with none of OCR's slips; the drawing rendered by resvg (MIT, a Rust SVG
renderer, offline) gives the description of what it shows and the thumbnail.

Python's XML parser fetches no external entity, and its expat (2.4 and later) refuses a file that
expands entities past a small factor (the "billion laughs"), so an SVG can neither read another
file through the parser nor fill memory. Before rendering, every link to something outside the
drawing (an `<image>` of a local file or a web address) is taken out: a drawing is shown as the
file holds it, never with another file's pixels, and nothing is fetched. A gzipped drawing is
unpacked to at most max_file_mb (the server's thumbnail to its own bound): no gzip bomb fills
memory."""
from __future__ import annotations

import io
import os
import re
import xml.etree.ElementTree as ET
import zlib
from functools import partial

from scent.describe import describe
from scent.units import Extracted, Picture, Section
from scent.errors import ExtractError
from .base import SECTION_SEPARATOR, Limits, held_whole, read_bytes, unreadable
from .base import _size as _bytes_said
from .image import name_unit

EXTENSIONS = (".svg", ".svgz")
KIND = "image"
RENDER_SIDE = 1024  # the longer side of the rendering the description reads (it looks at ~300 px)
# resvg draws text only in a font it finds, and its defaults (Times New Roman, Arial) are not on a
# Linux machine: text in fonts the machine lacks (draw.io's Helvetica) is drawn in DejaVu, which
# Debian and Ubuntu install with any desktop or browser; where it is missing too, the text is not drawn
# (its words are read from the XML all the same).
FONTS = {"font_family": "DejaVu Sans", "sans_serif_family": "DejaVu Sans", "serif_family": "DejaVu Serif",
         "monospace_family": "DejaVu Sans Mono"}
_SVG = "{http://www.w3.org/2000/svg}"
_LINKS = ("href", "{http://www.w3.org/1999/xlink}href")
_LABELS = {"title", "desc", "text", "foreignObject"}
_SKIPPED = {"style", "script", "metadata"}
_PLOTTED_TEXT = re.compile(r"text_\d+\Z")
GZIP_MAGIC = b"\x1f\x8b"
MAX_UNPACKED = 50 * 1024 * 1024  # a gzipped drawing drawn for a thumbnail (the index's bound: max_file_mb)
_LENGTH = re.compile(r"^\s*([0-9.eE+-]+)\s*(px|cm|mm|in|pt|pc|em|ex|)\s*$", re.IGNORECASE)
_UNITS = {"": 1.0, "px": 1.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "in": 96.0, "pt": 96 / 72, "pc": 16.0, "em": 16.0,
          "ex": 8.0}  # CSS pixels per unit (96 an inch; an em of 16 px, as resvg takes by default)


def extract(path: str, limits: Limits) -> Extracted:
    with open(path, "rb") as f:
        packed = f.read(len(GZIP_MAGIC)) == GZIP_MAGIC
    if packed:
        # No NUL check (read_bytes'): gzip's bytes hold them; the unpacked XML is checked by the parser
        held_whole(path, limits, "gzipped drawing")
        with open(path, "rb") as f:
            raw = f.read()
        try:
            raw = unpacked(raw, limits.max_text_bytes)
        except ValueError as e:
            raise unreadable(path, "gzipped SVG drawing (.svgz)", str(e)) from None
        except OverflowError:
            raise ExtractError(path, f"the drawing unpacks to over {_bytes_said(limits.max_text_bytes)}; raise the "
                                     "max_file_mb setting (--max-file-mb) or add it to .scentignore") from None
    else:
        raw = read_bytes(path, limits)
    try:
        root = _parse(raw)
    except ValueError as e:
        raise unreadable(path, "SVG drawing", str(e)) from None
    labels, title = _labels(root), _own_title(root) or os.path.basename(path)
    meta: dict = {}
    name = name_unit(path, None, None, "", limits.root)
    picture = Picture("", partial(render, raw))
    sections = [Section(text=name, kind="image", picture=picture)]
    if labels:
        sections.append(Section(text=labels, kind="ocr", start=len(name) + len(SECTION_SEPARATOR)))
    if limits.describe:
        try:
            # The describer is given the words as read; drawn too, they made the layout model see a
            # page of text in a labelled diagram
            shows = describe(_drawn(root, RENDER_SIDE, text=False), ocr_text=labels)
            # Labels on a plain background read as a screen's text to the describer; an SVG is drawn
            if shows.startswith("screenshot"):
                shows = "diagram, drawing" + shows[len("screenshot"):]
        except ValueError as e:  # resvg's own refusal: the drawing keeps its words
            meta["picture_error"] = f"the drawing did not render ({e}): it is indexed by its words and name"
            shows = ""
        if shows:
            last = sections[-1]
            sections.append(Section(text=shows, kind="image",
                                    start=last.start + len(last.text) + len(SECTION_SEPARATOR)))
    return Extracted(kind=KIND, sections=sections, title=title, meta=meta)


def render(raw: bytes, side: int, text: bool = True):
    """The drawing (its XML, or the XML gzipped) as a PIL image whose longer side is `side` pixels,
    on white (a transparent background reads as black to the describers and in a JPEG thumbnail);
    `text` False leaves its text undrawn. ValueError when it does not parse or resvg refuses it."""
    if raw.startswith(GZIP_MAGIC):
        try:
            raw = unpacked(raw, MAX_UNPACKED)
        except OverflowError:
            raise ValueError(f"it unpacks to over {_bytes_said(MAX_UNPACKED)}") from None
    return _drawn(_parse(raw), side, text)


def unpacked(raw: bytes, limit: int) -> bytes:
    """gzip's `raw` unpacked: ValueError when it is not whole gzip, OverflowError past `limit` bytes."""
    unzip = zlib.decompressobj(wbits=zlib.MAX_WBITS | 16)
    try:
        out = unzip.decompress(raw, limit + 1)
    except zlib.error as e:
        raise ValueError(f"its gzip does not unpack: {e}") from None
    if len(out) > limit:
        raise OverflowError(limit)
    if not unzip.eof:
        raise ValueError("its gzip is cut short")
    return out


def _drawn(root: ET.Element, side: int, text: bool = True):
    """`render` of a parsed drawing (its tree is changed: links dropped, its size in pixels)."""
    import resvg_py
    from PIL import Image

    for element in root.iter():
        for link in _LINKS:
            if not element.get(link, "#").startswith(("#", "data:")):
                del element.attrib[link]
    width, height = _size(root)
    # resvg refuses a size in units it cannot resolve ("10cm" without a viewBox): it gets pixels
    root.set("width", f"{width:g}")
    root.set("height", f"{height:g}")
    fit = {"width": side} if width >= height else {"height": side}
    try:
        fonts = FONTS if text else {"skip_system_fonts": True}
        png = resvg_py.svg_to_bytes(svg_string=ET.tostring(root, encoding="unicode"), background="white",
                                    **fonts, **fit)
    except BaseException as e:  # pyo3 raises a PanicException (a BaseException) where resvg panics
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        raise ValueError(" ".join(str(e).split()) or e.__class__.__name__) from None
    with Image.open(io.BytesIO(bytes(png))) as img:
        return img.convert("RGB")


def _parse(raw: bytes) -> ET.Element:
    """The drawing's root element, comments kept (_labels); ValueError saying why when it is not an
    SVG's XML."""
    try:
        root = ET.fromstring(raw, parser=ET.XMLParser(target=ET.TreeBuilder(insert_comments=True)))
    except ET.ParseError as e:
        raise ValueError(f"its XML does not parse: {e}") from None
    if root.tag not in (f"{_SVG}svg", "svg"):
        raise ValueError(f"its XML is a <{_local(root.tag)}>, not an <svg>")
    return root


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _labels(root: ET.Element) -> str:
    """The drawing's words, in document order, each once. Of a <switch>, only its first child
    counts, as a viewer shows only one: draw.io writes a label as HTML in a foreignObject with a
    <text> copy after it, and a last switch whose fallback says "Text is not SVG - cannot display"."""
    seen: dict[str, None] = {}

    def visit(element: ET.Element) -> None:
        name = _local(element.tag)
        if name in _SKIPPED:
            return
        if name in _LABELS:
            words = " ".join(" ".join(element.itertext()).split())
            if words:
                seen.setdefault(words)
            return
        if name == "g" and _PLOTTED_TEXT.match(element.get("id", "")):
            # matplotlib draws text as glyph outlines and says the string in a comment before them
            said = " ".join(" ".join(c.text or "" for c in element if c.tag is ET.Comment).split())
            if said:
                seen.setdefault(said)
        for child in list(element)[:1] if name == "switch" else element:
            visit(child)

    visit(root)
    return "\n".join(seen)


def _own_title(root: ET.Element) -> str:
    for child in root:
        if _local(child.tag) == "title":
            return " ".join(" ".join(child.itertext()).split())
    return ""


def _size(root: ET.Element) -> tuple[float, float]:
    """The drawing's width and height in pixels: its width and height attributes (in any of SVG's
    absolute units), else its viewBox's, else SVG's default square."""
    box = (root.get("viewBox") or "").replace(",", " ").split()
    try:
        viewed = (float(box[2]), float(box[3])) if len(box) == 4 and float(box[2]) > 0 < float(box[3]) else None
    except ValueError:
        viewed = None
    sizes = [_length(root.get(name)) for name in ("width", "height")]
    if all(sizes):
        return sizes[0], sizes[1]
    if viewed:
        return viewed
    return 100.0, 100.0


def _length(value: str | None) -> float:
    """An SVG length in pixels; 0 for none, a percentage or anything unreadable."""
    found = _LENGTH.match(value or "")
    if not found:
        return 0.0
    try:
        number = float(found.group(1))
    except ValueError:
        return 0.0
    return number * _UNITS[found.group(2).lower()] if number > 0 else 0.0
