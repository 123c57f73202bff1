"""The records that flow through the pipeline: walk -> extract -> chunk -> store. The engines
give back what they stored as scent.storage's records; a search imports those, not these."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .storage import Vectors


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
    # When this part was written or happens (a note of an Evernote export, an event of a calendar), where
    # that differs from part to part; None: the file's date. Date filters and results use it.
    date: float | None = None
    # The last moment it covers, where it lasts past its date (a recurring event's last occurrence,
    # or UNTIL_OPEN for one that never ends; a multi-day event's end): an `after` filter lets it
    # through while it still runs. None: it happens at its date.
    until: float | None = None
    # The line (from 1) of the file where `text` begins, for a file whose text is its own (a note, code):
    # an editor opens it there. None where lines of the file mean nothing (a PDF, a Word file, a picture).
    line: int | None = None


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
    # The file this one is a part of, relative to the indexed folder: a Live Photo's moving part
    # (IMG_1234.MOV) names its photo (IMG_1234.HEIC). A search shows the two as one result.
    part_of: str = ""


@dataclass
class Member:
    """A file inside another (an archive member, a mail attachment), read by the extractor of its
    own extension. `got` is None when it could not be read, and `reason` says why."""
    name: str  # its path inside the container: "q3/report.pdf"; "3.eml", "3/invoice.pdf": message 3 of an mbox, its attachment
    got: Extracted | None = None
    reason: str = ""
    date: float | None = None  # its own date in the container (a zip member's time), if it has one
    size: int = 0  # its bytes, uncompressed
    hash: str = ""  # sha1 of its bytes
    # The index has it as it is (Limits.indexed): not read again, so `got` is None and the indexer
    # keeps what it has.
    unchanged: bool = False


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
    line: int | None = None  # the file's line it begins at (Section.line); None: none


# ---- what indexing hands a storage engine (scent.storage's Catalog and Engine) -----------------

@dataclass(frozen=True)
class FileState:
    """What change detection compares: a file is re-read only when size or mtime moved and the
    bytes' hash changed; its readers are recorded again when they changed (a chmod, a chown, a
    rule), whatever the bytes did."""
    path: str
    size: int
    mtime_ns: int
    hash: str
    access: str = ""  # who may read it (scent.access): space-separated principals
    # The file this one is inside ("" for a file of the folder). A member carries its container's
    # size and mtime: change detection looks at the container only (scent.indexing.plan).
    container: str = ""
    reader: str = ""  # which reader read it (scent.extract.reader_of); "" when not recorded


@dataclass(frozen=True)
class FileRecord:
    """A file as the catalog stores it."""

    path: str
    kind: str
    size: int
    mtime_ns: int
    hash: str
    date: float
    title: str = ""
    key: str = ""  # the file's identity in the catalog (see Catalog.file_key); unit ids derive from it
    access: str = ""  # who may read it (scent.access); "" is nobody but an unrestricted reader
    container: str = ""  # the file it is inside (FileState.container)
    part_of: str = ""  # the file it is a part of (Extracted.part_of)
    reader: str = ""  # which reader read it (scent.extract.reader_of)


@dataclass(frozen=True)
class UnitRecord:
    """A unit ready to store: the text plus what keyword and dense search need."""
    kind: str
    text: str
    text_hash: str
    page: int | None
    start: int
    end: int
    title: str
    lang: str | None
    extra: str
    ids: str
    # Sentences of the unit, each embedded too: dense search scores a unit by the best of its
    # own vector and theirs (see chunk.sentences for why).
    parts: tuple[str, ...] = ()
    # Regions of a page or picture (chunk.regions), each embedded into the `regions` field.
    regions: tuple[str, ...] = ()
    # Its machine translation into English (scent.translate), embedded into the `english` field.
    english: str = ""
    id: int = 0  # set by the indexer: unit_id(file key, place)
    date: float | None = None  # its own date (a message's, an event's); None: the file's
    until: float | None = None  # the last moment it covers, past its date (Section.until); None: none
    line: int | None = None  # the file's line it begins at (Section.line); None: none


@dataclass(frozen=True)
class Suggestion:
    """An example query made from a file's own content at index time (scent.suggest). `aspect`
    says what it was drawn from: `file` (the whole file: title, first heading, codes, key phrases),
    or a page's `topic`, `detail` or `visual`; `page` is the 1-based page or slide it was written
    from, None for the whole file or a file without pages."""
    text: str
    page: int | None = None
    aspect: str = "file"


@dataclass
class FileWrite:
    """One file's new state, written in one step."""
    file: FileRecord
    units: list[UnitRecord]
    vectors: Vectors
    suggestions: list[Suggestion] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass
class Unsupported:
    """The files of kinds scent does not read that one walk of the whole folder found (see
    scent.skipped): how many per (extension, readers), and the first few paths of each."""
    counts: dict[tuple[str, str], int] = field(default_factory=dict)  # (extension, readers) -> files
    listed: list[tuple[str, str, str]] = field(default_factory=list)  # (path, extension, readers)
