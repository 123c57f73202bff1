"""PDFium, the library that reads PDFs (pypdfium2), is not thread-safe: no two threads of a process
may call into it at once, not even on different documents, or the process crashes (a segmentation
fault, "double free or corruption"). Every use of it holds PDFIUM: `scent serve` draws thumbnails in
several threads at once, and with --watch indexes PDFs in another."""
from __future__ import annotations

import threading

PDFIUM = threading.RLock()
