"""Text bundles (.textbundle, and .textpack, the same zipped): the Markdown a note app exports
(Bear, Ulysses, iA Writer, Craft), a folder holding the text as text.md (or text.markdown,
text.txt) beside its info.json and its pictures in assets/. The text is read as a Markdown file
is (headings, front matter), titled by its first heading, else by the bundle's name; a folder
bundle is one file (scent.walk.DOCUMENT_PACKAGES), not walked. Its pictures are not read.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import zipfile

from scent.units import Extracted
from . import text
from .base import Limits, _size, named, unreadable
from scent.errors import ExtractError

EXTENSIONS = (".textbundle", ".textpack")
KIND = "text"
TEXT_NAMES = ("text.md", "text.markdown", "text.txt")


def extract(path: str, limits: Limits) -> Extracted:
    if os.path.isdir(path):
        inside = next((os.path.join(path, n) for n in TEXT_NAMES if os.path.isfile(os.path.join(path, n))), None)
        if inside is None:
            raise unreadable(path, "text bundle", f"it holds no {', '.join(TEXT_NAMES)}")
        got = text.extract(inside, limits)
    else:
        got = _packed(path, limits)
    # The bundle's text file is always named text.*: a title the text reader took from that name is none.
    if not got.title or got.title == "text":
        got.title = os.path.splitext(os.path.basename(path.rstrip("/")))[0]
    return got


def _packed(path: str, limits: Limits) -> Extracted:
    """A .textpack: its bundle's text read from a private copy (the text reader reads files)."""
    try:
        with zipfile.ZipFile(path) as z:
            infos = sorted((i for i in z.infolist() if os.path.basename(i.filename).lower() in TEXT_NAMES),
                           key=lambda i: (i.filename.count("/"), TEXT_NAMES.index(os.path.basename(i.filename).lower())))
            if not infos:
                raise unreadable(path, "text pack", f"it holds no {', '.join(TEXT_NAMES)}")
            info = infos[0]
            if info.file_size > limits.max_text_bytes:
                raise ExtractError(path, f"its text is {_size(info.file_size)}, over the {_size(limits.max_text_bytes)} "
                                         "limit; raise the max_file_mb setting (--max-file-mb) or add it to .scentignore")
            with z.open(info) as f:
                data = f.read(limits.max_text_bytes + 1)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError, EOFError, ValueError) as e:
        raise unreadable(path, "text pack", named(e)) from None
    folder = tempfile.mkdtemp(prefix="scent-textpack-")
    try:
        copy = os.path.join(folder, os.path.basename(info.filename).lower())
        with open(copy, "xb") as out:
            out.write(data[:limits.max_text_bytes])
        return text.extract(copy, limits)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
