"""The search pipeline, stage by stage:

    retrieve (one retriever per candidate list) -> constrain (phrases, exclusions)
    -> fuse (RRF, per file and per unit)
    -> choose (each file's answering unit) -> rerank -> diversify (MMR) -> results

Every list is built under the same filters, inside the engine, so a filtered-out unit never
reaches fusion. The stages read the engine only through its roles (keywords, vectors, the
catalog's units), so every engine answers the same way.
"""
from __future__ import annotations

import datetime
import math
import os
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache

import numpy as np

from . import confidence as sure
from . import contents
from . import proximity
from .dates import day_words, iso, named_days
from .filters import Filters
from .fuse import mmr, rrf
from .gloss import GLOSSED, to_english
from .kinds import PICTURE_KINDS, place
from .language import script, written_apart
from .query import KeywordQuery, clean, identifier_parts, normalise_id
from .settings import Settings
from .snippet import first_shown, matches, readable, snippet, snippet_weights, table_snippet
from .storage import ENGLISH_FIELD, Engine, Hit, StoredUnit
from .syntax import Constraints, contains, header_holds, words

# Units of rows under their header line (a sheet's, a CSV's): their snippet is the header and the row that answers.
TABLE_UNITS = frozenset({"sheet", "csv"})
# Other-language units get a keyword rank stand-in only this near the top of the dense list.
STAND_IN_TOP = 10


@dataclass
class SearchResult:
    """One ranked file: its answering unit (page, chunk), snippet, score and confidence."""

    rank: int
    path: str
    page: int | None
    kind: str           # the file's kind
    unit_kind: str      # the kind of the unit that matched (pdf_page, image, ...)
    score: float
    snippet: str
    highlights: list[tuple[int, int]]
    title: str
    date: float         # UNIX time (to_dict gives ISO 8601)
    unit_id: int        # stable: the same unit keeps it while its file keeps its place in the index
    explain: dict | None = None
    folder: str = ""    # the indexed folder `path` is relative to
    confidence: float | None = None  # chance (0..1) that this is a right answer; None: not assessed
    weak: bool = False  # confidence below the floor: shown under "weak matches"
    copies: tuple[str, ...] = ()  # other files of the same bytes, a Live Photo's other part: shown as this one
    # The answering unit's machine translation into English (scent.translate), as a snippet of its
    # own, where the unit is in another language than the query; "" for none.
    translated: str = ""
    translated_highlights: list[tuple[int, int]] = field(default_factory=list)
    gone: bool = False  # its file is no longer on disk (deleted since the index run that read it)
    line: int | None = None  # the line of a note or code file the shown passage begins at; None for other kinds

    def to_dict(self) -> dict:
        """The result as `--json` and the HTTP API give it (README: the keys)."""
        d = asdict(self)
        d["highlights"] = [list(h) for h in self.highlights]
        d["translated_highlights"] = [list(h) for h in self.translated_highlights]
        d["copies"] = list(self.copies)
        d["date"] = iso(self.date)
        d["place"] = place(self.kind, self.page) if self.page else None  # "p.3", "slide 3": as the CLI says it
        if self.unit_kind == "sheet" and self.title:  # which sheet, which rows: "Budget 2025 rows 1-30"
            d["place"] = self.title
        if d["explain"] is None:
            del d["explain"]
        return d


class Results(list):
    """SearchResults, best first; `corrected`: the words of the query read as misspelt -> the words
    searched instead (scent.spelling; {} when none was); `translation`: the query in English, when it
    was machine-translated and searched by those words too (scent.translate; "" when not);
    `listed`: the query had filters and no words, and these are the files they keep, newest first
    (`newest`)."""

    def __init__(self, results=(), corrected: dict[str, str] | None = None, translation: str = "",
                 listed: bool = False):
        super().__init__(results)
        self.corrected = corrected or {}
        self.translation = translation
        self.listed = listed


@dataclass
class Request:
    """One query and everything the stages need to answer it."""
    text: str
    keywords: KeywordQuery
    filters: Filters
    settings: Settings
    engine: Engine
    embed_query: Callable[[str], np.ndarray]
    embed_picture_query: Callable[[str], np.ndarray] | None = None  # None: the index has no picture vectors
    constraints: Constraints = field(default_factory=Constraints)  # phrases and exclusions (scent.syntax)
    # A query's many vectors (m, dims) for late interaction (scent.multivector); None: no regions field
    embed_multivector_query: Callable[[str], np.ndarray] | None = None
    vector: np.ndarray | None = None  # the query's own vector, once embedded (query_vector)
    facts: dict | None = None  # the query's facts for the confidence model, once looked up (_assess)
    lang: str | None = None  # the query's language (scent.language.query_language), or None when unsure
    gloss: str = ""  # its words in English (scent.gloss) when it is searched in English too, else ""
    translation: str = ""  # the query machine-translated into English (scent.translate), else ""
    corrected: dict[str, str] = field(default_factory=dict)  # misspelt word -> the word searched (scent.spelling)


# How far a query's vector moves toward its English gloss's (a query searched in English too), or
# toward its sentence translation's where there is one (docs/retrieval-tuning.md, sessions 20, 24).
GLOSS_VECTOR_WEIGHT = 0.25
TRANSLATION_VECTOR_WEIGHT = 1.0


def query_vector(r: Request) -> np.ndarray:
    """The query's vector, embedded once per request (dense search and its feedback round read it).

    A query in a glossed language is moved toward the vector of its words' English gloss: e5-small
    matches a Portuguese question with English files less well than an English one, and the gloss's
    English words pull it toward them (docs/retrieval-tuning.md, session 20). A machine translation,
    where there is one, pulls harder: it is English with the query's sense, the gloss a word list."""
    if r.vector is None:
        v = r.embed_query(clean(r.text))
        toward, weight = (r.translation, TRANSLATION_VECTOR_WEIGHT) if r.translation else (r.gloss, GLOSS_VECTOR_WEIGHT)
        if toward:
            v = v + weight * r.embed_query(toward)
            v = (v / np.linalg.norm(v)).astype(np.float32)
        r.vector = v
    return r.vector


# ---- retrieve ------------------------------------------------------------------------------------
# A retriever returns its candidate list, or None when it does not apply to this request.

# Rank profiles (the `strategy` setting): the candidate lists each one makes and fuses.
_HYBRID = frozenset({"dense", "keyword", "ids", "pictures", "dated"})
PROFILES: dict[str, frozenset[str]] = {
    "dense": frozenset({"dense", "pictures"}),
    "keyword": frozenset({"keyword", "ids", "dated"}),
    "hybrid": _HYBRID,
    "hybrid+mmr": _HYBRID,
    "multivector": frozenset({"multivector"}),
    "hybrid+multivector": _HYBRID | {"multivector"},
}


def _wants(r: Request, name: str) -> bool:
    return name in PROFILES[r.settings.strategy]

def dense(r: Request) -> list[Hit] | None:
    """Units by the best of their own text vector and their sentences' (MaxSim with one query vector)."""
    if not _wants(r, "dense"):
        return None
    r.engine.vectors.prepare(DENSE_FIELDS)  # while the model may still be computing the vector
    return dense_search(r, query_vector(r))


DENSE_FIELDS = ("unit", "sentences", ENGLISH_FIELD)


def dense_search(r: Request, vector: np.ndarray) -> list[Hit]:
    """Units by the best of their vectors against `vector` (the query's own, or one moved by feedback);
    a unit's English translation counts `translation_offset` less than its own words."""
    s = r.settings
    fields = r.engine.vectors.fields()
    lists = [(r.engine.vectors.search(field, vector, r.filters, s.candidates, dims=s.dims,
                                      oversample=s.vector_oversample, rescore_depth=s.rescore_depth),
              s.translation_offset if field == ENGLISH_FIELD else 0.0)
             for field in DENSE_FIELDS if field in fields]
    best: dict[int, float] = {}
    for hits, offset in lists:
        for uid, score in hits:
            if score - offset > best.get(uid, -np.inf):
                best[uid] = score - offset
    # Each list holds its `candidates` best units and an offset keeps a list's order, so the merged
    # top `candidates` by best score is exactly the top of one search over every field.
    return sorted(best.items(), key=lambda h: -h[1])[:s.candidates]


def unit_cosines(r: Request, uids: list[int]) -> dict[int, float]:
    """Each unit's dense score by dense_search's rule (the best of its vectors against the query's
    own vector), computed from its stored vectors: for a unit outside the dense list's top."""
    if not uids or not _wants(r, "dense"):
        return {}
    fields = r.engine.vectors.fields()
    q = np.asarray(query_vector(r), np.float32)
    best: dict[int, float] = {}
    for field in (f for f in DENSE_FIELDS if f in fields):
        offset = r.settings.translation_offset if field == ENGLISH_FIELD else 0.0
        for uid, v in r.engine.vectors.get(field, uids).items():
            score = float(np.max(np.asarray(v, np.float32) @ q)) - offset
            best[uid] = max(best.get(uid, -np.inf), score)
    return best


def keyword(r: Request) -> list[Hit] | None:
    if not _wants(r, "keyword"):
        return None
    s = r.settings
    if s.match == "min_share" and not _wants(r, "dense"):
        # min_share keeps units holding one word of a long query out of fusion, where they would
        # collect a share beside their dense rank; alone, the keyword list is the whole answer and
        # they belong after the units that hold the share (--strategy keyword on msmarco: nDCG@10
        # 0.544 with them left out; docs/retrieval-tuning.md, session 13).
        return r.engine.keywords.search(r.keywords, "min_share_or", s.min_share, r.filters, s.candidates)
    return r.engine.keywords.search(r.keywords, s.match, s.min_share, r.filters, s.candidates)


def ids(r: Request) -> list[Hit] | None:
    if not _wants(r, "ids") or not r.keywords.ids:
        return None
    return r.engine.keywords.id_search(r.keywords.ids, r.filters, r.settings.candidates)


# The most units the dated list holds: a month's files are many, and past the first few dozen a
# rank in it adds next to nothing.
DATED_DEPTH = 50


def dated(r: Request) -> list[Hit] | None:
    """The files dated on the days the query names ("what did I do on 19 March": the daily note of
    19 March, whose words need not say so), the latest day first, a file's first unit for each:
    a date in a question is a hint to fuse, not a filter (it may be a date the answer mentions).
    None when the query names no day."""
    if not _wants(r, "dated") or r.settings.weight_dated <= 0:
        return None
    periods = named_days(r.text)
    if not periods:
        return None
    hits: list[Hit] = []
    for first, after_last in periods:
        start, end = _midnight(first), _midnight(after_last)
        if r.filters.after is not None:
            start = max(start, r.filters.after)
        if r.filters.before is not None:
            end = min(end, r.filters.before)
        if start < end:
            hits += [(uid, 0.0) for uid in r.engine.catalog.newest(replace(r.filters, after=start, before=end),
                                                                   DATED_DEPTH - len(hits))]
        if len(hits) >= DATED_DEPTH:
            break
    return list(dict.fromkeys(hits))


def _midnight(day) -> float:
    # The first moment of the day in this machine's zone, as a --after filter reads a day.
    return datetime.datetime(day.year, day.month, day.day).timestamp()


def pictures(r: Request) -> list[Hit] | None:
    """Picture units by their image-text vector against the query in the same model's space."""
    if r.embed_picture_query is None or not _wants(r, "pictures") or r.settings.weight_pictures <= 0:
        return None
    s = r.settings
    return r.engine.vectors.search("picture", r.embed_picture_query(clean(r.text)), r.filters, s.candidates,
                                   oversample=s.vector_oversample, rescore_depth=s.rescore_depth)


# The fields the multivector list reads, each unit by the best of them: pages and pictures by their
# regions, text units by their sentences, a one-sentence unit by its own vector. A list of only the
# units with regions gave every page and picture a share of fusion no text file could get: on
# bench/ it took text-semantic MRR@10 from 0.918 to 0.302 (docs/retrieval-tuning.md).
MULTIVECTOR_FIELDS = ("regions", "sentences", "unit")


def multivector(r: Request) -> list[Hit] | None:
    """Units by late interaction: MaxSim of the query's vectors (its own and its sub-phrases')
    against their region (or sentence) vectors, a binary first phase then exact (scent.multivector)."""
    if r.embed_multivector_query is None or not _wants(r, "multivector"):
        return None
    s = r.settings
    queries = r.embed_multivector_query(clean(r.text))
    fields = r.engine.vectors.fields()
    best: dict[int, float] = {}
    for name in MULTIVECTOR_FIELDS:
        if name not in fields or fields[name].model != fields["regions"].model:
            continue
        for uid, score in r.engine.vectors.multi_search(name, queries, r.filters, s.candidates,
                                                        first_phase=s.multivector_candidates):
            if score > best.get(uid, -np.inf):
                best[uid] = score
    return sorted(best.items(), key=lambda h: -h[1])[:s.candidates]


RETRIEVERS: dict[str, Callable[[Request], list[Hit] | None]] = {
    "dense": dense, "keyword": keyword, "ids": ids, "pictures": pictures, "multivector": multivector,
    "dated": dated}


# Lists that need no query vector are made first: in a fresh `scent search` the model is still
# loading in its own thread (embed.Prefetched), and these lists are made meanwhile.
_WITHOUT_VECTORS = ("keyword", "ids", "dated")


def retrieve(r: Request) -> dict[str, list[Hit]]:
    got = {name: RETRIEVERS[name](r) for name in sorted(RETRIEVERS, key=lambda n: n not in _WITHOUT_VECTORS)}
    return {name: hits for name in RETRIEVERS if (hits := got[name]) is not None}


# ---- constrain -----------------------------------------------------------------------------------

def constrain(r: Request, lists: dict[str, list[Hit]], units: dict[int, StoredUnit]) -> dict[str, list[Hit]]:
    """The lists without the units that miss a required phrase or whose file holds an excluded one.

    Checked here, on the catalog's text, so every engine answers alike (a keyword engine's phrase
    and NOT operators differ, and a dense list has none). A file is excluded by any of its units,
    not only those in the lists: `budget -draft` means no file that says draft."""
    c = r.constraints
    if not c:
        return lists
    seen: dict[int, tuple[str, ...]] = {}

    def text(u: StoredUnit) -> tuple[str, ...]:
        if u.id not in seen:
            seen[u.id] = words(f"{u.title}\n{u.text}")
        return seen[u.id]

    heads: dict[tuple[str, int | None], str] = {}

    def head(u: StoredUnit) -> str:
        """The text that starts u's message: the unit's own, or (a long message cut into several
        units) that of the message's first unit."""
        key = (u.path, u.page)
        if key not in heads:
            first = min((o for o in r.engine.catalog.file_units(u.path) or () if o.page == u.page),
                        key=lambda o: o.start, default=u)
            heads[key] = first.text
        return heads[key]

    keep = {uid for uid, u in units.items()
            if all(any(contains(text(u), p) for p in group) for group in c.required)
            and all(header_holds(head(u), name, p) for name, p in c.headers)}
    if c.excluded:
        out: set[str] = set()
        for path in {units[uid].path for uid in keep}:
            if any(contains(text(u), p) for u in r.engine.catalog.file_units(path) or () for p in c.excluded):
                out.add(path)
        keep = {uid for uid in keep if units[uid].path not in out}
    return {name: [h for h in hits if h[0] in keep] for name, hits in lists.items()}


# ---- fuse ----------------------------------------------------------------------------------------

@dataclass
class Fusion:
    """The fused lists: each list's ranking of files, each unit's fused score, the fused files."""

    file_runs: dict[str, list[str | None]]  # each list's ranking of files (a file ranks as its best unit)
    unit_scores: dict[int, float]           # fused score of each unit
    fused: list[tuple[str, float]]          # files, best first
    weights: dict[str, float]


def fuse(r: Request, lists: dict[str, list[Hit]], units: dict[int, StoredUnit]) -> Fusion:
    """RRF per file (a file's rank in a list is that of its best unit) and per unit (to choose
    each file's answer)."""
    s = r.settings
    weights = {"dense": s.weight_dense, "keyword": s.weight_keyword, "ids": s.weight_ids,
               "pictures": s.weight_pictures, "multivector": s.weight_multivector, "dated": s.weight_dated}
    file_runs = {name: list(dict.fromkeys(units[uid].path for uid, _ in hits)) for name, hits in lists.items()}
    unit_runs = {n: [uid for uid, _ in h] for n, h in lists.items()}
    if s.other_language_stand_in and "dense" in lists and "keyword" in lists:
        unit_runs["stand_in"], file_runs["stand_in"] = stand_in(lists, units, r.lang, glossed=glossed(s, r.lang),
                                                                query_script=script(r.text))
        weights["stand_in"] = s.weight_keyword
        unit_runs["keyword"], file_runs["keyword"] = replaced(unit_runs["keyword"], file_runs["stand_in"],
                                                              lambda uid: units[uid].path)
    fused = archive_weighed(rrf(file_runs, k=s.rrf_k, weights=weights), s.archived_weight)
    return Fusion(file_runs, dict(rrf(unit_runs, k=s.rrf_k, weights=weights)), fused, weights)


def archive_weighed(fused: list[tuple[str, float]], weight: float) -> list[tuple[str, float]]:
    """Fused files, those under an archive folder at `weight` of their score (archived), best first."""
    if weight >= 1:
        return fused
    return sorted(((p, sc * weight if archived(p) else sc) for p, sc in fused), key=lambda f: -f[1])


# Folder names that say their files are kept, not current (English, German, Spanish, French, Portuguese).
ARCHIVE_WORDS = frozenset({"archive", "archives", "archived", "archiv", "archivo", "arquivo", "old", "older",
                           "backup", "backups", "bak", "deprecated", "obsolete", "attic", "superseded",
                           "anciens", "ancien", "viejo", "antiguo"})
_FOLDER_WORDS = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=1 << 16)  # every query weighs the same files' paths again
def archived(path: str) -> bool:
    """Whether `path` lies under a folder whose name says archive ("Sales/Archive/", "2019 old/", "_backup/")."""
    return any(w.lower() in ARCHIVE_WORDS for folder in path.partition("#")[0].split("/")[:-1]
               for w in _FOLDER_WORDS.findall(folder))


def glossed(s: Settings, query_lang: str | None) -> tuple[frozenset[str], str]:
    """The languages whose units can hold a query's words in `query_lang` through a word-by-word
    gloss (scent.gloss), and what their stand-in is (the setting glossed_stand_in): under an
    English query, the units of the glossed languages (their English gloss is in the keyword
    index); under a query searched in English too (`to_english`), English units: treated as any
    other language, an English unit absent from the translated keyword list stood in, and one
    found there weakly did not (session 20: +0.02 nDCG@10 on Cranfield's questions in Portuguese
    and in Spanish)."""
    if query_lang == "en":
        return (GLOSSED if s.english_gloss else frozenset()), s.glossed_stand_in
    if to_english(query_lang, s.translate_query):
        return frozenset({"en"}), s.glossed_stand_in
    return frozenset(), s.glossed_stand_in


def stand_in(lists: dict[str, list[Hit]], units: dict[int, StoredUnit], query_lang: str | None,
             top: int = STAND_IN_TOP, glossed: tuple[frozenset[str], str] = (frozenset(), "absent"),
             query_script: str | None = None) -> tuple[list, list]:
    """(unit run, file run) of the keyword rank stand-ins: the dense list's first `top` units,
    where each unit written in another language than the query (and absent from the keyword
    list) keeps its dense rank and every other rank is held by None.

    Why: its words cannot match the query's, so its absence from the keyword list is no evidence
    against it; without a stand-in RRF gives every same-language unit the keyword list finds a
    second share it can never get (an English query about neem oil found the Tamil garden note
    first by dense and 16th fused). Only when both languages are known (short queries seldom are),
    and only near the top of the dense list: given to every other-language unit, the stand-ins
    lifted loosely related notes over right answers (docs/retrieval-tuning.md). And only when the
    keyword list found something: where no unit of any language holds the query's words, no unit
    has a share to make up for, and a stand-in only gave a note in another language a second
    share of its dense rank ("payment gateway diagram" showed a Spanish garden note above the
    diagram; session 27).

    A unit that a word-by-word gloss lets the query's words reach (`glossed`: the languages and the
    rule; a glossed language's unit under an English query, an English unit under a query searched
    in English too) can match, but weakly: "absent" treats it as any other-language unit, "none"
    gives it no stand-in, "better" gives it one when its keyword rank is worse than its dense rank
    (docs/retrieval-tuning.md)."""
    dense_top = lists["dense"][:top]
    in_keyword = {uid for uid, _ in lists["keyword"]}
    # A file's keyword rank: that of its best unit there (as in its file run)
    file_rank: dict[str, int] = {}
    for uid, _ in lists["keyword"]:
        file_rank.setdefault(units[uid].path, len(file_rank) + 1)
    languages, rule = glossed

    def stands_in(rank: int, uid: int) -> bool:
        lang = units[uid].lang
        if lang in (None, query_lang) or not in_keyword:
            return False
        if query_lang is None and not written_apart(query_script, lang):
            return False
        if lang in languages and rule != "absent":
            return rule == "better" and file_rank.get(units[uid].path, rank + 1) > rank
        return uid not in in_keyword

    unit_run = [uid if stands_in(rank, uid) else None for rank, (uid, _) in enumerate(dense_top, start=1)]
    file_run, seen = [], set()
    for uid, _ in dense_top:
        path = units[uid].path
        if path not in seen:
            seen.add(path)
            file_run.append(path if uid in unit_run else None)
    return unit_run, file_run


def replaced(keyword_run: list, stand_files: list, path_of: Callable[[int], str]) -> tuple[list, list]:
    """(unit run, file run) of the keyword list where each unit of a file with a stand-in rank
    (`stand_files`, the stand-in's file run) holds its rank as None: a stand-in replaces the file's
    keyword rank, never adds to it (a glossed file found weakly by keywords, glossed_stand_in=better;
    a file with one unit in the keyword list and another standing in counted both). A file whose
    first unit in the dense list is in the keyword list has no stand-in rank, whatever its other
    units have, and keeps its keyword rank: a French newsletter, first by meaning and by its
    translation's words under a Portuguese question, lost its keyword rank to its page 4's stand-in
    and fell from 1 to 13."""
    stood = {p for p in stand_files if p is not None}
    unit_run = [None if u is not None and path_of(u) in stood else u for u in keyword_run]
    file_run, seen = [], set()
    for u in keyword_run:
        if u is None or (path := path_of(u)) in seen:
            continue
        seen.add(path)
        file_run.append(None if path in stood else path)  # the file's one rank, held
    return unit_run, file_run


# ---- choose, rerank, diversify -------------------------------------------------------------------

def choose(r: Request, fusion: Fusion, units: dict[int, StoredUnit], lists: dict[str, list[Hit]] | None = None,
           paths: list[str] | None = None) -> dict[str, int]:
    """Each file's answering unit (the page, chunk or picture shown): the one with the highest
    fused score. A query that names a kind of picture ("line chart of ...", "photo of ...") is
    answered, within each file, by its best picture unit when it has one in the lists.

    With `page_choice = proximity`, in the files of `paths` (None: every file), the units whose
    fused score is within reach of the best (tied with it, or behind by less than `page_proximity`
    first-rank shares) are weighed by where the query's words sit close together on them
    (page_evidence), then by their keyword score: a page holding the query's rarer words in one
    sentence beats one holding only words every contending page has. A tie is otherwise settled
    by the order the units came in, which says nothing (docs/retrieval-tuning.md)."""
    pictures_first = sure.asks_for_picture(r.text)

    def preference(uid: int) -> tuple[bool, float]:
        return pictures_first and units[uid].kind in PICTURE_KINDS, fusion.unit_scores[uid]

    by_file: dict[str, list[int]] = {}
    for uid in fusion.unit_scores:
        by_file.setdefault(units[uid].path, []).append(uid)
    weighed = r.settings.page_choice == "proximity" and bool(r.keywords.words or r.keywords.ids)
    wanted = None if paths is None else set(paths)
    boost = r.settings.page_proximity / (r.settings.rrf_k + 1)  # in first-rank list shares
    keyword_score: dict[int, float] | None = None
    best: dict[str, int] = {}
    for path, uids in by_file.items():
        top = max(uids, key=preference)
        best[path] = top
        if not weighed or len(uids) < 2 or (wanted is not None and path not in wanted):
            continue
        reach = fusion.unit_scores[top] - boost - TIE
        contenders = [u for u in uids if preference(u)[0] == preference(top)[0] and fusion.unit_scores[u] >= reach]
        if len(contenders) < 2:
            continue
        near = page_evidence(r.keywords, [units[u] for u in contenders], [units[u] for u in uids])
        if keyword_score is None:
            keyword_score = dict(lists.get("keyword", ())) if lists else {}
        best[path] = max(contenders, key=lambda u: page_key(fusion.unit_scores[u], boost, near[u],
                                                            keyword_score.get(u)))
    return best


def pointed(r: Request, best: dict[str, int], units: dict[int, StoredUnit], paths: list[str]) -> None:
    """A file shown at its own list of its parts (a deck's agenda, a PDF's contents page) is shown at
    the part the list names whose title holds the most of the query's words instead: "risks in the
    Q2 review" showed the agenda, whose line "Risks" is the title of slide 9 (scent.contents). With
    none of them in any title the list stays. (scent.replay replays the fused page; a record of a
    file found at its list replays the list.)"""
    for path in paths:
        unit = units[best[path]]
        if not contents.may_list(unit):
            continue
        named = contents.targets(unit, r.engine.catalog.file_units(path, r.filters.readers) or [])
        held = [(len(matches(title, r.keywords.words, r.keywords.ids)), part) for title, part in named]
        most = max((n for n, _ in held), default=0)
        if most:
            target = next(part for n, part in held if n == most)  # the first the list names
            units[target.id] = target
            best[path] = target.id


# A name's definition is looked for among this many of the first fused files (or the k shown, if more).
DEFINITIONS_AMONG = 10
# Words a definition begins with in the languages scent.extract.code cuts at definitions.
_DEFINING = ("class", "def", "function", "func", "fn", "struct", "enum", "trait", "interface", "type", "module")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# A LaTeX label ("fig:loss", "eq:routing-entropy"), defined where \\label{...} names it.
_LABEL = re.compile(r"[A-Za-z]+:[A-Za-z0-9_][\w:.\-]*")
# Text files that define names: LaTeX's \\label{name}, a BibTeX entry's key.
_DEFINING_TEXTS = (".tex", ".ltx", ".bib")


def defined_name(text: str) -> str | None:
    """The name a query asks for the definition of: the query is one name of code ("HTTPConnectionPool",
    "get_backoff_time"), a LaTeX label ("fig:loss") or a BibTeX key ("smith2021attention"), or a
    defining word and a name ("class Timeout"); None otherwise."""
    words = text.split()
    if len(words) == 2 and words[0].lower() in _DEFINING:
        words = words[1:]
    return words[0] if len(words) == 1 and (_NAME.fullmatch(words[0]) or _LABEL.fullmatch(words[0])) else None


# How far back a \\label's figure, table or equation may begin (its caption is usually above the label).
_LABELLED_WITHIN = 600


def _text_definition(name: str, text: str) -> int | None:
    """Where a LaTeX or BibTeX text defines `name`: the figure, table or equation whose \\label{name}
    it is (else the label's line, or the heading line above it), or the entry keyed by it."""
    found = re.search(rf"\\label\{{{re.escape(name)}\}}|^[ \t]*@[A-Za-z]+[ \t]*[{{(][ \t]*{re.escape(name)}[ \t]*,",
                      text, re.MULTILINE)
    if not found:
        return None
    at = found.start()
    if text.startswith("\\label", at):
        before = text[max(0, at - _LABELLED_WITHIN):at]
        begin = before.rfind("\\begin{")
        if begin >= 0 and "\\end{" not in before[begin:]:
            return at - len(before) + begin
        line = text.rfind("\n", 0, at) + 1
        above = text.rfind("\n", 0, max(0, line - 1)) + 1
        return above if line and _HEADING_LINE.match(text, above) else line
    return at


_HEADING_LINE = re.compile(r"[ \t]*\\(?:part|chapter|section|subsection|subsubsection|paragraph)\b")


def _definition(name: str | None, unit: StoredUnit) -> int | None:
    """Where in a code unit the name the query asks for (defined_name) is defined (`class
    LocalProtocolError`: the comment block above it, naming it five times, drew the snippet); None
    elsewhere."""
    if name is None or unit.kind not in ("code", "text"):
        return None
    if unit.kind == "text":
        return _text_definition(name, unit.text) if unit.path.lower().endswith(_DEFINING_TEXTS) else None
    found = re.search(rf"^[ \t]*(?:(?:export|pub|async|public|private|static|abstract|final)\s+)*"
                      rf"(?:{'|'.join(_DEFINING)})\s+{re.escape(name)}\b", unit.text, re.MULTILINE)
    return found.start() if found else None


def defined(r: Request, name: str | None, best: dict[str, int], units: dict[int, StoredUnit],
            paths: list[str]) -> set[str]:
    """A code file found for a name it defines is shown where the definition begins: the first of
    its units titled by the name (scent.extract.code titles each part of a file by the definition
    it is in). "HTTPConnectionPool" showed `class HTTPSConnectionPool(HTTPConnectionPool)` at line
    995, a use, and "class Timeout" the end of its docstring, 126 lines below the class. A LaTeX
    file is shown at the unit holding the \\label{...} a query names, a reference list at the entry
    keyed by it (a TODO note mentioning "fig:loss" came before the chapter defining it). Returns the
    paths that define it."""
    if name is None:
        return set()
    defining = set()
    for path in paths:
        unit = units[best[path]]
        if unit.kind == "text" and path.lower().endswith(_DEFINING_TEXTS):
            if _text_definition(name, unit.text) is not None:
                defining.add(path)
                continue
            target = next((o for o in r.engine.catalog.file_units(path, r.filters.readers) or ()
                           if _text_definition(name, o.text) is not None), None)
        elif unit.kind != "code":
            continue
        elif unit.title == name and unit.text.lstrip().startswith(_DEFINING):
            defining.add(path)
            continue
        else:
            target = next((o for o in r.engine.catalog.file_units(path, r.filters.readers) or ()
                           if o.kind == "code" and o.title == name), None)
        if target is not None:
            units[target.id] = target
            best[path] = target.id
            defining.add(path)
    return defining


def definitions_first(r: Request, name: str | None, fused: list[tuple[str, float]],
                      defining: set[str]) -> list[tuple[str, float]]:
    """The files that define the name of code a query is (reconcile_settlements, parseHttpHeader,
    "class Timeout"), ahead of those that use it: a patch that changes the function came before
    the module defining it. Only for a name written as code (an identifier of parts, or after a
    defining word): a plain word ("report") asks for no definition of code. A LaTeX label or a
    BibTeX key is a name whatever it looks like: a text file defines it only where written as one."""
    if not (name != r.text.strip() or len(identifier_parts(name)) > 1):
        defining = {p for p in defining if p.lower().endswith(_DEFINING_TEXTS)}
    if not defining:
        return fused
    return [f for f in fused if f[0] in defining] + [f for f in fused if f[0] not in defining]


def only_ids(r: Request) -> bool:
    """Whether the query is IDs and codes alone ("INV-2025-0142", "RE-2025-4471 PI-88231-IE")."""
    return bool(r.keywords.ids) and all(t.is_id for t in r.keywords.terms)


def documents_of_ids(r: Request, fused: list[tuple[str, float]], best: dict[str, int],
                     units: dict[int, StoredUnit], lists: dict[str, list[Hit]]) -> list[tuple[str, float]]:
    """For a query of IDs alone, the files named by one (Hoffmann_RE-2025-4471.pdf) first, ahead of
    those that only mention it (the bank statement paying it, tied with the invoice before), and
    each file shown at its first page holding one (an invoice's header, not its short page 2, whose
    running header repeats the number: BM25 and the dense list both liked the short page better)."""
    in_ids = {uid for uid, _ in lists.get("ids", ())}
    holding: dict[str, list[int]] = {}
    for uid in in_ids:
        holding.setdefault(units[uid].path, []).append(uid)
    for path, uids in holding.items():
        if path in best and best[path] in in_ids and units[best[path]].page is not None:
            best[path] = min(uids, key=lambda u: (units[u].page is None, units[u].page or 0, units[u].start))
    wanted = set(r.keywords.ids)
    named = {path for path, _ in fused if wanted & set(name_ids(path))}
    if not named:
        return fused
    return [f for f in fused if f[0] in named] + [f for f in fused if f[0] not in named]


def name_ids(path: str) -> list[str]:
    """The IDs a file's name holds, normalised as query IDs are: "Sanchez_FV-2025-0318.pdf" holds FV20250318."""
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return [normalise_id(piece) for piece in re.split(r"[\s_]+", stem) if piece]


# Fused scores are sums of a few fractions: the same ranks added in another order can differ in
# the last bits, and a tie is a tie.
TIE = 1e-12


def page_key(fused: float, boost: float, near: float, keyword: float | None) -> tuple[float, float, float]:
    """How a contending unit ranks within its file (scent.replay ranks them alike)."""
    return round(fused + boost * near, 12), near, -np.inf if keyword is None else keyword


def page_evidence(query: KeywordQuery, contenders: list[StoredUnit],
                  among: list[StoredUnit] | None = None) -> dict[int, float]:
    """The term proximity (scent.proximity, 0..1) of each contending unit of one file: the most of
    the query's words within one window of a sentence's length, each word weighted by how few of
    the file's units in the lists (`among`; None: the contenders) hold it, log(1 + n / holding):
    a word on every page says nothing about which page answers."""
    among = contenders if among is None else among  # the contenders are among them
    found = {u.id: proximity.hits(f"{u.title}\n{u.text}", query) for u in among}
    holding: dict[str, int] = {}
    for u in among:
        for key in {k for _, k in found[u.id]}:
            holding[key] = holding.get(key, 0) + 1
    n = len(among)
    weights = {key: math.log1p(n / df) for key, df in holding.items()}
    return {u.id: proximity.window_share(found[u.id], weights) for u in contenders}


def rerank(r: Request, fused: list[tuple[str, float]], best: dict[str, int],
           units: dict[int, StoredUnit]) -> list[tuple[str, float]]:
    """The place for a model that reorders the fused files by reading query and unit together.
    None ships weights here (../shared/FACTS.md: no bundled cross-encoder), so it keeps the order."""
    return fused


def diversify(r: Request, fused: list[tuple[str, float]], best: dict[str, int], k: int) -> list[tuple[str, float]]:
    """Under hybrid+mmr, the `k` files MMR picks, then the others in fused order: when two picked
    files are copies (collapse), the next file fills the place, so a page still shows `k`."""
    if r.settings.strategy != "hybrid+mmr":
        return fused
    vectors = r.engine.vectors.get("unit", [best[p] for p, _ in fused])
    picked = mmr(fused, {p: vectors.get(best[p]) for p, _ in fused}, lam=r.settings.mmr_lambda, k=k)
    chosen = {p for p, _ in picked}
    return picked + [(p, s) for p, s in fused if p not in chosen]


def collapse(r: Request, fused: list[tuple[str, float]], k: int) -> list[tuple[str, tuple[str, ...], float]]:
    """The first `k` fused files, each content once: a file whose bytes an earlier one holds (a
    PDF saved again in Downloads, a photo in two albums), or the other part of a Live Photo, is
    that one's copy, not a result of its own, so `k` results are `k` different contents. (path,
    its copies the asker may read, score); copies are looked up for the files about to be shown,
    `k` at a time."""
    kept: list[tuple[str, tuple[str, ...], float]] = []
    hidden: set[str] = set()
    for start in range(0, len(fused), k):
        part = [(p, s) for p, s in fused[start:start + k] if p not in hidden]
        found = r.engine.catalog.copies([p for p, _ in part], r.filters.readers) if part else {}
        for path, score in part:
            if path in hidden:  # a copy of a file kept earlier in this part
                continue
            copies = tuple(found.get(path, ()))
            kept.append((path, copies, score))
            hidden.update(copies)
            if len(kept) == k:
                return kept
    return kept


# ---- the whole pipeline --------------------------------------------------------------------------

def run(r: Request, k: int, explain: bool = False) -> tuple[list[SearchResult], dict[str, list[str | None]]]:
    """The `k` best files with their answering units, and each list's ranking of files before fusion."""
    lists, units, fusion = _fused(r)
    # The page is weighed for the files that can be shown (all of them when MMR reorders them).
    shown = None if r.settings.strategy == "hybrid+mmr" else [p for p, _ in fusion.fused[:k]]
    best = choose(r, fusion, units, lists, shown)
    pointed(r, best, units, shown if shown is not None else list(best))
    name = defined_name(r.text)
    # Looked for among more files than are shown, so that the first result does not depend on k.
    defining = defined(r, name, best, units, list(best) if shown is None else
                       [p for p, _ in fusion.fused[:max(k, DEFINITIONS_AMONG)]])
    fused = definitions_first(r, name, rerank(r, fusion.fused, best, units), defining)
    if only_ids(r):
        fused = documents_of_ids(r, fused, best, units, lists)
    kept = collapse(r, diversify(r, fused, best, k), k)
    results = []
    assessed = _assess(r, lists, units, [(path, best[path]) for path, _, _ in kept])
    root = r.engine.catalog.meta("root") or "" if kept else ""
    on_disk = os.path.isdir(root)  # else (an index of another machine's folder) nothing is said gone
    shown_units = [_shown(r, units[best[ranked]]) for ranked, _, _ in kept]
    weights = snippet_weights(r.keywords.words, [u.text for u in shown_units])
    for rank, ((ranked, copies, score), unit) in enumerate(zip(kept, shown_units), start=1):
        path = ranked
        if copies:
            path, copies, unit = plainest(r.engine.catalog, r.filters.readers, root, ranked, copies, unit)
        shows = table_snippet if unit.kind in TABLE_UNITS else snippet
        if (at := _definition(name, unit)) is not None:  # a name of code: shown from where it is defined
            line = None if unit.line is None else unit.line + unit.text.count("\n", 0, at)
            unit = replace(unit, text=unit.text[at:])
        else:
            line = _line(r, unit, weights)
        text, marks = shows(_readable(unit, unit.text), r.keywords.words, r.keywords.ids, weights=weights)
        # Its translation helps one who asked in another language (an unsure query's language: English
        # is the likelier, and the passage's own words are shown first anyway), unless it lost a
        # denial, a number or a code of the note (scent.translate.faithful): searched, never shown.
        translated, translated_marks = "", []
        if unit.english and unit.lang != r.lang:
            from .translate import faithful  # imported only where a translation is to be shown

            if faithful(unit.text, unit.english, unit.lang):
                translated, translated_marks = snippet(_readable(unit, unit.english, one_line=True), r.keywords.words,
                                                       r.keywords.ids, weights=weights)
        results.append(_result(
            rank, path, unit, score, text, marks, copies, on_disk and gone(root, path), line=line,
            explain=_explain(ranked, lists, fusion, units, r.settings) if explain else None,
            confidence=assessed[rank - 1][0], weak=assessed[rank - 1][1],
            translated=translated, translated_highlights=translated_marks))
    return results, fusion.file_runs


def _result(rank: int, path: str, unit: StoredUnit, score: float, text: str, marks: list[tuple[int, int]],
            copies: tuple[str, ...], is_gone: bool, **more) -> SearchResult:
    """A shown file: its path, its shown unit's facts and snippet, and what `more` adds."""
    more.setdefault("line", unit.line)
    return SearchResult(rank=rank, path=path, page=unit.page, kind=unit.file_kind, unit_kind=unit.kind, score=score,
                        snippet=text, highlights=marks, title=unit.title, date=unit.date, unit_id=unit.id,
                        copies=copies, gone=is_gone, **more)


def _line(r: Request, unit: StoredUnit, weights: dict[str, float]) -> int | None:
    """The line of a note or code file that `path:line` opens: that of the first match its snippet
    shows. The passage's first line was up to 30 lines above it (get_backoff_time: 306, the
    definition at 321)."""
    if unit.line is None:
        return None
    at = first_shown(unit.text, r.keywords.words, r.keywords.ids, weights=weights)
    return unit.line if at is None else unit.line + unit.text.count("\n", 0, at)


# A listing asks for this many files beyond twice the wanted number: exclusions and copies drop some.
LISTING_SLACK = 20


def newest(r: Request, k: int) -> list[SearchResult]:
    """The files a query of filters alone keeps (`ext:pdf after:2025-03`, `--only image`), newest
    first. It has no words to rank by: the date orders them, no confidence is assessed (none is
    weak), and each shows its beginning (a picture what it shows: _shown). Exclusions hold as in a
    search (-draft: no file that says draft), and a copy is named under the file it copies."""
    ids = r.engine.catalog.newest(r.filters, 2 * k + LISTING_SLACK)
    units = r.engine.catalog.units(ids)
    hits = constrain(r, {"newest": [(uid, 0.0) for uid in ids if uid in units]}, units)["newest"]
    first = {units[uid].path: uid for uid, _ in hits}
    kept = collapse(r, [(path, 0.0) for path in first], k)
    root = r.engine.catalog.meta("root") or "" if kept else ""
    on_disk = os.path.isdir(root)
    results = []
    for rank, (path, copies, _) in enumerate(kept, start=1):
        unit = _shown(r, units[first[path]])
        if copies:
            path, copies, unit = plainest(r.engine.catalog, r.filters.readers, root, path, copies, unit)
        text, marks = snippet(_readable(unit, unit.text), [])
        results.append(_result(rank, path, unit, 0.0, text, marks, copies, on_disk and gone(root, path)))
    return results


def plainest(catalog, readers: tuple[str, ...] | None, root: str, path: str, copies: tuple[str, ...],
             unit: StoredUnit) -> tuple[str, tuple[str, ...], StoredUnit]:
    """Which of a file and its copies (the same bytes) a result names, the others under it: the
    file itself rather than a member of an archive or mail, a link to it, or a copy in a downloads
    or backup folder; else the first by name. The ranking chose among them by chance (their units score
    alike): one query named Downloads/invoice.pdf, the next invoices/2025/invoice.pdf, another the
    copy inside a zip. A Live Photo's other part (another extension) is never named instead."""
    ext = os.path.splitext(path)[1].lower()
    same = [path, *(c for c in copies if os.path.splitext(c)[1].lower() == ext)]
    chosen = min(same, key=lambda p: ("#" in p, _is_link(root, p),
                                      any(_second_copy(part) for part in p.split("/")[:-1]), p))
    if chosen == path:
        return path, copies, unit
    twin = next((u for u in catalog.file_units(chosen, readers) or ()
                 if (u.kind, u.page, u.start) == (unit.kind, unit.page, unit.start)), None)
    if twin is None:  # read otherwise (another version of its reader): keep what ranked
        return path, copies, unit
    return chosen, tuple(sorted(c for c in (path, *copies) if c != chosen)), twin


_DOWNLOADS = frozenset({"downloads", "download"})


def _second_copy(folder: str) -> bool:
    """A folder whose files are copies of others: downloads, and backups ("backup-old-laptop/journal/
    x.md" was named before "journal/x.md" by the order of their names)."""
    folder = folder.lower()
    return folder in _DOWNLOADS or "backup" in folder or folder in ("bak", "old")


def gone(root: str, path: str) -> bool:
    """Whether the file at `path` (or, for a file inside another, that one) left the folder since it was indexed."""
    return not os.path.lexists(os.path.join(root, path)) and not (
        "#" in path and os.path.lexists(os.path.join(root, path.partition("#")[0])))


def _is_link(root: str, path: str) -> bool:
    return bool(root) and "#" not in path and os.path.islink(os.path.join(root, path))


# A translation is one line (translate.texts_to_english): its headings' marks sit inside it.
_INLINE_HEADING = re.compile(r"(?<!\S)#{1,6}\s+")


def _readable(unit: StoredUnit, text: str, one_line: bool = False) -> str:
    if unit.file_kind != "text":
        return text
    return readable(_INLINE_HEADING.sub("", text) if one_line else text)


def _shown(r: Request, unit: StoredUnit) -> StoredUnit:
    """The unit a result shows: its answering unit, except in a picture file, whose units are its
    name and date ("IMG 0168 / photos / 200x133"), the text read in it (OCR, a drawing's labels)
    and what it shows ("photo, a dog, grass ..."): there another of them is shown when it holds
    more of the query's words, so the snippet says why the picture matched. The name unit is
    shown only when it answered and none holds as many words: a name is the picture's label, not
    what it shows, and that unit often wins only by its folder's word or the picture vector. A
    note's aliases-and-tags unit likewise gives way to its body (_body_unit)."""
    if unit.file_kind == "text" and unit.start == 0 and unit.text.startswith(_METADATA):
        return _body_unit(r, unit)
    if not unit.text.strip():
        return _worded(r, unit)
    if unit.file_kind != "image" or unit.kind not in ("image", "ocr"):
        return unit
    others = [o for o in r.engine.catalog.file_units(unit.path) or ()
              if o.kind in ("image", "ocr") and o.start > 0 and o.id != unit.id]
    if not others:
        return unit
    named = is_name_unit(unit)
    words, ids = r.keywords.words, r.keywords.ids
    said = len(matches(unit.text, words, ids))
    if named:
        said += sum(i in normalise_id(os.path.splitext(unit.title)[0]) for i in r.keywords.ids)
    # most words first; among equals the description, the last unit (scent.extract.image)
    held, best = max(((len(matches(o.text, words, ids)), o) for o in reversed(others)), key=lambda h: h[0])
    return best if held > said or (named and held == said) else unit


def is_name_unit(unit: StoredUnit) -> bool:
    """Whether `unit` is a picture's name unit (its file name, folder, day and camera: scent.extract.image
    writes it first), which says nothing of what the picture shows."""
    return unit.file_kind == "image" and unit.kind == "image" and unit.start == 0


# How the first unit of a note with front matter begins: its aliases and tags, as
# scent.extract.frontmatter.tags_text writes them (not imported: a search loads no reader).
_METADATA = ("aliases: ", "tags: ")


def _worded(r: Request, unit: StoredUnit) -> StoredUnit:
    """For a unit without text (a scanned page as a picture: its words are its OCR unit), the unit
    of the same page with text, else the file's first with text: a scanned PDF listed by
    `--only pdf` showed no snippet at all."""
    worded = [o for o in r.engine.catalog.file_units(unit.path, r.filters.readers) or () if o.text.strip()]
    return next((o for o in worded if o.page == unit.page), worded[0] if worded else unit)


def _body_unit(r: Request, unit: StoredUnit) -> StoredUnit:
    """A note's aliases-and-tags unit, unless it holds the query's words: else the note's first unit
    of body text. Short, it won the keyword list for a note found by its name or title (BM25
    favours the shortest unit that holds them), and "tags: people work" was the snippet shown
    for "Priya Raman"."""
    if matches(unit.text, r.keywords.words, r.keywords.ids):
        return unit
    body = next((o for o in r.engine.catalog.file_units(unit.path, r.filters.readers) or ()
                 if o.id != unit.id and o.text.strip()), None)
    return body or unit


def _assess(r: Request, lists: dict[str, list[Hit]], units: dict[int, StoredUnit],
            shown: list[tuple[str, int]]) -> list[tuple[float, bool]]:
    """Each shown result's confidence and whether it falls below the floor (scent.confidence)."""
    if not shown:
        return []
    if r.facts is None:  # feedback assesses the files fused first, then the results are assessed
        r.facts = sure.query_facts(r)
    facts = sure.settle_language(r.facts, r.text, (units[uid].lang for _, uid in shown))

    # A file the dense list does not hold (found by its keywords or an ID alone) is weighed by its
    # shown unit's own cosine, not by none: "ACC-7731" finds a long log whose chunk is far down
    # the dense list, and with dense facts of 0 its one right answer was 45% sure, "no good match".
    in_dense = {units[uid].path for uid, _ in lists.get("dense") or ()}
    cosines = unit_cosines(r, [uid for path, uid in shown if path not in in_dense]) if lists.get("dense") else {}

    # A file of the day the query names holds that day's words in its date, not its text ("what did I do
    # on 19 March": the 19 March note was 19% sure, "no good match", for holding neither word).
    dated_paths = {units[uid].path for uid, _ in lists.get("dated") or ()}

    def unit_facts(uid: int) -> dict:
        u = units[uid]
        said = f"{u.title}\n{u.text}"
        if u.path in dated_paths:
            said += "\n" + day_words(datetime.datetime.fromtimestamp(u.date).date())
        return {"lang": u.lang, "kind": u.kind, "coverage": sure.coverage(r.keywords, said),
                "cosine": cosines.get(uid)}

    inputs = sure.result_inputs(lists, lambda uid: units[uid].path, shown, unit_facts)
    return [sure.assess(sure.features(x, facts), floor=r.settings.confidence_floor) for x in inputs]


def _fused(r: Request) -> tuple[dict[str, list[Hit]], dict[int, StoredUnit], Fusion]:
    lists = retrieve(r)
    units = r.engine.catalog.units(sorted({uid for hits in lists.values() for uid, _ in hits}))
    # A unit deleted between retrieval and this read (an indexer writing meanwhile) drops out.
    lists = constrain(r, {name: [h for h in hits if h[0] in units] for name, hits in lists.items()}, units)
    fusion = fuse(r, lists, units)
    again = feedback(r, lists, fusion, units)
    if again is None:
        return lists, units, fusion
    units.update(r.engine.catalog.units(sorted({uid for uid, _ in again} - units.keys())))
    lists = {**lists, **constrain(r, {"dense": [h for h in again if h[0] in units]}, units)}
    return lists, units, fuse(r, lists, units)


# ---- feedback ------------------------------------------------------------------------------------

def feedback(r: Request, lists: dict[str, list[Hit]], fusion: Fusion,
             units: dict[int, StoredUnit]) -> list[Hit] | None:
    """The dense list searched again with the query's vector moved toward the answering units of
    the first `feedback_units` fused files whose confidence is at least `feedback_floor`
    (pseudo-relevance feedback: Rocchio, as applied to dense retrievers by Li et al., "Pseudo
    Relevance Feedback with Deep Language Models and Dense Retrievers", 2023). None when off, or
    when no such file is sure enough.

    The files fused first are those where meaning and keywords agree: they carry the collection's
    own words for the query's topic (a one-line question about "boundary layer transition" meets
    the abstracts' way of saying it). Only sure ones are fed back: a folder searched for one file
    has one right answer, and the files after it, fed back too, pulled the query off it
    (docs/retrieval-tuning.md)."""
    s = r.settings
    if s.feedback_units <= 0 or not fusion.fused or not _wants(r, "dense"):
        return None
    top = [path for path, _ in fusion.fused[:s.feedback_units]]
    best: dict[str, int] = {}
    for uid, score in fusion.unit_scores.items():
        path = units[uid].path
        if path in top and (path not in best or score > fusion.unit_scores[best[path]]):
            best[path] = uid
    if s.feedback_floor > 0:
        sure_of = _assess(r, lists, units, [(path, best[path]) for path in top])
        best = {path: best[path] for path, (p, _) in zip(top, sure_of) if p >= s.feedback_floor}
    vectors = [v for v in r.engine.vectors.get("unit", sorted(best.values())).values() if v is not None]
    if not vectors:
        return None
    # The direction of query + weight x mean, in float64 and scaled down by a weight above 1, so
    # that no weight the setting allows (any finite number) overflows into a vector of NaNs.
    scale = max(1.0, s.feedback_weight)
    moved = (np.asarray(query_vector(r), np.float64) / scale
             + (s.feedback_weight / scale) * np.mean(np.asarray(vectors, np.float64), axis=0))
    return dense_search(r, (moved / np.linalg.norm(moved)).astype(np.float32))


def best_units(r: Request, n: int) -> tuple[list[tuple[StoredUnit, float]], dict[str, tuple[float, bool]]]:
    """The `n` units of highest fused score, several of one file included: passages for a
    prompt (scent context) rather than files for a person; and each of their files' (confidence,
    weak), weighed as a search's results are, the files in the order of their best unit: an
    agent handed passages could not tell an answer from the folder's nearest filler."""
    lists, units, fusion = _fused(r)
    ranked = sorted(fusion.unit_scores.items(), key=lambda t: (-t[1], t[0]))[:n]
    first: dict[str, int] = {}
    for uid, _ in ranked:
        first.setdefault(units[uid].path, uid)
    assessed = _assess(r, lists, units, list(first.items()))
    return [(units[uid], score) for uid, score in ranked], dict(zip(first, assessed))


def _explain(path: str, lists: dict[str, list[Hit]], fusion: Fusion, units: dict[int, StoredUnit],
             s: Settings) -> dict:
    out = {}
    for name, hits in lists.items():
        if path not in fusion.file_runs[name]:
            out[name] = None
            continue
        rank = fusion.file_runs[name].index(path) + 1
        uid, score = next((uid, sc) for uid, sc in hits if units[uid].path == path)
        out[name] = {"rank": rank, "score": round(score, 6), "unit": uid, "page": units[uid].page,
                     "contribution": round(fusion.weights[name] / (s.rrf_k + rank), 6)}
    if path in fusion.file_runs.get("stand_in", ()):
        # The dense rank and unit, counted again as a keyword rank (see stand_in).
        out["stand_in"] = {**out["dense"],
                           "contribution": round(fusion.weights["stand_in"] / (s.rrf_k + out["dense"]["rank"]), 6)}
    return out
