"""PDFs: one section per page, kept even when a page has no text (it may be a scan).

When OCR is on (Limits.ocr), a page that looks scanned (almost no text layer, and a picture
covering much of it or no text at all) is rendered and read into an `ocr` section with the
same page number.
"""
from __future__ import annotations

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from scent import ocr
from scent.errors import ExtractError, OcrFailed
from scent.units import Extracted, Section
from .base import Limits

EXTENSIONS = (".pdf",)
# A page with fewer non-space characters than this in its text layer may be a scan (a scanner
# may stamp a page number or "Scanned with ..." on it); one with more has its text already.
SCANNED_MAX_CHARS = 100
# ... and it is one when pictures cover at least this share of it, or when it has no text at
# all but something drawn on it (text as outlines, a scan pdfium does not see as a picture).
# A page with nothing on it is not read (it would cost ~0.25 s to find nothing).
SCANNED_MIN_IMAGE_SHARE = 0.3
OCR_DPI = 300  # rendering resolution for OCR, lowered for big pages to keep Limits.ocr_max_side
_LOCKED = (pdfium_c.FPDF_ERR_PASSWORD, pdfium_c.FPDF_ERR_SECURITY)
# pdfium marks soft hyphens and other layout points with C0 control characters.
_CONTROLS = {c: None for c in range(32) if chr(c) not in "\t\n"}


def _open(path: str) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(path)
    except pdfium.PdfiumError as e:
        if getattr(e, "err_code", None) in _LOCKED:
            raise ExtractError(path, "encrypted PDF: scent cannot read it without the password; "
                                     "decrypt it or add it to .scentignore") from e
        raise ExtractError(path, f"unreadable PDF ({e}); it may be damaged or cut short, "
                                 "download or save it again, or add it to .scentignore") from e


def _page_text(page: pdfium.PdfPage) -> str:
    textpage = page.get_textpage()
    try:
        text = textpage.get_text_range()
    finally:
        textpage.close()
    return text.replace("\r\n", "\n").replace("\r", "\n").translate(_CONTROLS).strip()


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
    """The page drawn at ~OCR_DPI (less when a side would pass ocr_max_side) and read."""
    width, height = page.get_size()
    scale = min(OCR_DPI / 72, limits.ocr_max_side / max(width, height, 1.0))
    bitmap = page.render(scale=scale, grayscale=True)
    try:
        image = bitmap.to_pil()
    finally:
        bitmap.close()
    return ocr.read_text(image, limits.ocr, limits.ocr_langs, limits.ocr_max_side, dpi=round(scale * 72))


def _read_page(document: pdfium.PdfDocument, index: int, limits: Limits, meta: dict) -> tuple[str, str]:
    """(text layer, OCR text). A failure of OCR costs only the OCR text (meta["ocr_error"])."""
    page = document[index]
    try:
        text = _page_text(page)
        if limits.ocr is None:
            return text, ""
        try:
            return text, _page_ocr(page, limits) if _looks_scanned(page, text) else ""
        except (OcrFailed, pdfium.PdfiumError) as e:
            meta.setdefault("ocr_error", f"page {index + 1} was not read by OCR ({e}); its text layer is indexed")
            return text, ""
    finally:
        page.close()


def extract(path: str, limits: Limits) -> Extracted:
    document = _open(path)
    try:
        page_count = len(document)
        read = min(page_count, limits.max_pdf_pages)
        sections, unreadable, meta = [], [], {}
        for index in range(read):
            try:
                text, seen = _read_page(document, index, limits, meta)
            except pdfium.PdfiumError:
                # One broken page should not cost the rest; it keeps its (empty) place.
                text, seen = "", ""
                unreadable.append(index + 1)
            sections.append(Section(text=text, kind="pdf_page", page=index + 1, start=0))
            if seen:
                sections.append(Section(text=seen, kind="ocr", page=index + 1, start=0))
        try:
            title = (document.get_metadata_dict().get("Title") or "").strip()
        except pdfium.PdfiumError:
            title = ""
    finally:
        document.close()
    meta.update(page_count=page_count, truncated=read < page_count)
    if unreadable:
        meta["unreadable_pages"] = unreadable
    return Extracted(kind="pdf", sections=sections, title=title, meta=meta)
