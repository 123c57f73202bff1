"""Extraction: one file in, an Extracted record out (its kind, title, date and sections).

Each format lives in its own module, which names the extensions it reads (EXTENSIONS,
and NAMES for extensionless files such as Makefile) and one `extract(path, limits)`.
This module only dispatches. Section.start points into the file's extracted text: the
decoded file for text and code, each page for PDFs, and the sections joined by blank
lines for formats that are rebuilt (HTML, Word, CSV, JSON).

A reader that comes to find more in its files (a new part read, a fault mended) raises its
module's VERSION, and the modules it uses (base, tags, sidecar, chart ...) raise their readers'
VERSION too: an index records which reader read each file (`reader_of`), and the next run reads
again the files whose reader is newer than the one that read them, so an upgrade reaches the files
already indexed. VERSION here is every reader's at once (how a file becomes sections).
"""
from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Callable
from functools import lru_cache

from scent.errors import ExtractError, ScentError
from scent.units import Extracted
from . import (archive, audio, canvas, clippings, code, djvu, doc, drawio, enex, epub, excalidraw, fb2, html, ical,
               image, iwork, jsondata, kindle, mail, notebook, odt, opml, pdf, raw, rtf, sheet, shortcut, slides,
               subtitles, svg, table, text, textbundle, track, vcard, video, visio, webarchive, word, xmldata, xps)
from . import keep, sidecar
from .base import Limits
from ..walk import is_document_package

__all__ = ["EXTRACTORS", "Limits", "companions", "extract", "file_kind", "holds_files", "reader_of", "reader_module",
           "reported", "forget"]

VERSION = 1

_MODULES = {"text": text, "code": code, "html": html, "csv": table, "json": jsondata,
            "docx": word, "pdf": pdf, "image": image, "sheet": sheet,
            "slides": slides, "odt": odt, "rtf": rtf, "epub": epub,
            "email": mail, "archive": archive, "notebook": notebook, "calendar": ical, "contacts": vcard,
            "video": video, "audio": audio}
EXTRACTORS: dict[str, Callable[[str, Limits], Extracted]] = {
    kind: module.extract for kind, module in _MODULES.items()}
_KIND_BY_EXTENSION = {ext: kind for kind, module in _MODULES.items() for ext in module.EXTENSIONS}
# Readers of files of another reader's kind: a DjVu book and an XPS document are paged as a PDF
# is (`pdf`), a Kindle book and a FictionBook are e-books (`epub`), a Word 97-2003 .doc is a Word
# document (`docx`); a subtitle file, a GPS track, an Evernote export, a text bundle, an outline,
# an Obsidian canvas and a saved link text are text; an SVG, draw.io, Excalidraw or Visio drawing a
# picture, a saved web page a page, an iWork document a Word document, slides or a sheet (its
# KINDS, by extension), a camera raw a picture, an XML file code (as YAML is).
_OTHER_READERS = (canvas, djvu, doc, drawio, enex, excalidraw, fb2, iwork, kindle, opml, raw, shortcut, subtitles, svg,
                  textbundle, track, visio, webarchive, xmldata, xps)
_READER_BY_EXTENSION = {ext: module for module in _OTHER_READERS for ext in module.EXTENSIONS}
# Files of a known kind that a reader of their own reads by their whole name (Kindle's My Clippings.txt).
_READER_BY_FILE_NAME = {clippings.FILE_NAME: clippings}
_KIND_BY_EXTENSION.update({ext: getattr(module, "KINDS", {}).get(ext) or module.KIND
                           for module in _OTHER_READERS for ext in module.EXTENSIONS})
# Extensions of two parts (.tar.gz): os.path.splitext sees only the last.
_LONG_EXTENSIONS = {ext: kind for ext, kind in _KIND_BY_EXTENSION.items() if ext.count(".") > 1}
_KIND_BY_NAME = {name: kind for kind, module in _MODULES.items()
                 for name in getattr(module, "NAMES", ())}


def reported(path: str) -> bool:
    """Whether indexing should look at this file: one of a kind scent reads."""
    return file_kind(path) is not None


def file_kind(path: str) -> str | None:
    """The FILE_KINDS entry for this path by its name, or None when scent does not index it."""
    name = os.path.basename(str(path)).lower()
    for long, kind in _LONG_EXTENSIONS.items():
        if name.endswith(long) and len(name) > len(long):
            return kind
    stem, ext = os.path.splitext(name)
    kind = _KIND_BY_EXTENSION.get(ext) if ext else _KIND_BY_NAME.get(stem)
    if kind is None and mail.mail_file(str(path)):  # by its folders: Thunderbird's, Maildir's
        return "email"
    return kind or ("code" if not ext and _is_script(str(path)) else None)


def _is_script(path: str) -> bool:
    """A file that begins with #! (a shell or Python script in bin/, named without an extension)."""
    try:
        with open(path, "rb") as f:
            return f.read(2) == b"#!"
    except OSError:  # gone, a folder, a path inside another file (mail.mbox#3.eml)
        return False


def reader_module(path: str):
    """The module that reads this path, or None when scent does not index it."""
    kind = file_kind(path)
    if kind is None:
        return None
    return _READER_BY_FILE_NAME.get(_name(path)) or _READER_BY_EXTENSION.get(os.path.splitext(str(path))[1].lower(),
                                                                             _MODULES[kind])


def _name(path: str) -> str:
    return os.path.basename(str(path)).rpartition("#")[2].lower()


def holds_files(path: str) -> bool:
    """Whether a file of this name holds files indexed at PATH#NAME (scent.extract.members): an
    archive, a mail, a PDF's attachments, an Evernote export's, a JSON file (a Day One journal's
    entries). Its reader can read one back."""
    return hasattr(reader_module(path), "read_member")


def forget(path: str) -> None:
    """Remove what the reader of the file at `path` kept of it in scent's cache (a mailbox's message
    places): the file left the index (deleted, renamed, or its index forgotten)."""
    module = reader_module(path)
    if hasattr(module, "forget"):
        module.forget(path)


def companions(path: str, exists: Callable[[str], bool] = os.path.isfile) -> list[str]:
    """The files beside `path` whose bytes are read with its own, so that an edit of one alone is an
    edit of it: a picture's or video's sidecars (scent.extract.sidecar), a Keep note page's JSON
    (scent.extract.keep). The walk counts their sizes and times as the file's, the index's hash
    their bytes."""
    kind = file_kind(path)
    if kind in ("image", "video"):
        return sidecar.paths(path, exists)
    if kind == "html":
        return keep.json_of(path, exists)
    return []


def reader_of(path: str) -> str:
    """Which reader, at which version, reads this path ("pdf 1.1"); "" when none does. Compared,
    never ordered: a file read by any other reads again. Asked of every file each run: what decides
    it (a name's last two extensions) is looked up once."""
    # Past a '#' only: a file inside another is named by its container ("Inbox.mbox#3.eml"), which would
    # make each of a mailbox's 100,000 messages a name of its own to look up.
    name = _name(path)
    if name in _READER_BY_FILE_NAME:
        return _reader(str(path))
    parts = name.rsplit(".", 2)
    # A name that says no reader may need its folders to say (Thunderbird's mailboxes, Maildir's messages).
    return (len(parts) > 1 and _reader_of_name("x." + ".".join(parts[1:]))) or _reader(str(path))


@lru_cache(maxsize=4096)
def _reader_of_name(name: str) -> str:
    return _reader(name)


def _reader(path: str) -> str:
    module = reader_module(path)
    if module is None:
        return ""
    return f"{module.__name__.rpartition('.')[2]} {VERSION}.{getattr(module, 'VERSION', 1)}"


def extract(path: str, limits: Limits = Limits()) -> Extracted:
    """Read one file. Any failure a file can cause is an ExtractError whose reason says
    what happened and what to do; indexing goes on without the file."""
    path = str(path)
    kind = file_kind(path)
    if kind is None:
        what = os.path.splitext(path)[1] or os.path.basename(path)
        kinds = ", ".join(sorted(EXTRACTORS))
        raise ExtractError(path, f"scent does not index {what} files, only {kinds}; "
                                 "add it to .scentignore to stop seeing this")
    try:
        # Only regular files (opening a FIFO or device would block or never end), and documents
        # saved as a folder (scent.walk.DOCUMENT_PACKAGES), which their readers read as one.
        if not stat.S_ISREG(os.stat(path).st_mode) and not is_document_package(path):
            raise ExtractError(path, "not a regular file; add it to .scentignore")
        module = reader_module(path)
        return EXTRACTORS[kind](path, limits) if module is _MODULES[kind] else module.extract(path, limits)
    except OSError as e:
        if e.errno in (errno.ENOSPC, errno.EDQUOT):  # writing what reading it needs: a mailbox's spool, a member's copy
            raise ExtractError(path, f"no space left to read it ({e.strerror}: a mailbox's messages wait in the index "
                                     "folder, files inside files in the temporary folder); free some space and "
                                     "index again") from e
        raise ExtractError(path, f"file vanished or unreadable ({e.strerror or e}); "
                                 "check that it exists and that you may read it") from e
    except RecursionError:
        # Any reader that walks nested input (MIME parts, markup, groups) by recursion: the file, not
        # the run, fails.
        raise ExtractError(path, f"nested too deeply to read (over Python's limit of {sys.getrecursionlimit()} "
                                 "levels); add it to .scentignore to stop seeing this") from None
    except ScentError:
        raise  # said already (ExtractError), or the run's to say (OcrUnavailable)
    except Exception as e:  # noqa: BLE001 - a library's own failure on hostile bytes is this file's, not the run's
        # A JSON number of 5,000 digits (ValueError), an EPUB cut short inside its contents (lxml's
        # ParserError, whose error log cannot even be sent back from a reader process): each ended the
        # whole run with a traceback, on every run.
        said = " ".join(str(e).split())[:200]
        raise ExtractError(path, f"its reader failed ({type(e).__name__}{': ' + said if said else ''}); it may be "
                                 "damaged or unusual; add it to .scentignore to stop seeing this") from None
