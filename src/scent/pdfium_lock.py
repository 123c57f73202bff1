"""PDFium, the library that reads PDFs (pypdfium2), is not thread-safe: no two threads of a process
may call into it at once, not even on different documents, or the process crashes (a segmentation
fault, "double free or corruption"). Every use of it holds PDFIUM: `scent serve` draws thumbnails in
several threads at once, and with --watch indexes PDFs in another."""
from __future__ import annotations

import threading
from contextlib import contextmanager

PDFIUM = threading.Lock()  # not reentrant: no use of PDFium calls another


@contextmanager
def released():
    """PDFIUM let go while this thread, which holds it, works on pixels it has copied out of PDFium
    (OCR, the picture models: seconds a page), so a thumbnail does not wait for a whole PDF."""
    PDFIUM.release()
    try:
        yield
    finally:
        PDFIUM.acquire()
