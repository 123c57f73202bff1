"""PDFs: one section per page, kept even when a page has no text (it may be a scan). A page's
text is its text layer and what was written on it since (a form's filled-in fields, comments).

When OCR is on (Limits.ocr), a page that looks scanned (almost no text layer, and a picture
covering much of it or no text at all) is rendered and read into an `ocr` section with the
same page number.

When Limits.describe is on, pictures get `pdf_image` sections with the page number, whose text
is what the picture shows (scent.describe) and the text read in it: each embedded raster image
that is not tiny (icons, rules), and each page drawn with vector paths and little text (a
chart, a floor plan), rendered; on a page of text drawn with many paths, the figure the layout
model (scent.layout) finds there (a chart beside paragraphs), cropped. A picture that does not
decode costs only itself. Each keeps where its pixels are (units.Picture: page and object number), not the pixels, so an image-text
model reads them again one batch at a time.

Files attached to a PDF (a portfolio's documents, an invoice's data) are files of their own, at
`report.pdf#NAME`, as an archive's members are (scent.extract.members).
"""
from __future__ import annotations

import ctypes
import io
import math
import mmap
import re
from functools import partial

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from PIL import Image

from scent import layout, ocr
from scent.dates import from_pdf
from scent.describe import describe, is_text_page
from scent.errors import ExtractError, OcrFailed
from scent.pdfium_lock import PDFIUM, released
from scent.units import Extracted, Picture, Section
from .base import Limits, headed
from .members import Entry, MemberReader, attach, bounded
from .pdfstreams import bombs

# .ai: an Illustrator file is a PDF where Illustrator saved it "PDF compatible" (its default since CS).
EXTENSIONS = (".pdf", ".ai")
# A page with fewer non-space characters than this in its text layer may be a scan (a scanner
# may stamp a page number or "Scanned with ..." on it); one with more has its text already.
SCANNED_MAX_CHARS = 100
# ... and it is one when pictures cover at least this share of it, or when it has no text at
# all but something drawn on it (text as outlines, a scan pdfium does not see as a picture).
# A page with nothing on it is not read (it would cost ~0.25 s to find nothing).
SCANNED_MIN_IMAGE_SHARE = 0.3
# Embedded pictures smaller than this (pixels a side) or covering less of the page are icons,
# bullets and rules, not pictures anyone searches for.
MIN_PICTURE_PX = 64
MIN_PICTURE_SHARE = 0.01
# A page is a drawing (chart, diagram, plan) when it has at least this many vector paths and
# fewer text characters than DRAWN_MAX_CHARS (an org chart's names, a diagram's callouts). The
# bench's drawn pages have 17-34 paths and 0-210 characters; its invoices (table rules) 4 paths.
DRAWN_MIN_PATHS = 12
DRAWN_MAX_CHARS = 400
DESCRIBE_SIDE = 800  # drawn pages are rendered with this longest side (px) to be described
COVER = "picture on the cover, front page"  # said of the pictures on page 1 of a longer PDF
OCR_DPI = 300  # rendering resolution for OCR, lowered for big pages to keep Limits.ocr_max_side
MIN_OCR_DPI = 150  # the least resolution Tesseract is told a page has (_page_ocr)
_LOCKED = (pdfium_c.FPDF_ERR_PASSWORD, pdfium_c.FPDF_ERR_SECURITY)
# Notes a reader put on a page (a sticky note, a comment on a highlight, a stamp): their words are
# read. A popup only shows its parent's note again, and a link says nothing.
_COMMENTS = frozenset({pdfium_c.FPDF_ANNOT_TEXT, pdfium_c.FPDF_ANNOT_FREETEXT, pdfium_c.FPDF_ANNOT_HIGHLIGHT,
                       pdfium_c.FPDF_ANNOT_UNDERLINE, pdfium_c.FPDF_ANNOT_SQUIGGLY, pdfium_c.FPDF_ANNOT_STRIKEOUT,
                       pdfium_c.FPDF_ANNOT_STAMP, pdfium_c.FPDF_ANNOT_CARET, pdfium_c.FPDF_ANNOT_INK,
                       pdfium_c.FPDF_ANNOT_FILEATTACHMENT, pdfium_c.FPDF_ANNOT_SQUARE, pdfium_c.FPDF_ANNOT_CIRCLE})
_TICKED = frozenset({pdfium_c.FPDF_FORMFIELD_CHECKBOX, pdfium_c.FPDF_FORMFIELD_RADIOBUTTON})
_UNSAID = frozenset({pdfium_c.FPDF_FORMFIELD_PUSHBUTTON, pdfium_c.FPDF_FORMFIELD_SIGNATURE})
MIN_PRINTED = 4  # characters of a field's value that, found in the page's text, is taken as printed there
MAX_ANNOTATIONS = 2000  # read on one page: a form has tens, a page drawn as annotations thousands
_FIELD_INDEX = re.compile(r"\[\d+\]")
# pdfium marks soft hyphens and other layout points with C0 control characters.
_CONTROLS = {c: None for c in range(32) if chr(c) not in "\t\n"}


def _open(path: str) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(path)
    except pdfium.PdfiumError as e:
        if path.lower().endswith(".ai") and not _starts_as_pdf(path):
            raise ExtractError(path, "an Illustrator file saved without PDF compatibility (PostScript inside); "
                                     "save it again with \"Create PDF Compatible File\" on, or add it to .scentignore") from e
        if getattr(e, "err_code", None) in _LOCKED and _has_encrypt_entry(path):
            raise ExtractError(path, "encrypted PDF: scent cannot read it without the password; "
                                     "decrypt it or add it to .scentignore") from e
        # In our words, not PDFium's: its message comes from a last-error state that another
        # document may have set ("Success" for a file it just refused), so one file read twice
        # would say two things.
        what = "the file could not be opened" if getattr(e, "err_code", None) == pdfium_c.FPDF_ERR_FILE \
            else "its structure is damaged"
        raise ExtractError(path, f"unreadable PDF ({what}); it may be damaged or cut short, "
                                 "download or save it again, or add it to .scentignore") from e


def _starts_as_pdf(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return b"%PDF-" in f.read(1024)
    except OSError:
        return False


def _has_encrypt_entry(path: str) -> bool:
    """Whether the file's trailer names an /Encrypt dictionary, as every encrypted PDF's does. PDFium's
    error code is a last-error state that some refusals (an empty page tree) leave as it was: after an
    encrypted file, such a file would be called encrypted too."""
    try:
        with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return data.find(b"/Encrypt") >= 0
    except (OSError, ValueError):  # vanished, or empty (mmap of 0 bytes)
        return False


def _page_text(page: pdfium.PdfPage) -> str:
    textpage = page.get_textpage()
    try:
        text = textpage.get_text_range()
    finally:
        textpage.close()
    return text.replace("\r\n", "\n").replace("\r", "\n").translate(_CONTROLS).strip()


def _filled_in(page: pdfium.PdfPage, form, text: str) -> list[str]:
    """What was written on the page rather than printed on it, in the page's order: each filled
    form field's value after its label ("Your surname: Okafor"), each ticked box's, and the notes
    readers left ("comment by Ben: check the postcode"). pdfium's text layer has none of them. A
    value the text layer holds already (a form printed filled in) is not said twice."""
    lines = []
    for i in range(min(pdfium_c.FPDFPage_GetAnnotCount(page), MAX_ANNOTATIONS)):
        annot = pdfium_c.FPDFPage_GetAnnot(page, i)
        if not annot:
            continue
        try:
            subtype = pdfium_c.FPDFAnnot_GetSubtype(annot)
            if subtype == pdfium_c.FPDF_ANNOT_WIDGET and form is not None:
                line = _field(annot, form, text)
            elif subtype in _COMMENTS:
                note = " ".join(_utf16(pdfium_c.FPDFAnnot_GetStringValue, annot, b"Contents").split())
                who = " ".join(_utf16(pdfium_c.FPDFAnnot_GetStringValue, annot, b"T").split())
                if subtype == pdfium_c.FPDF_ANNOT_FREETEXT:  # words typed onto the page (a form filled in by hand)
                    line = note
                else:
                    line = f"comment{' by ' + who if who else ''}: {note}" if note else ""
            else:
                line = ""
        finally:
            pdfium_c.FPDFPage_CloseAnnot(annot)
        if line:
            lines.append(line)
    return list(dict.fromkeys(lines))  # a radio group's buttons each say the group's value


def _field(annot, form, text: str) -> str:
    kind = pdfium_c.FPDFAnnot_GetFormFieldType(form, annot)
    if kind in _UNSAID or (kind in _TICKED and not pdfium_c.FPDFAnnot_IsChecked(form, annot)):
        return ""
    value = " ".join(_utf16(pdfium_c.FPDFAnnot_GetFormFieldValue, form, annot).split())
    # A value the page prints already (a form saved filled in and flattened) is said once; a short
    # one ("2", a box's "Yes") is found in any page's text, and is said.
    if not value or (kind not in _TICKED and len(value) >= MIN_PRINTED and value.casefold() in text.casefold()):
        return ""
    label = " ".join(_utf16(pdfium_c.FPDFAnnot_GetFormFieldAlternateName, form, annot).split())
    if not label:  # its name, "Applicant.surname[0]" -> "surname"
        label = _FIELD_INDEX.sub("", _utf16(pdfium_c.FPDFAnnot_GetFormFieldName, form, annot)).rsplit(".", 1)[-1]
    if kind == pdfium_c.FPDF_FORMFIELD_CHECKBOX:
        value = "yes"
    return f"{label}: {value}" if label and label.casefold() != value.casefold() else value


def _utf16(function, *args) -> str:
    """A string pdfium writes as UTF-16 into a buffer the caller sizes (asked first with none)."""
    size = function(*args, None, 0)
    if size <= 2:
        return ""
    buffer = (ctypes.c_ushort * (size // 2))()
    function(*args, buffer, size)
    return bytes(buffer)[:size - 2].decode("utf-16-le", "replace")


def _looks_scanned(page: pdfium.PdfPage, text: str) -> bool:
    chars = len("".join(text.split()))
    if chars >= SCANNED_MAX_CHARS:
        return False
    if chars == 0:
        return next(iter(page.get_objects(max_depth=1)), None) is not None
    width, height = page.get_size()
    covered = 0.0
    for obj in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,)):
        left, bottom, right, top = obj.get_bounds()
        covered += max(0.0, min(right, width) - max(left, 0.0)) * max(0.0, min(top, height) - max(bottom, 0.0))
    return covered >= SCANNED_MIN_IMAGE_SHARE * width * height


def _page_ocr(page: pdfium.PdfPage, limits: Limits) -> str:
    """The page drawn at ~OCR_DPI (less when a side would pass ocr_max_side, or when its scan has
    fewer pixels: drawn larger than scanned, a 72 dpi receipt read "Tel 91223" and "12.93" for
    01223 and 12.99) and read. Tesseract is told at least 150 dpi: told 72 or 100, it dropped two of
    that receipt's lines; told nothing, the small page number of a 150 dpi scan."""
    width, height = page.get_size()
    scale = min(OCR_DPI / 72, _scanned_scale(page), limits.ocr_max_side / max(width, height, 1.0))
    bitmap = page.render(scale=scale, grayscale=True)
    try:
        image = bitmap.to_pil()
    finally:
        bitmap.close()
    with released():
        return ocr.read_text(image, limits.ocr, limits.ocr_langs, limits.ocr_max_side,
                             dpi=max(round(scale * 72), MIN_OCR_DPI))


def _scanned_scale(page: pdfium.PdfPage) -> float:
    """Pixels per point of the page's largest picture (its scan): 150 dpi is 2.08; inf when none says."""
    best, scale = 0.0, math.inf
    for obj in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,)):
        left, bottom, right, top = obj.get_bounds()
        area = (right - left) * (top - bottom)
        if area > best:
            try:
                pixels = obj.get_px_size()
            except pdfium.PdfiumError:
                continue
            best, scale = area, max(pixels[0] / max(right - left, 1e-3), pixels[1] / max(top - bottom, 1e-3))
    return scale if scale > 0 else math.inf


def _pictures(page: pdfium.PdfPage, limits: Limits, page_ocr: str | None, meta: dict, number: int,
              path: str) -> list[tuple[str, Picture]]:
    """(text, where its pixels are) of the page's embedded pictures: the text is what each shows,
    then the words read in it. A page read by OCR as a whole (`page_ocr` not None: it looked
    scanned) has had their pixels read, found words or not; otherwise each picture is read. The
    scan of a page of text gives no section (the page's OCR text is its words)."""
    width, height = page.get_size()
    texts = []
    for position, obj in enumerate(page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=2)):
        if len(texts) >= limits.max_pdf_images:
            meta["pictures_skipped"] = True
            break
        left, bottom, right, top = obj.get_bounds()
        try:
            px_w, px_h = obj.get_px_size()
        except pdfium.PdfiumError:
            px_w = px_h = 0
        if (min(px_w, px_h) < MIN_PICTURE_PX or px_w * px_h > limits.max_image_pixels
                or (right - left) * (top - bottom) < MIN_PICTURE_SHARE * width * height):
            continue
        try:
            # A copy, made while the bitmap lives: PIL may share its buffer, which PDFium frees with it
            # (pypdfium2 frees this bitmap itself; closing it by hand warns "foreign").
            image = obj.get_bitmap(render=False).to_pil().copy()
            seen = ""
            with released():
                if limits.ocr is not None and page_ocr is None:
                    seen = ocr.read_text(image, limits.ocr, limits.ocr_langs, limits.ocr_max_side)
                words = describe(image, ocr_text=seen or page_ocr or "")
            if page_ocr and is_text_page(words):
                # The scan of a page of text is that page, whose words its OCR unit holds. Described,
                # it added "document page, text", which the dense list put first for any question
                # beginning "picture of" (a scanned addendum over a shop's photo page on bench/).
                continue
        except OcrFailed as e:
            meta.setdefault("ocr_error", f"a picture on page {number} was not read by OCR ({e})")
            continue
        except (pdfium.PdfiumError, OSError, ValueError) as e:
            meta.setdefault("picture_errors", []).append(f"page {number}: a picture did not decode ({e})")
            continue
        texts.append(("\n".join(t for t in (words, seen) if t),
                      Picture(f"p{number}#{position}", partial(load_picture, path, number, position))))
    return texts


def _drawn(page: pdfium.PdfPage, text: str, page_ocr: str) -> str | None:
    """What a page drawn with vector paths shows; "" when it was rendered and nothing drawn was
    found, None when it was not worth rendering. A page with little text is described whole, unless
    the layout model finds a table and no figure on it (the paths are the table's rules); a page of
    text with many paths (a report page with a chart beside its paragraphs) only when the model
    finds a figure on it, and then only that figure."""
    paths = 0
    for _ in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_PATH,), max_depth=2):
        paths += 1
        if paths >= DRAWN_MIN_PATHS:
            break
    else:
        return None
    mostly_text = len("".join(text.split())) >= DRAWN_MAX_CHARS
    if mostly_text and not layout.available():
        return None
    width, height = page.get_size()
    scale = DESCRIBE_SIDE / max(width, height, 1.0)
    bitmap = page.render(scale=scale)
    try:
        image = bitmap.to_pil()
    finally:
        bitmap.close()
    if mostly_text or text.strip():
        with released():
            regions = layout.regions(image)
        figures = [r for r in regions if r.label == "figure" and r.score >= layout.FIGURE_MIN]
        tables = [r for r in regions if r.label == "table" and r.score >= layout.TABLE_MIN]
        # A page of text with no figure draws nothing; nor does a short page whose paths are a
        # table's rules (an invoice's ruled table was described "chart, line chart or graph" and
        # shown for its words). Without the model (regions []) a short page is described whole.
        if mostly_text and not figures or tables and not figures:
            return ""
    if mostly_text:
        x0, y0, x1, y1 = max(figures, key=lambda r: r.area).box
        image = image.crop((int(x0), int(y0), int(x1 + 1), int(y1 + 1)))
        text = _text_in(page, (x0 / scale, height - y1 / scale, x1 / scale, height - y0 / scale))
    with released():
        words = describe(image, ocr_text=page_ocr or text)
    # It is drawn with lines and shapes whatever the pixels say.
    return words if "drawing" in words.split(", ") else f"drawing, {words}"


def _text_in(page: pdfium.PdfPage, box: tuple[float, float, float, float]) -> str:
    """The text layer inside `box` (left, bottom, right, top in PDF points): a figure's labels."""
    textpage = page.get_textpage()
    try:
        return textpage.get_text_bounded(*box).translate(_CONTROLS).strip()
    finally:
        textpage.close()


def _page_pictures(document: pdfium.PdfDocument, index: int, text: str, page_ocr: str | None, limits: Limits,
                   meta: dict, drawn_left: int, path: str) -> tuple[list[tuple[str, Picture]], bool]:
    """((text, pixels) of the page's pdf_image sections, whether the page was rendered to look
    for a drawing: that is what max_drawn_pages bounds, found or not, since the render and the
    layout model are the cost of a page of ruled tables as much as of a chart)."""
    page = document[index]
    try:
        texts = _pictures(page, limits, page_ocr, meta, index + 1, path)
        drawn = None
        if drawn_left > 0:
            try:
                drawn = _drawn(page, text, page_ocr or "")
            except pdfium.PdfiumError as e:
                meta.setdefault("picture_errors", []).append(f"page {index + 1}: not drawn ({e})")
        if drawn:
            texts.insert(0, (drawn, Picture(f"p{index + 1}:drawn", partial(load_picture, path, index + 1, None))))
        return texts, drawn is not None
    finally:
        page.close()


def load_picture(path: str, number: int, position: int | None, side: int) -> Image.Image:
    """Page `number`'s embedded image object `position` (in `_pictures`' order), or with
    position None the page drawn, at most `side` px; for an image-text model."""
    with PDFIUM:
        return _load_picture(path, number, position, side)


def _load_picture(path: str, number: int, position: int | None, side: int) -> Image.Image:
    document = _open(path)
    try:
        page = document[number - 1]
        try:
            if position is None:
                width, height = page.get_size()
                bitmap = page.render(scale=side / max(width, height, 1.0))
                try:
                    return bitmap.to_pil().convert("RGB")
                finally:
                    bitmap.close()
            objects = page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=2)
            obj = next((o for i, o in enumerate(objects) if i == position), None)
            if obj is None:
                raise ValueError(f"page {number} has no picture {position} any more")
            image = obj.get_bitmap(render=False).to_pil()
            image.thumbnail((side, side))
            # A copy: the bitmap's buffer may be pdfium's, freed with the document.
            return image.convert("RGB")
        finally:
            page.close()
    except pdfium.PdfiumError as e:
        raise ValueError(f"page {number}: the picture did not decode ({e})") from e
    finally:
        document.close()


def _read_page(document: pdfium.PdfDocument, index: int, limits: Limits, meta: dict) -> tuple[str, str | None]:
    """(text layer and what was filled in, OCR text: None when the page was not read by OCR). A
    failure of OCR costs only the OCR text (meta["ocr_error"])."""
    page = document[index]
    try:
        layer = _page_text(page)
        text = "\n".join(filter(None, [layer, *_filled_in(page, document.formenv.raw if document.formenv else None,
                                                           layer)]))
        if limits.ocr is None:
            return text, None
        try:
            return text, _page_ocr(page, limits) if _looks_scanned(page, layer) else None
        except (OcrFailed, pdfium.PdfiumError) as e:
            meta.setdefault("ocr_error", f"page {index + 1} was not read by OCR ({e}); its text layer is indexed")
            return text, None
    finally:
        page.close()


def extract(path: str, limits: Limits) -> Extracted:
    # The whole file, but for its pages' OCR and its pictures' descriptions (scent.pdfium_lock).
    refused, attachments_refused = bombs(path, limits)
    if refused:
        raise ExtractError(path, refused)
    with PDFIUM:
        got, attached = _extract(path, limits, attachments_refused)
    if not attached:
        return got
    # Read after PDFium is let go: an attached PDF is read as any file is, and takes it again.
    with MemberReader(path, limits, "PDF") as reader:
        for entry in attached:
            reader.add(entry)
        return attach(got, reader)


MAX_BOOKMARKS = 10_000  # an outline's entries read; a book's is a few hundred


def _outline(document: pdfium.PdfDocument) -> dict[int, list[str]]:
    """The outline's (bookmarks') titles by the page (from 1) each points to; a broken or looping
    outline gives what was read of it."""
    found: dict[int, list[str]] = {}
    try:
        for n, mark in enumerate(document.get_toc()):
            if n >= MAX_BOOKMARKS:
                break
            dest = mark.get_dest()
            index = dest.get_index() if dest is not None else None
            title = " ".join((mark.get_title() or "").split())
            if title and index is not None and index >= 0:
                found.setdefault(index + 1, []).append(title)
    except (pdfium.PdfiumError, ValueError, RecursionError):
        pass
    return found


def _attachments(document: pdfium.PdfDocument, limits: Limits) -> list[Entry]:
    """The files attached to the document (its embedded files: a portfolio's documents, an
    invoice's data), each read out while PDFium is held: those of kinds scent reads, up to
    max_archive_mb in all (the rest are named to MemberReader, which says why they are not read)."""
    from . import file_kind

    entries, left = [], limits.max_member_bytes
    for i in range(document.count_attachments()):
        try:
            attachment = document.get_attachment(i)
            name = attachment.get_name()
        except pdfium.PdfiumError:
            continue
        # PDFium inflates an attachment to tell its size, so only one scent reads is asked for
        # (once: its bytes); MemberReader refuses the others by their kind, or depth, not size.
        data, size = b"", 0
        if file_kind(name) is not None and limits.member_depth > 0:
            try:
                data = bytes(attachment.get_data())
            except pdfium.PdfiumError:
                pass
            size = len(data)
            if size > left:  # MemberReader says it is past max_archive_mb
                data = b""
            left -= len(data)
        date = None
        if attachment.has_key("ModDate"):
            try:
                date = from_pdf(attachment.get_str_value("ModDate"))
            except pdfium.PdfiumError:
                pass
        entries.append(Entry(name, size, partial(bytes, data), date=date))
    return entries


def _extract(path: str, limits: Limits, attachments_refused: str | None) -> tuple[Extracted, list[Entry]]:
    document = _open(path)
    try:
        if document.get_formtype() != pdfium_c.FORMTYPE_NONE:
            document.init_forms()  # before any page is loaded: a field's value is read through the form
        page_count = len(document)
        read = min(page_count, limits.max_pdf_pages)
        sections, unreadable, meta = [], [], {}
        drawn_left = limits.max_drawn_pages
        headings = _outline(document)
        for index in range(read):
            try:
                text, seen = _read_page(document, index, limits, meta)
            except pdfium.PdfiumError:
                # One broken page should not cost the rest; it keeps its (empty) place.
                text, seen = "", None
                unreadable.append(index + 1)
            text = headed(text, headings.get(index + 1, []))
            sections.append(Section(text=text, kind="pdf_page", page=index + 1, start=0))
            if seen:
                sections.append(Section(text=seen, kind="ocr", page=index + 1, start=0))
            if limits.describe and index + 1 not in unreadable:
                try:
                    pictures, rendered = _page_pictures(document, index, text, seen, limits, meta, drawn_left, path)
                except pdfium.PdfiumError:
                    pictures, rendered = [], False
                drawn_left -= rendered
                if index == 0 and page_count > 1:
                    # "the photo on the cover": where a picture sits is part of how people recall it.
                    pictures = [(f"{t}\n{COVER}", p) for t, p in pictures if t]
                sections.extend(Section(text=t, kind="pdf_image", page=index + 1, start=0, picture=p)
                                for t, p in pictures if t)
        try:
            info = document.get_metadata_dict()
        except pdfium.PdfiumError:
            info = {}
        title = (info.get("Title") or "").strip()
        created = from_pdf(info.get("CreationDate"))  # kept when the file is copied, unlike its mtime
        attached = []
        if document.count_attachments():
            if attachments_refused:
                meta.setdefault("left_out", []).append(attachments_refused)
            else:
                attached = _attachments(document, limits)
    finally:
        document.close()
    meta.update(page_count=page_count, truncated=read < page_count)
    if unreadable:
        meta["unreadable_pages"] = unreadable
    return Extracted(kind="pdf", sections=sections, title=title, date=created, meta=meta), attached


def read_member(path: str, name: str, max_bytes: int) -> bytes:
    """The bytes of the file `name` attached to the PDF at `path` (scent.extract.members.read_member)."""
    with PDFIUM:
        document = _open(path)
        try:
            for i in range(document.count_attachments()):
                attachment = document.get_attachment(i)
                if attachment.get_name() == name:
                    data = bytes(attachment.get_data())
                    return bounded(io.BytesIO(data), path, name, len(data), max_bytes)
        finally:
            document.close()
    raise ExtractError(path, f"it has no attached file {name} any more; re-index the folder")
