"""The Qdrant engine: every search-time structure lives in one Qdrant collection, so a searcher on
another machine needs only the URL (and the collection's name).

One point per unit, keyed by its stable id: named dense vectors (`unit`, `picture`), sentence
vectors as a multivector scored by MaxSim (`sentences`), keywords as a sparse vector whose IDF
the collection keeps (`keywords`, see keywords.py), and a payload with everything search reads
(path and its folders, kinds, page, date, language, who may read it, text for snippets, IDs and
their trigrams).
The collection's metadata holds the schema version and the vector fields with their models.

Qdrant is not the record: the catalog of files (change detection, errors, suggestions) is a
local SQLite file beside the indexer (catalog.db), and `scent index --rebuild --backend qdrant`
rebuilds the collection from the files. Each write goes to Qdrant first and to the catalog
after, and Qdrant's upserts and deletes are idempotent: a killed indexer leaves at worst points
the catalog does not know yet, which the next run writes again.

Three ways to reach a collection (see connect): a server (qdrant_url), an embedded Qdrant shard in
the local folder (edge.py, qdrant-edge-py), or qdrant-client's local mode in that folder.
"""
from __future__ import annotations

import re
import threading
from pathlib import Path

import numpy as np

from ...errors import IndexVersionError, ScentError, UsageError
from ...filters import Filters
from ...locking import clear_index_dir, held_elsewhere
from ...storage import Hit, StoredSuggestion, StoredUnit, VectorField, batched
from ...units import FileState, FileWrite
from .. import folder_bytes
from ..sqlite import SqliteEngine
from ..sqlite.catalog import path_keywords

SCHEMA = 1
CATALOG = "catalog.db"
LOCAL_FOLDER = "qdrant"
EDGE_FOLDER = "edge"  # inside the local folder: what makes it an embedded edge shard's (edge.py)
AVGDL = 120.0  # BM25's average unit length (tokens) until the first write measures it
UPSERT_POINTS = 256
SERVER_MODE, EDGE_MODE, LOCAL_MODE = "server", "edge", "local"
MODES = {SERVER_MODE: "server at", EDGE_MODE: "embedded edge shard at", LOCAL_MODE: "qdrant-client local mode at"}
_PAYLOAD = ["path", "file_kind", "kind", "page", "start", "end", "title", "lang", "text", "date", "english", "line"]
# The payload fields filters read, each indexed where the mode has payload indexes (a server, an
# edge shard), so that a filter does not scan every point: field -> Qdrant's PayloadSchemaType.
PAYLOAD_INDEXES = {**dict.fromkeys(("path", "dirs", "file_kind", "kind", "lang", "ids", "id_grams", "file_key",
                                    "access"), "keyword"),
                   "date": "float", "until": "float", "place": "integer"}


def _models():
    try:
        from qdrant_client import models
    except ImportError:
        raise UsageError("the qdrant backend needs qdrant-client: pip install 'scent[qdrant]'") from None
    return models


class QdrantEngine:
    name = "qdrant"

    def __init__(self, index_dir: Path, settings=None):
        from .keywords import QdrantKeywords

        self.settings = settings
        self.index_dir = Path(index_dir)
        self.models = _models()
        self.client, self.mode = connect(settings, self.index_dir)
        self.collection = collection_name(settings, self.index_dir)
        self.local = SqliteEngine(self.index_dir, settings, db_name=CATALOG)
        try:
            self._info = self._read_info()
        except BaseException:
            self.close()
            raise
        self.catalog = QdrantCatalog(self)
        self.keywords = QdrantKeywords(self)
        self.vectors = QdrantVectors(self)
        self._paths: list[str] | None = None
        try:
            self._record_access()
            self._index_spans()
        except BaseException:
            self.close()
            raise

    def _record_access(self) -> None:
        """A collection written before readers were recorded gets them from the catalog (which
        m010 filled from the file system); until then its points match no restricted search."""
        if not self.has_collection or self._info.get("access"):
            return
        states = self.local.catalog.file_states()
        if not states:
            return  # a searcher without the catalog: nothing to take them from
        m = self.models
        for path, st in states.items():
            key = self.local.catalog.file_key(path)
            self.client.set_payload(self.collection, {"access": st.access.split()}, wait=True, points=m.Filter(
                must=[m.FieldCondition(key="file_key", match=m.MatchValue(value=key))]))
        self._set_info(access=1)

    def _index_spans(self) -> None:
        """A collection made before units had spans (scent.units.Section.until) gets the index
        of `until` its `after:` filters read; without it they scan every point."""
        if not self.has_collection or self._info.get("spans"):
            return
        self._index_payload(["until"])
        self._set_info(spans=1)

    def _index_payload(self, keys) -> None:
        if self.mode == LOCAL_MODE:  # qdrant-client's local mode has no payload indexes (and says so)
            return
        for key in keys:
            self.client.create_payload_index(self.collection, key, self.models.PayloadSchemaType(PAYLOAD_INDEXES[key]))

    # ---- where it lives ----------------------------------------------------------------------

    @staticmethod
    def exists(index_dir: Path, settings=None) -> bool:
        if (Path(index_dir) / CATALOG).is_file():
            return True
        if not getattr(settings, "qdrant_url", ""):
            return False
        client, _ = connect(settings, Path(index_dir))
        try:
            return client.collection_exists(collection_name(settings, Path(index_dir)))
        finally:
            client.close()

    @staticmethod
    def destroy(index_dir: Path, settings=None) -> None:
        if Path(index_dir).exists() or getattr(settings, "qdrant_url", ""):
            client, _ = connect(settings, Path(index_dir))
            try:
                name = collection_name(settings, Path(index_dir))
                if client.collection_exists(name):
                    client.delete_collection(name)
            finally:
                client.close()
        clear_index_dir(index_dir)

    def replaced(self) -> bool:
        """Whether the index was rebuilt since it was opened here (its local catalog is another file)."""
        return self.local.replaced()

    def _read_info(self) -> dict:
        """The collection's metadata (empty when there is no collection yet); another schema is refused."""
        if not self.client.collection_exists(self.collection):
            return {}
        info = dict(self.client.get_collection(self.collection).config.metadata or {})
        if info.get("scent_schema") != SCHEMA:
            raise IndexVersionError(f"Qdrant collection {self.collection} was made by another scent (schema "
                                    f"{info.get('scent_schema')!r}, this one writes {SCHEMA}); re-index with "
                                    "--rebuild --backend qdrant")
        return info

    @property
    def has_collection(self) -> bool:
        """Whether the collection exists, as this engine made or found it (no round trip: search
        asks on every query)."""
        return bool(self._info.get("fields"))

    def _set_info(self, **values) -> None:
        self._info.update(values)
        if self.has_collection:
            self.client.update_collection(self.collection, metadata=values)

    def _create(self, fields: dict[str, dict]) -> None:
        """(Re)make the empty collection with these vector fields."""
        m = self.models
        spread = {}
        if self.client.collection_exists(self.collection):
            # Made by hand for a cluster (docs/qdrant.md): keep its shards and replicas.
            params = self.client.get_collection(self.collection).config.params
            spread = {k: getattr(params, k) for k in ("shard_number", "replication_factor", "write_consistency_factor")
                      if getattr(params, k, None)}
            self.client.delete_collection(self.collection)
        # A binary field (the late-interaction regions) has Qdrant's own sign-bit quantisation,
        # rescored with the vectors it keeps; the others share the collection's int8.
        binary = m.BinaryQuantization(binary=m.BinaryQuantizationConfig(always_ram=True))
        vectors = {name: m.VectorParams(
            size=f["dims"], distance=m.Distance.COSINE,
            multivector_config=m.MultiVectorConfig(comparator=m.MultiVectorComparator.MAX_SIM) if f["multi"] else None,
            quantization_config=binary if f["storage"] == "binary" else None)
            for name, f in fields.items()}
        quantization = m.ScalarQuantization(scalar=m.ScalarQuantizationConfig(type=m.ScalarType.INT8, always_ram=True)) \
            if any(f["storage"] == "int8" for f in fields.values()) else None
        info = {**self._info, "scent_schema": SCHEMA, "fields": fields, "access": 1, "spans": 1}
        self.client.create_collection(
            self.collection, vectors_config=vectors, quantization_config=quantization,
            sparse_vectors_config={"keywords": m.SparseVectorParams(modifier=m.Modifier.IDF)}, metadata=info, **spread)
        self._info = info
        self._index_payload(PAYLOAD_INDEXES)

    # ---- writing -----------------------------------------------------------------------------

    def write_files(self, writes: list[FileWrite]) -> None:
        from .filters import dirs
        from ..matching import trigrams
        from .keywords import document_vector

        m = self.models
        if not self._info.get("fields"):
            raise ScentError("the Qdrant collection has no vector fields yet; index with scent index")
        if "avgdl" not in self._info:
            lengths = [len(u.text.split()) + len(path_keywords(w.file.path).split()) for w in writes for u in w.units]
            self._set_info(avgdl=float(np.mean(lengths)) if lengths else AVGDL)
        avgdl = self._info["avgdl"]
        points = []
        for w in writes:
            f, path_words = w.file, path_keywords(w.file.path)
            for place, u in enumerate(w.units):
                vector = {}
                for name, by_unit in w.vectors.items():
                    if u.id in by_unit:
                        v = np.asarray(by_unit[u.id], np.float32)
                        vector[name] = v.tolist()
                indices, values = document_vector(u.text, u.title, path_words, u.extra, avgdl)
                if indices:
                    vector["keywords"] = m.SparseVector(indices=indices, values=values)
                ids = u.ids.split()
                payload = {"path": f.path, "dirs": dirs(f.path), "file_key": f.key, "file_kind": f.kind,
                           "kind": u.kind, "place": place, "page": u.page, "start": u.start, "end": u.end,
                           "title": u.title, "lang": u.lang, "date": f.date if u.date is None else u.date, "text": u.text, "extra": u.extra,
                           **({} if u.until is None else {"until": u.until}),
                           **({"english": u.english} if u.english else {}),
                           **({} if u.line is None else {"line": u.line}),
                           "text_hash": u.text_hash, "access": f.access.split(), "ids": ids, "id_grams": sorted({g for i in ids for g in trigrams(i)})}
                points.append(m.PointStruct(id=u.id, vector=vector, payload=payload))
        for part in batched(points, UPSERT_POINTS):
            self.client.upsert(self.collection, points=part, wait=True)
        for w in writes:  # places the file no longer has
            self.client.delete(self.collection, wait=True, points_selector=m.FilterSelector(filter=m.Filter(must=[
                m.FieldCondition(key="file_key", match=m.MatchValue(value=w.file.key)),
                m.FieldCondition(key="place", range=m.Range(gte=len(w.units)))])))
        self.local.write_files([FileWrite(w.file, w.units, {}, w.suggestions, w.warnings) for w in writes])
        self._paths = None

    def rename_file(self, old: str, new: FileState) -> None:
        from .filters import dirs
        from .keywords import document_vector

        m = self.models
        key = self.local.catalog.file_key(old)
        path_words = path_keywords(new.path)
        of_file = m.Filter(must=[m.FieldCondition(key="file_key", match=m.MatchValue(value=key))])
        # The path is a keyword too: each unit's sparse vector is made again with the new one.
        keywords = []
        for point in self._scroll(of_file, ["text", "title", "extra"]):
            p = point.payload
            indices, values = document_vector(p["text"], p["title"], path_words, p.get("extra", ""),
                                              self._info.get("avgdl", AVGDL))
            if indices:
                keywords.append(m.PointVectors(id=point.id, vector={
                    "keywords": m.SparseVector(indices=indices, values=values)}))
        if self.has_collection:
            self.client.set_payload(self.collection, {"path": new.path, "dirs": dirs(new.path)}, points=of_file,
                                    wait=True)
        for part in batched(keywords, UPSERT_POINTS):
            self.client.update_vectors(self.collection, points=part, wait=True)
        self.local.rename_file(old, new)
        self._paths = None

    def set_access(self, changes: dict[str, str]) -> None:
        m = self.models
        if self.has_collection:
            for path, access in changes.items():
                key = self.local.catalog.file_key(path)
                self.client.set_payload(self.collection, {"access": access.split()}, wait=True, points=m.Filter(
                    must=[m.FieldCondition(key="file_key", match=m.MatchValue(value=key))]))
        self.local.set_access(changes)

    def delete_files(self, paths: list[str]) -> None:
        if not paths:
            return
        m = self.models
        keys = [self.local.catalog.file_key(p) for p in paths]
        if self.has_collection:
            for part in batched(keys):
                self.client.delete(self.collection, wait=True, points_selector=m.FilterSelector(filter=m.Filter(
                    must=[m.FieldCondition(key="file_key", match=m.MatchAny(any=part))])))
        self.local.delete_files(paths)
        self._paths = None

    def finish_run(self, unsupported=None) -> None:
        self.local.finish_run(unsupported)
        # Also among the meta a searcher without the catalog reads (QdrantCatalog.meta), so that it
        # sees this run's end after its start (run_started, written there by set_meta).
        finished = self.local.catalog.meta("last_indexed")
        self._set_info(last_indexed=finished, meta={**self._info.get("meta", {}), "last_indexed": finished})
        if self.mode == EDGE_MODE:  # no optimizer runs in the background here: a run ends with one
            self.client.settle(self.collection)

    # ---- what the roles ask of the collection --------------------------------------------------

    def compiled(self, filters: Filters):
        from .filters import compile_filter

        return compile_filter(filters, self.paths)

    def paths(self) -> list[str]:
        """Every indexed path (for globs and partial prefixes), from the catalog when this machine
        has it, else from the collection."""
        if self._paths is None:
            local = list(self.local.catalog.file_states())
            self._paths = local or sorted({p.payload["path"] for p in self._scroll(None, ["path"])})
        return self._paths

    def _scroll(self, flt, payload: list[str] | bool, limit: int | None = None):
        if not self.has_collection:
            return
        offset, seen = None, 0
        while True:
            points, offset = self.client.scroll(self.collection, scroll_filter=flt, limit=256, offset=offset,
                                                with_payload=payload, with_vectors=False)
            for p in points:
                yield p
                seen += 1
                if limit is not None and seen >= limit:
                    return
            if offset is None:
                return

    def sparse_search(self, indices: list[int], filters: Filters, limit: int,
                      with_vector: bool) -> list[tuple[int, float, set | None]]:
        from .filters import NothingMatches

        m = self.models
        if not self._info.get("fields"):
            return []
        try:
            flt = self.compiled(filters)
        except NothingMatches:
            return []
        found = self.client.query_points(
            self.collection, query=m.SparseVector(indices=indices, values=[1.0] * len(indices)), using="keywords",
            query_filter=flt, limit=limit, with_payload=False, with_vectors=["keywords"] if with_vector else False)
        return [(int(p.id), float(p.score), set(p.vector["keywords"].indices) if with_vector else None)
                for p in found.points]

    def payload_match(self, key: str, values: list[str], min_count: int, filters: Filters,
                      limit: int) -> list[tuple[int, list[str]]]:
        """Units whose payload list `key` holds at least `min_count` of `values`, with their IDs."""
        from .filters import NothingMatches

        m = self.models
        try:
            flt = self.compiled(filters)
        except NothingMatches:
            return []
        wanted = m.Filter(min_should=m.MinShould(
            conditions=[m.FieldCondition(key=key, match=m.MatchValue(value=v)) for v in values], min_count=min_count))
        both = m.Filter(must=[wanted] + ([flt] if flt else []))
        return [(int(p.id), p.payload.get("ids", [])) for p in self._scroll(both, ["ids"], limit)]

    # ---- status ------------------------------------------------------------------------------

    def status(self, readers: tuple[str, ...] | None = None) -> dict:
        st = self.local.catalog.status(readers)
        st.pop("index_bytes", None)
        m = self.models
        fields = self.vectors.fields()
        counts = {}
        exists = self.has_collection
        for name in fields:
            counts[name] = self.client.count(self.collection, count_filter=m.Filter(must=[
                m.HasVectorCondition(has_vector=name)]), exact=True).count if exists else 0
        points = self.client.count(self.collection, exact=True).count if exists else 0
        if not st["files"] and points and readers is None:  # a searcher without the catalog: what the collection holds
            st["units"] = points
        st["vector_fields"] = {name: {"model": f.model, "dims": f.dims, "multi": f.multi, "storage": f.storage,
                                      "vectors": counts[name]} for name, f in fields.items()}
        # A unit's sentences are one multivector here: this counts the units that have them.
        st["sentence_vectors"] = counts.get("sentences", 0)
        st["vectors"] = counts.get("unit", 0) + st["sentence_vectors"]
        st["units_without_vector"] = max(0, st["units"] - counts.get("unit", 0)) if st["units"] else 0
        st["collection"] = self.collection
        st["qdrant"] = getattr(self.settings, "qdrant_url", "") or str(local_folder(self.settings, self.index_dir))
        st["qdrant_mode"] = self.mode
        st["backend_detail"] = f"{MODES[self.mode]} {st['qdrant']}"
        st["index_bytes"] = folder_bytes(self.index_dir)
        return st

    def close(self) -> None:
        try:
            self.client.close()
        finally:
            if hasattr(self, "local"):
                self.local.close()


class QdrantCatalog:
    """The local catalog for change detection and the indexer's bookkeeping; what search reads
    (units, a file's units, meta a searcher needs) comes from the collection."""

    def __init__(self, engine: QdrantEngine):
        self.engine = engine
        self.local = engine.local.catalog

    def meta(self, key: str) -> str | None:
        value = self.local.meta(key)
        if value is None:
            value = self.engine._info.get("meta", {}).get(key)
        return value

    def set_meta(self, key: str, value: str) -> None:
        self.local.set_meta(key, value)
        if self.engine._info.get("fields"):
            self.engine._set_info(meta={**self.engine._info.get("meta", {}), key: value})

    def file_states(self):
        return self.local.file_states()

    def file_key(self, path: str) -> str:
        return self.local.file_key(path)

    def touch_files(self, states: list[FileState]) -> None:
        self.local.touch_files(states)

    def record_error(self, path: str, reason: str, access: str = "") -> None:
        self.local.record_error(path, reason, access)

    def prune_errors(self, present: set[str], containers: set[str] = frozenset(),
                     within: tuple[str, ...] | None = None) -> None:
        self.local.prune_errors(present, containers, within)

    def forget_errors_inside(self, container: str) -> None:
        self.local.forget_errors_inside(container)

    def errors_inside(self, containers: set[str]) -> list[tuple[str, str]]:
        return self.local.errors_inside(containers)

    def skipped_like(self, start: str) -> set[str]:
        return self.local.skipped_like(start)

    def unit_hashes(self, path: str, inside: bool = False) -> dict[str, int]:
        return self.local.unit_hashes(path, inside)

    def copies(self, paths: list[str], readers: tuple[str, ...] | None = None) -> dict[str, list[str]]:
        return self.local.copies(paths, readers)

    def has_units(self, kinds: tuple[str, ...]) -> bool:
        return self.local.has_units(kinds)

    def unsupported_counts(self, readers: tuple[str, ...] | None = None) -> dict[str, int]:
        return self.local.unsupported_counts(readers)

    def unsupported_files(self, readers: tuple[str, ...] | None = None) -> list[tuple[str, str]]:
        return self.local.unsupported_files(readers)

    def suggestions(self, limit: int, readers: tuple[str, ...] | None = None) -> list[dict]:
        return self.local.suggestions(limit, readers)

    def generated_queries(self, readers: tuple[str, ...] | None = None) -> list[StoredSuggestion]:
        return self.local.generated_queries(readers)

    def units(self, ids: list[int]) -> dict[int, StoredUnit]:
        e = self.engine
        if not ids or not e.has_collection:
            return {}
        out = {}
        for part in batched(list(ids)):
            for p in e.client.retrieve(e.collection, ids=part, with_payload=_PAYLOAD, with_vectors=False):
                out[int(p.id)] = _stored(int(p.id), p.payload)
        return out

    def newest(self, filters: Filters, limit: int) -> list[int]:
        from .filters import NothingMatches

        try:
            flt = self.engine.compiled(filters)
        except NothingMatches:
            return []
        # No payload index orders by a file's latest date: every kept point's payload is read (a
        # listing is asked for rarely, and reads path, date and place alone).
        files: dict[str, list] = {}  # path -> [latest date, first place, its unit id]
        for p in self.engine._scroll(flt, ["path", "date", "place"]):
            path, day, place = p.payload["path"], p.payload.get("date") or 0.0, p.payload.get("place", 0)
            seen = files.setdefault(path, [day, place, int(p.id)])
            seen[0] = max(seen[0], day)
            if place < seen[1]:
                seen[1:] = [place, int(p.id)]
        ranked = sorted(files.items(), key=lambda item: (-item[1][0], item[0]))
        return [uid for _, (_, _, uid) in ranked[:limit]]

    def file_units(self, path: str, readers: tuple[str, ...] | None = None) -> list[StoredUnit] | None:
        m = self.engine.models
        must = [m.FieldCondition(key="path", match=m.MatchValue(value=path))]
        if readers is not None:
            if not readers:
                return None
            must.append(m.FieldCondition(key="access", match=m.MatchAny(any=list(readers))))
        points = list(self.engine._scroll(m.Filter(must=must), _PAYLOAD + ["place"]))
        if not points:
            return None if self.local.file_units(path, readers) is None else []
        points.sort(key=lambda p: (p.payload.get("page") or 0, p.payload.get("start", 0), p.payload.get("place", 0)))
        return [_stored(int(p.id), p.payload) for p in points]

    def status(self, readers: tuple[str, ...] | None = None) -> dict:
        return self.engine.status(readers)


class QdrantVectors:
    """Named vector fields of the collection (recorded in its metadata)."""

    def __init__(self, engine: QdrantEngine):
        self.engine = engine

    def fields(self) -> dict[str, VectorField]:
        return {name: VectorField(name, f["model"], f["dims"], f["multi"], f["storage"])
                for name, f in self.engine._info.get("fields", {}).items()}

    def add_field(self, field: VectorField) -> None:
        e = self.engine
        storage = field.storage or getattr(e.settings, "vector_storage", "int8")
        stored = self.fields().get(field.name)
        if stored is not None:
            if (stored.model, stored.dims, stored.multi) != (field.model, field.dims, field.multi):
                raise IndexVersionError(f"this index's {field.name} vectors were made by {stored.model} "
                                        f"({stored.dims} dims), not {field.model} ({field.dims}); re-index with "
                                        "--rebuild")
            if stored.storage != storage:
                raise IndexVersionError(f"this index keeps its {field.name} vectors as {stored.storage}, not "
                                        f"{storage} (vector_storage); re-index with --rebuild to change how they "
                                        "are kept")
            return
        if e.has_collection and e.client.count(e.collection, exact=True).count:
            raise IndexVersionError(f"the Qdrant collection {e.collection} has no {field.name} vectors and cannot "
                                    "gain a field while it holds points; re-index with --rebuild")
        fields = {**e._info.get("fields", {}),
                  field.name: {"model": field.model, "dims": field.dims, "multi": field.multi, "storage": storage}}
        e._create(fields)

    def prepare(self, fields: tuple[str, ...]) -> None:
        """Nothing to read ahead: the collection is opened with the engine."""

    def search(self, field: str, query: np.ndarray, filters: Filters, limit: int, dims: int = 0,
               oversample: int = 4, rescore_depth: int = 1000) -> list[Hit]:
        from .filters import NothingMatches

        e, m = self.engine, self.engine.models
        info = self.fields().get(field)
        if info is None:
            return []
        if dims:
            raise UsageError("the dims setting needs the sqlite backend (Qdrant searches whole vectors)")
        try:
            flt = e.compiled(filters)
        except NothingMatches:
            return []
        vector = np.asarray(query, np.float32).tolist()
        # qdrant-client's local mode searches exactly and warns at any search parameter.
        params = m.SearchParams(quantization=m.QuantizationSearchParams(rescore=True, oversampling=float(oversample))) \
            if info.storage == "int8" and e.mode != LOCAL_MODE else None
        found = e.client.query_points(e.collection, query=[vector] if info.multi else vector, using=field,
                                      query_filter=flt, limit=limit, search_params=params, with_payload=False)
        return [(int(p.id), float(p.score)) for p in found.points]

    def multi_search(self, field: str, queries: np.ndarray, filters: Filters, limit: int,
                     first_phase: int = 100) -> list[Hit]:
        """Qdrant's own MaxSim of a multivector query: over a binary field its sign-bit codes
        propose limit x oversampling points (first_phase of them at least), rescored with the
        stored vectors; local mode searches exactly."""
        from .filters import NothingMatches

        e, m = self.engine, self.engine.models
        info = self.fields().get(field)
        if info is None or limit < 1:
            return []
        try:
            flt = e.compiled(filters)
        except NothingMatches:
            return []
        rows = np.asarray(queries, np.float32).reshape(-1, info.dims)
        if not info.multi:
            # One vector d a unit (unit length): the sum of the queries' cosines is (sum of q) . d,
            # one search with the summed query, its cosine scaled back by the sum's length.
            total = rows.sum(axis=0)
            length = float(np.linalg.norm(total)) or 1.0
            return [(uid, score * length) for uid, score in self.search(field, total, filters, limit)]
        params = m.SearchParams(quantization=m.QuantizationSearchParams(
            rescore=True, oversampling=max(1.0, first_phase / limit))) \
            if info.storage == "binary" and e.mode != LOCAL_MODE else None
        found = e.client.query_points(e.collection, query=rows.tolist(), using=field, query_filter=flt, limit=limit,
                                      search_params=params, with_payload=False)
        return [(int(p.id), float(p.score)) for p in found.points]

    def get(self, field: str, ids: list[int]) -> dict[int, np.ndarray]:
        e = self.engine
        if field not in self.fields() or not ids:
            return {}
        out = {}
        for part in batched(list(ids)):
            for p in e.client.retrieve(e.collection, ids=part, with_payload=False, with_vectors=[field]):
                if p.vector and field in p.vector:
                    out[int(p.id)] = np.asarray(p.vector[field], np.float32)
        return out


def _stored(uid: int, p: dict) -> StoredUnit:
    return StoredUnit(uid, p["path"], p["file_kind"], p["kind"], p.get("page"), p.get("start", 0), p.get("end", 0),
                      p.get("title", ""), p.get("lang"), p.get("text", ""), p.get("date", 0.0), p.get("english", ""),
                      p.get("line"))


def collection_name(settings, index_dir: Path) -> str:
    """The setting qdrant_collection, or one named after the index directory."""
    name = getattr(settings, "qdrant_collection", "") or "scent-" + re.sub(r"[^A-Za-z0-9_-]", "_", index_dir.name)
    return name


def local_folder(settings, index_dir: Path) -> Path:
    return Path(getattr(settings, "qdrant_path", "") or index_dir / LOCAL_FOLDER)


def connect(settings, index_dir: Path):
    """(client, mode): a client of the server at qdrant_url, or of the local folder (qdrant_path,
    default inside the index directory), and which of the three it is. A local folder is an
    embedded edge shard when qdrant-edge-py is installed and the folder is new or already one;
    a folder qdrant-client's local mode made stays in that mode, so its index keeps working.
    Fails with one line when the server does not answer or the folder is held by another process."""
    _models()
    from qdrant_client import QdrantClient

    url = getattr(settings, "qdrant_url", "")
    if url:
        client = QdrantClient(url=url, timeout=10, check_compatibility=False)  # its own check warns when down
        try:
            client.get_collections()
        except Exception as err:  # noqa: BLE001 - httpx, grpc and the client's own errors all mean "no answer"
            client.close()
            raise ScentError(f"Qdrant at {url} does not answer ({type(err).__name__}: {str(err)[:120]}); start it, "
                             "or check --qdrant-url") from None
        return client, SERVER_MODE
    folder = local_folder(settings, index_dir)
    with _SHARED_LOCK:
        held = _SHARED.get(str(folder.resolve()))
        if held is not None:  # this process has it open: another handle of the same client
            return held.share(), held.mode
        client, mode = _open_local(folder)
        shared = _Shared(client, mode, str(folder.resolve()))
        return shared.share(), mode


# A local folder has one user at a time, a process: every handle this process opens on it (a
# server's readers beside its writer) shares one client, closed when the last handle closes.
_SHARED: dict[str, "_Shared"] = {}
_SHARED_LOCK = threading.Lock()


class _Shared:
    def __init__(self, client, mode: str, key: str):
        self.client, self.mode, self.key, self.handles = client, mode, key, 0
        _SHARED[key] = self

    def share(self) -> "_Handle":
        self.handles += 1
        return _Handle(self)

    def release(self) -> None:
        with _SHARED_LOCK:
            self.handles -= 1
            if self.handles:
                return
            _SHARED.pop(self.key, None)
        self.client.close()


class _Handle:
    """One handle's view of a shared local client: the client's calls, and a close of its own."""

    def __init__(self, shared: _Shared):
        self._shared, self._closed = shared, False

    def __getattr__(self, name):
        return getattr(self._shared.client, name)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._shared.release()


def _open_local(folder: Path):
    in_use = ScentError(f"the local Qdrant folder {folder} is open in another process (a local folder has one "
                        "user at a time); close it, or run a Qdrant server and use --qdrant-url")
    if local_mode(folder) == EDGE_MODE:
        try:
            from .edge import EdgeClient, FolderInUse
        except ImportError:
            raise UsageError(f"the local Qdrant folder {folder} holds an embedded edge shard, which needs "
                             "qdrant-edge-py: pip install 'scent[qdrant]'") from None
        try:
            return EdgeClient(folder), EDGE_MODE
        except FolderInUse:
            raise in_use from None
    from qdrant_client import QdrantClient

    folder.mkdir(parents=True, exist_ok=True)
    try:
        client = QdrantClient(path=str(folder))
    except RuntimeError as err:
        if "already accessed" in str(err):
            raise in_use from None
        raise
    # qdrant-client's own lock file, reached by its private name: a forked reader closes its copy.
    lock = getattr(getattr(client, "_client", None), "_flock_file", None)
    if lock is not None:
        held_elsewhere(lock, folder)
    return client, LOCAL_MODE


def local_mode(folder: Path) -> str:
    """Which client a local folder gets: an edge folder stays one, and so does any other folder
    with something in it (qdrant-client's local mode); a new or empty one is made an edge folder
    when qdrant-edge-py is installed."""
    if (folder / EDGE_FOLDER).is_dir():
        return EDGE_MODE
    if folder.is_dir() and any(folder.iterdir()):
        return LOCAL_MODE
    try:
        import qdrant_edge  # noqa: F401
    except ImportError:
        return LOCAL_MODE
    return EDGE_MODE


