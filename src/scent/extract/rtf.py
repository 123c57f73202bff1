"""Rich Text Format (.rtf): its text, as one stretch the chunker splits; pictures and fonts
embedded in it are skipped by striprtf."""
from __future__ import annotations

import os
import re

from striprtf.striprtf import rtf_to_text

from scent.errors import ExtractError
from scent.units import Extracted
from .base import Limits, read_bytes, span

EXTENSIONS = (".rtf", ".rtfd")  # .rtfd: TextEdit's document with pictures, a folder (its TXT.rtf is read)
_CODEPAGE = re.compile(rb"\\ansicpg(\d+)")


def extract(path: str, limits: Limits) -> Extracted:
    raw = read_bytes(os.path.join(path, "TXT.rtf") if os.path.isdir(path) else path, limits)
    if not raw.lstrip().startswith(b"{\\rtf"):
        raise ExtractError(path, "not an RTF file (it does not start with {\\rtf); "
                                 "rename it to its real type or add it to .scentignore")
    try:
        text, encoding = text_of(raw)
    except ValueError as e:
        raise ExtractError(path, f"RTF that striprtf cannot read ({e}); "
                                 "open and save it again, or add it to .scentignore") from e
    meta = {"encoding": encoding}
    if not raw.rstrip(b"\0\r\n\t ").endswith(b"}"):
        meta["left_out"] = ["the RTF file ends before its last closing brace (cut short?): the text up to "
                            "there is indexed; save it again to index all of it"]
    section = span(text, 0, len(text), "rtf")
    return Extracted(kind="rtf", sections=[section] if section else [], meta=meta)


def text_of(raw: bytes) -> tuple[str, str]:
    """An RTF document's text (an Outlook message's body too) and the code page it was read in.
    ValueError: striprtf cannot read it."""
    # \'e9 escapes are bytes in the document's code page; the rest of RTF is 7-bit ASCII.
    found = _CODEPAGE.search(raw[:4096])
    encoding = f"cp{found.group(1).decode()}" if found else "cp1252"
    try:
        "".encode(encoding)
    except LookupError:
        encoding = "cp1252"
    try:
        text = rtf_to_text(raw.decode("latin-1"), encoding=encoding, errors="replace")
    except (ValueError, IndexError, RecursionError) as e:
        raise ValueError(f"{type(e).__name__}: {e}") from e
    return text.replace("\r\n", "\n").replace("\r", "\n"), encoding
