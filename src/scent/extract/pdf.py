"""PDFs: one section per page, kept even when a page has no text (it may be a scan)."""
from __future__ import annotations

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from scent.errors import ExtractError
from scent.units import Extracted, Section
from .base import Limits

EXTENSIONS = (".pdf",)
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


def _page_text(document: pdfium.PdfDocument, index: int) -> str:
    page = document[index]
    try:
        textpage = page.get_textpage()
        try:
            text = textpage.get_text_range()
        finally:
            textpage.close()
    finally:
        page.close()
    return text.replace("\r\n", "\n").replace("\r", "\n").translate(_CONTROLS).strip()


def extract(path: str, limits: Limits) -> Extracted:
    document = _open(path)
    try:
        page_count = len(document)
        read = min(page_count, limits.max_pdf_pages)
        sections, unreadable = [], []
        for index in range(read):
            try:
                text = _page_text(document, index)
            except pdfium.PdfiumError:
                # One broken page should not cost the rest; it keeps its (empty) place.
                text = ""
                unreadable.append(index + 1)
            sections.append(Section(text=text, kind="pdf_page", page=index + 1, start=0))
        try:
            title = (document.get_metadata_dict().get("Title") or "").strip()
        except pdfium.PdfiumError:
            title = ""
    finally:
        document.close()
    meta = {"page_count": page_count, "truncated": read < page_count}
    if unreadable:
        meta["unreadable_pages"] = unreadable
    return Extracted(kind="pdf", sections=sections, title=title, meta=meta)
