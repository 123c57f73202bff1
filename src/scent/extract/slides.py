"""Presentations (.pptx, .odp, and PowerPoint 97-2003 .ppt through scent.extract.ppt): one `slide`
section per slide, its number as the page (as a PDF page's, so a result names the slide to open),
its title as the section title, the text of its shapes and tables in the order they are stacked,
then its speaker notes (and a .pptx's reviewers' comments). When Limits.describe is on, each picture on a slide is a `slide_image`
section of its own with the slide's number, as a Word file's pictures are. A picture whose part is
missing or does not decode costs only itself (meta["picture_errors"]). A .ppt gives its slides' text and notes, and the JPEG, PNG and TIFF
pictures its slides show (drawn metafiles are not read)."""
from __future__ import annotations

import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial

from pptx.exc import PackageNotFoundError

from scent.errors import ExtractError
from scent.units import Extracted, Picture, Section
from . import chart, officeart, package, ppt
from .base import SECTION_SEPARATOR, Limits, held_whole, named, ole_created, unreadable
from .pictures import PICTURES_PER_FILE, picture_text
from .word import load_picture

# Shows (.ppsx, .pps), templates (.potx, .pot) and macro-enabled ones (.pptm, .ppsm, .potm) are the
# same packages (or 97-2003 files) under another content type: their slides read the same.
_PPT = (".ppt", ".pps", ".pot")
EXTENSIONS = (".pptx", ".pptm", ".ppsx", ".ppsm", ".potx", ".potm", ".odp", *_PPT)
VERSION = 2  # 2: a chart's figures by category ("Bicycle sales: Q1 10, Q2 12")
# python-pptx opens a show or a template, not their macro-enabled forms: those are presentations too.
_MACRO_TYPES = ("application/vnd.ms-powerpoint.slideshow.macroEnabled.main+xml",
                "application/vnd.ms-powerpoint.template.macroEnabled.main+xml")
# python-pptx reports a foreign package as PackageNotFoundError, odfpy a broken one through the XML parser.
_DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, KeyError, ValueError, TypeError, SyntaxError,
            IndexError, AttributeError, NotImplementedError, PackageNotFoundError)


@dataclass
class _Slide:
    number: int
    title: str = ""
    lines: list[str] = field(default_factory=list)
    notes: str = ""
    # Each gives (zip member, its bytes), or raises KeyError when the file lacks the part.
    pictures: list[Callable[[], tuple[str, bytes]]] = field(default_factory=list)


def _clean_lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


# ---------------------------------------------------------------- .pptx (python-pptx)

def _pptx_shapes(shapes, slide: _Slide, part) -> None:
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    for shape in shapes:
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            _pptx_shapes(shape.shapes, slide, part)
            continue
        if shape.has_text_frame:
            slide.lines.extend(_clean_lines(shape.text_frame.text))
        if getattr(shape, "has_table", False) and shape.has_table:
            for row in shape.table.rows:
                cells = [" ".join(cell.text.split()) for cell in row.cells]
                if any(cells):
                    slide.lines.append(" | ".join(cells))
        if getattr(shape, "has_chart", False) and shape.has_chart:
            slide.lines.extend(_chart_lines(shape))
        elif shape._element.tag == _GRAPHIC_FRAME:  # a table, or a SmartArt diagram, or an object
            slide.lines.extend(_smartart_lines(shape, part))
        if shape.shape_type == MSO_SHAPE_TYPE.PICTURE:
            slide.pictures.append(partial(_pptx_picture, part, shape._element.blip_rId))


def _chart_lines(shape) -> list[str]:
    """A chart's words (scent.extract.chart); one whose part is missing costs only itself."""
    try:
        return chart.lines(shape.chart_part.blob)
    except (KeyError, ValueError):
        return []


_DIAGRAM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_GRAPHIC_FRAME = "{http://schemas.openxmlformats.org/presentationml/2006/main}graphicFrame"


def _smartart_lines(shape, part) -> list[str]:
    """A SmartArt diagram's words (a process's steps, an org chart's names), a line each node, from
    its data part: python-pptx reads none of them. One it cannot find costs only itself."""
    from lxml import etree

    ids = next(shape._element.iter(f"{{{_DIAGRAM}}}relIds"), None)
    if ids is None:
        return []
    try:
        data = part.related_part(ids.get(_R + "dm")).blob
        root = etree.fromstring(data, parser=package.SAFE_XML)
    except (KeyError, etree.XMLSyntaxError):
        return []
    lines = []
    for point in root.iter(f"{{{_DIAGRAM}}}pt"):
        if point.get("type") in (None, "node"):  # not the transitions between nodes, nor the document
            for text in point.iter(f"{{{_DIAGRAM}}}t"):
                lines.extend(_clean_lines("\n".join("".join(t.text or "" for t in p.iter(_A + "t"))
                                                    for p in text.iter(_A + "p"))))
    return lines


def _pptx_picture(part, rid: str) -> tuple[str, bytes]:
    image = part.related_part(rid)  # KeyError: python-pptx drops the link to a part the file lacks
    return str(image.partname).lstrip("/"), image.blob


def _ppt_slides(path: str) -> Iterator[_Slide]:
    import olefile

    with olefile.OleFileIO(path) as ole:
        if not ole.exists(ppt.STREAM):
            raise ppt.PptError("it holds no PowerPoint Document stream")
        current = ole.openstream("Current User").read() if ole.exists("Current User") else b""
        document = ole.openstream(ppt.STREAM).read()
        pictures = ole.openstream(PPT_PICTURES).read() if ole.exists(PPT_PICTURES) else b""
    for number, slide in enumerate(ppt.slides(current, document), start=1):
        shown = [(f"{PPT_PICTURES}@{at}", officeart.blip(pictures, at)) for at in slide.pictures]
        yield _Slide(number, slide.title, slide.lines, "\n".join(slide.notes),
                     [partial(_given, name, data) for name, data in shown if data])


def _given(name: str, data: bytes) -> tuple[str, bytes]:
    return name, data


PPT_PICTURES = "Pictures"  # the stream of a .ppt's picture files; a picture is named "Pictures@OFFSET"


def _pptx_slides(path: str) -> Iterator[_Slide]:
    from pptx.opc.package import PartFactory
    from pptx.package import Package
    from pptx.parts.presentation import PresentationPart

    for content_type in _MACRO_TYPES:
        PartFactory.part_type_for.setdefault(content_type, PresentationPart)
    # Not pptx.Presentation(), which refuses a show's and a template's content types.
    main = Package.open(path).main_document_part
    if not isinstance(main, PresentationPart):
        raise ValueError(f"its main part is {main.content_type}, not a presentation")
    presentation = main.presentation
    authors = _comment_authors(presentation.part)
    for number, page in enumerate(presentation.slides, 1):
        slide = _Slide(number)
        title = page.shapes.title
        slide.title = " ".join(title.text_frame.text.split()) if title is not None and title.has_text_frame else ""
        _pptx_shapes(page.shapes, slide, page.part)
        notes = []
        if page.has_notes_slide and page.notes_slide.notes_text_frame is not None:
            notes = _clean_lines(page.notes_slide.notes_text_frame.text)
        slide.notes = "\n".join(notes + _comments(page.part, authors))
        yield slide


_P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
_P188 = "{http://schemas.microsoft.com/office/powerpoint/2018/8/main}"
def _comment_authors(part) -> dict[str, str]:
    """Who wrote the deck's comments, by id: the older comments' authors (commentAuthors.xml,
    numeric ids) and PowerPoint 365's (authors.xml)."""
    found = {}
    for root in package.related_xml(part, ("commentAuthors",)):
        found.update((a.get("id", ""), a.get("name", "")) for a in root.iter(_P + "cmAuthor"))
    for root in package.related_xml(part, ("authors",)):
        found.update((a.get("id", ""), a.get("name", "")) for a in root.iter(_P188 + "author"))
    return found


def _comments(part, authors: dict[str, str]) -> list[str]:
    """A slide's reviewers' comments, a line each ("comment by Ana Souza: ...", a reply "reply by
    ..."): the older kind (p:cm, its words in p:text) and PowerPoint 365's threads (p188:cm, their
    words in a text body, replies under them)."""
    lines = []

    def said(kind: str, author: str, words: str) -> None:
        words = " ".join(words.split())
        if words:
            who = authors.get(author, "")
            lines.append(f"{kind}{' by ' + who if who else ''}: {words}")

    for root in package.related_xml(part, ("comments",)):
        for c in root.iter(_P + "cm"):
            said("comment", c.get("authorId", ""), c.findtext(_P + "text") or "")
        for c in root.iter(_P188 + "cm"):
            said("comment", c.get("authorId", ""), _body_words(c.find(_P188 + "txBody")))
            for reply in c.iter(_P188 + "reply"):
                said("reply", reply.get("authorId", ""), _body_words(reply.find(_P188 + "txBody")))
    return lines


def _body_words(body) -> str:
    return "" if body is None else " ".join("".join(t.text or "" for t in p.iter(_A + "t")) for p in body.iter(_A + "p"))


# ---------------------------------------------------------------- .odp (odfpy)

def _odp_slides(path: str) -> Iterator[_Slide]:
    from odf import teletype
    from odf.draw import Frame, Image, Page
    from odf.namespaces import PRESENTATIONNS, XLINKNS
    from odf.presentation import Notes
    from odf.text import P

    document = package.load_odf(path)

    def text_of(frame) -> list[str]:
        return [line for p in frame.getElementsByType(P) for line in _clean_lines(teletype.extractText(p))]

    for number, page in enumerate(document.presentation.getElementsByType(Page), 1):
        slide = _Slide(number)
        for frame in page.childNodes:
            if frame.qname != Frame().qname:
                continue  # notes come below; drawn shapes without frames rarely hold text
            lines = text_of(frame)
            if frame.getAttrNS(PRESENTATIONNS, "class") == "title" and lines and not slide.title:
                slide.title = " ".join(lines)
            slide.lines.extend(lines)
            for image in frame.getElementsByType(Image):
                href = image.getAttrNS(XLINKNS, "href") or ""
                if href and not href.startswith(("http:", "https:", "/", "..")):
                    slide.pictures.append(partial(_member, path, href))
        slide.notes = "\n".join(line for notes in page.getElementsByType(Notes) for line in text_of(notes))
        yield slide


def _member(path: str, member: str) -> tuple[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return member, z.read(member)  # KeyError when the package lacks it


# ---------------------------------------------------------------- both

def _sections(slides: Iterator[_Slide], path: str, limits: Limits, meta: dict,
              load: Callable = load_picture) -> list[Section]:
    """The slides' sections; `load(path, member, side)` gives a picture's pixels again (a zip
    member's for .pptx and .odp, a blip of the Pictures stream for .ppt)."""
    sections: list[Section] = []
    offset, pictures = 0, 0

    def add(text: str, kind: str, slide: _Slide, picture: Picture | None = None) -> None:
        nonlocal offset
        sections.append(Section(text=text, kind=kind, page=slide.number, title=slide.title or f"slide {slide.number}",
                                start=offset, picture=picture))
        offset += len(text) + len(SECTION_SEPARATOR)

    for slide in slides:
        text = "\n".join(slide.lines)
        if slide.notes:
            text = f"{text}\n\n{slide.notes}" if text else slide.notes
        if text:
            add(text, "slide", slide)
        if not limits.describe:
            continue
        for read in slide.pictures:
            if pictures >= PICTURES_PER_FILE * limits.max_pdf_images:
                meta["pictures_skipped"] = True
                break
            try:
                member, data = read()
            except (KeyError, *_DAMAGED) as e:
                meta.setdefault("picture_errors", []).append(
                    f"a picture on slide {slide.number} is missing from the file ({type(e).__name__}: {e})")
                continue
            seen = picture_text(data, f"on slide {slide.number}", limits, meta)
            if seen:
                pictures += 1
                add(seen, "slide_image", slide, Picture(member, partial(load, path, member)))
    return sections


def extract(path: str, limits: Limits) -> Extracted:
    if path.lower().endswith(_PPT) and not package.starts_with(path, package.ZIP_MAGIC):  # else a .pptx named .ppt
        return _extract_ppt(path, limits)
    odp = path.lower().endswith(".odp")
    what = "OpenDocument .odp presentation" if odp else "PowerPoint .pptx presentation"
    package.check(path, limits, what)
    meta: dict = {}
    try:
        slides = list(_odp_slides(path) if odp else _pptx_slides(path))
    except _DAMAGED as e:
        raise unreadable(path, what, named(e)) from e
    meta["slides"] = len(slides)
    sections = _sections(iter(slides), path, limits, meta)
    title = next((s.title for s in slides if s.title), "")
    return Extracted(kind="slides", sections=sections, title=title, meta=meta)


def _extract_ppt(path: str, limits: Limits) -> Extracted:
    import struct

    what = "PowerPoint 97-2003 .ppt presentation"
    held_whole(path, limits, what)  # its streams are read whole
    meta: dict = {}
    try:
        slides = list(_ppt_slides(path))
    except ppt.PptEncrypted:
        raise ExtractError(path, f"password-protected (encrypted) {what}: scent cannot read it; save it without "
                                 "a password or add it to .scentignore") from None
    except OSError as e:
        if e.errno is not None:  # a real I/O error (the file vanished): extract() says so
            raise
        raise unreadable(path, what, str(e), "it may be damaged or another format named .ppt") from e
    except (ppt.PptError, struct.error, *_DAMAGED) as e:
        raise unreadable(path, what, named(e), "it may be damaged or cut short") from e
    meta["slides"] = len(slides)
    sections = _sections(iter(slides), path, limits, meta, load=officeart.load_picture)
    return Extracted(kind="slides", sections=sections, title=next((s.title for s in slides if s.title), ""), meta=meta,
                     date=ole_created(path))
