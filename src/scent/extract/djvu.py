"""DjVu documents (.djvu, .djv): the format of many scanned books and papers, read as a PDF is
(file kind `pdf`, a unit of kind `pdf_page` a page, so results say "p.12"): each page's hidden
text layer where the scanner's OCR left one, headed by the titles the book's outline points there, and where a page has next to none (fewer than the
PDF reader's SCANNED_MAX_CHARS), the page drawn at ~300 dpi and read by scent's OCR; the
document's title, author and year from its metadata. Pages past max_pdf_pages are not read.

Read by djvu-rs (MIT; a Rust decoder inside its wheel, no DjVuLibre needed). A Rust panic
reaches Python as pyo3's PanicException, a BaseException: it is caught as the file's error here,
where any other BaseException (Ctrl-C) is not. A page's pictures are not described (PDF pages'
are), and no page is drawn for the description."""
from __future__ import annotations

from scent import ocr
from scent.errors import OcrFailed
from scent.units import Extracted, Section
from .base import Limits, headed, named, unreadable
from .pdf import OCR_DPI, SCANNED_MAX_CHARS

EXTENSIONS = (".djvu", ".djv")
KIND = "pdf"


def extract(path: str, limits: Limits) -> Extracted:
    import djvu_rs

    try:
        document = djvu_rs.Document.open(path)
        count = document.page_count()
        info = document.metadata() or {}
        headings = _headings(document.bookmarks())
    except BaseException as e:  # noqa: BLE001 (a panic; see the module's docstring)
        _unless_interrupt(e)
        raise unreadable(path, "DjVu document", named(e)) from None
    read = min(count, limits.max_pdf_pages)
    sections, unreadable_pages, meta = [], [], {}
    for index in range(read):
        try:
            page = document.page(index)
            text = (page.text() or "").strip()
            text = headed(text, headings.get(index + 1, []))
            seen = _page_ocr(page, limits, meta, index) if limits.ocr is not None and _scanned(text) else None
        except BaseException as e:  # noqa: BLE001 (a panic: one broken page costs only itself)
            _unless_interrupt(e)
            text, seen = "", None
            unreadable_pages.append(index + 1)
        sections.append(Section(text=text, kind="pdf_page", page=index + 1, start=0))
        if seen:
            sections.append(Section(text=seen, kind="ocr", page=index + 1, start=0))
    meta.update(page_count=count, truncated=read < count)
    if unreadable_pages:
        meta["unreadable_pages"] = unreadable_pages
    byline = ", ".join(filter(None, (info.get("author"), info.get("year"))))
    if byline and sections:
        first = sections[0]
        first.text = "\n".join(filter(None, (first.text, byline)))
    return Extracted(kind=KIND, sections=sections, title=(info.get("title") or "").strip(), meta=meta)


def _headings(bookmarks: list, into: dict[int, list[str]] | None = None) -> dict[int, list[str]]:
    """The outline's titles by the page they point to ("#12" is page 12), nested ones too."""
    into = {} if into is None else into
    for mark in bookmarks:
        url, title = mark.get("url") or "", " ".join((mark.get("title") or "").split())
        if title and url.startswith("#") and url[1:].isdigit():
            into.setdefault(int(url[1:]), []).append(title)
        _headings(mark.get("children") or [], into)
    return into


def _unless_interrupt(e: BaseException) -> None:
    if isinstance(e, (KeyboardInterrupt, SystemExit, GeneratorExit)):
        raise e


def _scanned(text: str) -> bool:
    return len("".join(text.split())) < SCANNED_MAX_CHARS


def _page_ocr(page, limits: Limits, meta: dict, index: int) -> str | None:
    """The page drawn at ~OCR_DPI (less where a side would pass ocr_max_side) and read; a failure
    of OCR costs only the OCR text (meta["ocr_error"])."""
    scale = min(OCR_DPI / max(page.dpi, 1), limits.ocr_max_side / max(page.width, page.height, 1))
    size = (max(1, round(page.width * scale)), max(1, round(page.height * scale)))
    image = page.render(size=size).to_pil().convert("L")
    try:
        return ocr.read_text(image, limits.ocr, limits.ocr_langs, limits.ocr_max_side,
                             dpi=round(page.dpi * scale))
    except OcrFailed as e:
        meta.setdefault("ocr_error", f"page {index + 1} was not read by OCR ({e}); its text layer is indexed")
        return None


def page_picture(source: str | bytes, number: int, side: int):
    """Page `number` (from 1) of the document (its file, or its bytes) drawn at most `side` pixels
    a side: a thumbnail. ValueError when it cannot be drawn."""
    import djvu_rs

    try:
        document = djvu_rs.Document.from_bytes(source) if isinstance(source, bytes) else djvu_rs.Document.open(source)
        if not 1 <= number <= document.page_count():
            raise ValueError(f"it has no page {number} (it has {document.page_count()})")
        page = document.page(number - 1)
        scale = side / max(page.width, page.height, 1)
        return page.render(size=(max(1, round(page.width * scale)), max(1, round(page.height * scale)))).to_pil()
    except BaseException as e:  # noqa: BLE001 (a panic)
        _unless_interrupt(e)
        raise ValueError(named(e)) from None
