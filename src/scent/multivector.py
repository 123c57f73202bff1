"""Late interaction: many vectors per page, several per query, scored by MaxSim.

One vector per page flattens it (a chart's title in one corner, an axis label in another, a
caption below). A page here keeps a vector per region (chunk.regions: its lines, OCR blocks,
the parts of its picture description) in the `regions` field, and a query is its own vector plus
those of its sub-phrases (query_phrases). A page scores

    MaxSim(Q, D) = sum over query vectors q of max over the page's vectors d of cos(q, d)

Exact MaxSim over every page is a matrix product per page, too slow at scale, so search has
two phases (the Vespa/ColPali recipe): the sign bits of every vector (1 bit a dimension,
packed) give a hamming MaxSim over all pages, and the best `multivector_candidates` of them are
scored exactly against the stored int8 codes (sign codes alone keep ~75% of e5's quality,
../shared/FACTS.md; int8 ~97-99%).

Vectors come from a multi-vector model: by default the text model over the regions' words
(RegionModel); a ColPali-style model (page image -> patch vectors, query -> token vectors)
plugs in as a package of the user's own under the entry-point group `scent.multivector_models`
and the `multivector_model` setting, as image-text models do (scent.image_text).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import numpy as np

from .errors import ScentError, UsageError
from .query import _chunks, _parts
from .stopwords import STOPWORDS

if TYPE_CHECKING:  # a search imports this module (the engines score with it): no PIL, no entry points there
    from importlib.metadata import EntryPoint

    from PIL import Image

GROUP = "scent.multivector_models"
FIELD = "regions"
MAX_PHRASES = 6  # query vectors besides the query's own: each costs an embedding (~5 ms) and a MaxSim term
PHRASE_WORDS = 2  # content words per sub-phrase window


class MultiVectorModel(Protocol):
    """A model that gives a query and a page many vectors each (L2-normalised rows)."""
    model_id: str  # stored beside the vectors; an index refuses another model's
    dim: int

    def embed_query(self, text: str) -> np.ndarray: ...  # (m, dim): token or phrase vectors
    def embed_pages(self, images: list["Image.Image"]) -> list[np.ndarray]: ...  # each (n_i, dim): patch vectors


def query_phrases(text: str, most: int = MAX_PHRASES) -> list[str]:
    """The query, then windows of PHRASE_WORDS of its content words (stop words dropped, as
    keyword search drops them), at most `most` of them: "map of the survey zones" -> the query,
    "map survey", "survey zones". Each names one thing the page may show in one region; the
    whole query's vector keeps the sense of the sentence. A query of fewer content words than a
    window has only its own vector."""
    words = [p for chunk in _chunks(text) for p in _parts(chunk)]
    content = [w for w in words if w.lower() not in STOPWORDS] or words
    windows = [" ".join(content[i:i + PHRASE_WORDS]) for i in range(len(content) - PHRASE_WORDS + 1)]
    phrases = [text.strip()]
    for w in windows:
        if w.lower() not in {p.lower() for p in phrases}:
            phrases.append(w)
    return phrases[:1 + most]


class RegionModel:
    """The default multi-vector model: the text model over a query's phrases and a page's regions
    (the words its text layer, OCR and description give). Pages are embedded by the indexer, in
    the batches of every other text; embed_pages has no words to read in pixels."""

    def __init__(self, embedder, phrases: int = MAX_PHRASES):
        self.embedder = embedder
        self.model_id, self.dim = embedder.model_id, embedder.dim
        self.phrases = phrases

    def embed_query(self, text: str) -> np.ndarray:
        return np.asarray(self.embedder.embed_queries(query_phrases(text, self.phrases)), np.float32)

    def embed_pages(self, images: list["Image.Image"]) -> list[np.ndarray]:
        raise ScentError("the text model reads a page's regions, not its pixels (see scent.chunk.regions)")


# ---- models installed by packages ------------------------------------------------------------------

def installed() -> dict[str, "EntryPoint"]:
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=GROUP)}


def check_name(name: str) -> None:
    if name and name not in installed():
        names = ", ".join(sorted(installed())) or f"none (a package registers one under the entry-point group {GROUP})"
        raise UsageError(f"unknown multivector_model {name!r}; installed: {names}")


def load(name: str) -> MultiVectorModel:
    check_name(name)
    if not name:
        raise UsageError("no multivector_model named; set multivector_model to one that is installed")
    target = installed()[name].load()
    return target if hasattr(target, "embed_pages") and not isinstance(target, type) else target()


def checked(model: MultiVectorModel, vectors, what: str) -> np.ndarray:
    """A model's (n, dim) output as float32 with L2-normalised rows; a wrong shape says whose fault."""
    m = np.asarray(vectors, dtype=np.float32)
    if m.ndim != 2 or m.shape[1] != model.dim or not len(m):
        raise ScentError(f"multivector_model {model.model_id} returned {what} vectors of shape {m.shape}, "
                         f"expected (n >= 1, {model.dim})")
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.where(norms == 0, 1, norms)


# ---- scoring -------------------------------------------------------------------------------------

def sign_bits(vectors: np.ndarray) -> np.ndarray:
    """(n, ceil(dims / 8)) uint8: bit i of a row is set when its component i is positive."""
    return np.packbits(np.asarray(vectors) > 0, axis=-1)


def words(bits: np.ndarray) -> np.ndarray:
    """Packed sign bits as (n, words) uint64 (zero-padded): popcount a word at a time is ~2x
    faster than a byte at a time in numpy."""
    bits = np.ascontiguousarray(bits, np.uint8)
    pad = -bits.shape[1] % 8
    if pad:
        bits = np.concatenate([bits, np.zeros((len(bits), pad), np.uint8)], axis=1)
    return bits.view(np.uint64)


def centred_words(codes: np.ndarray, norms: np.ndarray, order: np.ndarray,
                  block: int = 65_536) -> tuple[np.ndarray, np.ndarray]:
    """(sign words of rows[order] after subtracting the rows' mean direction, that mean).

    Why centred: every e5 vector shares a large common component, so raw sign bits mostly say
    "an e5 vector"; the signs of what is left after the mean tell rows apart (the snapshot's HNSW
    centres its codes for the same reason). Read a block at a time: no float copy of the field."""
    total = np.zeros(codes.shape[1], np.float64)
    for a in range(0, len(codes), block):
        total += (np.asarray(codes[a:a + block], np.float32) / norms[a:a + block, None]).sum(axis=0)
    mean = (total / max(1, len(codes))).astype(np.float32)
    out = []
    for a in range(0, len(order), block):
        at = order[a:a + block]
        out.append(words(sign_bits(np.asarray(codes[at], np.float32) / norms[at, None] - mean)))
    return (np.concatenate(out) if out else np.zeros((0, -(-codes.shape[1] // 64)), np.uint64)), mean


def groups(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(order, starts, unit ids): rows[order] holds each unit's rows together, unit j's from
    starts[j]; what np.maximum.reduceat needs."""
    order = np.argsort(ids, kind="stable")
    return (order, *_starts(ids[order]))


def _starts(sorted_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if not len(sorted_ids):
        return np.zeros(0, np.int64), sorted_ids
    starts = np.flatnonzero(np.concatenate([[True], sorted_ids[1:] != sorted_ids[:-1]]))
    return starts, sorted_ids[starts]


# Rows the hamming pass reads at a time: its (query vectors x rows) temporaries then stay in the
# CPU's cache. Over all 1.2M rows at once they were ~70 MB each and the pass was memory-bound:
# 136 -> 52 ms at 100,000 pages of 12 regions (docs/benchmarks.md, session 11).
HAMMING_BLOCK = 16_384


def hamming_maxsim(query_words: np.ndarray, row_words: np.ndarray, starts: np.ndarray, dims: int,
                   block: int = HAMMING_BLOCK) -> np.ndarray:
    """Each unit's MaxSim over sign codes (both as `words`): for each query vector the best of
    its rows' 1 - 2 * hamming / dims (the cosine of two sign vectors' ±1 forms), summed; rows in
    unit order (see groups). Whole units at a time, about `block` rows (a larger unit alone)."""
    scores = np.zeros(len(starts), np.float32)
    if not len(row_words):
        return scores
    ends = np.append(starts[1:], len(row_words))
    u = 0
    while u < len(starts):
        v = max(u + 1, int(np.searchsorted(ends, starts[u] + block, side="right")))
        rows = row_words[starts[u]:ends[v - 1]]
        distance = np.zeros((len(query_words), len(rows)), np.uint16)
        for j in range(rows.shape[1]):  # a word column at a time: no (m, n, words) temporary
            distance += np.bitwise_count(query_words[:, j:j + 1] ^ rows[None, :, j])
        nearest = np.minimum.reduceat(distance, starts[u:v] - starts[u], axis=1)
        scores[u:v] = (1.0 - 2.0 * nearest.astype(np.float32) / dims).sum(axis=0)
        u = v
    return scores


def maxsim(queries: np.ndarray, vectors: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Exact MaxSim of each unit (rows of `vectors` L2-normalised, in unit order from `starts`)."""
    if not len(vectors):
        return np.zeros(len(starts), np.float32)
    sims = np.asarray(queries, np.float32) @ np.asarray(vectors, np.float32).T
    return np.maximum.reduceat(sims, starts, axis=1).sum(axis=0)
