"""Word .docx files: paragraphs and tables in document order, a section per heading; and, when
Limits.describe is on, a `docx_image` section per picture in the body, titled with the heading it
stands under: what it shows (scent.describe) and the text read in it. A picture that does not
decode costs only itself.

A paragraph's words are all that Word shows of it: python-docx reads only its direct runs and
links, and so passed by tracked insertions, content controls (a form's or a template's fields, and
whole paragraphs inside one), smart tags and simple fields. A text box's words follow the
paragraph it is anchored in. The charts' words (scent.extract.chart), the page headers and footers
(each line once), readers' comments and the footnotes and endnotes are sections of their own
("charts", "headers and footers", "comments", "footnotes")."""
from __future__ import annotations

import zipfile
import zlib
from functools import partial

import docx
from docx.opc.exceptions import OpcError
from docx.oxml.ns import qn
from docx.table import Table
from docx.text.paragraph import Paragraph

from PIL import Image

from scent.dates import from_datetime
from scent.units import Extracted, Picture, Section
from . import chart, package
from .base import Limits, joined, laid_out, named, unreadable
from .pictures import decoded, described

EXTENSIONS = (".docx", ".docm", ".dotx", ".dotm")
VERSION = 2  # 2: a chart's figures by category ("Bicycle sales: Q1 10, Q2 12")
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
                cells.append(" ".join(" ".join(_lines(cell._tc, table)).split()))
        if any(cells):
            lines.append(" | ".join(cells))
    return lines


_P, _TBL, _SDT, _SDT_CONTENT, _CUSTOM_XML = qn("w:p"), qn("w:tbl"), qn("w:sdt"), qn("w:sdtContent"), qn("w:customXml")
_T, _TAB, _BR, _CR = qn("w:t"), qn("w:tab"), qn("w:br"), qn("w:cr")
_TEXT_BOX = qn("w:txbxContent")
# Not words of the paragraph: deleted text (a tracked deletion), the fallback copy of a drawing
# Word writes for older readers (the same text box again), and properties. A text box's own
# paragraphs are said after it.
_PASSED = frozenset({qn("w:del"), qn("w:moveFrom"), "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback",
                     qn("w:pPr"), qn("w:rPr")})


def _blocks(element, parent):
    """The paragraphs and tables under `element` (the body, a cell, a text box, a comment) in
    order, those inside content controls and custom XML included."""
    for child in element.iterchildren():
        if child.tag == _P:
            yield Paragraph(child, parent)
        elif child.tag == _TBL:
            yield Table(child, parent)
        elif child.tag == _SDT:
            content = child.find(_SDT_CONTENT)
            if content is not None:
                yield from _blocks(content, parent)
        elif child.tag == _CUSTOM_XML:
            yield from _blocks(child, parent)


def _text(element) -> tuple[str, list]:
    """A paragraph's words as Word shows them (see the module's docstring), and the text boxes
    anchored in it (the first copy of each), in one walk."""
    out: list[str] = []
    boxes: list = []

    def walk(node) -> None:
        for child in node:
            tag = child.tag
            if tag in _PASSED or not isinstance(tag, str):  # (comments and processing instructions)
                continue
            if tag == _T:
                out.append(child.text or "")
            elif tag == _TAB:
                out.append("\t")
            elif tag in (_BR, _CR):
                out.append("\n")
            elif tag == _TEXT_BOX:
                boxes.append(child)
            else:
                walk(child)

    walk(element)
    return "".join(out), boxes


def _lines(element, parent) -> list[str]:
    """The lines of the paragraphs and tables under `element`, each paragraph's text boxes after it."""
    lines = []
    for block in _blocks(element, parent):
        if isinstance(block, Table):
            lines.extend(_table_lines(block))
            continue
        text, boxes = _text(block._p)
        if text.strip():
            lines.append(text.strip())
        for box in boxes:
            lines.extend(_lines(box, parent))
    return lines


def _parts(document, pictures: bool) -> tuple[list[tuple[str, str]], dict[str, str], str]:
    """(heading, text) per heading's stretch (the stretch before the first heading has no title),
    the heading each picture of the body stands under (its part name -> heading), and the first
    heading.

    When the `pictures` are indexed, a heading whose stretch holds nothing but pictures ("Layout"
    over the kitchen plan) is no text part of its own: alone, its one word matched any short
    query by meaning; it titles its pictures instead."""
    parts, title, lines, placed, pictured, first = [], "", [], {}, False, ""
    for block in _blocks(document.element.body, document._body):
        for name in _pictures_in(document, block) if pictures else ():
            placed.setdefault(name, title)
            pictured = True
        if isinstance(block, Table):
            lines.extend(_table_lines(block))
            continue
        text, boxes = _text(block._p)
        text = text.strip()
        if _is_heading(block) and text:
            if not (pictures and pictured and lines == [title]):
                parts.append((title, "\n".join(lines)))
            title, lines, pictured = " ".join(text.split()), [text], False
            first = first or title
        elif text:
            lines.append(text)
        for box in boxes:
            lines.extend(_lines(box, document._body))
    if not (pictures and pictured and lines == [title]):
        parts.append((title, "\n".join(lines)))
    return parts, placed, first


def _comments(document) -> str:
    """"comment by Ana Souza: check this with the landlord", a line each."""
    lines = []
    for comment in document.comments:
        said = " ".join(comment.text.split())
        if said:
            lines.append(f"comment{' by ' + comment.author if comment.author else ''}: {said}")
    return "\n".join(lines)


def _notes(document, meta: dict) -> str:
    """The footnotes' and endnotes' words, a line each."""
    lines = []
    for root in package.related_xml(document.part, ("footnotes", "endnotes"), meta):
        for note in root.iterchildren(qn("w:footnote"), qn("w:endnote")):
            if note.get(qn("w:type")) in (None, "normal"):  # not the separator lines Word keeps there
                said = " ".join(" ".join(_lines(note, document._body)).split())
                if said:
                    lines.append(said)
    return "\n".join(lines)


def _charts(document) -> str:
    """The words of the charts drawn in the document (scent.extract.chart), a chart after another."""
    return "\n".join(line for _, blob in package.related(document.part, ("chart",)) for line in chart.lines(blob))


def _headers(document, meta: dict) -> str:
    """The lines of the page headers and footers (a letterhead, a reference, "Confidential"), each
    once however many sections and page kinds repeat it; a line of page numbers alone is left out."""
    lines: dict[str, None] = {}
    for root in package.related_xml(document.part, ("header", "footer"), meta):
        for line in _lines(root, document._body):
            if any(ch.isalpha() for ch in line):
                lines.setdefault(" ".join(line.split()))
    return "\n".join(lines)


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


# A template (.dotx) and macro-enabled documents (.docm, .dotm) are the same package under another
# content type, which python-docx's Document() refuses: their main part is read as a document's.
_DOCUMENT_TYPES = ("application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
                   "application/vnd.ms-word.document.macroEnabled.main+xml",
                   "application/vnd.ms-word.template.macroEnabledTemplate.main+xml")


def _document(f):
    from docx.opc.package import OpcPackage
    from docx.opc.part import PartFactory
    from docx.parts.document import DocumentPart

    for content_type in _DOCUMENT_TYPES:
        PartFactory.part_type_for.setdefault(content_type, DocumentPart)
    main = OpcPackage.open(f).main_document_part
    if not isinstance(main, DocumentPart):
        raise ValueError(f"file is not a Word file, content type is '{main.content_type}'")
    return main.document


def extract(path: str, limits: Limits) -> Extracted:
    # python-docx inflates document.xml whole: a zip bomb would cost gigabytes before it parses.
    package.check(path, limits, "Word .docx file")
    meta: dict = {}
    with open(path, "rb") as f:  # opened here so a missing file is an OSError, not a python-docx error
        try:
            document = _document(f)
            parts, placed, first_heading = _parts(document, limits.describe)
            parts += [("charts", _charts(document)), ("headers and footers", _headers(document, meta)),
                      ("comments", _comments(document)), ("footnotes", _notes(document, meta))]
            title = (document.core_properties.title or "").strip()
            created = _created(document)
        except _DAMAGED as e:
            raise unreadable(path, "Word .docx file", named(e), "it may be damaged, or another format renamed .docx",
                             fix="") from e
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
