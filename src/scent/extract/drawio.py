"""draw.io (diagrams.net) diagrams (.drawio, .dio): a drawing (kind `image`) whose words are known
exactly, as an SVG's are. A diagram's pages are its `<diagram>` elements; each page's labels (its
shapes' and edges' `value`, the `label` of shapes with properties, tooltips) become a section of
their own, in document order, each once, numbered as the page and titled by the page's name, so
a result says on which page of the diagram its words are. Labels written as HTML are read as
their text.

draw.io saves a page either as XML or compressed (deflate, then base64, the XML URL-encoded
inside); both are read, the compressed ones unpacked to at most max_file_mb. The XML is parsed
by Python's expat, which fetches no external entity and refuses billion laughs. There are no
pixels to describe or show: draw.io's own renderer is JavaScript (an exported .drawio.svg or
.drawio.png is read as the picture it is)."""
from __future__ import annotations

import base64
import binascii
import os
import warnings
import xml.etree.ElementTree as ET
import zlib
from urllib.parse import unquote

from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning

from scent.units import Extracted, Section
from .base import SECTION_SEPARATOR, Limits, read_bytes, unreadable
from .image import name_unit

EXTENSIONS = (".drawio", ".dio")
KIND = "image"
_LABEL_ATTRIBUTES = ("value", "label", "tooltip")


def extract(path: str, limits: Limits) -> Extracted:
    raw = read_bytes(path, limits)
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as e:
        raise unreadable(path, "draw.io diagram", f"its XML does not parse: {e}") from None
    if root.tag == "mxGraphModel":  # a single page saved bare, as draw.io's "Edit Diagram" shows it
        pages = [("", root)]
    elif root.tag == "mxfile":
        pages = []
        for number, diagram in enumerate(root.iter("diagram"), 1):
            try:
                pages.append((diagram.get("name") or f"Page-{number}", _model(diagram, limits.max_text_bytes)))
            except ValueError as e:
                raise unreadable(path, "draw.io diagram", f"page {number}: {e}") from None
    else:
        raise unreadable(path, "draw.io diagram", f"its XML is an <{root.tag}>, not an <mxfile>")
    name = "\n".join((name_unit(path, None, None, "", limits.root), "draw.io diagram"))
    sections = [Section(text=name, kind=KIND)]
    for number, (title, model) in enumerate(pages, 1):
        labels = _labels(model) if model is not None else ""
        if labels:
            last = sections[-1]
            sections.append(Section(text=labels, kind="ocr", page=number, title=title,
                                    start=last.start + len(last.text) + len(SECTION_SEPARATOR)))
    return Extracted(kind=KIND, sections=sections, title=os.path.basename(path), meta={"pages": len(pages)})


def _model(diagram: ET.Element, limit: int) -> ET.Element | None:
    """A page's mxGraphModel: its child, or its text unpacked (base64, raw deflate, URL-encoding);
    None for an empty page. ValueError saying why when it cannot be read."""
    child = diagram.find("mxGraphModel")
    if child is not None:
        return child
    packed = (diagram.text or "").strip()
    if not packed:
        return None
    try:
        unzip = zlib.decompressobj(wbits=-zlib.MAX_WBITS)
        xml = unzip.decompress(base64.b64decode(packed, validate=False), limit + 1)
    except (binascii.Error, zlib.error) as e:
        raise ValueError(f"its compressed page does not unpack ({e})") from None
    if len(xml) > limit:
        raise ValueError(f"its compressed page unpacks to over {limit // (1024 * 1024)} MB")
    try:
        model = ET.fromstring(unquote(xml.decode("utf-8", "replace")))
    except ET.ParseError as e:
        raise ValueError(f"its compressed page's XML does not parse: {e}") from None
    return model


def _labels(model: ET.Element) -> str:
    """The page's words in document order, each once; HTML labels as their text."""
    seen: dict[str, None] = {}
    for element in model.iter():
        for attribute in _LABEL_ATTRIBUTES:
            value = element.get(attribute, "")
            if "<" in value or "&" in value:
                with warnings.catch_warnings():  # a label that looks like a file name or address
                    warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
                    value = BeautifulSoup(value, "html.parser").get_text(" ")
            words = " ".join(value.split())
            if words:
                seen.setdefault(words)
    return "\n".join(seen)
