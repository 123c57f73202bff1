"""The storage interface. SQLite (sqlite_store.py) is the embedded implementation; a distributed
engine is a second implementation of the same protocol, tested by the same tests."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from .filters import Filters
from .query import KeywordQuery

Hit = tuple[int, float]  # (unit id, score: higher is better)


def text_key(text: str) -> str:
    """The key of a text's vector in the embeddings table: the same text is embedded once."""
    return hashlib.sha1(text.encode()).hexdigest()


@dataclass(frozen=True)
class FileState:
    path: str
    size: int
    mtime_ns: int
    hash: str


@dataclass(frozen=True)
class FileRecord:
    path: str
    kind: str
    size: int
    mtime_ns: int
    hash: str
    date: float
    title: str = ""


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
    # Key of the unit's picture vector (an image-text model's, of its pixels); None for units
    # that are no picture, and for all units when no such model is set.
    picture: str | None = None


@dataclass(frozen=True)
class StoredUnit:
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
    date: float


class Store(Protocol):
    model_id: str

    def meta(self, key: str) -> str | None: ...
    def set_meta(self, key: str, value: str) -> None: ...

    # writing: every method is one atomic step, so a kill at any moment leaves a usable index
    def file_states(self) -> dict[str, FileState]: ...
    def write_file(self, file: FileRecord, units: list[UnitRecord], vectors: dict[str, np.ndarray],
                   suggestions: list[str] | None = None, warnings: list[str] = (),
                   pictures: dict[str, np.ndarray] | None = None) -> None: ...
    def rename_file(self, old: str, new: FileState) -> None: ...
    def touch_file(self, state: FileState) -> None: ...
    def delete_files(self, paths: list[str]) -> None: ...
    def record_error(self, path: str, reason: str) -> None: ...
    def prune_errors(self, present: set[str]) -> None: ...
    def cached_hashes(self, hashes: list[str]) -> set[str]: ...
    # picture vectors (scent.image_text): one model per index, recorded by the first call
    def use_picture_model(self, name: str, model_id: str, dim: int) -> None: ...
    def picture_model(self) -> str | None: ...  # the name of the index's model; None: it has none
    def cached_pictures(self, keys: list[str]) -> set[str]: ...
    def finish_run(self) -> None: ...

    # reading
    def keyword_search(self, query: KeywordQuery, mode: str, min_share: str, filters: Filters, limit: int) -> list[Hit]: ...
    def id_search(self, ids: tuple[str, ...], filters: Filters, limit: int) -> list[Hit]: ...
    def dense_search(self, vector: np.ndarray, filters: Filters, limit: int, dims: int = 0) -> list[Hit]: ...
    def picture_search(self, vector: np.ndarray, filters: Filters, limit: int) -> list[Hit]: ...
    def units(self, ids: list[int]) -> dict[int, StoredUnit]: ...
    def file_units(self, path: str) -> list[StoredUnit] | None: ...
    def vectors(self, ids: list[int]) -> dict[int, np.ndarray]: ...
    def suggestions(self, limit: int) -> list[dict]: ...
    def status(self) -> dict: ...
    def close(self) -> None: ...
