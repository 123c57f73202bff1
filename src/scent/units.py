"""The records that flow through the pipeline: walk -> extract -> chunk -> store."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

# Unit kinds. A file kind names what the file is; a unit kind names what one
# searchable piece of it is. Picture kinds are here already so that the later
# picture pipeline (OCR, descriptions, embedded images) only adds producers.
FILE_KINDS = ("text", "code", "html", "csv", "json", "docx", "pdf", "image", "sheet", "slides",
              "odt", "rtf", "epub", "email", "archive", "notebook", "calendar", "contacts")
UNIT_KINDS = (
    "text", "code", "html", "csv", "json", "docx", "pdf_page", "image",
    "ocr", "pdf_image", "docx_image", "sheet", "slide", "slide_image",
    "odt", "rtf", "epub", "email", "archive", "notebook_image", "calendar", "contacts", "odt_image", "epub_image",
)
# Units that are pictures (an image file's, or one inside a PDF, Word file, slide or notebook).
PICTURE_KINDS = ("image", "pdf_image", "docx_image", "slide_image", "notebook_image", "odt_image", "epub_image")
# What a file's numbered parts are called where they are not pages (units carry their number as `page`).
PLACE_NAMES = {"email": "message", "slides": "slide", "calendar": "entry", "contacts": "contact"}
# Section.until of what never ends (a recurring event without COUNT or UNTIL): 9999-12-31 23:59:59
# UTC, after any day a filter can name (scent.filters.LAST_DAY); finite, as JSON payloads need.
UNTIL_OPEN = 253_402_300_799.0


def place(file_kind: str, page: int) -> str:
    """How a result's page is said: "p.3", or "entry 3" of a calendar, "message 3" of an mbox."""
    return f"{PLACE_NAMES[file_kind]} {page}" if file_kind in PLACE_NAMES else f"p.{page}"


# `--only image` must also find pictures that live inside PDFs and Word files.
KIND_ALIASES = {
    "image": PICTURE_KINDS,
    "pdf": ("pdf_page", "pdf_image"),
    "docx": ("docx", "docx_image"),
    "odt": ("odt", "odt_image"),
    "epub": ("epub", "epub_image"),
    "slides": ("slide", "slide_image"),
}


@dataclass(frozen=True)
class FileInfo:
    """A file found by the walk. `rel` is the POSIX path relative to the indexed folder."""
    path: str
    rel: str
    size: int
    mtime_ns: int
    stat: object = field(default=None, compare=False, repr=False)  # its os.stat_result: owner, group, mode


@dataclass(frozen=True)
class Picture:
    """Where a picture unit's pixels are, read again only when an image-text model is set
    (scent.image_text): a unit never holds decoded pixels, so a PDF of many pictures costs no
    memory for them, and indexing without such a model never reads them twice."""
    locator: str  # which picture of the file ("" for an image file, "p3#2": page 3, its image object 2)
    load: Callable[[int], object]  # side -> the PIL image, reduced toward that side where that is cheap


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
    picture: Picture | None = field(default=None, compare=False, repr=False)  # picture sections only
    # When this part was sent or happens (a message of an mbox, an event of a calendar), where
    # that differs from part to part; None: the file's date. Date filters and results use it.
    date: float | None = None
    # The last moment it covers, where it lasts past its date (a recurring event's last occurrence,
    # or UNTIL_OPEN for one that never ends; a multi-day event's end): an `after` filter lets it
    # through while it still runs. None: it happens at its date.
    until: float | None = None


@dataclass
class Extracted:
    """What an extractor returns for one file."""
    kind: str  # one of FILE_KINDS
    sections: list[Section]
    title: str = ""
    date: float | None = None  # when the content was made (EXIF for photos); None = use mtime
    meta: dict = field(default_factory=dict)
    # The files inside it (an archive's members, a message's attachments), each indexed as a file of
    # its own at path `CONTAINER#NAME` (scent.extract.members).
    members: list["Member"] = field(default_factory=list)


@dataclass
class Member:
    """A file inside another (an archive member, a mail attachment), read by the extractor of its
    own extension. `got` is None when it could not be read, and `reason` says why."""
    name: str  # its path inside the container: "q3/report.pdf"; "3/invoice.pdf" for message 3 of an mbox
    got: Extracted | None = None
    reason: str = ""
    date: float | None = None  # its own date in the container (a zip member's time), if it has one
    size: int = 0  # its bytes, uncompressed
    hash: str = ""  # sha1 of its bytes


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
    picture: Picture | None = field(default=None, compare=False, repr=False)
    date: float | None = None  # its section's own date (Section.date); None: the file's
    until: float | None = None  # its section's last moment (Section.until)
