"""Indexing: plan what changed, then apply the plan.

    plan:  walk (or the given paths) + the catalog's file states -> unchanged, touched, renamed,
           deleted, readers changed (scent.access), and files to read
    apply: extract -> chunk -> embed (reusing the vectors of units whose text did not change)
           -> one engine write per batch of files

`Indexer.update()` plans over the whole folder; `Indexer.refresh(paths)` over some paths only
(what a watcher saw change), with the same rules.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from itertools import islice
from pathlib import Path

import numpy as np
from PIL import Image

from . import image_text, multivector, romanize, translate
from .access import RULES_FILE, Access
from .chunk import PART_KINDS, REGION_KINDS, chunk, log_lines, regions, sentences, wordless
from .dates import file_date
from .embed import Embedder
from .errors import ExtractError, IndexVersionError, OcrUnavailable, ScentError
from .extract import Limits, companions, extract, file_kind, forget, holds_files, reader_of, reported
from .extract.members import Spool
from .kinds import PICTURE_KINDS
from .gloss import compound_parts, gloss
from .language import detect
from .locking import RUN_MARK, IndexLock, run_mark
from .progress import OnProgress, Tracker, relay_to, relayed, reading, stage, tracking
from .query import clean, extra_tokens, id_tokens
from .settings import SETTINGS, Settings
from .skipped import CRASHED, UnsupportedWalk
from .stems import stems
from .storage import ENGLISH_FIELD, Engine, VectorField, text_key, unit_id
from .suggest import suggestions
from .units import FileInfo, FileRecord, FileState, FileWrite, Member, Picture, Section, Unit, UnitRecord
from .walk import IGNORE_FILE, ONLINE_ONLY, files_at, online_only, walk

# Index-time settings that do not change what a file's units are (how many are embedded at once,
# how vectors are kept; the image-text model has its own check).
# vector_storage is checked by the engine itself (a field keeps its storage).
NOT_CONTENT_SETTINGS = frozenset({"embed_batch", "image_text_model", "multivector_model", "vector_storage",
                                  "vector_index_threshold", "index_workers"})
# What a picture that no longer decodes raises when read again for an image-text model.
_PICTURE_ERRORS = (OSError, ValueError, SyntaxError, EOFError, Image.DecompressionBombError, ExtractError)

TextModel = type | Embedder  # an embedder or its class: what it is (model_id, dim), without loading it
Progress = OnProgress                         # called with a scent.progress.Progress at each change
OnSkip = Callable[[str, str], None]          # (path, reason)


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
    readers: int = 1  # processes that read the files (index_workers)


@dataclass
class Plan:
    unchanged: int = 0
    touched: list[FileState] = field(default_factory=list)
    renamed: list[tuple[str, FileState]] = field(default_factory=list)  # (old path, new state)
    deleted: list[str] = field(default_factory=list)
    read: list[tuple[FileInfo, str, bool]] = field(default_factory=list)  # (file, content hash, is new)
    access: dict[str, str] = field(default_factory=dict)  # path -> new readers, of files not read again
    newer: dict[str, int] = field(default_factory=dict)  # kind -> files read again only because a reader is newer
    # Files inside files (archive members, attachments) that a container read again had: the
    # ones it no longer has are deleted once it is read, and the ones whose bytes did not change
    # are kept as they are.
    inside: dict[str, dict[str, FileState]] = field(default_factory=dict)  # container -> its members' states


def plan(found: list[FileInfo], states: dict[str, FileState], skip: OnSkip,
         readers: Callable[[FileInfo], str] = lambda f: "", reader_of: Callable[[str], str] = reader_of,
         named: frozenset[str] = frozenset()) -> Plan:
    """What to do to bring the files in `states` in line with `found`: a file whose size and
    mtime are unchanged is not opened, unless it is among the files a watcher saw written (`named`:
    `cp -p`, `rsync -a` and `tar x` write new bytes under the old mtime, and an edit of the same
    size followed by `touch -r` was never read); one whose bytes hash the same is only touched; a new file
    with a vanished file's hash is that file renamed; other vanished files are deleted. A file not
    read again whose `readers` differ from those recorded (a chmod or chown changes no mtime) gets
    its new readers. A file (or a file inside it) that another reader than today's `reader_of` read
    is read again, whatever its bytes did: what a newer scent reads reaches the files indexed before.

    Files inside a container (FileState.container) are never walked: they follow it. An unchanged
    container's are unchanged, a touched one's touched, a renamed one's renamed, a deleted one's
    deleted, and a container read again reads them again (Plan.inside)."""
    p = Plan()
    inside: dict[str, list[FileState]] = {}
    states_top = {}
    for rel, st in states.items():
        if st.container:
            inside.setdefault(st.container, []).append(st)
        else:
            states_top[rel] = st
    seen = {f.rel for f in found}
    gone = {st.hash: st for rel, st in states_top.items() if rel not in seen}

    def follow(container: str, access: str) -> None:
        for m in inside.get(container, ()):
            if m.access != access:
                p.access[m.path] = access

    def outdated(st: FileState) -> str:
        """Today's reader of `st` or of a file inside it, where another read it; "" when none did."""
        for one in (st, *inside.get(st.path, ())):
            if one.reader != (now := reader_of(one.path)):
                return now
        return ""

    for f in found:
        old = states_top.get(f.rel)
        access = readers(f)
        cloud = online_only(f.stat)  # its bytes are in the cloud: reading it would download it
        newer = outdated(old) if old and not cloud else ""
        # (a Thunderbird mailbox at the folder's top has no kind by its name)
        kind = (file_kind(f.rel) or "other") if newer else ""
        if newer and (old.size, old.mtime_ns) == (f.size, f.mtime_ns):
            p.newer[kind] = p.newer.get(kind, 0) + 1
            p.read.append((f, old.hash, False))
            if f.rel in inside:
                p.inside[f.rel] = {m.path: m for m in inside[f.rel]}
            continue
        if old and (old.size, old.mtime_ns) == (f.size, f.mtime_ns) and (f.rel not in named or cloud):
            # (also when its bytes went to the cloud)
            p.unchanged += 1 + len(inside.get(f.rel, ()))
            if old.access != access:
                p.access[f.rel] = access
            follow(f.rel, access)
            continue
        if cloud:
            skip(f.rel, ONLINE_ONLY)
            continue
        try:
            digest = _hash_file(f.path)
        except OSError as err:
            skip(f.rel, f"vanished or unreadable while indexing ({err.strerror or err}); will retry next run")
            continue
        new_state = FileState(f.rel, f.size, f.mtime_ns, digest, access)
        if newer and old.hash == digest:
            p.newer[kind] = p.newer.get(kind, 0) + 1
        if old and old.hash == digest and not newer:
            p.touched.append(new_state)
            p.touched += [replace(m, size=f.size, mtime_ns=f.mtime_ns) for m in inside.get(f.rel, ())]
            if old.access != access:
                p.access[f.rel] = access
            follow(f.rel, access)
        elif not old and digest in gone:
            was = gone.pop(digest)
            p.renamed.append((was.path, new_state))
            p.renamed += [(m.path, replace(m, path=f.rel + m.path[len(was.path):], size=f.size, mtime_ns=f.mtime_ns,
                                           container=f.rel)) for m in inside.get(was.path, ())]
            if was.access != access:
                p.access[f.rel] = access
            for m in inside.get(was.path, ()):
                if m.access != access:
                    p.access[f.rel + m.path[len(was.path):]] = access
        else:
            p.read.append((f, digest, old is None))
            if f.rel in inside:
                p.inside[f.rel] = {m.path: m for m in inside[f.rel]}
    p.deleted = [st.path for st in gone.values()]
    # Members of deleted containers, and of containers whose first reading stopped before it wrote
    # the container itself (it is written last), when that container is gone too.
    renamed = {old for old, _ in p.renamed}
    p.deleted += [m.path for c, ms in inside.items() if c not in seen and c not in renamed for m in ms]
    return p


@dataclass
class _Made:
    """Vectors made and not yet written: texts by text key, pictures by unit id."""
    texts: dict[str, np.ndarray] = field(default_factory=dict)
    pictures: dict[int, np.ndarray] = field(default_factory=dict)
    pictures_done: set[int] = field(default_factory=set)  # tried, with a vector or not (it did not decode)
    pages: dict[int, np.ndarray] = field(default_factory=dict)  # a multivector model's patch vectors
    pages_done: set[int] = field(default_factory=set)
    # How many waiting files need each text's vector. Counted, not gathered from the queue at each
    # write: a mailbox puts thousands of files in it at once.
    needed: Counter = field(default_factory=Counter)
    # Vectors no waiting file needs, kept a while, oldest first: the next files often need them
    # again (every message of a mailbox has the same To: line; a folder's notes share headings).
    idle: OrderedDict = field(default_factory=OrderedDict)

    def need(self, keys) -> None:
        self.needed.update(keys)
        for k in keys:
            self.idle.pop(k, None)

    def release(self, keys) -> None:
        """The texts one file needed, written now: a vector none still needs becomes idle."""
        for k in keys:
            self.needed[k] -= 1
            if self.needed[k] <= 0:
                del self.needed[k]
                if k in self.texts:
                    self.idle[k] = None
        while len(self.idle) > KEPT_IDLE:
            self.texts.pop(self.idle.popitem(last=False)[0], None)


@dataclass
class _Waiting:
    """A file read and chunked, waiting for the vectors of its texts and pictures."""
    write: FileWrite
    new: bool
    texts: dict[str, str]  # text key -> text to embed
    pictures: dict[int, tuple[Picture, str, list[str]]]  # unit id -> (pixels, file, its notes)
    pages: dict[int, tuple[Picture, str, list[str]]] = field(default_factory=dict)  # for a multivector model
    unembedded: set[int] = field(default_factory=set)  # units found by keywords only (_keyword_only)
    untranslated: list[int] = field(default_factory=list)  # places of units still to translate (_translate)

    def ready(self, made: _Made) -> bool:
        return (not self.untranslated and all(k in made.texts for k in self.texts)
                and all(i in made.pictures_done for i in self.pictures)
                and all(i in made.pages_done for i in self.pages))


def _decoded(pictures: dict[int, tuple[Picture, str, list[str]]], model: str,
             warn: OnSkip) -> tuple[list[int], list]:
    """The unit ids and pixels, prepared for a picture model, of the pictures that still decode; one
    that does not costs only its own vectors, with a note on its file."""
    keys, images = [], []
    for uid, (picture, rel, notes) in pictures.items():
        try:
            images.append(image_text.prepared(picture.load(image_text.MAX_SIDE)))
            keys.append(uid)
        except _PICTURE_ERRORS as err:
            note = f"a picture ({picture.locator or 'the file'}) was not read for {model}: {err}"
            notes.append(note)
            warn(rel, note)
    return keys, images


class Indexer:
    """Applies plans to one engine. The Index facade makes one per index and keeps it."""

    def __init__(self, engine: Engine, root: str, index_dir: Path, settings: Settings, text_model: TextModel,
                 embedder: Callable[[], Embedder], picture_model: Callable[[str], image_text.ImageTextModel],
                 ocr_engine):
        self.engine = engine
        self.root = root
        self.index_dir = index_dir
        self.settings = settings
        self.text_model = text_model
        self._embedder = embedder
        self._picture_model = picture_model
        self._ocr = ocr_engine  # None once it proves unavailable
        self._embedder_loaded = False  # said as its own stage: loading the model is seconds of a first run
        self.picture_name = engine.catalog.meta("image_text_model")
        self.multivector_name = engine.catalog.meta("multivector_model") or ""
        self._sound_keys = bool(engine.catalog.meta(romanize.SOUND_KEYS))

    def update(self, progress: Progress | None = None, on_skip: OnSkip | None = None,
               on_warning: OnSkip | None = None) -> IndexReport:
        """Bring the index in line with the whole folder: new and changed files in, deleted files out."""
        return self._run(None, progress, on_skip, on_warning)

    def refresh(self, paths: list[str], progress: Progress | None = None, on_skip: OnSkip | None = None,
                on_warning: OnSkip | None = None) -> IndexReport:
        """Bring these paths (relative to the folder, or absolute inside it) in line: each is
        indexed, updated, or removed when it is gone or no longer indexable."""
        rels = []
        for p in paths:
            rel = os.path.relpath(p, self.root) if os.path.isabs(p) else p
            rel = rel.replace(os.sep, "/")
            if rel == ".." or rel.startswith("../"):
                raise ScentError(f"{p} is outside the indexed folder {self.root}")
            rels.append(rel)
        # Who may read what, or which files are left out, may have changed anywhere in the folder.
        if RULES_FILE in rels or IGNORE_FILE in rels:
            rels = None
        return self._run(rels, progress, on_skip, on_warning)

    def _run(self, rels: list[str] | None, progress, on_skip, on_warning) -> IndexReport:
        if not os.path.isdir(self.root):
            raise ScentError(f"folder {self.root} does not exist (or is not a folder)")
        started = time.perf_counter()
        report = IndexReport()
        catalog = self.engine.catalog
        tracker = Tracker(0, progress)

        # Read first: a malformed rules file stops the run before anything is written.
        access = Access(self.root)

        def skip(path: str, reason: str, container: str = "") -> None:
            rel = os.path.relpath(path, self.root).replace(os.sep, "/") if os.path.isabs(path) else path
            report.skipped.append((rel, reason))
            catalog.record_error(rel, reason, access.readers(container or rel))  # a member's are its container's
            if on_skip:
                on_skip(rel, reason)

        def warn(path: str, reason: str) -> None:
            report.warnings.append((path, reason))
            if on_warning:
                on_warning(path, reason)

        with IndexLock(self.index_dir, owner=self.engine), tracking(tracker):
            tracker.stage("scanning")
            self._prepare_fields()
            # Until finish_run records this run's end, status and search say it has not finished.
            catalog.set_meta(RUN_MARK, run_mark())
            catalog.set_meta("access_groups", access.rules.groups_json())
            self._access = access
            states = catalog.file_states()
            report.notices += self._settings_notice(bool(states))
            unsupported = UnsupportedWalk(self.root, access, reported) if rels is None else None
            accept = unsupported.accept if unsupported else reported
            if rels is None:
                found = list(walk(self.root, accept=accept, skip=[str(self.index_dir)], on_error=skip))
            else:
                found = files_at(self.root, rels, accept=accept, skip=[str(self.index_dir)])
                wanted = set(rels)
                # A file inside a container goes with it.
                states = {rel: st for rel, st in states.items()
                          if (at := st.container or rel) in wanted or any(at.startswith(r + "/") for r in wanted)}
            # The errors of files gone since (of those walked: a refresh's paths) are forgotten. What the
            # walk itself reported is not found, yet still there to be fixed; so are the errors of
            # files inside the containers found (never walked themselves).
            catalog.prune_errors({f.rel for f in found} | {rel for rel, _ in report.skipped},
                                 {f.rel for f in found if holds_files(f.rel)}, within=None if rels is None else tuple(rels))
            todo = plan(found, states, skip, lambda f: access.readers(f.rel, f.stat), named=frozenset(rels or ()))
            catalog.touch_files(todo.touched)
            for old, new in todo.renamed:
                self.engine.rename_file(old, new)
            self.engine.set_access(todo.access)
            self.engine.delete_files(todo.deleted)
            for path in todo.deleted:
                if holds_files(path):
                    catalog.forget_errors_inside(path)
            for path in [*todo.deleted, *(old for old, _ in todo.renamed)]:
                if holds_files(path):  # what its reader kept of it in scent's cache: a mailbox's places
                    forget(os.path.join(self.root, path))
            # The skipped files inside containers not read again are said again, as a skipped file
            # is each run: they are still there to fix.
            read = {f.rel for f, _, _ in todo.read}
            for rel, reason in catalog.errors_inside({f.rel for f in found if f.rel not in read
                                                      and holds_files(f.rel)}):
                report.skipped.append((rel, reason))
                if on_skip:
                    on_skip(rel, reason)
            report.unchanged, report.touched = todo.unchanged, len(todo.touched)
            if todo.newer:
                report.notices.append(_newer_notice(todo.newer))
            report.renamed, report.deleted = len(todo.renamed), len(todo.deleted)
            tracker.files_total = len(todo.read)
            self._apply(todo.read, todo.inside, report, skip, warn, tracker)
            self.engine.finish_run(unsupported.found if unsupported else None)
        report.seconds = time.perf_counter() - started
        return report

    def _prepare_fields(self) -> None:
        """The vector fields this run writes; an index refuses a model other than its own."""
        model, dims = self.text_model.model_id, self.text_model.dim
        vectors = self.engine.vectors
        vectors.add_field(VectorField("unit", model, dims))
        if self.settings.sentence_vectors:
            vectors.add_field(VectorField("sentences", model, dims, multi=True))
        if self.settings.english_gloss:
            vectors.add_field(VectorField(ENGLISH_FIELD, model, dims))
        self._prepare_regions(model, dims)
        name = self.settings.image_text_model or self.picture_name
        if not name:
            return
        model = self._picture_model(name)
        stored = vectors.fields().get("picture")
        if stored is None and self.engine.catalog.has_units(PICTURE_KINDS):
            # Its pictures would not be read again (unchanged files are not): only some would have vectors.
            raise IndexVersionError(f"this index was built without an image_text_model; re-index with --rebuild "
                                    f"to embed its pictures with {name}")
        if stored is not None and stored.model != model.model_id:
            raise IndexVersionError(f"this index's pictures were embedded with {stored.model}, not {model.model_id} "
                                    f"(image_text_model {name}); re-index with --rebuild")
        vectors.add_field(VectorField("picture", model.model_id, model.dim))
        self.engine.catalog.set_meta("image_text_model", name)
        self.picture_name = name

    def _prepare_regions(self, text_model: str, dims: int) -> None:
        """The `regions` field (scent.multivector): the text model's vectors of page and picture
        regions, or a multivector model's patch vectors of pictures; kept as binary (sign bits
        for the first phase over int8 codes for the exact MaxSim)."""
        name = self.settings.multivector_model or self.multivector_name
        if not self.settings.region_vectors and not name:
            return
        vectors = self.engine.vectors
        stored = vectors.fields().get(multivector.FIELD)
        if name:
            model = self._multivector_model(name)
            if stored is not None and stored.model != model.model_id:
                raise IndexVersionError(f"this index's regions were embedded with {stored.model}, not "
                                        f"{model.model_id} (multivector_model {name}); re-index with --rebuild")
            vectors.add_field(VectorField(multivector.FIELD, model.model_id, model.dim, multi=True, storage="binary"))
            self.engine.catalog.set_meta("multivector_model", name)
            self.multivector_name = name
            return
        vectors.add_field(VectorField(multivector.FIELD, text_model, dims, multi=True, storage="binary"))

    def _multivector_model(self, name: str) -> multivector.MultiVectorModel:
        if getattr(self, "_mv_model", None) is None or self._mv_model[0] != name:
            self._mv_model = (name, multivector.load(name))
        return self._mv_model[1]

    def _apply(self, files: list[tuple[FileInfo, str, bool]], inside: dict[str, dict[str, FileState]], report: IndexReport,
               skip: OnSkip, warn: OnSkip, tracker: Tracker) -> None:
        """Read, embed and write the files. The texts (and pictures) of consecutive files are embedded
        embed_batch at a time, and each file is written, in a transaction of its own, as soon as its
        vectors exist: a run stopped at any moment keeps every file written before (files saved 16 at a
        time, a run killed within its first batch, again and again, never kept any)."""
        s = self.settings
        limits = Limits(max_text_bytes=s.max_file_mb * 1024 * 1024, max_pdf_pages=s.max_pdf_pages,
                        ocr=self._ocr, ocr_langs=s.ocr_langs, ocr_max_side=s.ocr_max_side,
                        describe=s.describe, max_pdf_images=s.max_pdf_images, max_drawn_pages=s.max_drawn_pages,
                        max_image_pixels=s.max_image_mp * 1_000_000, root=self.root,
                        max_members=s.max_archive_members, max_member_bytes=s.max_archive_mb * 1024 * 1024,
                        max_sections=s.max_units_per_file, spool=str(self._spool()))
        try:
            self._apply_read(files, inside, report, skip, warn, tracker, limits)
        finally:
            shutil.rmtree(self.index_dir / SPOOL, ignore_errors=True)

    def _spool(self) -> Path:
        """The folder mailboxes' messages wait in (members.Spool), emptied of what a killed run left."""
        folder = self.index_dir / SPOOL
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(mode=0o700)
        return folder

    def _apply_read(self, files: list[tuple[FileInfo, str, bool]], inside: dict[str, dict[str, FileState]],
                    report: IndexReport, skip: OnSkip, warn: OnSkip, tracker: Tracker, limits: Limits) -> None:
        s = self.settings
        queue: deque[_Waiting] = deque()  # files read, in order, waiting for their vectors
        texts: dict[str, str] = {}  # text key -> text, not embedded yet, in reading order
        pictures: dict[int, tuple[Picture, str, list[str]]] = {}  # not embedded yet
        pages: dict[int, tuple[Picture, str, list[str]]] = {}  # not given patch vectors yet
        made = _Made()
        finished = tracker.file_done
        untranslated = 0  # units queued to translate: _translate takes all of them

        def embed(last: bool) -> None:
            """Embed what makes a full batch (everything, when `last`), and write the files it completes."""
            nonlocal untranslated
            # Files are written in reading order, so one waiting for a batch that does not fill (the
            # one note in Spanish among a mailbox's messages) would hold every file read after it.
            last = last or len(queue) >= MAX_QUEUED
            if untranslated >= TRANSLATE_BATCH or last:
                texts.update((k, t) for k, t in _translate(queue, made).items() if k not in made.texts)
                untranslated = 0
            while len(texts) >= s.embed_batch or (last and texts):
                keys = list(islice(texts, s.embed_batch))
                embedder = self._loaded_embedder(tracker)
                tracker.stage("embedding", "")
                made.texts.update(zip(keys, embedder.embed_passages([texts.pop(k) for k in keys])))
                report.embedded += len(keys)
                tracker.embedded(len(keys))
                self._write_ready(queue, made, report, finished)
            while len(pictures) >= s.embed_batch or (last and pictures):
                ids = list(islice(pictures, s.embed_batch))
                tracker.stage("embedding", "")
                vectors = self._embed_pictures({i: pictures.pop(i) for i in ids}, warn)
                report.pictures_embedded += len(vectors)
                made.pictures.update(vectors)
                made.pictures_done.update(ids)
            while len(pages) >= s.embed_batch or (last and pages):
                ids = list(islice(pages, s.embed_batch))
                tracker.stage("embedding", "")
                made.pages.update(self._embed_pages({i: pages.pop(i) for i in ids}, warn))
                made.pages_done.update(ids)
            self._write_ready(queue, made, report, finished)

        reads = self._read(files, limits, tracker, report, inside)
        try:
            for n, (f, digest, new, got, notes) in enumerate(reads, start=1):
                if isinstance(got, str):  # why it could not be read
                    skip(f.rel, got)
                    finished(f.rel)
                else:
                    # A container is written after the files inside it: a run stopped between them reads
                    # it again. Its files are queued one at a time, each batch embedded and written as it
                    # fills: a mailbox of 100,000 messages waits in its spool, not in this queue.
                    for waiting in self._waits(f, digest, new, got, notes, inside.get(f.rel, {}), skip, warn, report,
                                               tracker):
                        queue.append(waiting)
                        untranslated += len(waiting.untranslated)
                        made.need(waiting.texts.keys())
                        more = {k: t for k, t in waiting.texts.items() if k not in made.texts and k not in texts}
                        tracker.found(waiting.write.file.path, len(more))
                        texts.update(more)
                        pictures.update(waiting.pictures)
                        pages.update(waiting.pages)
                        embed(last=False)
                embed(last=n == len(files))
        finally:
            reads.close()  # now, not when a stopped run's traceback lets go of it: its readers end

    def _read(self, files: list[tuple[FileInfo, str, bool]], limits: Limits, tracker: Tracker, report: IndexReport,
              inside: dict[str, dict[str, FileState]]):
        """(file, digest, new, Extracted or the reason it was skipped, notes), in the files' order.
        Each file's reader is told which files inside it the index holds as they are (`inside`).

        Read by `index_workers` reader processes (as many as there are files, at most), or here where
        it is 1 (or no reader can be started safely: _reader_context). In order, and at most 2 files
        ahead per reader: the run writes the same index as a serial one, and holds only a few files'
        text at a time. A file whose bytes crash its reader (a native library's fault) is skipped,
        and the run goes on. A mailbox read by a reader process is given as a _Following while its
        reader still reads it: its messages are taken as they are spooled."""
        if not files:
            return
        workers = self.settings.index_workers or os.cpu_count() or 1
        # Each file's spool folder: the one spool found there is that file's (_waited).
        spool_of = {f.rel: os.path.join(limits.spool, str(n)) for n, (f, _, _) in enumerate(files) if limits.spool}
        pool = None
        broken = False  # the pool died while a followed file was read: a new one reads the rest

        def mine(f: FileInfo) -> Limits:
            return replace(limits, indexed=self._indexed_inside(f, inside.get(f.rel, {})), spool=spool_of.get(f.rel))

        def finish(f: FileInfo, answer: Callable[[], tuple]) -> Callable[[], tuple]:
            """A followed file's end: (its reader's answer, notes, whether it was read once more), read
            again where the pool died (another file's reader, killed by a native library's fault, takes
            its pool down with it) or OCR was missing, as a file not followed would be."""
            def finished() -> tuple:
                nonlocal limits, broken
                again = False
                try:
                    got, unavailable = answer()
                except BrokenProcessPool:
                    pool.shutdown(cancel_futures=True)
                    broken, again = True, True
                    got, unavailable = _read_apart(f, mine(f), context, stages, tracker)
                notes: list[str] = []
                if unavailable is not None:
                    got, notes, limits = self._read_one(f, mine(f))
                    again = True
                return got, notes, again
            return finished
        from concurrent.futures import Future, ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        context, readers = _reader_context()
        stages = context.SimpleQueue()  # the readers' stages (progress.Relay), shown while waiting
        marker = self.index_dir / READING_MARK
        ended_reading = _read_mark(marker)
        # With one worker, files are read here, but for a run after one that ended while reading here
        # (a file's bytes crashed a native reader, or the process was killed): another file that
        # crashes its reader is then skipped in this run, not by one more run each. A process of
        # other threads (a watcher, a server) lives on after its run: a file that crashes its reader
        # must not end it.
        lives_on = context.get_start_method() == "forkserver"
        if not readers or (workers < 2 and not lives_on and ended_reading is None):
            # The file a run was reading when it ended, and those that crashed a reader before, are
            # read in a process of their own: one that crashes it (a native reader's fault on its
            # bytes) is skipped, and the run goes on.
            suspects = self.engine.catalog.skipped_like(CRASHED) | {ended_reading}
            following = None
            try:
                for f, digest, new in files:
                    tracker.stage("reading", f.rel)
                    if f.rel in suspects:
                        got, unavailable = _read_apart(f, mine(f), context, stages, tracker, follow=True)
                        notes: list[str] = []
                        if isinstance(got, _Following):
                            following, got.finish = got, finish(f, got.finish)
                        elif unavailable is not None:
                            got, notes, limits = self._read_one(f, mine(f))
                    else:
                        marker.write_text(f.rel, encoding="utf-8")
                        got, notes, limits = self._read_one(f, mine(f))
                    yield f, digest, new, got, notes
            finally:
                if following is not None:
                    following.close()
            marker.unlink(missing_ok=True)
            return
        # Forked at the first file, all of them: no more than the files can use.
        workers = report.readers = min(workers, len(files))

        def started() -> ProcessPoolExecutor:
            return ProcessPoolExecutor(workers, mp_context=context, initializer=_reader_started, initargs=(stages, os.getpid()))

        def submit(item: tuple) -> tuple:
            try:
                return item, pool.submit(_extract_in_worker, item[0].path, mine(item[0]), item[0].rel)
            except BrokenProcessPool as e:  # a reader died since the last answer: this file waits its turn
                failed: Future = Future()
                failed.set_exception(e)
                return item, failed

        def restarted(ahead: deque) -> deque:
            """The files given to a pool that died, given to a new one (those it answered stay answered)."""
            nonlocal pool, broken
            pool, broken = started(), False
            return deque((item, future) if _answered(future) else submit(item) for item, future in ahead)

        pool = started()
        ended = False
        try:
            todo = iter(files)
            ahead = deque(submit(item) for item in islice(todo, 2 * workers))
            while ahead:
                (f, digest, new), future = ahead.popleft()
                tracker.stage("reading", f.rel)
                try:
                    got, unavailable = _waited(future, stages, tracker, spool_of.get(f.rel))
                except BrokenProcessPool:
                    # A reader died (a native library's fault on some file's bytes), and every file
                    # it had been given fails alike: this one is read again alone, and a new pool
                    # reads the rest (the one that crashed crashes it again, and is found the same way).
                    pool.shutdown(cancel_futures=True)
                    got, unavailable = _read_apart(f, mine(f), context, stages, tracker)
                    ahead = restarted(ahead)
                notes: list[str] = []
                if isinstance(got, _Following):
                    got.finish = finish(f, got.finish)
                elif unavailable is not None:  # OCR is missing: read again here, without it, as a serial run does
                    got, notes, limits = self._read_one(f, mine(f))
                ahead.extend(submit(item) for item in islice(todo, 1))
                yield f, digest, new, got, notes
                if broken:
                    ahead = restarted(ahead)
            marker.unlink(missing_ok=True)
            ended = True
        finally:
            if ended:
                pool.shutdown(cancel_futures=True)
            else:  # the run stopped
                _let_go(pool)

    def _read_one(self, f: FileInfo, limits: Limits) -> tuple:
        """(Extracted or the reason it was skipped, notes, the limits from here on)."""
        notes: list[str] = []
        try:
            try:
                return extract(f.path, limits), notes, limits
            except OcrUnavailable as err:
                # Said once; from here on pictures are indexed without OCR.
                notes.append(str(err))
                self._ocr, limits = None, replace(limits, ocr=None)
                return extract(f.path, limits), notes, limits
        except ExtractError as err:
            return err.reason, notes, limits

    def _loaded_embedder(self, tracker: Tracker) -> Embedder:
        if not self._embedder_loaded:
            with tracker.during("models loading", ""):
                self._embedder()
            self._embedder_loaded = True
        return self._embedder()

    def _waits(self, f: FileInfo, digest: str, new: bool, got, notes: list[str], had: dict[str, FileState],
               skip, warn: OnSkip, report: IndexReport, tracker: Tracker) -> Iterator[_Waiting]:
        """The file's files inside (a container's), then the file itself, each as made. The files
        inside count in the run's progress: a mailbox of 100,000 messages is not one file of hours.
        A file still read (a _Following) gives its files as its reader spools them, then its answer."""
        kept: set[str] = set()
        same: list[FileState] = []
        if isinstance(got, _Following):
            self.engine.catalog.forget_errors_inside(f.rel)
            yield from self._inside(f, got.members(), had, kept, same, skip, warn, report, tracker.file_done)
            got, more, again = got.finish()
            notes += more
            if isinstance(got, str):  # what was written stays, and the rest is read next run
                skip(f.rel, got)
                tracker.file_done(f.rel)
                return
            if again:  # read once more, its files with it: those just written are kept, not written again
                had = {path: st for path, st in self.engine.catalog.file_states().items() if st.container == f.rel}
            else:  # taken already
                if isinstance(got.members, Spool):
                    got.members.discard()
                got = replace(got, members=[])
        elif got.members or had:
            self.engine.catalog.forget_errors_inside(f.rel)
        if got.members or had or kept:
            tracker.files_total += len(got.members)
            try:
                yield from self._inside(f, got.members, had, kept, same, skip, warn, report, tracker.file_done)
            finally:
                if isinstance(got.members, Spool):
                    got.members.discard()
            self.engine.catalog.touch_files(same)
            gone = sorted(had.keys() - kept)
            self.engine.delete_files(gone)
            report.deleted += len(gone)  # as a deleted container's are counted
        yield self._waiting(f, digest, new, got, notes, warn)

    def _indexed_inside(self, f: FileInfo, had: dict[str, FileState]) -> tuple[tuple[str, str], ...]:
        """What the index has inside container `f` (Limits.indexed): each file's name and hash, the
        hash "" where it must be read again (another reader or readers than today's) or was skipped.
        `_inside` keeps each one its reader says is unchanged."""
        if not had:
            return ()
        readers = self._access.readers(f.rel, f.stat)
        held = [(path[len(f.rel) + 1:], st.hash if (st.reader, st.access) == (reader_of(path), readers) else "")
                for path, st in had.items()]
        skipped = [(path[len(f.rel) + 1:], "") for path, _ in self.engine.catalog.errors_inside({f.rel})]
        return tuple(held + skipped)

    def _inside(self, f: FileInfo, members, had: dict[str, FileState], kept: set[str], same: list[FileState],
                skip, warn: OnSkip, report: IndexReport, finished: Callable[[str], None]) -> Iterator[_Waiting]:
        """The files inside container `f` (read again) as files of their own at `f.rel#NAME`, each
        with its container's size, mtime and readers, their paths added to `kept`; a member that
        cannot be read is skipped with its own line. One it had with the same bytes, reader and
        readers is kept as it is (added to `same`, with its container's size and mtime): a mailbox
        that gained a message writes that message, not all of them. `_waits` deletes the rest."""
        readers = kin = None
        for m in members:
            if readers is None:
                readers = self._access.readers(f.rel, f.stat)
                kin = self.engine.catalog.unit_hashes(f.rel, inside=True) if had else {}
            rel = f"{f.rel}#{m.name}"
            was = had.get(rel)
            if was is not None and m.hash and (was.hash, was.reader, was.access) == (m.hash, reader_of(rel), readers):
                kept.add(rel)
                same.append(replace(was, size=f.size, mtime_ns=f.mtime_ns))
                report.touched += 1
                finished(rel)
                continue
            if m.got is None:  # not read: why, or its reader took it for one the index holds (Limits.indexed)
                skip(rel, "changed while it was read; it is read again next run" if m.unchanged else m.reason, f.rel)
                finished(rel)
                continue
            kept.add(rel)
            member = FileInfo(path=f.path, rel=rel, size=f.size, mtime_ns=f.mtime_ns, stat=f.stat)
            yield self._waiting(member, m.hash, rel not in had, m.got, [], warn, container=f.rel, date=m.date, kin=kin)

    def _waiting(self, f: FileInfo, digest: str, new: bool, got, notes: list[str], warn: OnSkip,
                 container: str = "", date: float | None = None, kin: dict[str, int] | None = None) -> _Waiting:
        """The file's units and records, and what of them is still to embed. A file inside
        `container` has its container's readers, and its own `date` (a zip member's time) stands
        in for an mtime."""
        s = self.settings
        key = self.engine.catalog.file_key(f.rel)
        # One more than kept: it says whether the file goes on past the limit.
        pieces = chunk(got.sections, s.chunk_words, s.chunk_overlap, max_units=s.max_units_per_file + 1)
        if (len(pieces) > s.max_units_per_file and len(got.sections) == 1
                and _log(got.sections[0].text[:LOG_SAMPLE_CHARS], got.sections[0].kind)):
            # A log is written at its end: its newest lines are the ones asked about, not its first.
            pieces = _tail(got.sections[0], pieces[s.max_units_per_file - 1].end - got.sections[0].start, s)
            notes.append(f"only its last {len(pieces)} units were indexed (a log's newest lines, from line "
                         f"{pieces[0].line or 1:,}); raise max_units_per_file to index the rest")
        elif len(pieces) > s.max_units_per_file:
            del pieces[s.max_units_per_file:]
            notes.append(f"only its first {s.max_units_per_file} units were indexed (to {_where(pieces[-1])}); "
                         "raise max_units_per_file to index the rest")
        pieces, dropped = _few_wordless(pieces)
        if dropped:
            notes.append(f"{dropped} units of text without words (base64, minified code, one very long line) were "
                         f"left out; its first {MAX_WORDLESS_UNITS} such units are indexed")
        with_regions = s.region_vectors and not self.multivector_name
        units = [replace(_record(u, got.title, s.sentence_vectors, with_regions, s.english_gloss), id=unit_id(key, place))
                 for place, u in enumerate(pieces)]
        pictures, pages = {}, {}
        if self.picture_name:
            pictures = {r.id: (u.picture, f.rel, notes) for u, r in zip(pieces, units) if u.picture}
        if self.multivector_name:
            pages = {r.id: (u.picture, f.rel, notes) for u, r in zip(pieces, units) if u.picture}
        record = FileRecord(f.rel, got.kind, f.size, f.mtime_ns, digest,
                            file_date(got.date, f.rel, date if date is not None else f.mtime_ns / 1e9), got.title, key,
                            self._access.readers(container or f.rel, f.stat), container, got.part_of,
                            reader_of(f.rel))
        notes += _lost_parts(got.meta, s)
        for note in notes:
            warn(f.rel, note)
        write = FileWrite(record, units, {}, suggestions(record.title, units), notes)
        unembedded = _keyword_only(units)
        texts = self._reused_vectors(write, unembedded, kin)
        # A unit whose vectors are kept keeps its translation's too; one without (an index made before,
        # or the translator missing then) is translated now
        untranslated = [i for i, u in enumerate(units) if s.english_gloss and u.lang in translate.ENGINES
                        and u.text.strip() and u.id not in unembedded and u.id not in write.vectors[ENGLISH_FIELD]]
        return _Waiting(write, new, texts, pictures, pages=pages, unembedded=unembedded,
                        untranslated=untranslated)

    def _reused_vectors(self, w: FileWrite, unembedded: set[int], kin: dict[str, int] | None = None) -> dict[str, str]:
        """Fill the write's `unit` and `sentences` vectors of units whose text the file already had
        (they keep the vectors they had), or, for a file inside a container, that any file inside it
        had (`kin`: a mailbox's messages renumbered by one removed before them keep theirs); returns
        the texts the rest need (text key -> text), but none for the `unembedded` units."""
        vectors = self.engine.vectors
        old = self.engine.catalog.unit_hashes(w.file.path) if kin is None else kin
        reuse = {u.id: old[u.text_hash] for u in w.units if u.text_hash in old}
        old_ids = sorted(set(reuse.values()))
        kept_unit = vectors.get("unit", old_ids) if old_ids else {}
        fields = vectors.fields()
        kept_parts = vectors.get("sentences", old_ids) if old_ids and "sentences" in fields else {}
        has_regions = any(u.regions for u in w.units)
        kept_regions = vectors.get(multivector.FIELD, old_ids) if old_ids and has_regions else {}
        kept_english = vectors.get(ENGLISH_FIELD, old_ids) if old_ids and ENGLISH_FIELD in fields else {}
        if kept_english:  # the translation's text with its vector; an index made before stored no text
            said = {uid: u.english for uid, u in self.engine.catalog.units(list(kept_english)).items()}
            kept_english = {uid: v for uid, v in kept_english.items() if said.get(uid)}
        own, parts, regions_, english, texts = {}, {}, {}, {}, {}
        for i, u in enumerate(w.units):
            if not u.text.strip() or u.id in unembedded:
                continue
            was = reuse.get(u.id)
            if (was in kept_unit and (not u.parts or len(kept_parts.get(was, ())) == len(u.parts))
                    and (not u.regions or len(kept_regions.get(was, ())) == len(u.regions))):
                own[u.id] = kept_unit[was]
                if u.parts:
                    parts[u.id] = kept_parts[was]
                if u.regions:
                    regions_[u.id] = kept_regions[was]
                if was in kept_english:
                    english[u.id] = kept_english[was]
                    w.units[i] = replace(u, english=said[was])
                continue
            texts[u.text_hash] = _embed_text(u.text, u.title, _headed(u.text, u.kind))
            texts.update((text_key(p), p) for p in u.parts)
            texts.update((text_key(r), r) for r in u.regions)
        w.vectors["unit"], w.vectors["sentences"], w.vectors[multivector.FIELD] = own, parts, regions_
        w.vectors[ENGLISH_FIELD] = english
        return texts

    def _write_ready(self, queue: deque[_Waiting], made: _Made, report: IndexReport,
                     finished: Callable[[str], None]) -> None:
        """Write, in reading order, each waiting file whose vectors all exist; forget the vectors
        no file still waiting needs."""
        while queue and queue[0].ready(made):
            waiting = queue.popleft()
            w = waiting.write
            for u in w.units:
                if u.text.strip() and u.id not in w.vectors["unit"] and u.id not in waiting.unembedded:
                    w.vectors["unit"][u.id] = made.texts[u.text_hash]
                    if u.parts:
                        w.vectors["sentences"][u.id] = np.stack([made.texts[text_key(p)] for p in u.parts])
                    if u.regions:
                        w.vectors[multivector.FIELD][u.id] = np.stack([made.texts[text_key(r)] for r in u.regions])
                if u.english and u.id not in w.vectors[ENGLISH_FIELD]:
                    w.vectors[ENGLISH_FIELD][u.id] = made.texts[text_key(u.english)]
            w.vectors[multivector.FIELD].update({uid: made.pages.pop(uid) for uid in waiting.pages
                                                 if uid in made.pages})
            for name in ("sentences", multivector.FIELD, ENGLISH_FIELD):
                if not w.vectors[name]:
                    del w.vectors[name]
            mine = {uid: made.pictures.pop(uid) for uid in waiting.pictures if uid in made.pictures}
            if mine:
                w.vectors["picture"] = mine
            if not self._sound_keys and any(romanize.KEY_PREFIX in u.extra for u in w.units):
                # Latin-letter queries then ask for sound keys too (Index._request); once said, kept.
                self.engine.catalog.set_meta(romanize.SOUND_KEYS, "1")
                self._sound_keys = True
            self.engine.write_files([w])
            report.added += waiting.new
            report.updated += not waiting.new
            report.units += len(w.units)
            made.release(waiting.texts)
            made.pictures_done.difference_update(waiting.pictures)
            made.pages_done.difference_update(waiting.pages)
            finished(w.file.path)

    def _embed_pictures(self, pictures: dict[int, tuple[Picture, str, list[str]]], warn: OnSkip) -> dict[int, np.ndarray]:
        """Picture vectors by unit id. Pictures are read embed_batch at a time, each at most
        image_text.MAX_SIDE: that bounds their memory. A picture that no longer decodes loses
        only its own vector."""
        model = self._picture_model(self.picture_name)
        made: dict[int, np.ndarray] = {}
        ids = list(pictures)
        for i in range(0, len(ids), self.settings.embed_batch):
            keys, images = _decoded({uid: pictures[uid] for uid in ids[i:i + self.settings.embed_batch]},
                                    self.picture_name, warn)
            if images:
                made.update(zip(keys, image_text.checked(model, model.embed_images(images), len(images))))
        return made

    def _embed_pages(self, pages: dict[int, tuple[Picture, str, list[str]]], warn: OnSkip) -> dict[int, np.ndarray]:
        """A multivector model's patch vectors by unit id; a picture that no longer decodes loses
        only its own vectors (as in _embed_pictures)."""
        model = self._multivector_model(self.multivector_name)
        keys, images = _decoded(pages, self.multivector_name, warn)
        if not images:
            return {}
        got = model.embed_pages(images)
        if len(got) != len(images):
            raise ScentError(f"multivector_model {model.model_id} returned {len(got)} pages' vectors for "
                             f"{len(images)} pictures")
        return {uid: multivector.checked(model, v, "page") for uid, v in zip(keys, got)}

    def _settings_notice(self, has_files: bool) -> list[str]:
        """Why the index may be a mix: the settings that shape what is extracted and embedded
        differ from those it was built with, and files indexed before keep what they got then.
        An index is 'built' when its first files go in; a rebuild starts a new one."""
        catalog = self.engine.catalog
        current = {s.name: getattr(self.settings, s.name) for s in SETTINGS
                   if s.scope == "index" and s.name not in NOT_CONTENT_SETTINGS}
        stored = catalog.meta("content_settings")
        if not has_files:
            catalog.set_meta("content_settings", json.dumps(current, sort_keys=True))
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


def _newer_notice(newer: dict[str, int]) -> str:
    """Why files whose bytes did not change are read again."""
    n = sum(newer.values())
    which = ", ".join(sorted(newer))
    return (f"{n} file{'s' * (n != 1)} read again: this scent reads them better than the one that indexed "
            f"{'them' if n != 1 else 'it'} ({which}); their vectors are kept where their text did not change")


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
    if meta.get("bad_exif"):
        notes.append(f"its EXIF data is damaged ({meta['bad_exif']}): the date taken and camera may be missing; "
                     "the picture is indexed by its name, folders and file date")
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
    notes += meta.get("left_out", [])  # formats' own lines, each saying what was left out and what to do
    return notes


# Units of consecutive files translated in one engine call (_translate): Apertium starts once a call.
TRANSLATE_BATCH = 64
# Files read and waiting for their vectors, at most: past it the batches not yet full are embedded.
MAX_QUEUED = 512
# Vectors kept after the last file that needed them is written (_Made.idle): 6 MB of 384 numbers.
KEPT_IDLE = 4096
STAGE_POLL = 0.25  # seconds between looks at the readers' stages while waiting for a file
FOLLOW_POLL = 0.05  # seconds between looks at a spool its reader still writes (_Following)


def _reader_context():
    """(How reader processes are started, whether a run may read in them). Forked from this process
    where it runs no other thread; else (a server, a watcher) from multiprocessing's fork server, a
    process of one thread started for it. Forking a process whose other threads are at work leaves
    their locks held in the child (a reader that hangs on a logging or an allocator lock). The fork
    server imports the main module again, as spawn does, so it is used only where that module
    guards what it runs (`if __name__ == "__main__":`): an unguarded script would run again. There,
    the run reads here, and forks a reader only for a file that crashed one (a hang is rarer than
    that crash again)."""
    import multiprocessing

    if translate.threads_at_work() <= 1:
        return multiprocessing.get_context("fork"), True
    if not _main_guarded():
        return multiprocessing.get_context("fork"), False
    context = multiprocessing.get_context("forkserver")
    # This module and what it imports are read once by the fork server, not by every reader it forks.
    context.set_forkserver_preload(["__main__", __name__])
    return context, True


_GUARD = re.compile(r"""^if\s+__name__\s*==\s*["']__main__["']\s*:""", re.MULTILINE)


def _main_guarded() -> bool:
    """Whether importing the main module again runs nothing: there is none (an interactive
    session, `python -c`), or it is a file holding an `if __name__ == "__main__":` guard."""
    import sys

    path = getattr(sys.modules.get("__main__"), "__file__", None)
    if path is None:
        return True
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return _GUARD.search(f.read(1 << 20)) is not None
    except OSError:
        return False


def _reader_started(stages, run: int) -> None:
    """A reader process's start: it lets go of the index lock it inherited, announces its stages on
    `stages` (progress.Relay), and ends when the indexing process (`run`, its pid) is gone (killed,
    it cannot say so), instead of waiting for work forever. Watched by pid, not as the parent: a
    fork server's readers are its children, and it ends only when no process holds its pipe, which
    its readers do: after a `kill -9` of a watch, it and two readers lived on for good. Ctrl-C reaches every process of the terminal's group: the readers leave it to the
    indexing process, which ends them (each printed a traceback of its own, and a watch, which
    writes the refresh in progress first, lost its readers midway)."""
    import signal
    import threading

    from .locking import alive, close_in_child

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # ended by the run with it: not the run's own "stop and say so"
    close_in_child()
    relay_to(stages)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent and alive(run):
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


LET_GO_PATIENCE = 10  # seconds a stopped run waits for its reader pool's manager to end (_let_go)
READING_MARK = "reading"  # in the index folder: the file a serial run is reading (Indexer._read)
SPOOL = "spool"  # in the index folder: mailboxes' messages between their reader and the run (members.Spool)


def _read_mark(marker: Path) -> str | None:
    try:
        return marker.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _waited(future, stages, tracker: Tracker, folder: str | None = None):
    """The reader's answer for one file, the stages readers announce shown meanwhile; or, where its
    reader spools the files inside it in `folder` (members.Spool) and still reads, (a _Following
    of that spool, None)."""
    while True:
        relayed(stages, tracker)
        if folder is not None and not future.done() and (path := _spool_in(folder)):
            return _Following(future, path, stages, tracker), None
        try:
            return future.result(timeout=STAGE_POLL)
        except TimeoutError:
            pass


def _answered(future) -> bool:
    """Whether a reader answered for the file (a pool's shutdown cancels the files it had not begun)."""
    return future.done() and not future.cancelled() and future.exception() is None


def _spool_in(folder: str) -> str | None:
    """The spool file in a file's spool folder (its files' own containers spool in a folder below)."""
    try:
        with os.scandir(folder) as found:
            return next((e.path for e in found if e.is_file()), None)
    except FileNotFoundError:  # none yet
        return None


class _Following:
    """A file whose reader process still reads it, and spools the files inside it (a mailbox's
    messages): the run takes each as it is written (`members`), so the model embeds the first
    messages while the rest are read, instead of waiting for a mailbox read whole (minutes, for
    100,000 messages or hundreds of attachments to OCR). `finish()` then gives the reader's answer
    (scent.indexing._read wraps it: (Extracted or why it was skipped, notes, whether it was read
    once more, its files in that answer again))."""

    def __init__(self, future, path: str, stages, tracker: Tracker):
        self.future, self.path, self.stages, self.tracker = future, path, stages, tracker
        self.finish: Callable[[], tuple] = self._answer
        self.pool = None  # the reader's own pool (_read_apart), shut down at the end

    def members(self) -> Iterator[Member]:
        """The spooled files, as they come. The run's progress counts the files the reader announced
        (Spool.expect) or gave, whichever are more, and at the end those it gave."""
        announced = seen = counted = 0
        for item in Spool.follow(self.path, self.future.done, self._wait):
            if isinstance(item, int):
                announced += item
            else:
                seen += 1
            self.tracker.files_total += max(announced, seen) - counted
            counted = max(announced, seen)
            if not isinstance(item, int):
                yield item
        self.tracker.files_total += seen - counted

    def _wait(self) -> None:
        from concurrent.futures import wait

        relayed(self.stages, self.tracker)
        wait([self.future], timeout=FOLLOW_POLL)

    def _answer(self) -> tuple:
        try:
            return _waited(self.future, self.stages, self.tracker)
        finally:
            if self.pool is not None:
                self.pool.shutdown()
                self.pool = None

    def close(self) -> None:
        """End a reader the run no longer waits for (the run stopped)."""
        if self.pool is not None:
            _let_go(self.pool)
            self.pool = None


def _let_go(pool) -> None:
    """Shut `pool` down without waiting, and end the readers still at work: a run stopped by an
    error would otherwise wait for them (a reader may be minutes into a mailbox), and so would the
    process's exit. They write nothing of the index, only files in the run's spool folder and
    their own temporary folders."""
    # The pool's manager thread, told its readers ended, closes its wake-up pipe: waited for below,
    # as concurrent.futures' exit hook writes to that pipe and, racing with the close (Python before
    # 3.12.1), printed "OSError: Bad file descriptor" under the run's one line of error.
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets it
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    if manager is not None:
        manager.join(timeout=LET_GO_PATIENCE)


def _read_apart(f: FileInfo, limits: Limits, context, stages, tracker: Tracker, follow: bool = False) -> tuple:
    """What _extract_in_worker gives for `f`, read by a process of its own, whose end without an
    answer (killed by a fault in a native library reading the file: pdfium, FFmpeg, an image
    decoder) is the reason the file is skipped; with `follow`, a _Following while it spools."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    pool = ProcessPoolExecutor(1, mp_context=context, initializer=_reader_started, initargs=(stages, os.getpid()))

    def answered(wait: Callable[[], tuple]) -> tuple:
        try:
            return wait()
        except BrokenProcessPool:
            return (f"{CRASHED} (a fault in the library that reads {os.path.splitext(f.rel)[1] or 'such'} files, "
                    "on bytes it could not handle); if it opens in other programs, report it, and add it to "
                    ".scentignore to stop seeing this"), None

    future = pool.submit(_extract_in_worker, f.path, limits, f.rel)
    got, unavailable = answered(lambda: _waited(future, stages, tracker, limits.spool if follow else None))
    if isinstance(got, _Following):
        answer = got.finish
        got.pool = pool
        got.finish = lambda: answered(answer)
        return got, None
    pool.shutdown()
    return got, unavailable


def _extract_in_worker(path: str, limits: Limits, rel: str) -> tuple:
    """In a reader process: (Extracted or the reason it was skipped, None), or (None, the OCR
    error) when OCR is unavailable (the indexing process reads the file again without it)."""
    reading(rel)
    try:
        return extract(path, limits), None
    except OcrUnavailable as err:
        return None, str(err)
    except ExtractError as err:
        return err.reason, None


MAX_WORDLESS_UNITS = 16  # units of wordless text (chunk.wordless) kept from one file
# A table's units (about 12 rows each) given a vector: the first 1,000 rows or so. The rest are
# found by their words. Rows of figures cost the model 3-4 times prose a unit, and each unit's
# vector says what its neighbours' say (the columns, the kind of records): a 50,000-row bank
# export was 4,000 units and about 15 minutes of the model on two cores, for no meaning that
# the first units and the keywords lack.
TABLE_UNITS_EMBEDDED = 80
TABLE_KINDS = frozenset({"csv", "sheet", "json"})
EMBED_HEAD_CHARS = 500  # of a wordless unit's or a log's text, what the model reads (about 5 lines)


def _keyword_only(units: list[UnitRecord]) -> set[int]:
    """The ids of each table's (a sheet of a workbook is a table of its own) or log's units past
    its first TABLE_UNITS_EMBEDDED: found by keywords only."""
    tables: dict[str, list[int]] = {}
    for u in units:
        if u.kind in TABLE_KINDS or _log(u.text, u.kind):
            tables.setdefault(_ROWS.sub("", u.title), []).append(u.id)
    return {uid for ids in tables.values() for uid in ids[TABLE_UNITS_EMBEDDED:]}


# A table's section titles: "Budget rows 26-50" (a sheet), "export.csv rows 1-25".
_ROWS = re.compile(r" rows \d+-\d+$")


def _few_wordless(pieces: list) -> tuple[list, int]:
    """`pieces` without the noise ones (_noise) past the first MAX_WORDLESS_UNITS, and how many went."""
    kept, seen = [], 0
    for p in pieces:
        if _noise(p.text, p.kind):
            seen += 1
            if seen > MAX_WORDLESS_UNITS:
                continue
        kept.append(p)
    return kept, len(pieces) - len(kept)


LOG_SAMPLE_CHARS = 4000  # of a long file, what says whether it is a log


def _tail(section: Section, reach: int, s: Settings) -> list[Unit]:
    """The last max_units_per_file units of `section` (a log), reckoned to take about `reach`
    characters, as many as its first ones took; from a line's start."""
    cut = max(0, len(section.text) - reach - reach // s.max_units_per_file)  # a unit more: the last may be short
    cut = section.text.find("\n", cut) + 1 if cut else 0
    line = None if section.line is None else section.line + section.text.count("\n", 0, cut)
    tail = replace(section, text=section.text[cut:], start=section.start + cut, line=line)
    return chunk([tail], s.chunk_words, s.chunk_overlap)[-s.max_units_per_file:]


def _where(unit: Unit) -> str:
    return f"page {unit.page}" if unit.page else f"character {unit.end:,}"


def _record(unit: Unit, doc_title: str, sentence_vectors: bool, region_vectors: bool = False,
            english_gloss: bool = False) -> UnitRecord:
    text = clean(unit.text)
    title = unit.title or doc_title
    lang = detect(text, unit.kind)
    # Lines of base64, a hex dump or a log are no sentences: up to 24 more embeddings a unit
    # (a 4 MB base64 file took 75 s to index for 16 units kept).
    headed = _headed(text, unit.kind)
    with_parts = sentence_vectors and unit.kind in PART_KINDS and not headed
    extra = extra_tokens(text)
    titled = text if text.startswith(title) else f"{title}\n{text}"
    if english_gloss and lang != "en":
        # English words for a unit in another language, beside its identifier parts: keyword
        # search then finds it for an English query (scent.gloss).
        extra = " ".join(filter(None, (extra, gloss(titled, lang))))
    # Its words' stems where English's Porter rules would not find them (scent.stems), a German
    # compound's parts (Schornstein in Schornsteinfeger: scent.gloss), and how its Hindi and Tamil
    # words sound in Latin letters (shaadi finds शादी: scent.romanize)
    extra = " ".join(filter(None, (extra, stems(titled, lang), compound_parts(titled, lang), romanize.keys(titled))))
    return UnitRecord(
        kind=unit.kind, text=text, text_hash=text_key(_embed_text(text, title, headed)),
        page=unit.page, start=unit.start, end=unit.end, title=title, lang=lang,
        extra=extra, ids=id_tokens(text),
        parts=tuple(sentences(text)) if with_parts else (),
        regions=tuple(regions(text)) if region_vectors and unit.kind in REGION_KINDS else (), date=unit.date,
        until=unit.until, line=unit.line)


def _translate(queue: deque[_Waiting], made: _Made) -> dict[str, str]:
    """The queued files' units still to translate, in a language with a translator (scent.translate:
    Portuguese, Spanish, French), get their English translation, embedded into the `english` field: the
    small multilingual model matches English to English far better than across languages (an
    English query about a Portuguese note found it at dense rank 30: "salt cod with straw
    potatoes", bacalhau.md). Dense search counts that vector `translation_offset` less than the
    unit's own (docs/retrieval-tuning.md, session 25). One engine call a language for a batch of
    files: Apertium's start (~0.2 s) once a file took longer than the file's embedding.
    Counts each new text as `made` needed; returns the texts to embed (text key -> text)."""
    places: dict[str, list[tuple[_Waiting, int]]] = {}
    for waiting in queue:
        for i in waiting.untranslated:
            places.setdefault(waiting.write.units[i].lang, []).append((waiting, i))
        waiting.untranslated = []
    texts: dict[str, str] = {}
    for lang, where in places.items():
        with stage("translating"):
            got = translate.texts_to_english([w.write.units[i].text for w, i in where], lang)
        for (waiting, i), english in zip(where, got):
            if english:
                waiting.write.units[i] = replace(waiting.write.units[i], english=english)
                if text_key(english) not in waiting.texts:
                    made.need([text_key(english)])
                waiting.texts[text_key(english)] = english
                texts[text_key(english)] = english
    return texts


def _embed_text(text: str, title: str, headed: bool) -> str:
    """What the embedder sees: the heading or document title gives a chunk its context. Of a
    run of base64 or a hex dump in text, or of minified code (one line), only the head: its
    meaning is nil however much is read, and all of it took the model 20 times a unit of prose
    (2.8 s, not 0.14). Code and JSON in lines read as wordless too (long identifiers and keys),
    but their words mean something. Of a log's lines, the head too: what kind of records they are
    is in the first few, the rest differ in values the keywords hold (a unit of 180 log "words"
    was 913 tokens, 0.9 s of the model). `headed`: the unit is such noise or a log (_headed, worked
    out once per unit by _record). The keyword index keeps every unit's whole text."""
    if headed:
        text = text[:EMBED_HEAD_CHARS]
    return text if not title or text.startswith(title) else f"{title}\n{text}"


def _headed(text: str, kind: str) -> bool:
    """Whether the model reads only the head of this unit (noise or a log: see _embed_text)."""
    return _noise(text, kind) or _log(text, kind)


def _noise(text: str, kind: str) -> bool:
    """Base64, a hex dump or a minified line: wordless text (chunk.wordless) in a kind of prose,
    or one line of it in code. Code in lines reads as wordless too (long identifiers: a third of
    a real module's units), but it is code: all of it is kept and embedded."""
    return wordless(text) and (kind in PART_KINDS or "\n" not in text)


def _log(text: str, kind: str) -> bool:
    return kind == "text" and log_lines(text)


def _hash_file(path: str) -> str:
    h = hashlib.sha1()
    if os.path.isdir(path):  # a document package (scent.walk.DOCUMENT_PACKAGES): its files' names and bytes
        for top, _, files in sorted(os.walk(path)):
            for name in sorted(files):
                inner = os.path.join(top, name)
                h.update(os.path.relpath(inner, path).encode("utf-8", "surrogateescape") + b"\0")
                if os.path.isfile(inner) and not os.path.islink(inner):
                    _hash_into(h, inner)
        return h.hexdigest()
    _hash_into(h, path)
    for side in companions(path):
        h.update(b"\0" + os.path.basename(side).encode("utf-8", "surrogateescape") + b"\0")
        _hash_into(h, side)
    return h.hexdigest()


def _hash_into(h, path: str) -> None:
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
