"""The product: `Index(folder).update()` builds or refreshes an index, `.search(query)` answers.

A thin facade over the stages: indexing (scent.indexing), the search pipeline (scent.search)
and the storage engine (scent.engines). The CLI, the web app and the MCP server are views of
this class and call nothing else.
"""
from __future__ import annotations

import os
import posixpath
import sqlite3
import unicodedata
from dataclasses import replace
from pathlib import Path
from threading import Lock

from typing import TYPE_CHECKING

# What a search does not use (a folder's path checks, passages for `context`, the skipped files'
# report, removing an index) is imported where it is used: a fresh `scent search` imports the rest.
from . import access, location, search as pipeline, spelling, syntax
from .embed import E5Embedder, Embedder
from .engines import engine_class, open_engine
from .errors import IndexVersionError, NotIndexed, ScentError, UsageError, cannot_write
from .filters import Filters
from .gloss import gloss, to_english, translate_query, with_translation
from .language import query_language
from .locking import RUN_MARK, IndexLock, still_running
from .query import MAX_QUERY_CHARS, parse, valid_text
from .search import SearchResult
from .settings import Settings
from .stems import with_stems
from .storage import StoredSuggestion, StoredUnit
from .terminal import visible

if TYPE_CHECKING:
    from . import image_text, passages
    from .indexing import IndexReport, Indexer, OnSkip, Progress

__all__ = ["Index", "IndexReport", "SearchResult"]

# scent context: the best units considered, and the budgets a caller may ask for.
CONTEXT_UNITS = 40
MIN_CONTEXT_TOKENS, MAX_CONTEXT_TOKENS = 50, 100_000


def _check_utf8(folder) -> None:
    from .walk import is_utf8, shown

    where = str(Path(folder).resolve())
    if not is_utf8(where):
        raise ScentError(f"the path of {shown(where)} is not valid UTF-8 (shown as \\xNN), "
                         "and the index stores it as text; rename the folder (convmv can) and index it again")


def __getattr__(name: str):
    # Indexing (and the extractors' libraries: PDF, Word, slides ...) is imported when first used,
    # so a process that only searches starts without them.
    if name == "IndexReport":
        from .indexing import IndexReport
        return IndexReport
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _at_least_one(k, name: str) -> None:
    if isinstance(k, bool) or not isinstance(k, int):
        raise UsageError(f"{name} must be a whole number, got {k!r}")
    if k < 1:
        raise UsageError(f"{name} must be at least 1, got {k}")


class Index:
    """One folder's index: `update` brings it in line with the folder, `search`, `context` and
    `similar` answer from it, `status` says what it holds. Open one with `Index(folder)` (made
    when new) or `Index.open(...)` (an existing one, found as the CLI finds it); close it, or use
    it as a context manager. A handle serves one thread at a time (scent.readers for many)."""

    def __init__(self, folder: str | Path | None = None, *, index_dir: str | Path | None = None,
                 settings: Settings | None = None, embedder: Embedder | None = None, rebuild: bool = False):
        """The index of `folder` (made when new), or the one in `index_dir`. `rebuild` throws an
        existing index away first, in whatever engine holds it, and holds the indexing lock from
        then until the first `update` has built it again (or `close`)."""
        self._closed = False
        if folder is None and index_dir is None:
            raise UsageError("Index needs a folder or an index directory")
        if rebuild and folder is None:
            raise UsageError("a rebuild needs the folder to read again")
        if folder is not None:
            _check_utf8(folder)
        self.index_dir = Path(index_dir) if index_dir else location.default_index_dir(folder)
        if not index_dir:
            location.make_home()
        self.settings = settings or Settings()
        self._embedder = embedder
        engine = engine_class(self.settings.backend)
        self._rebuild_lock: IndexLock | None = None
        if rebuild:
            # Locked first: another indexer may be writing this index, and it keeps the lock file.
            self._rebuild_lock = IndexLock(self.index_dir)
            self._rebuild_lock.__enter__()
            try:
                engine.destroy(self.index_dir, self.settings)
            except BaseException:
                self._release_rebuild_lock()
                raise
        if not engine.exists(self.index_dir, self.settings):
            if folder is None:
                raise ScentError(f"no index in {self.index_dir}; build one with: scent index FOLDER")
            # Made for a folder that is not there (a typo, a file), an empty index stayed behind,
            # listed by `scent list` as the folder's. An existing index opens without its folder.
            if not Path(folder).is_dir():
                self._release_rebuild_lock()
                raise UsageError(f"{folder} is not a folder" if Path(folder).exists() else
                                 f"folder {folder} does not exist; check the path")
        try:
            self.index_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            self._release_rebuild_lock()
            raise cannot_write(self.index_dir, err) or ScentError(
                f"cannot make the index folder {self.index_dir} ({err.strerror or err}); pick another --index") from None
        try:
            self.engine = open_engine(self.settings, self.index_dir)
        except (OSError, sqlite3.OperationalError) as err:
            self._release_rebuild_lock()
            raise cannot_write(self.index_dir, err) or err from None
        except BaseException:
            self._release_rebuild_lock()
            raise
        if self._rebuild_lock is not None:
            self._rebuild_lock.hand_to(self.engine)  # this index's indexer takes it again; no other
        try:
            self._check(folder, embedder or E5Embedder)
        except BaseException:
            self.close()
            raise
        self._image_text: dict[str, image_text.ImageTextModel | None] = {}
        self._models_lock = Lock()  # a model is loaded once, also when readers ask at once
        self._multivector: tuple | None = None  # (multivector_model name, the model)
        self._indexer: Indexer | None = None
        self.found = "named"  # how Index.open found it (scent.location.Found.how)

    def _check(self, folder, model) -> None:
        catalog = self.engine.catalog
        stored_root = catalog.meta("root")
        if folder is not None:
            root = str(Path(folder).resolve())
            if stored_root and stored_root != root:
                raise ScentError(f"{self.index_dir} indexes {stored_root}, not {root}; pick another --index")
            if not stored_root:
                catalog.set_meta("root", root)
            self.root = root
        else:
            self.root = stored_root
        unit = self.engine.vectors.fields().get("unit")
        if unit is not None and unit.model != model.model_id:
            raise IndexVersionError(f"this index was built with {unit.model}, not {model.model_id}; "
                                    "re-index with --rebuild")
        # The index remembers its image-text model; the setting names one for a new index.
        stored = catalog.meta("image_text_model")
        wanted = self.settings.image_text_model
        if wanted and stored and wanted != stored:
            raise IndexVersionError(f"this index's pictures were embedded with image_text_model {stored}, "
                                    f"not {wanted}; re-index with --rebuild")

    @classmethod
    def open(cls, folder: str | Path | None = None, index: str | Path | None = None, near: str | Path | None = None,
             **kwargs) -> "Index":
        """Open an existing index by the lookup rules of `scent.location` (from `near`, when given,
        rather than the current folder)."""
        settings = kwargs.get("settings") or Settings()
        engine = engine_class(settings.backend)
        found = location.find_index(folder, index, lambda d: engine.exists(d, settings), near)
        idx = cls(index_dir=found.index_dir, **kwargs)
        idx.found = found.how
        return idx

    @staticmethod
    def known(settings: Settings | None = None) -> list[dict]:
        """The indexes under $SCENT_HOME: each one's status (folder, files, size, last update), or
        its `error` when it cannot be opened. No model is loaded."""
        settings = settings or Settings()
        engine = engine_class(settings.backend)
        out = []
        for d in location.known_index_dirs(lambda d: engine.exists(d, settings)):
            try:
                with Index(index_dir=d, settings=settings) as idx:
                    out.append(idx.status())
            except ScentError as err:
                out.append({"index": str(d), "folder": None, "error": str(err)})
        return out

    @staticmethod
    def forget(folder: str | Path | None = None, index_dir: str | Path | None = None,
               settings: Settings | None = None) -> Path:
        """Remove the index of `folder` (or the one in `index_dir`) from this machine, and from its
        engine; the folder's own files are not touched. Refused while an indexer writes it."""
        import shutil

        from .serve import discovery

        settings = settings or Settings()
        engine = engine_class(settings.backend)
        where = location.find_index(folder, index_dir, lambda d: engine.exists(d, settings)).index_dir
        server = discovery.running(where)
        if server is not None:  # it would go on answering from the removed index until it stopped
            raise ScentError(f"scent serve (pid {server['pid']}, {discovery.url(server)}) is serving this index; "
                             "stop it first (Ctrl-C where it runs), then forget the index")
        with IndexLock(where):
            _forget_kept(where, settings)
            engine.destroy(where, settings)
        shutil.rmtree(where, ignore_errors=True)  # the lock file too, now that nobody holds it
        location.forget_last(where)
        return where

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            with self._models_lock:
                if self._embedder is None:
                    self._embedder = E5Embedder()
        return self._embedder

    def reader(self) -> "Index":
        """Another handle on this index, for another thread: its own connection and caches, the
        models this one loaded (or loads) shared. The caller closes it."""
        other = Index(index_dir=self.index_dir, settings=self.settings, embedder=self.embedder)
        other._image_text, other._models_lock = self._image_text, self._models_lock
        other._multivector = self._multivector
        return other

    def close(self) -> None:
        self._closed = True
        try:
            self.engine.close()
        finally:
            self._release_rebuild_lock()

    def _usable(self) -> None:
        if self._closed:
            raise UsageError(f"this index ({self.index_dir}) was closed; open it again to search it")

    def _release_rebuild_lock(self) -> None:
        if self._rebuild_lock is not None:
            lock, self._rebuild_lock = self._rebuild_lock, None
            lock.__exit__(None, None, None)

    def replaced(self) -> bool:
        """Whether the index on disk was rebuilt or replaced since this handle opened it (a server
        then opens it again: this handle still reads the old, deleted one)."""
        return self.engine.replaced()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- indexing ------------------------------------------------------------------------

    def update(self, progress: Progress | None = None, on_skip: OnSkip | None = None,
               on_warning: OnSkip | None = None) -> IndexReport:
        """Bring the index in line with the folder: new and changed files in, deleted files out."""
        try:
            report = self.indexer.update(progress, on_skip, on_warning)
        except (OSError, sqlite3.OperationalError) as err:
            raise cannot_write(self.index_dir, err) or err from None
        finally:
            self._release_rebuild_lock()  # built again, or as far as it got: a rerun goes on from there
        location.remember_last(self.index_dir)
        return report

    def refresh(self, paths: list[str], progress: Progress | None = None, on_skip: OnSkip | None = None,
                on_warning: OnSkip | None = None) -> IndexReport:
        """Bring only `paths` in line (what a watcher saw change): new, changed, gone."""
        try:
            return self.indexer.refresh(paths, progress, on_skip, on_warning)
        except (OSError, sqlite3.OperationalError) as err:
            raise cannot_write(self.index_dir, err) or err from None

    @property
    def indexer(self) -> Indexer:
        # Made again when the settings were replaced (idx.settings = ...): they shape what is read.
        if self._indexer is None or self._indexer.settings is not self.settings:
            from . import ocr
            from .indexing import Indexer

            s = self.settings
            self._indexer = Indexer(self.engine, self.root, self.index_dir, s, self._embedder or E5Embedder,
                                    lambda: self.embedder, lambda name: self._image_text_model(name, required=True),
                                    ocr.engine(s.ocr_engine) if s.ocr else None)
        return self._indexer

    def _image_text_model(self, name: str, required: bool = False) -> image_text.ImageTextModel | None:
        """The image-text model `name`, loaded once; a search goes on without it (None) when it is
        not installed here, indexing does not (UsageError)."""
        with self._models_lock:
            if name not in self._image_text:
                try:
                    from . import image_text

                    self._image_text[name] = image_text.load(name)
                except UsageError:
                    if required:
                        raise
                    self._image_text[name] = None
            return self._image_text[name]

    # ---- searching -----------------------------------------------------------------------

    def search(self, query: str, k: int = 10, filters: Filters | None = None, explain: bool = False,
               as_user: str | None = None, **overrides) -> pipeline.Results:
        """Files ranked for `query`, best first, each with its best unit (page, chunk) and a snippet;
        the list's `corrected` says which words were read as misspelt (scent.spelling).
        `query` may use the query language (scent.syntax): "a phrase", -word, OR, ext: dir: kind:
        lang: after: before:; its filters hold together with `filters`.

        Only files `as_user` may read take part (None: the user running this process; see
        scent.access). `overrides` are settings for this query only (strategy, match, rrf_k ...).
        """
        return self.search_with_lists(query, k, filters, explain, as_user, **overrides)[0]

    def search_with_lists(self, query: str, k: int = 10, filters: Filters | None = None, explain: bool = False,
                          as_user: str | None = None, **overrides) -> tuple[pipeline.Results, dict[str, list[str]]]:
        """`search`, plus each candidate list's ranking of files before fusion (for diagnostics)."""
        _at_least_one(k, "k")
        request = self._request(query, filters, overrides, as_user)
        if not request.text:  # filters alone: the files they keep
            results, lists = pipeline.newest(request, k), {}
        else:
            results, lists = pipeline.run(request, k, explain)
        for r in results:
            r.folder = self.root or ""
        return pipeline.Results(results, request.corrected, request.translation, listed=not request.text), lists

    def context(self, query: str, tokens: int = 2000, filters: Filters | None = None,
                as_user: str | None = None, **overrides) -> passages.Context:
        """The best passages for `query` (several of a file when they are its best), overlapping
        chunks merged, cited by path and page, best first, within about `tokens` tokens: for
        pasting into an LLM's prompt. Only files `as_user` may read are used (see `search`)."""
        _at_least_one(tokens, "tokens")
        if not MIN_CONTEXT_TOKENS <= tokens <= MAX_CONTEXT_TOKENS:
            raise UsageError(f"tokens must be between {MIN_CONTEXT_TOKENS} and {MAX_CONTEXT_TOKENS:,}, got {tokens}")
        from . import passages

        request = self._request(query, filters, overrides, as_user)
        if not request.text:
            raise UsageError("the question has no words, only filters; a context is the passages that answer "
                             "words (search lists the files filters alone keep)")
        scored, assessed = pipeline.best_units(request, CONTEXT_UNITS)
        score = {u.id: sc for u, sc in scored}
        merged = passages.merge([u for u, _ in scored])
        for p in merged:
            p.score = max(score[uid] for uid in p.unit_ids)
            p.confidence, p.weak = assessed[p.path]
        merged.sort(key=lambda p: -p.score)
        return passages.Context(query, tokens, passages.budget(passages.once(merged), tokens), request.corrected,
                                request.translation)

    def why_not_indexed(self, path: str) -> str | None:
        """Why the file at `path` (relative to the folder) has no units, in a line; None when it has."""
        if self.engine.catalog.file_units(path) is not None:
            return None
        return str(self._not_indexed(path, None, None))

    def _not_indexed(self, path: str, readers: tuple[str, ...] | None, as_user: str | None) -> NotIndexed:
        """Why `path` has no units: what the last run said of it (damaged, a kind scent does not read
        ...), or that it is not there to read, or the walk's rules left it out. Whether it is on
        disk is said only to the user running scent, who may look: told to another (`as_user`, a
        server's remote user), it said which names exist in folders they may not read, and beyond."""
        reason = next((f["reason"] for f in self._skipped(readers)["files"] if f["path"] == path), None)
        if reason:
            return NotIndexed(f"{path} is not indexed: {reason}")
        inside = bool(self.root) and not path.startswith(("/", "../")) and path != ".."
        if as_user is None and inside and (Path(self.root) / path).is_file():
            from .walk import left_out

            if left_out(path.split("/")):
                return NotIndexed(f"{path} is not indexed: scent leaves it out by its name (a hidden file or folder, "
                                  "whose name starts with a dot; a tool's folder such as node_modules; a lock file or "
                                  "a minified bundle)")
            return NotIndexed(f"{path} is not indexed: it is new since the last run (scent index reads it), or "
                              "scent leaves it out (hidden and ignored folders such as node_modules, .scentignore)")
        return NotIndexed(f"{path} is not in this index; give a path as search results show it "
                          "(relative to the indexed folder)")

    def similar(self, path: str, page: int | None = None, k: int = 10, filters: Filters | None = None,
                as_user: str | None = None, **overrides) -> pipeline.Results:
        """Files like the indexed file `path` (its page `page`, when given), by meaning and by its words, best first
        (scent.similar); the file, its copies and its parts are not among them. Only files `as_user` may read
        take part, the seed included; `filters` and `overrides` hold as in `search`. Needs no model."""
        from .similar import similar

        self._usable()
        _at_least_one(k, "k")
        if not isinstance(path, str):
            raise UsageError(f"the path must be text (str), got {type(path).__name__}")
        s = self.settings.with_values(**overrides)
        filters = self._asked(filters or Filters(), s, as_user)
        path = self._relative(path)
        units = self.engine.catalog.file_units(path, filters.readers)
        if units is None:
            raise self._not_indexed(path, filters.readers, as_user)
        if page is not None:
            units = [u for u in units if u.page == page]
            if not units:
                raise UsageError(f"{path} has no page {page} in the index")
        if not units:
            raise ScentError(f"{path} has nothing to compare: no words or pictures were read from it")
        results = similar(self.engine, s, units, filters, k)
        if not results and not self.engine.vectors.get("unit", [u.id for u in units[:50]]):
            raise ScentError(f"{path} has no meaning vectors (a table's later rows, or a file with no words), so "
                             "nothing can be found like it")
        for r in results:
            r.folder = self.root or ""
        return pipeline.Results(results)

    def _relative(self, path: str) -> str:
        """`path` as the index names files: relative to the folder, "./" and "a/../" resolved; an
        absolute path inside the folder made relative (one outside it is left as given: no file
        of the index)."""
        if os.path.isabs(path) and self.root:
            rel = os.path.relpath(os.path.normpath(path), self.root)
            return path if rel == ".." or rel.startswith("../") else rel.replace(os.sep, "/")
        head, hash_, member = path.partition("#")  # a file inside another: only its container's part
        return posixpath.normpath(head) + hash_ + member if head else path

    def _request(self, query: str, filters: Filters | None, overrides: dict,
                 as_user: str | None = None) -> pipeline.Request:
        """A query checked and parsed (query language included) into what the pipeline runs."""
        parsed, s, filters, keywords, fixed = self._read_query(query, filters, overrides, as_user)
        text = spelling.corrected_text(parsed.text, fixed)
        lang = query_language(text)
        keywords = with_stems(translate_query(keywords, lang, s.translate_query), lang)
        if self.engine.catalog.meta("sound_keys"):  # the folder holds Hindi or Tamil: "shaadi" finds शादी
            from . import romanize  # imported only then

            # Not for a query read as Spanish, French, Portuguese or German, whose words would meet
            # Hindi words' keys by chance.
            keyed = keywords if lang in romanize.LATIN_LANGUAGES else romanize.with_sound_keys(keywords)
            # Hindi in Latin letters reads as Indonesian or Somali: as that, every French or German note
            # near the top of the dense list stood in for its keyword rank ("kaju katli gulab jamun" 1 -> 8).
            lang = lang if lang == "en" or keyed == keywords else None
            keywords = keyed
        english, glossed = None, ""
        if to_english(lang, s.translate_query):
            from . import translate  # and its engines: never imported for an English query

            english, glossed = translate.to_english(text, lang), gloss(text, lang)
        if english:
            keywords = with_translation(keywords, english)
        return pipeline.Request(text, keywords, filters, s, self.engine,
                                   lambda text: self.embedder.embed_queries([text])[0], self._picture_query(),
                                   parsed.constraints, self._multivector_query(s), lang=lang, corrected=fixed,
                                   gloss=glossed, translation=english or "")

    def _read_query(self, query: str, filters: Filters | None, overrides: dict, as_user: str | None):
        """`query` checked and parsed: (its syntax.Parsed, the settings, the filters it runs under, its
        keywords, its misspelt words -> the words searched instead)."""
        self._usable()
        if not isinstance(query, str):
            raise UsageError(f"the query must be text (str), got {type(query).__name__}")
        if filters is not None and not isinstance(filters, Filters):
            raise UsageError(f"filters must be a scent.Filters (Filters.build(...)), got {type(filters).__name__}")
        if as_user is not None and not isinstance(as_user, str):
            raise UsageError(f"as_user must be a user name (str) or None, got {type(as_user).__name__}")
        query = valid_text(query)
        if not query.strip() and (filters is None or filters.empty):
            raise UsageError("the query is empty; type some words to search for (or filters alone, to list the "
                             "files they keep)")
        if query.strip() and all(ch.isspace() or unicodedata.category(ch)[0] == "P" for ch in query):
            # "!!!???" or "()": no word for either list, and the dense one answered with filler
            raise UsageError("the query is only punctuation; type some words to search for")
        if len(query) > MAX_QUERY_CHARS:
            raise UsageError(f"the query is {len(query):,} characters long, over the {MAX_QUERY_CHARS:,} searched; "
                             "shorten it to the words that matter")
        parsed = syntax.parse(query)
        s = self.settings.with_values(**overrides)
        filters = syntax.combine(filters or Filters(), parsed.filters)
        if not parsed.text and filters.empty:
            raise UsageError("the query has no words to search for, only exclusions; add what to look for, "
                             "like: budget -draft, or a filter to list the files it keeps, like: ext:pdf -draft")
        filters = self._asked(filters, s, as_user)
        keywords = parse(parsed.keyword_text, s.stopwords, parsed.alternatives)
        fixed = {}
        if s.spelling:
            quoted = frozenset(w for group in parsed.constraints.required for phrase in group for w in phrase)
            fixed = spelling.corrections(self.engine, keywords, filters, quoted, parsed.text)
        return parsed, s, filters, spelling.corrected_query(keywords, fixed, s.stopwords), fixed

    def _asked(self, filters: Filters, s: Settings, as_user: str | None) -> Filters:
        """`filters` with who asks (a filter like the others: every candidate list is built under
        it) and the kinds the settings leave out."""
        filters = replace(filters, readers=self.readers(as_user), path=self._within(filters.path))
        if s.exclude_kinds:
            filters = replace(filters, exclude=tuple(k.strip() for k in s.exclude_kinds.split(",") if k.strip()))
        return filters

    def _within(self, path: str | None) -> str | None:
        """A path filter as the index names files: relative to the folder (an absolute path inside it
        made so). One that leaves the folder is refused: it matched nothing, and "no results" hid why."""
        if not path:
            return path
        root = (self.root or "").rstrip("/")
        if root and path.startswith(root + "/"):
            return path[len(root) + 1:] or None
        if path.startswith("/") or path == ".." or path.startswith("../"):
            where = f" ({visible(root)})" if root else ""
            raise UsageError(f"the path filter {visible(path)} lies outside the indexed folder{where}; give a path "
                             "inside it, relative to it (notes/, notes/*.md)")
        return path

    def spelling(self, query: str, filters: Filters | None = None, as_user: str | None = None,
                 **overrides) -> dict[str, str]:
        """The words of `query` that `search` reads as misspelt -> the words it searches instead
        ({} when none is, or the `spelling` setting is off): see scent.spelling."""
        return self._read_query(query, filters, overrides, as_user)[-1]

    @staticmethod
    def search_many(indexes: list["Index"], query: str, k: int = 10, filters: Filters | None = None,
                    as_user: str | None = None, **overrides) -> pipeline.Results:
        """`query` over several indexes at once: each one's `k` best, merged by their fused scores and
        ranked again; each result's `folder` says which index it came from. `corrected` holds what
        any index read as misspelt (one that holds the word searched it as typed; the first named
        wins).

        A fused score is rank-based (reciprocal ranks in each candidate list), so a folder whose raw
        scores run high does not crowd out another; ties go to the folder named first."""
        found = [idx.search(query, k, filters, as_user=as_user, **overrides) for idx in indexes]
        listed = any(results.listed for results in found)  # filters alone: newest first, as in one folder
        merged = [(r.date if listed else r.score, -i, -r.rank, r) for i, results in enumerate(found) for r in results]
        merged.sort(key=lambda t: t[:3], reverse=True)
        corrected = {typed: word for results in reversed(found) for typed, word in results.corrected.items()}
        translation = next((results.translation for results in found if results.translation), "")
        return pipeline.Results([replace(r, rank=n) for n, (*_, r) in enumerate(merged[:k], start=1)], corrected,
                                translation, listed)

    def _multivector_query(self, s):
        """How a query becomes its many vectors for the multivector list: the text model over its
        phrases, or the index's multivector_model; None when the index has no regions (or the
        profile makes no multivector list: nothing is asked of the catalog then)."""
        from .search import PROFILES

        if "multivector" not in PROFILES[s.strategy]:
            return None  # the default profiles: scent.multivector is not imported for them
        from . import multivector

        if multivector.FIELD not in self.engine.vectors.fields():
            return None
        name = self.engine.catalog.meta("multivector_model")
        if not name:
            return lambda text: self.embedder.embed_queries(multivector.query_phrases(text, s.query_phrases))
        with self._models_lock:
            if self._multivector is None or self._multivector[0] != name:
                self._multivector = (name, multivector.load(name))
        model = self._multivector[1]
        return lambda text: multivector.checked(model, model.embed_query(text), "query")

    def _picture_query(self):
        """How a query is embedded for the pictures list; None when the index has no picture vectors
        or their model is not installed here (search goes on without the list)."""
        name = self.engine.catalog.meta("image_text_model")
        model = self._image_text_model(name) if name else None
        if model is None:
            return None
        from . import image_text

        return lambda text: image_text.checked(model, model.embed_texts([text]), 1)[0]

    # ---- what the views read -------------------------------------------------------------

    def readers(self, as_user: str | None = None) -> tuple[str, ...] | None:
        """The principals `as_user` (None: the user running this process) is let in by; None for
        an unrestricted reader (root). The rules file's groups are the ones this index recorded."""
        return access.principals(as_user, self.engine.catalog.meta("access_groups"))

    def may_read(self, path: str, as_user: str | None = None) -> bool:
        """Whether `as_user` may read the indexed file `path` (False when it is not indexed)."""
        return self.file_units(path, as_user) is not None

    def unfinished_run(self) -> dict | None:
        """The indexing run begun after the last one that finished, or None: {"started": unix
        seconds, "running": whether it still runs}. A run that stopped (Ctrl-C, a kill, a crash,
        a full disk) left the files it had not reached out of the index, or at their old state;
        the next run reads them."""
        catalog = self.engine.catalog
        mark = catalog.meta(RUN_MARK)
        if not mark:
            return None
        finished, started = catalog.meta("last_indexed"), float(mark.split(" ", 1)[0])
        if finished and float(finished) >= started:
            return None
        return {"started": started, "running": still_running(mark, self.index_dir)}

    def status(self, as_user: str | None = None) -> dict:
        """The index's state; file counts and problems only of the files `as_user` may read.
        `not_indexed`: the files walked and not indexed, per extension and cause (scent.skipped);
        `unfinished_run`: see unfinished_run."""
        from . import skipped as not_indexed

        readers = self.readers(as_user)
        st = self.engine.status(readers)
        st["unfinished_run"] = self.unfinished_run()
        st["not_indexed"] = not_indexed.counts(st["errors"], self.engine.catalog.unsupported_counts(readers))
        unit = self.engine.vectors.fields().get("unit")
        return {"folder": self.root, "index": str(self.index_dir), "backend": self.engine.name,
                "model": unit.model if unit else (self._embedder or E5Embedder).model_id, **st}

    def skipped(self, as_user: str | None = None) -> dict:
        """Every file walked and not indexed that `as_user` may read, with its cause and reason:
        `{"files": [{"path", "cause", "reason"}], "unlisted": [{"ext", "files"}]}` (files of kinds
        scent does not read beyond the first few of each extension are only counted)."""
        return self._skipped(self.readers(as_user))

    def _skipped(self, readers: tuple[str, ...] | None) -> dict:
        from . import skipped as not_indexed

        catalog = self.engine.catalog
        return not_indexed.listing(self.engine.status(readers)["errors"], catalog.unsupported_counts(readers),
                                   catalog.unsupported_files(readers))

    def file_units(self, path: str, as_user: str | None = None) -> list[StoredUnit] | None:
        """The units of the indexed file `path` in reading order; None when it is not in the index
        or `as_user` may not read it (the two are told apart to nobody)."""
        return self.engine.catalog.file_units(path, self.readers(as_user))

    def suggestions(self, limit: int, as_user: str | None = None) -> list[dict]:
        """Example queries from the content of files `as_user` may read (see scent.suggest)."""
        return self.engine.catalog.suggestions(limit, self.readers(as_user))

    def generated_queries(self, as_user: str | None = None) -> list[StoredSuggestion]:
        """Every example query made from the files `as_user` may read, with its file, page and
        aspect (scent.suggest), for `scent eval --synthetic`."""
        return self.engine.catalog.generated_queries(self.readers(as_user))

    def remember_report(self, folder: Path) -> None:
        """Note where the latest `scent eval --report` of this index was written (for `scent serve`)."""
        self.engine.catalog.set_meta("last_report", str(Path(folder).resolve()))

    def last_report(self) -> Path | None:
        """Where the last `scent eval --report` of this index was written, or None."""
        where = self.engine.catalog.meta("last_report")
        return Path(where) if where else None


def _forget_kept(index_dir: Path, settings: Settings) -> None:
    """Remove what the readers of the index's files kept in scent's cache (a mailbox's message
    places), as deleting the files would: the index is forgotten. An index that does not open has
    nothing to say of its files."""
    from .extract import forget, holds_files

    try:
        engine = open_engine(settings, index_dir)
    except (OSError, sqlite3.Error, ScentError):
        return
    try:
        root = engine.catalog.meta("root")
        paths = [p for p, st in engine.catalog.file_states().items() if not st.container and holds_files(p)]
    finally:
        engine.close()
    for path in paths if root else ():
        forget(str(Path(root) / path))
