"""What the engines store, and the three roles each engine plays.

An engine (scent.engines) is a catalog, a keyword index and a vector index behind one write
path. The catalog is the record of files and units: what was indexed, when, from which bytes.
The keyword and vector indexes answer queries. SQLite plays all three roles in one file; a
distributed engine plays the search roles and keeps the catalog beside the indexer.

Every unit has a stable id made from its file's identity and its place in the file, so the
catalog and every engine agree on it without asking each other, and a rewritten file's units
keep their ids.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from .filters import Filters
from .query import KeywordQuery

if TYPE_CHECKING:  # what indexing hands the engines (scent.units): a search never makes one
    from .units import FileState, FileWrite, Unsupported

Hit = tuple[int, float]  # (unit id, score: higher is better)
# How a field keeps its vectors. Sign codes cannot be rescored, so they are never the record alone:
# `binary` keeps int8 codes (the record, for the exact rescore) and searches first over their sign
# bits, packed (the late-interaction `regions` field, scent.multivector).
STORAGE_TYPES = ("float32", "int8", "binary")


def text_key(text: str) -> str:
    """A text's fingerprint: two units with the same key have the same vectors."""
    import hashlib  # here: OpenSSL's loading is milliseconds of every fresh search, which hashes nothing

    return hashlib.sha1(text.encode()).hexdigest()


def unit_id(file_key: str, place: int) -> int:
    """The id of the unit at `place` (0, 1, ... in reading order) of the file whose catalog key
    is `file_key`: 63 bits of a hash, so it fits SQLite's signed and Qdrant's unsigned integers.
    A million units collide with odds of about 1 in 10 million."""
    import hashlib

    digest = hashlib.sha1(f"{file_key}\n{place}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class StoredSuggestion:
    """A stored example query with the facts of its file an evaluation needs (scent.evaluate)."""
    path: str
    file_kind: str
    title: str
    text: str
    page: int | None
    aspect: str


@dataclass(frozen=True)
class StoredUnit:
    """A unit as the catalog gives it back: its text, place and file's facts."""

    id: int
    path: str
    file_kind: str
    kind: str
    page: int | None
    start: int
    end: int
    title: str
    lang: str | None
    text: str
    date: float  # its own date where it has one (Unit.date), else its file's
    english: str = ""  # its machine translation into English (UnitRecord.english), "" for none
    line: int | None = None  # the file's line it begins at (UnitRecord.line), None for none


@dataclass(frozen=True)
class VectorField:
    """A named kind of vector of a unit: `unit` (its text), `sentences` (one per sentence: many),
    `english` (its machine translation, for a unit in Portuguese, Spanish or French; scent.translate),
    `picture` (its pixels, from an image-text model), `regions` (one per region of a page or
    picture, for late interaction: many, kept as binary; scent.multivector). A field keeps the model that made its
    vectors; another model's vectors are refused rather than mixed."""
    name: str
    model: str
    dims: int
    multi: bool = False      # many vectors per unit; a unit scores by its best one (MaxSim)
    storage: str = ""  # one of STORAGE_TYPES; "" for a new field: the engine's vector_storage


ENGLISH_FIELD = "english"

# Vectors to store: field name -> unit id -> one vector (dims,) or, for a multi field, (n, dims).
Vectors = dict[str, dict[int, np.ndarray]]


class Catalog(Protocol):
    """Files, units, change-detection state, errors, meta and suggestions."""

    def meta(self, key: str) -> str | None: ...
    def set_meta(self, key: str, value: str) -> None: ...
    def file_states(self) -> dict[str, FileState]: ...
    def file_key(self, path: str) -> str: ...  # the key of the file at `path`, or a fresh one
    def touch_files(self, states: list[FileState]) -> None: ...
    def record_error(self, path: str, reason: str, access: str = "") -> None: ...
    # Errors of paths inside one of `containers` (CONTAINER#...) are kept with them; with `within`,
    # only errors of paths at or under those (a watch's refresh) are judged.
    def prune_errors(self, present: set[str], containers: set[str] = frozenset(),
                     within: tuple[str, ...] | None = None) -> None: ...
    def forget_errors_inside(self, container: str) -> None: ...  # the errors of the files inside it
    def errors_inside(self, containers: set[str]) -> list[tuple[str, str]]: ...  # (path, reason) of skipped members
    def skipped_like(self, start: str) -> set[str]: ...  # the paths skipped for a reason that begins with `start`
    def units(self, ids: list[int]) -> dict[int, StoredUnit]: ...
    # The files `filters` keep (readers included), newest first (by their kept units' latest date;
    # then by path), up to `limit`: the id of each one's first kept unit in reading order.
    def newest(self, filters: Filters, limit: int) -> list[int]: ...
    # The read methods below take the asking user's principals (scent.access; None: unrestricted)
    # and answer as if files they may not read were not indexed.
    def file_units(self, path: str, readers: tuple[str, ...] | None = None) -> list[StoredUnit] | None: ...
    # Text hash -> unit id, of the file's units (and, `inside`, of the files inside it).
    def unit_hashes(self, path: str, inside: bool = False) -> dict[str, int]: ...
    # Each of `paths` that has copies (same bytes, not empty) `readers` may read -> their paths, sorted.
    def copies(self, paths: list[str], readers: tuple[str, ...] | None = None) -> dict[str, list[str]]: ...
    def has_units(self, kinds: tuple[str, ...]) -> bool: ...
    def suggestions(self, limit: int, readers: tuple[str, ...] | None = None) -> list[dict]: ...
    def generated_queries(self, readers: tuple[str, ...] | None = None) -> list[StoredSuggestion]: ...  # all of them
    def status(self, readers: tuple[str, ...] | None = None) -> dict: ...
    # The files of kinds scent does not read (Unsupported) that `readers` may see: files per
    # extension, and the paths kept of them (path, extension).
    def unsupported_counts(self, readers: tuple[str, ...] | None = None) -> dict[str, int]: ...
    def unsupported_files(self, readers: tuple[str, ...] | None = None) -> list[tuple[str, str]]: ...


class KeywordIndex(Protocol):
    """BM25 over text, title, path and code parts; exact and one-off ID lookup. `search` modes:
    `or`, `and`, `and_or` (and, then the rest of or), `min_share` (units holding `min_share` of the
    terms) and `min_share_or` (those, then the rest of the or list: the keyword profile's)."""

    def search(self, query: KeywordQuery, mode: str, min_share: str, filters: Filters, limit: int) -> list[Hit]: ...
    def id_search(self, ids: tuple[str, ...], filters: Filters, limit: int) -> list[Hit]: ...
    # The IDs units hold one character off a normalised ID that none holds exactly (scent.spelling).
    def near_ids(self, ident: str, filters: Filters) -> list[str]: ...
    def holds(self, query: KeywordQuery, filters: Filters) -> list[bool]: ...  # per term: found under filters
    # How many units under filters (up to `limit`) hold each word, as the index tokenizes it; words
    # none holds are left out (scent.spelling).
    def word_counts(self, words: list[str], filters: Filters, limit: int) -> dict[str, int]: ...


class VectorIndex(Protocol):
    """Named vector fields of units, searched by cosine similarity (vectors are L2-normalised)."""

    def fields(self) -> dict[str, VectorField]: ...
    def add_field(self, field: VectorField) -> None: ...  # refuses another model or size under the same name
    # `oversample` and `rescore_depth` shape an approximate search (candidates per wanted unit,
    # and how many are scored exactly); an exact engine ignores them.
    def search(self, field: str, query: np.ndarray, filters: Filters, limit: int, dims: int = 0,
               oversample: int = 4, rescore_depth: int = 1000) -> list[Hit]: ...
    def get(self, field: str, ids: list[int]) -> dict[int, np.ndarray]: ...
    # Read what searching these fields needs, before the query's vector exists: a fresh search asks
    # this while the model is still computing it (scent.search.dense).
    def prepare(self, fields: tuple[str, ...]) -> None: ...
    # Late interaction over a multi field (scent.multivector): units by MaxSim of `queries`
    # (m, dims) against their vectors; `first_phase` units proposed by the sign codes' hamming
    # MaxSim are scored exactly (an engine that is exact anyway may score them all).
    def multi_search(self, field: str, queries: np.ndarray, filters: Filters, limit: int,
                     first_phase: int = 100) -> list[Hit]: ...


class Engine(Protocol):
    """The three roles, and the writes that keep them in step: each write is one atomic step
    (or, for an engine without transactions, one that a rerun completes), so a kill at any moment
    leaves a usable index."""

    name: str
    catalog: Catalog
    keywords: KeywordIndex
    vectors: VectorIndex

    def write_files(self, writes: list[FileWrite]) -> None: ...
    def rename_file(self, old: str, new: FileState) -> None: ...
    def set_access(self, changes: dict[str, str]) -> None: ...  # path -> its new readers, bytes unchanged
    def delete_files(self, paths: list[str]) -> None: ...
    # The end of a run, in one step: its time and, after a walk of the whole folder, the files
    # of kinds it does not read (None keeps those a whole walk recorded last).
    def finish_run(self, unsupported: Unsupported | None = None) -> None: ...
    def replaced(self) -> bool: ...  # rebuilt on disk since opened here
    def close(self) -> None: ...


def batched(items: list, size: int = 500) -> Iterator[list]:
    for i in range(0, len(items), size):
        yield items[i:i + size]
