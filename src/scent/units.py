"""The records that flow through the pipeline: walk -> extract -> chunk -> store."""
from __future__ import annotations

from dataclasses import dataclass, field

# Unit kinds. A file kind names what the file is; a unit kind names what one
# searchable piece of it is. Picture kinds are here already so that the later
# picture pipeline (OCR, descriptions, embedded images) only adds producers.
FILE_KINDS = ("text", "code", "html", "csv", "json", "docx", "pdf", "image")
UNIT_KINDS = (
    "text", "code", "html", "csv", "json", "docx", "pdf_page", "image",
    "ocr", "pdf_image", "docx_image",
)
# `--only image` must also find pictures that live inside PDFs and Word files.
KIND_ALIASES = {
    "image": ("image", "pdf_image", "docx_image"),
    "pdf": ("pdf_page", "pdf_image"),
    "docx": ("docx", "docx_image"),
}


@dataclass(frozen=True)
class FileInfo:
    """A file found by the walk. `rel` is the POSIX path relative to the indexed folder."""
    path: str
    rel: str
    size: int
    mtime_ns: int


@dataclass
class Section:
    """A stretch of extracted text that chunking must not cross (a page, a heading's body, a table).

    `start` is the character offset of `text` in the file's extracted text (per page for PDFs),
    so a chunk's span can be mapped back.
    """
    text: str
    kind: str
    page: int | None = None
    title: str = ""
    start: int = 0


@dataclass
class Extracted:
    """What an extractor returns for one file."""
    kind: str  # one of FILE_KINDS
    sections: list[Section]
    title: str = ""
    date: float | None = None  # when the content was made (EXIF for photos); None = use mtime
    meta: dict = field(default_factory=dict)


@dataclass
class Unit:
    """One searchable piece: a chunk of text, a PDF page, a picture."""
    kind: str
    text: str
    page: int | None = None
    start: int = 0
    end: int = 0
    title: str = ""
    lang: str | None = None
