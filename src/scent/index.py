"""The product: `Index(folder).update()` builds or refreshes an index, `.search(query)` answers.

The CLI, the web app and the MCP server are views of this class.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from PIL import Image

from . import image_text, location, ocr
from .chunk import PART_KINDS, chunk, sentences
from .embed import E5Embedder, Embedder
from .errors import ExtractError, IndexVersionError, OcrUnavailable, ScentError, UsageError
from .extract import Limits, extract, file_kind
from .filters import Filters
from .fuse import mmr, rrf
from .language import detect
from .query import clean, extra_tokens, id_tokens, parse
from .settings import SETTINGS, Settings
from .snippet import snippet
from .sqlite_store import SqliteStore
from .store import FileRecord, FileState, Hit, Store, StoredUnit, UnitRecord, text_key
from .suggest import suggestions
from .units import PICTURE_KINDS, Picture, Unit
from .walk import walk

# Words that ask for a picture rather than text: which unit of a file answers (see search).
_ASKS_FOR_PICTURE = re.compile(
    r"\b(photos?|pictures?|pics?|images?|charts?|graphs?|plots?|diagrams?|drawings?|sketch(es)?|"
    r"floor ?plans?|maps?|screenshots?|figures?|illustrations?)\b", re.I)
# Index-time settings that do not change what a file's units are (how many are embedded at once;
# the image-text model has its own check).
NOT_CONTENT_SETTINGS = frozenset({"embed_batch", "image_text_model"})
# Other-language units get a keyword rank stand-in only this near the top of the dense list.
STAND_IN_TOP = 10
# How many changed files are extracted before their units are embedded together.
FILES_PER_BATCH = 16
# What a picture that no longer decodes raises when read again for an image-text model.
_PICTURE_ERRORS = (OSError, ValueError, SyntaxError, EOFError, Image.DecompressionBombError, ExtractError)


@dataclass
class SearchResult:
    rank: int
    path: str
    page: int | None
    kind: str           # the file's kind
    unit_kind: str      # the kind of the unit that matched (pdf_page, image, ...)
    score: float
    snippet: str
    highlights: list[tuple[int, int]]
    title: str
    date: float
    unit_id: int
    explain: dict | None = None

    def to_dict(self) -> dict:
        d = asdict(self)
        d["highlights"] = [list(h) for h in self.highlights]
        if d["explain"] is None:
            del d["explain"]
        return d


@dataclass
class IndexReport:
    added: int = 0
    updated: int = 0
    renamed: int = 0
    touched: int = 0
    deleted: int = 0
    unchanged: int = 0
    units: int = 0
    embedded: int = 0
    pictures_embedded: int = 0  # pictures given a vector by the image-text model
    skipped: list[tuple[str, str]] = field(default_factory=list)
    warnings: list[tuple[str, str]] = field(default_factory=list)  # indexed, but not completely
    notices: list[str] = field(default_factory=list)  # about the whole index (settings changed since it was built)
    seconds: float = 0.0


Progress = Callable[[int, int, str], None]   # (files done, files to do, current path)
OnSkip = Callable[[str, str], None]          # (path, reason)


class Index:
    def __init__(self, folder: str | Path | None = None, *, index_dir: str | Path | None = None,
                 settings: Settings | None = None, embedder: Embedder | None = None):
        if folder is None and index_dir is None:
            raise UsageError("Index needs a folder or an index directory")
        self.index_dir = Path(index_dir) if index_dir else location.default_index_dir(folder)
        self.settings = settings or Settings()
        self._embedder = embedder
        self._ocr = ocr.engine(self.settings.ocr_engine) if self.settings.ocr else None  # None after it proves unavailable
        model = embedder or E5Embedder
        exists = (self.index_dir / location.DB_NAME).is_file()
        if not exists and folder is None:
            raise ScentError(f"no index in {self.index_dir}; build one with: scent index FOLDER")
        self.index_dir.mkdir(parents=True, exist_ok=True)
        self.store: Store = SqliteStore(str(self.index_dir / location.DB_NAME), model.model_id, model.dim)
        stored_root = self.store.meta("root")
        if folder is not None:
            root = str(Path(folder).resolve())
            if stored_root and stored_root != root:
                raise ScentError(f"{self.index_dir} indexes {stored_root}, not {root}; pick another --index")
            if not stored_root:
                self.store.set_meta("root", root)
            self.root = root
        else:
            self.root = stored_root
        # The index remembers its image-text model; the setting names one for a new index.
        self._picture_name = self.store.picture_model()
        wanted = self.settings.image_text_model
        if wanted and self._picture_name and wanted != self._picture_name:
            raise IndexVersionError(f"this index's pictures were embedded with image_text_model {self._picture_name}, "
                                    f"not {wanted}; re-index with --rebuild")
        self._image_text: dict[str, image_text.ImageTextModel | None] = {}

    @classmethod
    def open(cls, folder: str | Path | None = None, index: str | Path | None = None, **kwargs) -> "Index":
        """Open an existing index by the lookup rules of `scent.location`."""
        return cls(index_dir=location.find_index(folder, index), **kwargs)

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = E5Embedder()
        return self._embedder

    def close(self) -> None:
        self.store.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- indexing ------------------------------------------------------------------------

    def update(self, progress: Progress | None = None, on_skip: OnSkip | None = None,
               on_warning: OnSkip | None = None) -> IndexReport:
        """Bring the index in line with the folder: new and changed files in, deleted files out."""
        if not os.path.isdir(self.root):
            raise ScentError(f"folder {self.root} does not exist (or is not a folder)")
        started = time.perf_counter()
        report = IndexReport()

        def skip(path: str, reason: str) -> None:
            rel = os.path.relpath(path, self.root).replace(os.sep, "/") if os.path.isabs(path) else path
            report.skipped.append((rel, reason))
            self.store.record_error(rel, reason)
            if on_skip:
                on_skip(rel, reason)

        def warn(path: str, reason: str) -> None:
            report.warnings.append((path, reason))
            if on_warning:
                on_warning(path, reason)

        with self._lock():
            name = self.settings.image_text_model or self._picture_name
            if name:
                model = self._image_text_model(name, required=True)
                self.store.use_picture_model(name, model.model_id, model.dim)
                self._picture_name = name
            states = self.store.file_states()
            report.notices += self._settings_notice(bool(states))
            found = list(walk(self.root, accept=lambda p: file_kind(p) is not None,
                              skip=[str(self.index_dir)], on_error=skip))
            seen = {f.rel for f in found}
            self.store.prune_errors(seen)
            gone = {st.hash: st for rel, st in states.items() if rel not in seen}
            todo = []
            for f in found:
                old = states.get(f.rel)
                if old and (old.size, old.mtime_ns) == (f.size, f.mtime_ns):
                    report.unchanged += 1
                    continue
                try:
                    digest = _hash_file(f.path)
                except OSError as err:
                    skip(f.rel, f"vanished or unreadable while indexing ({err.strerror or err}); will retry next run")
                    continue
                new_state = FileState(f.rel, f.size, f.mtime_ns, digest)
                if old and old.hash == digest:
                    self.store.touch_file(new_state)
                    report.touched += 1
                elif not old and digest in gone:
                    self.store.rename_file(gone.pop(digest).path, new_state)
                    report.renamed += 1
                else:
                    todo.append((f, digest, old is None))
            deleted = [st.path for st in gone.values()]
            self.store.delete_files(deleted)
            report.deleted = len(deleted)
            for i in range(0, len(todo), FILES_PER_BATCH):
                self._index_batch(todo[i:i + FILES_PER_BATCH], report, skip, warn)
                if progress:
                    progress(min(i + FILES_PER_BATCH, len(todo)), len(todo), todo[i][0].rel)
            self.store.finish_run()
        location.remember_last(self.index_dir)
        report.seconds = time.perf_counter() - started
        return report

    def _index_batch(self, batch, report: IndexReport, skip: OnSkip, warn: OnSkip) -> None:
        s = self.settings
        limits = Limits(max_text_bytes=s.max_file_mb * 1024 * 1024, max_pdf_pages=s.max_pdf_pages,
                        ocr=self._ocr, ocr_langs=s.ocr_langs, ocr_max_side=s.ocr_max_side,
                        describe=s.describe, max_pdf_images=s.max_pdf_images, max_drawn_pages=s.max_drawn_pages,
                        max_image_pixels=s.max_image_mp * 1_000_000, root=self.root)
        ready = []
        pictures: dict[str, tuple[Picture, str, list[str]]] = {}  # key -> (pixels, file, its notes)
        for f, digest, is_new in batch:
            notes: list[str] = []
            try:
                try:
                    got = extract(f.path, limits)
                except OcrUnavailable as err:
                    # Said once; from here on pictures are indexed without OCR.
                    notes.append(str(err))
                    self._ocr, limits = None, replace(limits, ocr=None)
                    got = extract(f.path, limits)
            except ExtractError as err:
                skip(f.rel, err.reason)
                continue
            pieces = chunk(got.sections, s.chunk_words, s.chunk_overlap)
            units = [_record(u, got.title, s.sentence_vectors, digest if self._picture_name else None) for u in pieces]
            pictures.update((r.picture, (u.picture, f.rel, notes)) for u, r in zip(pieces, units) if r.picture)
            record = FileRecord(f.rel, got.kind, f.size, f.mtime_ns, digest,
                                got.date if got.date is not None else f.mtime_ns / 1e9, got.title)
            notes += _lost_parts(got.meta, s)
            for note in notes:
                warn(f.rel, note)
            ready.append((record, units, is_new, notes))
        texts = {u.text_hash: _embed_text(u.text, u.title) for _, units, _, _ in ready for u in units if u.text.strip()}
        texts.update((text_key(p), p) for _, units, _, _ in ready for u in units for p in u.parts)
        cached = self.store.cached_hashes(list(texts))
        missing = [h for h in texts if h not in cached]
        vectors: dict[str, np.ndarray] = {}
        for i in range(0, len(missing), s.embed_batch):
            part = missing[i:i + s.embed_batch]
            for h, v in zip(part, self.embedder.embed_passages([texts[h] for h in part])):
                vectors[h] = v
        made, lost = self._embed_pictures(pictures, warn) if pictures else ({}, set())
        report.pictures_embedded += len(made)
        for record, units, is_new, notes in ready:
            keys = {h for u in units for h in (u.text_hash, *map(text_key, u.parts))}
            units = [replace(u, picture=None) if u.picture in lost else u for u in units]
            self.store.write_file(record, units, {h: vectors[h] for h in keys if h in vectors},
                                  suggestions(record.title, units), notes,
                                  pictures={u.picture: made[u.picture] for u in units if u.picture in made})
            report.added += is_new
            report.updated += not is_new
            report.units += len(units)
        report.embedded += len(missing)

    def _embed_pictures(self, pictures: dict[str, tuple[Picture, str, list[str]]],
                        warn: OnSkip) -> tuple[dict[str, np.ndarray], set[str]]:
        """(new picture vectors by key, keys of pictures that did not decode again). Pictures are
        read embed_batch at a time, each at most image_text.MAX_SIDE: that bounds their memory."""
        model = self._image_text_model(self._picture_name, required=True)
        cached = self.store.cached_pictures(list(pictures))
        missing = [key for key in pictures if key not in cached]
        made: dict[str, np.ndarray] = {}
        lost: set[str] = set()
        for i in range(0, len(missing), self.settings.embed_batch):
            keys, images = [], []
            for key in missing[i:i + self.settings.embed_batch]:
                picture, rel, notes = pictures[key]
                try:
                    images.append(image_text.prepared(picture.load(image_text.MAX_SIDE)))
                    keys.append(key)
                except _PICTURE_ERRORS as err:
                    # The file changed or broke since it was read: only this picture's vector is lost.
                    lost.add(key)
                    note = f"a picture ({picture.locator or 'the file'}) was not read for {self._picture_name}: {err}"
                    notes.append(note)
                    warn(rel, note)
            if images:
                made.update(zip(keys, image_text.checked(model, model.embed_images(images), len(images))))
        return made, lost

    def _image_text_model(self, name: str, required: bool = False) -> image_text.ImageTextModel | None:
        """The image-text model `name`, loaded once; a search goes on without it (None) when it is
        not installed here, indexing does not (UsageError)."""
        if name not in self._image_text:
            try:
                self._image_text[name] = image_text.load(name)
            except UsageError:
                if required:
                    raise
                self._image_text[name] = None
        return self._image_text[name]

    def _settings_notice(self, has_files: bool) -> list[str]:
        """Why the index may be a mix: the settings that shape what is extracted and embedded
        differ from those it was built with, and files indexed before keep what they got then.
        An index is 'built' when its first files go in; a rebuild starts a new one."""
        current = {s.name: getattr(self.settings, s.name) for s in SETTINGS
                   if s.scope == "index" and s.name not in NOT_CONTENT_SETTINGS}
        stored = self.store.meta("content_settings")
        if not has_files:
            self.store.set_meta("content_settings", json.dumps(current, sort_keys=True))
            return []
        if stored is None:
            return ["this index was built by an earlier scent: files indexed before keep what was read from them "
                    "then (no sentence vectors, older picture descriptions); run scent index --rebuild to read "
                    "every file again"]
        before = json.loads(stored)
        changed = [f"{k} {before.get(k)!r} -> {v!r}" for k, v in current.items() if before.get(k) != v]
        if not changed:
            return []
        return [f"index settings changed since this index was built ({', '.join(changed)}): only new and changed "
                "files get them; run scent index --rebuild to apply them to every file"]

    def _lock(self):
        return _FileLock(self.index_dir / "lock")

    # ---- searching -----------------------------------------------------------------------

    def search(self, query: str, k: int = 10, filters: Filters | None = None, explain: bool = False,
               **overrides) -> list[SearchResult]:
        """Files ranked for `query`, best first, each with its best unit (page, chunk) and a snippet.

        `overrides` are settings for this query only (strategy, match, rrf_k, weight_dense ...).
        """
        return self.search_with_lists(query, k, filters, explain, **overrides)[0]

    def search_with_lists(self, query: str, k: int = 10, filters: Filters | None = None, explain: bool = False,
                          **overrides) -> tuple[list[SearchResult], dict[str, list[str]]]:
        """`search`, plus each candidate list's ranking of files before fusion (for diagnostics)."""
        if not query or not query.strip():
            raise UsageError("the query is empty; type some words to search for")
        if k < 1:
            raise UsageError(f"k must be at least 1, got {k}")
        s = self.settings.with_values(**overrides)
        filters = filters or Filters()
        if s.exclude_kinds:
            filters = replace(filters, exclude=tuple(k.strip() for k in s.exclude_kinds.split(",") if k.strip()))
        kq = parse(query, s.stopwords)
        lists: dict[str, list[tuple[int, float]]] = {}
        if s.strategy != "keyword":
            qvec = self.embedder.embed_queries([clean(query)])[0]
            lists["dense"] = self.store.dense_search(qvec, filters, s.candidates, dims=s.dims)
        if s.strategy != "dense":
            lists["keyword"] = self.store.keyword_search(kq, s.match, s.min_share, filters, s.candidates)
            if kq.ids:
                lists["ids"] = self.store.id_search(kq.ids, filters, s.candidates)
        if self._picture_name and s.strategy != "keyword" and s.weight_pictures > 0:
            model = self._image_text_model(self._picture_name)
            if model is not None:
                pvec = image_text.checked(model, model.embed_texts([clean(query)]), 1)[0]
                lists["pictures"] = self.store.picture_search(pvec, filters, s.candidates)
        units = self.store.units(sorted({uid for hits in lists.values() for uid, _ in hits}))
        weights = {"dense": s.weight_dense, "keyword": s.weight_keyword, "ids": s.weight_ids,
                   "pictures": s.weight_pictures}

        # Fuse per file (a file's rank in a list is that of its best unit), and pick as each
        # file's answer the unit with the highest unit-level fused score.
        file_runs = {name: list(dict.fromkeys(units[uid].path for uid, _ in hits)) for name, hits in lists.items()}
        unit_runs = {n: [uid for uid, _ in h] for n, h in lists.items()}
        if s.other_language_stand_in and "dense" in lists and "keyword" in lists:
            unit_runs["stand_in"], file_runs["stand_in"] = _stand_in(lists, units, detect(query))
            weights["stand_in"] = s.weight_keyword
        fused = rrf(file_runs, k=s.rrf_k, weights=weights)
        unit_scores = dict(rrf(unit_runs, k=s.rrf_k, weights=weights))
        # A query that names a kind of picture ("line chart of ...", "photo of ...") is answered,
        # within each file, by its best picture unit when it has one in the lists.
        pictures_first = bool(_ASKS_FOR_PICTURE.search(query))

        def preference(uid: int) -> tuple[bool, float]:
            return pictures_first and units[uid].kind in PICTURE_KINDS, unit_scores[uid]

        best: dict[str, int] = {}
        for uid in unit_scores:
            path = units[uid].path
            if path not in best or preference(uid) > preference(best[path]):
                best[path] = uid
        if s.strategy == "hybrid+mmr":
            vectors = self.store.vectors([best[p] for p, _ in fused])
            fused = mmr(fused, {p: vectors.get(best[p]) for p, _ in fused}, lam=s.mmr_lambda, k=k)
        results = []
        for rank, (path, score) in enumerate(fused[:k], start=1):
            unit = units[best[path]]
            text, marks = snippet(unit.text, kq.words, kq.ids)
            results.append(SearchResult(
                rank=rank, path=path, page=unit.page, kind=unit.file_kind, unit_kind=unit.kind, score=score,
                snippet=text, highlights=marks, title=unit.title, date=unit.date, unit_id=unit.id,
                explain=_explain(path, lists, file_runs, units, s, weights) if explain else None))
        return results, file_runs

    def status(self) -> dict:
        return {"folder": self.root, "index": str(self.index_dir), **self.store.status()}


def _lost_parts(meta: dict, s: Settings) -> list[str]:
    """One line for each kind of thing extraction had to leave out of a file it indexed."""
    notes = []
    if meta.get("ocr_error"):
        notes.append(meta["ocr_error"])
    if meta.get("too_large"):
        notes.append(f"the picture is larger than max_image_mp ({s.max_image_mp} megapixels): only its name, "
                     "folders and EXIF are indexed; raise max_image_mp to read its pixels")
    if meta.get("truncated"):
        notes.append(f"only the first {s.max_pdf_pages} pages were indexed; raise max_pdf_pages to read more")
    if meta.get("picture_error"):
        notes.append(meta["picture_error"])
    errors = meta.get("picture_errors") or []
    if errors:
        more = f" and {len(errors) - 1} more" if len(errors) > 1 else ""
        notes.append(f"{len(errors)} picture(s) not read: {errors[0]}{more}; the rest of the file is indexed")
    if meta.get("unreadable_pages"):
        pages = ", ".join(map(str, meta["unreadable_pages"][:10]))
        notes.append(f"page(s) {pages} could not be read (damaged); the other pages are indexed")
    if meta.get("pictures_skipped"):
        notes.append(f"more pictures than max_pdf_images ({s.max_pdf_images} per PDF page, 4x per Word file): "
                     "the rest were not described; raise max_pdf_images to read them")
    return notes


def _stand_in(lists: dict[str, list[Hit]], units: dict[int, StoredUnit], query_lang: str | None,
              top: int = STAND_IN_TOP) -> tuple[list, list]:
    """(unit run, file run) of the keyword rank stand-ins: the dense list's first `top` units,
    where each unit written in another language than the query (and absent from the keyword
    list) keeps its dense rank and every other rank is held by None.

    Why: its words cannot match the query's, so its absence from the keyword list is no evidence
    against it; without a stand-in RRF gives every same-language unit the keyword list finds a
    second share it can never get (an English query about neem oil found the Tamil garden note
    first by dense and 16th fused). Only when both languages are known (short queries seldom are),
    and only near the top of the dense list: given to every other-language unit, the stand-ins
    lifted loosely related notes over right answers (docs/retrieval-tuning.md)."""
    dense = lists["dense"][:top]
    in_keyword = {uid for uid, _ in lists["keyword"]}
    unit_run = [uid if query_lang is not None and units[uid].lang not in (None, query_lang)
                and uid not in in_keyword else None for uid, _ in dense]
    file_run, seen = [], set()
    for uid, _ in dense:
        path = units[uid].path
        if path not in seen:
            seen.add(path)
            file_run.append(path if uid in unit_run else None)
    return unit_run, file_run


def _record(unit: Unit, doc_title: str, sentence_vectors: bool, file_hash: str | None = None) -> UnitRecord:
    """`file_hash` is given when pictures get vectors: a picture's key is its file's content
    and its place in the file, so an unchanged picture is not embedded again."""
    text = clean(unit.text)
    title = unit.title or doc_title
    picture = text_key(f"{file_hash}\n{unit.picture.locator}") if file_hash and unit.picture else None
    lang = detect(text, unit.kind)
    with_parts = sentence_vectors and unit.kind in PART_KINDS
    return UnitRecord(
        picture=picture,
        kind=unit.kind, text=text, text_hash=text_key(_embed_text(text, title)),
        page=unit.page, start=unit.start, end=unit.end, title=title, lang=lang,
        extra=extra_tokens(text), ids=id_tokens(text),
        parts=tuple(sentences(text)) if with_parts else ())


def _embed_text(text: str, title: str) -> str:
    """What the embedder sees: the heading or document title gives a chunk its context."""
    return text if not title or text.startswith(title) else f"{title}\n{text}"


def _explain(path: str, lists, file_runs: dict[str, list[str]], units: dict[int, StoredUnit], s: Settings,
             weights) -> dict:
    out = {}
    for name, hits in lists.items():
        if path not in file_runs[name]:
            out[name] = None
            continue
        rank = file_runs[name].index(path) + 1
        uid, score = next((uid, sc) for uid, sc in hits if units[uid].path == path)
        out[name] = {"rank": rank, "score": round(score, 6), "unit": uid, "page": units[uid].page,
                     "contribution": round(weights[name] / (s.rrf_k + rank), 6)}
    if path in file_runs.get("stand_in", ()):
        # The dense rank and unit, counted again as a keyword rank (see _stand_in).
        out["stand_in"] = {**out["dense"], "contribution": round(weights["stand_in"] / (s.rrf_k + out["dense"]["rank"]), 6)}
    return out


def _hash_file(path: str) -> str:
    h = hashlib.sha1()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
    return h.hexdigest()


class _FileLock:
    """One `scent index` per index at a time; searches never take it."""

    def __init__(self, path: Path):
        self.path = path

    def __enter__(self):
        self.fh = open(self.path, "w")
        try:
            fcntl.flock(self.fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.fh.close()
            raise ScentError(f"another scent is indexing into {self.path.parent}; wait for it to finish") from None
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.fh, fcntl.LOCK_UN)
        self.fh.close()
