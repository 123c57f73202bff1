"""The embedded mode: Qdrant's own Rust engine in this process (qdrant-edge-py), behind the few
QdrantClient calls the engine makes, so the engine has one code path for a server, this and
qdrant-client's local mode.

A local folder in this mode holds `edge/`, and in it one folder per collection: the shard
(`shard/`, an EdgeShard with its write-ahead log) and `collection.json`, the collection's
metadata (the engine keeps its schema and fields there; an EdgeShard has no metadata of its own).
collection.json is written last when a collection is made and removed first when it is deleted,
so a shard without it is a half-made collection and counts as none.

The engine passes qdrant_client.models objects; each kind it uses has one translation below, by
the fields the engine sets. Anything else raises UnsupportedCall naming it, rather than being
dropped on the way (a silently lost filter would change answers).
"""
from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import portalocker
import qdrant_edge as qe
from qdrant_client import models

from ...errors import ScentError
from ...locking import held_elsewhere
from . import EDGE_FOLDER

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")  # a folder name, never "." or ".."


class UnsupportedCall(ScentError):
    """The engine asked for something this adapter does not translate."""


class FolderInUse(ScentError):
    """Another process holds the folder."""


class EdgeClient:
    """The QdrantClient calls the engine makes, on EdgeShards in `folder`/edge/. One process holds
    the folder at a time (a lock file, as qdrant-client's local mode does)."""

    def __init__(self, folder: Path):
        self.root = Path(folder) / EDGE_FOLDER
        self.root.mkdir(parents=True, exist_ok=True)
        self._lock = open(self.root / ".lock", "a")
        try:
            portalocker.lock(self._lock, portalocker.LOCK_EX | portalocker.LOCK_NB)
        except portalocker.LockException:
            self._lock.close()
            raise FolderInUse(str(folder)) from None
        held_elsewhere(self._lock, self.root)
        self._shards: dict[str, qe.EdgeShard] = {}

    # ---- collections ---------------------------------------------------------------------------

    def _dir(self, name: str) -> Path:
        if not _NAME.fullmatch(name):
            raise ScentError(f"collection name {name!r}: the embedded mode takes a letter or digit, then letters, "
                             "digits, '_', '.' and '-'")
        return self.root / name

    def collection_exists(self, collection_name: str) -> bool:
        return (self._dir(collection_name) / "collection.json").is_file()

    def get_collections(self):
        names = sorted(p.parent.name for p in self.root.glob("*/collection.json"))
        return SimpleNamespace(collections=[SimpleNamespace(name=n) for n in names])

    def get_collection(self, collection_name: str):
        """What the engine reads of a collection: its metadata (no shard or replica settings here)."""
        meta = json.loads((self._existing(collection_name) / "collection.json").read_text())["metadata"]
        return SimpleNamespace(config=SimpleNamespace(metadata=meta, params=SimpleNamespace()))

    def create_collection(self, collection_name: str, vectors_config: dict, sparse_vectors_config: dict | None = None,
                          quantization_config=None, metadata: dict | None = None) -> bool:
        where = self._dir(collection_name)
        if self.collection_exists(collection_name):
            raise ScentError(f"collection {collection_name} already exists")
        shutil.rmtree(where, ignore_errors=True)  # a half-made one
        config = qe.EdgeConfig(
            vectors={name: _vector_params(p) for name, p in vectors_config.items()},
            sparse_vectors={name: _sparse_params(p) for name, p in (sparse_vectors_config or {}).items()} or None,
            quantization_config=_quantization(quantization_config))
        self._shards[collection_name] = qe.EdgeShard.create(str(where / "shard"), config)
        _write_json(where / "collection.json", {"metadata": metadata or {}})
        return True

    def update_collection(self, collection_name: str, metadata: dict) -> bool:
        """Merges `metadata` into the stored one, as Qdrant does."""
        path = self._existing(collection_name) / "collection.json"
        stored = json.loads(path.read_text())
        stored["metadata"] = {**stored["metadata"], **metadata}
        _write_json(path, stored)
        return True

    def delete_collection(self, collection_name: str) -> bool:
        where = self._dir(collection_name)
        shard = self._shards.pop(collection_name, None)
        if shard is not None:
            shard.close()
        (where / "collection.json").unlink(missing_ok=True)
        shutil.rmtree(where, ignore_errors=True)
        return True

    def create_payload_index(self, collection_name: str, field_name: str, field_schema) -> None:
        self._shard(collection_name).update(qe.UpdateOperation.create_field_index(field_name, _schema(field_schema)))

    def _existing(self, name: str) -> Path:
        if not self.collection_exists(name):
            raise ScentError(f"no collection {name} in {self.root}")
        return self._dir(name)

    def _shard(self, name: str) -> qe.EdgeShard:
        shard = self._shards.get(name)
        if shard is None:
            shard = self._shards[name] = qe.EdgeShard.load(str(self._existing(name) / "shard"))
        return shard

    # ---- points --------------------------------------------------------------------------------
    # `wait` is accepted and ignored: every update is applied (and in the log) when update() returns.

    def upsert(self, collection_name: str, points: list, wait: bool = True) -> None:
        self._shard(collection_name).update(qe.UpdateOperation.upsert_points([_point(p) for p in points]))

    def delete(self, collection_name: str, points_selector, wait: bool = True) -> None:
        if isinstance(points_selector, models.FilterSelector):
            op = qe.UpdateOperation.delete_points_by_filter(_filter(points_selector.filter))
        elif isinstance(points_selector, models.PointIdsList):
            op = qe.UpdateOperation.delete_points(list(points_selector.points))
        else:
            raise _unsupported("delete points_selector", points_selector)
        self._shard(collection_name).update(op)

    def set_payload(self, collection_name: str, payload: dict, points, wait: bool = True) -> None:
        if isinstance(points, models.Filter):
            op = qe.UpdateOperation.set_payload_by_filter(_filter(points), payload)
        elif isinstance(points, list):
            op = qe.UpdateOperation.set_payload(points, payload)
        else:
            raise _unsupported("set_payload points", points)
        self._shard(collection_name).update(op)

    def update_vectors(self, collection_name: str, points: list, wait: bool = True) -> None:
        self._shard(collection_name).update(qe.UpdateOperation.update_vectors(
            [qe.PointVectors(id=p.id, vector=_vectors(p.vector)) for p in points]))

    def retrieve(self, collection_name: str, ids: list, with_payload=True, with_vectors=False) -> list:
        return self._shard(collection_name).retrieve(list(ids), with_payload=with_payload, with_vector=with_vectors)

    def scroll(self, collection_name: str, scroll_filter=None, limit: int = 10, offset=None, with_payload=True,
               with_vectors=False):
        return self._shard(collection_name).scroll(qe.ScrollRequest(
            offset=offset, limit=limit, filter=_filter(scroll_filter), with_payload=with_payload,
            with_vector=with_vectors))

    def count(self, collection_name: str, count_filter=None, exact: bool = True):
        return SimpleNamespace(count=self._shard(collection_name).count(qe.CountRequest(exact=exact,
                                                                                        filter=_filter(count_filter))))

    def query_points(self, collection_name: str, query, using: str | None = None, query_filter=None,
                     limit: int = 10, search_params=None, with_payload=False, with_vectors=False):
        """A nearest-neighbour query on one named vector (dense, multivector or sparse)."""
        found = self._shard(collection_name).query(qe.QueryRequest(
            limit=limit, query=qe.Query.Nearest(_vector(query), using=using), filter=_filter(query_filter),
            params=_search_params(search_params), with_payload=with_payload, with_vector=with_vectors))
        return SimpleNamespace(points=found)

    # ---- what a server does by itself ------------------------------------------------------------

    def settle(self, collection_name: str) -> None:
        """Build what a server's optimizer would build in the background (the HNSW graphs, quantised
        vectors and indexed segments), then write every segment to disk."""
        if self.collection_exists(collection_name):
            shard = self._shard(collection_name)
            shard.optimize()
            shard.flush()

    def close(self) -> None:
        shards, self._shards = self._shards, {}
        try:
            for shard in shards.values():
                shard.flush()
                shard.close()
        finally:
            if not self._lock.closed:
                portalocker.unlock(self._lock)
                self._lock.close()


# ---- translations: one per model kind, by the fields the engine uses ---------------------------

def _unsupported(what: str, value) -> UnsupportedCall:
    return UnsupportedCall(f"the embedded Qdrant mode does not translate {what} {type(value).__name__}; "
                           "use a Qdrant server (--qdrant-url) for it")


def _filter(f):
    if f is None:
        return None
    if not isinstance(f, models.Filter):
        raise _unsupported("filter", f)
    min_should = None
    if f.min_should is not None:
        min_should = qe.MinShould(conditions=[_condition(c) for c in _listed(f.min_should.conditions)],
                                  min_count=f.min_should.min_count)
    return qe.Filter(must=_conditions(f.must), should=_conditions(f.should), must_not=_conditions(f.must_not),
                     min_should=min_should)


def _listed(conditions) -> list:
    return conditions if isinstance(conditions, list) else [conditions]


def _conditions(conditions) -> list | None:
    return None if conditions is None else [_condition(c) for c in _listed(conditions)]


def _condition(c):
    if isinstance(c, models.Filter):
        return _filter(c)
    if isinstance(c, models.FieldCondition):
        others = [k for k in ("geo_bounding_box", "geo_radius", "geo_polygon", "values_count", "is_empty", "is_null")
                  if getattr(c, k) is not None]
        if others:
            raise _unsupported(f"field condition {others[0]} of", c)
        return qe.FieldCondition(key=c.key, match=_match(c.match), range=_range(c.range))
    if isinstance(c, models.HasIdCondition):
        return qe.HasIdCondition(set(c.has_id))
    if isinstance(c, models.HasVectorCondition):
        return qe.HasVectorCondition(c.has_vector)
    raise _unsupported("condition", c)


def _match(m):
    if m is None:
        return None
    if isinstance(m, models.MatchValue):
        return qe.MatchValue(m.value)
    if isinstance(m, models.MatchAny):
        return qe.MatchAny(list(m.any))
    raise _unsupported("match", m)


def _range(r):
    if r is None:
        return None
    if not isinstance(r, models.Range):
        raise _unsupported("range", r)
    return qe.RangeFloat(**{k: None if getattr(r, k) is None else float(getattr(r, k))
                            for k in ("gte", "gt", "lte", "lt")})


def _vector(v):
    """One vector: a sparse one, a dense list, or a multivector (a list of lists)."""
    if isinstance(v, models.SparseVector):
        return qe.SparseVector(indices=list(v.indices), values=list(v.values))
    if isinstance(v, list):
        return v
    raise _unsupported("vector", v)


def _vectors(named) -> dict:
    if not isinstance(named, dict):
        raise _unsupported("unnamed vector", named)
    return {name: _vector(v) for name, v in named.items()}


def _point(p):
    if not isinstance(p, models.PointStruct):
        raise _unsupported("point", p)
    return qe.Point(id=p.id, vector=_vectors(p.vector), payload=p.payload)


_DISTANCES = {models.Distance.COSINE: qe.Distance.Cosine, models.Distance.DOT: qe.Distance.Dot,
              models.Distance.EUCLID: qe.Distance.Euclid, models.Distance.MANHATTAN: qe.Distance.Manhattan}
_SCHEMAS = {models.PayloadSchemaType.KEYWORD: qe.PayloadSchemaType.Keyword,
            models.PayloadSchemaType.INTEGER: qe.PayloadSchemaType.Integer,
            models.PayloadSchemaType.FLOAT: qe.PayloadSchemaType.Float,
            models.PayloadSchemaType.BOOL: qe.PayloadSchemaType.Bool}


def _vector_params(p):
    multi = None
    if p.multivector_config is not None:
        if p.multivector_config.comparator != models.MultiVectorComparator.MAX_SIM:
            raise _unsupported("multivector comparator", p.multivector_config.comparator)
        multi = qe.MultiVectorConfig(qe.MultiVectorComparator.MaxSim)
    return qe.EdgeVectorParams(size=p.size, distance=_DISTANCES[p.distance], multivector_config=multi,
                               quantization_config=_quantization(p.quantization_config))


def _sparse_params(p):
    if p.modifier not in (None, models.Modifier.NONE, models.Modifier.IDF):
        raise _unsupported("sparse modifier", p.modifier)
    return qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf if p.modifier == models.Modifier.IDF else None)


def _quantization(q):
    if q is None:
        return None
    if isinstance(q, models.BinaryQuantization):
        return qe.BinaryQuantizationConfig(memory=qe.Memory.Pinned if q.binary.always_ram else None)
    if not isinstance(q, models.ScalarQuantization) or q.scalar.type != models.ScalarType.INT8:
        raise _unsupported("quantization", q)
    return qe.ScalarQuantizationConfig(type=qe.ScalarType.Int8, quantile=q.scalar.quantile,
                                       memory=qe.Memory.Pinned if q.scalar.always_ram else None)


def _schema(kind):
    try:
        return _SCHEMAS[kind]
    except KeyError:
        raise _unsupported("payload schema", kind) from None


def _search_params(p):
    if p is None:
        return None
    q = p.quantization
    return qe.SearchParams(hnsw_ef=p.hnsw_ef, exact=bool(p.exact), quantization=None if q is None else
                           qe.QuantizationSearchParams(ignore=bool(q.ignore), rescore=q.rescore,
                                                       oversampling=q.oversampling))


def _write_json(path: Path, value: dict) -> None:
    """Written whole or not at all: a temporary file, synced, then renamed over the old one."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w") as fh:
        json.dump(value, fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
