"""Visio drawings (.vsdx, .vsdm): a drawing (kind `image`) whose words are known exactly, as a
draw.io diagram's are. A .vsdx is a zip of XML (Open Packaging Conventions): each page's shapes
hold their text in `<Text>` (groups hold shapes of their own) and their data in `Property` rows
("Owner: Ana"). Each page becomes a section of kind `ocr` of those words, in document order, once
each, numbered in the order Visio lists its pages and titled by the page's name. There are no
pixels to describe (Visio's renderer is not here; its masters' default words are not read). The
package is looked at before it is read, as an Office file's is (scent.extract.package): a zip bomb
or an encrypted drawing is one line."""
from __future__ import annotations

import os
import xml.etree.ElementTree as ET
import zipfile

from scent.units import Extracted, Section
from . import package
from .base import SECTION_SEPARATOR, Limits, named, unreadable
from .image import name_unit

EXTENSIONS = (".vsdx", ".vsdm")
KIND = "image"
_V = "{http://schemas.microsoft.com/office/visio/2012/main}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
PAGES = "visio/pages/pages.xml"


def extract(path: str, limits: Limits) -> Extracted:
    what = "Visio .vsdx drawing"
    package.check(path, limits, what)
    try:
        with zipfile.ZipFile(path) as z:
            pages = [(title, _words(ET.fromstring(z.read(member)))) for title, member in _pages(z)]
    except (zipfile.BadZipFile, KeyError, ET.ParseError, EOFError, ValueError) as e:
        raise unreadable(path, what, named(e)) from None
    name = "\n".join((name_unit(path, None, None, "", limits.root), "Visio drawing"))
    sections = [Section(text=name, kind=KIND)]
    for number, (title, words) in enumerate(pages, 1):
        if words:
            last = sections[-1]
            sections.append(Section(text=words, kind="ocr", page=number, title=title,
                                    start=last.start + len(last.text) + len(SECTION_SEPARATOR)))
    return Extracted(kind=KIND, sections=sections, title=os.path.basename(path), meta={"pages": len(pages)})


def _pages(z: zipfile.ZipFile) -> list[tuple[str, str]]:
    """(name, member) of each page, in the order pages.xml lists them. KeyError: no pages part."""
    index = ET.fromstring(z.read(PAGES))
    members = {rid: member for _, member, rid in package.relationships(z, PAGES)}
    out = []
    for page in index.iter(f"{_V}Page"):
        rel = page.find(f"{_V}Rel")
        member = members.get(rel.get(f"{_R}id")) if rel is not None else None
        if member:
            out.append((page.get("Name") or page.get("NameU") or "", member))
    return out


def _words(contents: ET.Element) -> str:
    """A page's shapes' text and data values, shape by shape in document order, each once."""
    seen: dict[str, None] = {}
    for shape in contents.iter(f"{_V}Shape"):
        text = shape.find(f"{_V}Text")
        said = [" ".join(" ".join(text.itertext()).split())] if text is not None else []
        for section in shape.findall(f"{_V}Section"):
            if section.get("N") == "Property":
                for row in section.findall(f"{_V}Row"):
                    cells = {c.get("N"): " ".join(c.get("V", "").split()) for c in row.findall(f"{_V}Cell")}
                    value, label = cells.get("Value", ""), cells.get("Label", "")
                    said.append(f"{label}: {value}" if label and value else value)
        for words in said:
            if words:
                seen.setdefault(words)
    return "\n".join(seen)
