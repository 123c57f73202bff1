"""The records that flow through the pipeline: walk -> extract -> chunk -> store."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

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
