"""Word 97-2003 .doc files: their text, one paragraph a line and a table row's cells split by
tabs, as catdoc (Debian: catdoc) reads it; indexed as a Word document (kind `docx`).

Why catdoc, a program of its own: no maintained Python library reads the binary Word format, and
catdoc has read it (Word 6 to 2003, fast-saved files, code pages and Unicode) for decades. It is
run as tesseract is: a subprocess with a time limit, its output held to max_file_mb.

Its pictures (JPEG, PNG, TIFF) are read from the OfficeArt blips of its streams (scent.extract.
officeart) and described as a .docx's are. A .doc's text does not say where each stands, so they
come after the text, untitled, in the order the file keeps them.

What people save as .doc is not always one: Word itself writes RTF or HTML under that name, and a
.docx is often renamed. Those are read as what they are (RTF as RTF, a web page as HTML, a .docx
as Word); catdoc would print any file that is not a Word file as if it were text."""
from __future__ import annotations

import shutil
import subprocess
from functools import partial
from struct import error as struct_error

from scent.errors import ExtractError
from scent.units import Extracted, Picture, Section
from . import html, officeart, rtf, word
from .base import Limits, held_whole, laid_out, ole_created, span, unreadable
from .package import OLE_MAGIC, ZIP_MAGIC
from .pictures import described

EXTENSIONS = (".doc", ".dot")  # .dot: a Word 97-2003 template, the same file
KIND = "docx"  # a Word document, whichever format holds it
TIMEOUT_S = 60.0  # catdoc reads a 500-page document in about a second
# Where a .doc keeps its pictures' blips: inline ones in Data; floating ones in the drawing group
# of the table stream or, saved apart from it, in WordDocument.
PICTURE_STREAMS = ("Data", "WordDocument", "1Table", "0Table")


def extract(path: str, limits: Limits) -> Extracted:
    with open(path, "rb") as f:
        head = f.read(64)
    if head.startswith(ZIP_MAGIC):
        return word.extract(path, limits)  # a .docx named .doc
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"{\\rtf"):
        return rtf.extract(path, limits)  # Word's "RTF" saved with the .doc name
    if text[:1] == b"<" and text[1:2].isalpha() or text.startswith(b"<!"):
        return html.extract(path, limits)  # Word's "Web Page" saved with the .doc name
    if not head.startswith(OLE_MAGIC):
        raise ExtractError(path, "not a Word 97-2003 document (not the binary Office format, RTF, HTML or a .docx); "
                                 "rename it to its real type or add it to .scentignore")
    text = _catdoc(path, limits)
    section = span(text, 0, len(text), KIND)
    meta: dict = {}
    sections = [section] if section else []
    if limits.describe:
        sections = laid_out(sections + _pictures(path, limits, meta))
    return Extracted(kind=KIND, sections=sections, date=ole_created(path), meta=meta)


def _pictures(path: str, limits: Limits, meta: dict) -> list[Section]:
    """The .doc's bitmap pictures as described docx_image sections, each once; a picture that
    does not decode is noted in meta, and streams that cannot be read cost only the pictures."""
    import olefile

    blobs: dict[str, bytes] = {}
    try:
        with olefile.OleFileIO(path) as ole:
            for stream in PICTURE_STREAMS:
                if ole.exists(stream):
                    data = ole.openstream(stream).read()
                    for at in officeart.blips(data):
                        if blob := officeart.blip(data, at):
                            blobs[f"{stream}@{at}"] = blob
    except (OSError, ValueError, struct_error) as e:  # catdoc read the text; the pictures' streams are damaged
        meta.setdefault("picture_errors", []).append(f"pictures not read ({type(e).__name__}: {e})")
    once = {blob: name for name, blob in reversed(list(blobs.items()))}  # the first of each saved twice
    found = described([("", name) for name in blobs if once[blobs[name]] == name], blobs.__getitem__, limits, meta)
    return [Section(text=text, kind="docx_image", title=title, picture=Picture(name, partial(officeart.load_picture, path, name)))
            for title, text, name in found]


def _catdoc(path: str, limits: Limits) -> str:
    held_whole(path, limits, "Word 97-2003 .doc file")  # catdoc's output is read whole: no more text than that
    binary = shutil.which("catdoc")
    if binary is None:
        raise ExtractError(path, "Word 97-2003 .doc files are read by catdoc, which is not installed here; "
                                 "sudo apt-get install catdoc (or save it as .docx), then run scent index again")
    try:
        # -w: a paragraph is one line (not wrapped at 72 columns); -d utf-8: its output's encoding.
        done = subprocess.run([binary, "-w", "-d", "utf-8", path], capture_output=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise ExtractError(path, f"catdoc took over {TIMEOUT_S:.0f} s to read this .doc; it may be damaged, "
                                 "add it to .scentignore") from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        # Its first sentence: what is wrong ("Broken OLE file"), not catdoc's own flags to try.
        why = said[0].split(". ")[0].rstrip(".") if said else f"exit status {done.returncode}"
        raise unreadable(path, "Word 97-2003 .doc file", f"catdoc: {why}", "it may be damaged or cut short")
    if len(done.stdout) > limits.max_text_bytes:
        raise ExtractError(path, f"its text is over the {limits.max_text_bytes // (1024 * 1024)} MB limit; raise "
                                 "the max_file_mb setting (--max-file-mb) or add it to .scentignore")
    return done.stdout.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
