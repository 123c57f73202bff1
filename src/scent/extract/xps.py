"""XPS documents (.xps, .oxps): what Windows' "Microsoft XPS Document Writer" prints to (a receipt,
a form, a page saved from any program), paged as a PDF is (file kind `pdf`, a `pdf_page` unit per
page: results say "p.3"). An XPS file is a zip package: a document sequence names its documents,
each names its pages, and each page (a FixedPage's XML) draws its text as Glyphs runs, each with
its characters (UnicodeString) and where it starts (OriginX, OriginY). A page's runs are read in
reading order: lines by their baseline, top to bottom, runs left to right. The title comes from
the package's core properties, and its author ends the first page's words. No page is drawn: a page printed as a picture, or whose
runs carry glyph indices only, has no words here (no thumbnail either).
"""
from __future__ import annotations

import posixpath
import zipfile

from lxml import etree

from scent.units import Extracted, Section
from .base import Limits, named, unreadable
from .package import SAFE_XML, check, relationships

EXTENSIONS = (".xps", ".oxps")
KIND = "pdf"
_WHAT = "XPS document"
_SEQUENCE = "/fixedrepresentation"  # the end of the relationship type naming the document sequence
_CORE = "/core-properties"
LINE_SLACK = 0.5  # runs whose baselines differ by under this many font heights share a line


def extract(path: str, limits: Limits) -> Extracted:
    check(path, limits, _WHAT)
    try:
        with zipfile.ZipFile(path) as z:
            pages = _pages(z, path)
            if len(pages) > limits.max_pdf_pages:
                pages = pages[:limits.max_pdf_pages]
                meta = {"truncated": True}
            else:
                meta = {"truncated": False}
            sections = []
            for number, part in enumerate(pages, 1):
                text = _page_text(z, part)
                sections.append(Section(text=text, kind="pdf_page", page=number, start=0))
            title, author = _core(z)
    except (KeyError, zipfile.BadZipFile, etree.XMLSyntaxError, ValueError, EOFError, NotImplementedError) as e:
        raise unreadable(path, _WHAT, named(e)) from None
    meta["page_count"] = len(sections)
    if author and sections:  # found by who wrote it, as a DjVu book's byline is
        sections[0].text = "\n".join(filter(None, (sections[0].text, author)))
    return Extracted(kind=KIND, sections=sections, title=title, meta=meta)


def _pages(z: zipfile.ZipFile, path: str) -> list[str]:
    """The parts of its pages, in order: sequence -> documents -> pages."""
    sequence = next((target for kind, target, _ in relationships(z, "") if kind.endswith(_SEQUENCE)), None)
    if sequence is None:
        raise unreadable(path, _WHAT, "its package names no document sequence (no _rels/.rels fixed representation)")
    pages = []
    for document in _sources(z, sequence, "DocumentReference"):
        pages += _sources(z, document, "PageContent")
    return pages


def _sources(z: zipfile.ZipFile, part: str, tag: str) -> list[str]:
    """The parts `part`'s <tag Source=...> elements name, resolved against its folder."""
    root = etree.fromstring(z.read(part), SAFE_XML)
    folder = posixpath.dirname(part)
    out = []
    for element in root.iter(f"{{*}}{tag}", tag):
        source = (element.get("Source") or "").strip()
        if source:
            out.append(source.lstrip("/") if source.startswith("/") else
                       posixpath.normpath(posixpath.join(folder, source)))
    return out


def _page_text(z: zipfile.ZipFile, part: str) -> str:
    root = etree.fromstring(z.read(part), SAFE_XML)
    runs = []
    for glyphs in root.iter("{*}Glyphs"):
        text = glyphs.get("UnicodeString") or ""
        if text.startswith("{}"):  # XPS escapes a string that starts with "{" so
            text = text[2:]
        text = " ".join(text.split())
        if not text:
            continue
        try:
            x, y = float(glyphs.get("OriginX") or 0), float(glyphs.get("OriginY") or 0)
            size = float(glyphs.get("FontRenderingEmSize") or 12)
        except ValueError:
            x, y, size = 0.0, 0.0, 12.0
        runs.append((y, x, size, text))
    lines: list[list[tuple[float, str]]] = []
    last_y = last_size = None
    for y, x, size, text in sorted(runs):
        if last_y is None or y - last_y > LINE_SLACK * max(size, last_size):
            lines.append([])
            last_y = y
        last_size = size
        lines[-1].append((x, text))
    return "\n".join(" ".join(text for _, text in sorted(line)) for line in lines)


def _core(z: zipfile.ZipFile) -> tuple[str, str]:
    """The package's title and author (its core properties), "" where it gives none."""
    try:
        part = next((target for kind, target, _ in relationships(z, "") if kind.endswith(_CORE)), None)
        if part is None:
            return "", ""
        root = etree.fromstring(z.read(part), SAFE_XML)
    except (KeyError, etree.XMLSyntaxError):
        return "", ""
    def said(tag: str) -> str:
        return " ".join(" ".join(e.text or "" for e in root.iter(f"{{*}}{tag}")).split())

    return said("title"), said("creator")
