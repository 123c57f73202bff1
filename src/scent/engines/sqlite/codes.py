"""How vectors are kept in the SQLite engine: float32, or int8 codes with one scale per vector.

int8 with a per-vector scale (the largest component maps to 127) keeps 8 bits for every vector,
however small its components: e5's unit vectors have components around 0.05, which a fixed
scale would squeeze into 3 bits. Cosine is scale-free, so codes are scored as they are, only
divided by their norm.
"""
from __future__ import annotations

import numpy as np

from ...errors import IndexVersionError

STORAGES = ("float32", "int8", "binary")
# A binary field's record is int8 codes; its sign bits are made from them where it is read.
_AS_INT8 = ("int8", "binary")


def encode(vectors: np.ndarray, storage: str) -> list[bytes]:
    """Each row of `vectors` as the bytes a `storage` field keeps."""
    vectors = np.asarray(vectors, np.float32).reshape(-1, vectors.shape[-1])
    if storage == "float32":
        return [row.astype("<f4").tobytes() for row in vectors]
    if storage in _AS_INT8:
        codes, scales = quantise(vectors)
        return [s.astype("<f4").tobytes() + c.tobytes() for s, c in zip(scales, codes)]
    raise IndexVersionError(f"unknown vector storage {storage!r}; this scent knows {', '.join(STORAGES)}")


def decode(blobs: list[bytes], dims: int, storage: str) -> np.ndarray:
    """(n, dims) float32 from what `encode` wrote (int8 codes scaled back)."""
    if storage == "float32":
        return np.frombuffer(b"".join(blobs), dtype="<f4").reshape(len(blobs), dims)
    codes, scales = split(blobs, dims, storage)
    return codes.astype(np.float32) * scales[:, None]


def split(blobs: list[bytes], dims: int, storage: str) -> tuple[np.ndarray, np.ndarray]:
    """(int8 codes (n, dims), scales (n,)) of stored blobs; float32 ones are quantised here."""
    if storage == "float32":
        return quantise(decode(blobs, dims, storage))
    raw = np.frombuffer(b"".join(blobs), dtype=np.uint8).reshape(len(blobs), 4 + dims)
    return raw[:, 4:].view(np.int8), raw[:, :4].copy().view("<f4").ravel()


def quantise(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 codes and per-row scales: row = codes * scale, within half a step per component."""
    peak = np.abs(vectors).max(axis=1)
    scales = np.where(peak > 0, peak / 127, 1).astype(np.float32)
    return np.clip(np.rint(vectors / scales[:, None]), -127, 127).astype(np.int8), scales


def norms(codes: np.ndarray) -> np.ndarray:
    n = np.sqrt(np.einsum("ij,ij->i", codes, codes, dtype=np.float32, casting="unsafe"))
    return np.where(n > 0, n, 1).astype(np.float32)
