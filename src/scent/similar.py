"""Files like a given file ("more like this"): the files nearest it by meaning, fused with the
files that share its telling words.

By meaning, the given file (or one page of it) stands as one vector, the mean of its units'
meaning vectors (their centroid: what the file is about overall, not its first paragraph's topic);
every other file scores by its best unit's cosine with it, so a long report is found by the chapter
that is about the same thing. By words (a keyword "more like this"), the file's most frequent
words are searched as a keyword query of any of them, which BM25 ranks (a rare word counting more).
The two lists of files are fused by Reciprocal Rank Fusion, as a search's are: on Cranfield and
on business-reports the fusion finds more of the documents judged relevant to the same question
than meaning alone (docs/retrieval-tuning.md, session 33).

The file itself, its copies, the files inside it and the file it is inside are left out (parts of
it are not "like" it), and a result's copies are shown with it as a search shows them (the
plainest named, the others under it); the same
filters and the same readers hold as in a search, so a file the asker may not read is neither the
seed nor a result.
"""
from __future__ import annotations

import os
from collections import Counter

import numpy as np

from .filters import Filters
from .query import parse
from .engines.matching import token
from .search import SearchResult, _readable, gone, is_name_unit, plainest
from .settings import Settings
from .snippet import snippet
from .stopwords import STOPWORDS
from .storage import Engine, StoredUnit
from .syntax import words

FIELD = "unit"
MAX_SEED_UNITS = 2000  # a file's units averaged: more say nothing new about what it is about
TELLING_WORDS = 40  # the seed's words searched as keywords (10, 20, 40 measured)
FUSE_K = 10  # RRF k of the two lists (10 and 60 measured)


def similar(engine: Engine, settings: Settings, seed: list[StoredUnit], filters: Filters, k: int) -> list[SearchResult]:
    """The `k` files nearest the units `seed` (one file's, or one page's), best first."""
    path = seed[0].path
    seed = _telling(seed)
    own = {path, *engine.catalog.copies([path], filters.readers).get(path, ())}
    container = path.split("#", 1)[0] if "#" in path else None

    def apart(found: str) -> bool:  # not the seed, a copy of it, a file inside it or the file it is inside
        return found not in own and not found.startswith(path + "#") and found != container

    depth = settings.candidates + len(seed)
    lists = [_by_meaning(engine, settings, seed, filters, depth), _by_words(engine, seed, filters, depth)]
    score: dict[str, float] = {}
    unit_of: dict[str, StoredUnit] = {}
    for ranked in lists:
        for rank, unit in enumerate(u for u in ranked if apart(u.path)):
            score[unit.path] = score.get(unit.path, 0.0) + 1.0 / (FUSE_K + rank + 1)
            unit_of.setdefault(unit.path, unit)  # the unit shown: its best by meaning, else by words
    ranked = sorted(score, key=lambda p: (-score[p], p))
    copies = engine.catalog.copies(ranked, filters.readers)
    root = engine.catalog.meta("root") or ""
    on_disk = os.path.isdir(root)
    results: list[SearchResult] = []
    hidden: set[str] = set()
    for found in ranked:
        if found in hidden:
            continue
        unit = unit_of[found]
        shown = tuple(c for c in copies.get(found, ()) if c not in own)
        hidden.update(shown)
        named = found
        if shown:
            named, shown, unit = plainest(engine.catalog, filters.readers, root, found, shown, unit)
        text, marks = snippet(_readable(unit, unit.text), [], ())
        results.append(SearchResult(rank=len(results) + 1, path=named, page=unit.page, kind=unit.file_kind,
                                    unit_kind=unit.kind, score=score[found], snippet=text, highlights=marks,
                                    title=unit.title, date=unit.date, unit_id=unit.id, copies=shown, line=unit.line,
                                    gone=on_disk and gone(root, named)))
        if len(results) == k:
            break
    return results


def _telling(seed: list[StoredUnit]) -> list[StoredUnit]:
    """The seed's units that say what it is about: a picture's, without its name unit (its file
    name, folder, day and camera: "IMG 1740 photos 2024 taken 20 July 2024 camera Apple iPhone 13"),
    by which the photos like a boat and a church were the ones from the same phone."""
    about = [u for u in seed if not is_name_unit(u)]
    return about or seed


def _by_meaning(engine: Engine, settings: Settings, seed: list[StoredUnit], filters: Filters,
                depth: int) -> list[StoredUnit]:
    """Each file's best unit by the cosine of that unit with the seed's centroid, best first."""
    kept = engine.vectors.get(FIELD, [u.id for u in seed[:MAX_SEED_UNITS]])
    if not kept:
        return []
    centre = np.mean(np.stack(list(kept.values())), axis=0)
    centre = (centre / (np.linalg.norm(centre) or 1.0)).astype(np.float32)
    hits = engine.vectors.search(FIELD, centre, filters, depth, dims=settings.dims,
                                 oversample=settings.vector_oversample, rescore_depth=settings.rescore_depth)
    return _files([uid for uid, _ in hits], engine)


def _by_words(engine: Engine, seed: list[StoredUnit], filters: Filters, depth: int) -> list[StoredUnit]:
    """Each file's best unit by BM25 for any of the seed's telling words, best first."""
    telling = telling_words(seed)
    if not telling:
        return []
    hits = engine.keywords.search(parse(" ".join(telling)), "or", "", filters, depth)
    return _files([uid for uid, _ in hits], engine)


def telling_words(seed: list[StoredUnit]) -> list[str]:
    """The seed's TELLING_WORDS most frequent words (the first said first among equals); stop words,
    numbers and words of one or two letters never. BM25 weighs them by their rarity when it ranks;
    chosen by it too (tf-idf), they were the rare details of one abstract or chunk, not what it
    shares with its kin (docs/retrieval-tuning.md, session 33)."""
    tf: Counter = Counter()
    said: dict[str, str] = {}  # each form the index keeps ("valves" and "valve": valv) as its first word
    for w in (w for u in seed[:MAX_SEED_UNITS] for w in words(u.text)):
        if len(w) > 2 and w not in STOPWORDS and not w.isdigit():
            tf[said.setdefault(token(w), w)] += 1
    return [w for w, _ in tf.most_common(TELLING_WORDS)]


def _files(uids: list[int], engine: Engine) -> list[StoredUnit]:
    """Each file once, by its first unit in `uids`."""
    units = engine.catalog.units(uids)
    out, seen = [], set()
    for uid in uids:
        unit = units.get(uid)
        if unit is not None and unit.path not in seen:
            seen.add(unit.path)
            out.append(unit)
    return out
