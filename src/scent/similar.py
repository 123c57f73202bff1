"""Files like a given file ("more like this"): the files whose units lie nearest it by meaning.

The given file (or one page of it) stands as one vector, the mean of its units' meaning vectors
(their centroid: what the file is about overall, not its first paragraph's topic); every other
file scores by its best unit's cosine with it, so a long report is found by the chapter that is
about the same thing. The file itself, its copies, the files inside it and the file it is inside are
left out (parts of it are not "like" it), and a result's copies are shown with it as a search shows
them; the same filters and the same readers hold as in a search, so a file the asker may not read
is neither the seed nor a result.
"""
from __future__ import annotations

import numpy as np

from .filters import Filters
from .search import SearchResult, _readable
from .settings import Settings
from .snippet import snippet
from .storage import Engine, StoredUnit

FIELD = "unit"
MAX_SEED_UNITS = 2000  # a file's units averaged: more say nothing new about what it is about


def similar(engine: Engine, settings: Settings, seed: list[StoredUnit], filters: Filters, k: int) -> list[SearchResult]:
    """The `k` files nearest the units `seed` (one file's, or one page's), best first."""
    path = seed[0].path
    kept = engine.vectors.get(FIELD, [u.id for u in seed[:MAX_SEED_UNITS]])
    if not kept:
        return []
    centre = np.mean(np.stack(list(kept.values())), axis=0)
    centre = (centre / (np.linalg.norm(centre) or 1.0)).astype(np.float32)
    own = {path, *engine.catalog.copies([path], filters.readers).get(path, ())}
    inside = (path + "#",)  # the files inside it (an archive's, a mail's attachments) are parts of it, not like it
    container = path.split("#", 1)[0] if "#" in path else None  # nor is the file it is inside
    hits = engine.vectors.search(FIELD, centre, filters, settings.candidates + len(seed), dims=settings.dims,
                                 oversample=settings.vector_oversample, rescore_depth=settings.rescore_depth)
    units = engine.catalog.units([uid for uid, _ in hits])
    best: dict[str, tuple[float, int]] = {}
    for uid, score in hits:
        unit = units.get(uid)
        if (unit is not None and unit.path not in own and not unit.path.startswith(inside)
                and unit.path != container and score > best.get(unit.path, (-np.inf, 0))[0]):
            best[unit.path] = (score, uid)
    ranked = sorted(best.items(), key=lambda item: -item[1][0])
    copies = engine.catalog.copies([p for p, _ in ranked], filters.readers)
    results: list[SearchResult] = []
    hidden: set[str] = set()
    for found, (score, uid) in ranked:
        if found in hidden:
            continue
        unit = units[uid]
        shown = tuple(c for c in copies.get(found, ()) if c not in own)
        hidden.update(shown)
        text, marks = snippet(_readable(unit, unit.text), [], ())
        results.append(SearchResult(rank=len(results) + 1, path=found, page=unit.page, kind=unit.file_kind,
                                    unit_kind=unit.kind, score=float(score), snippet=text, highlights=marks,
                                    title=unit.title, date=unit.date, unit_id=unit.id, copies=shown))
        if len(results) == k:
            break
    return results
