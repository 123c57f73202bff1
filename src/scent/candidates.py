"""Every candidate list of every query, recorded once per collection, so fusion functions and
confidence models are compared offline (scent.replay) in seconds instead of re-searching.

A record holds, for one query: each list the pipeline fused (dense, keyword, ids, pictures, and
the other-language stand-in run) as (unit, raw score) in list order, after the constrain stage;
for each unit in any list the facts a ranker reads (its file, the key the evaluator would judge
it by, kind, language, page, the share of the query's words it holds, and outside the dense list
its own cosine); and the query's own facts (language, whether it asks for a picture, how many of
its words the index holds at all).
Records are JSON lines, one per query.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import search as pipeline
from .confidence import coverage, query_facts, settle_language
from .evaluate import RUN_DEPTH, LabelledQuery, _unsafe
from .index import Index
from .language import script

# Off-topic queries (no answer in the collection) carry this category and no judgments.
OFF_TOPIC = "off-topic"


@dataclass
class Record:
    id: str
    query: str
    category: str
    hard: bool
    qrels: dict[str, float]               # judged keys -> grade (empty for an off-topic query)
    lists: dict[str, list[list]]          # list name -> [[unit id, raw score], ...] in list order
    stand_in: list[int | None]            # the stand-in unit run (None holds a rank)
    units: dict[str, dict]                # unit id (as text: JSON keys) -> path, key, kind, lang, page, coverage, cosine
    facts: dict = field(default_factory=dict)  # the query's: lang, picture intent, terms, terms in the index
    run: list[str] = field(default_factory=list)  # the keys the pipeline itself returned, best first


def record(index: Index, text: str, key, **ident) -> Record:
    """One query's lists as the pipeline fuses them. `key(path, page)` is the key the evaluator
    judges a result by (a path, path#page, or a BEIR document id)."""
    request = index._request(text, ident.pop("filters", None), dict(ident.pop("overrides", {})))
    lists, units, fusion = pipeline._fused(request)
    used = {uid for hits in lists.values() for uid, _ in hits}
    stand = (pipeline.stand_in(lists, units, request.lang, glossed=pipeline.glossed(request.settings, request.lang),
                               query_script=script(request.text))[0]
             if "stand_in" in fusion.file_runs else [])
    # The pipeline's own answer, without snippets: what a replay of RRF must give back.
    depth = ident.pop("depth", RUN_DEPTH)
    best = pipeline.choose(request, fusion, units, lists, [p for p, _ in fusion.fused[:depth]])
    fused = pipeline.diversify(request, pipeline.rerank(request, fusion.fused, best, units), best, depth)
    return Record(
        lists={name: [[uid, float(score)] for uid, score in hits] for name, hits in lists.items()},
        units=_units(request, lists, units, used, key),
        stand_in=stand,
        facts=settle_language(query_facts(request), request.text, (units[uid].lang for uid in used)),
        run=list(dict.fromkeys(key(path, units[best[path]].page) for path, _ in fused[:depth])),
        query=text, **ident)


def _units(request, lists: dict, units: dict, used: set[int], key) -> dict[str, dict]:
    """The facts of each unit in the lists. Under page_choice=proximity also its page evidence
    within its file ("near", search.page_evidence), with which a replay settles fused ties within
    a file as search.choose does."""
    out = {str(uid): {"path": units[uid].path, "key": key(units[uid].path, units[uid].page),
                      "kind": units[uid].kind, "file_kind": units[uid].file_kind, "lang": units[uid].lang,
                      "page": units[uid].page,
                      "coverage": round(coverage(request.keywords, f"{units[uid].title}\n{units[uid].text}"), 4)}
           for uid in sorted(used)}
    in_dense = {uid for uid, _ in lists.get("dense") or ()}
    if in_dense:  # a unit outside the dense list is weighed by its own cosine (search._assess)
        for uid, cosine in pipeline.unit_cosines(request, sorted(used - in_dense)).items():
            out[str(uid)]["cosine"] = round(cosine, 6)
    if request.settings.page_choice == "proximity" and (request.keywords.words or request.keywords.ids):
        by_file: dict[str, list] = {}
        for uid in sorted(used):
            by_file.setdefault(units[uid].path, []).append(units[uid])
        for group in by_file.values():
            if len(group) > 1:
                for uid, near in pipeline.page_evidence(request.keywords, group).items():
                    out[str(uid)]["near"] = near
    return out


def record_folder(index: Index, queries: list[LabelledQuery], off_topic: list[str] = ()) -> list[Record]:
    out = [record(index, q.query, q.key, id=q.id, category=q.category, hard=q.hard, qrels=q.qrels(),
                  filters=q.filters()) for q in queries]
    return out + _off_topic(index, off_topic, lambda path, page: path)


def record_beir(index: Index, queries: dict[str, str], qrels: dict[str, dict[str, float]],
                off_topic: list[str] = ()) -> list[Record]:
    key = lambda path, page: _unsafe(path)  # noqa: E731
    out = [record(index, text, key, id=qid, category="beir", hard=False, qrels=qrels[qid])
           for qid, text in queries.items()]
    return out + _off_topic(index, off_topic, key)


def _off_topic(index: Index, texts, key) -> list[Record]:
    return [record(index, text, key, id=f"off{n:03d}", category=OFF_TOPIC, hard=False, qrels={})
            for n, text in enumerate(texts, start=1)]


def load_off_topic(path: str | Path) -> list[str]:
    """One query a line; blank lines and lines starting with # are left out."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return [s.strip() for s in lines if s.strip() and not s.lstrip().startswith("#")]


def save(records: list[Record], path: str | Path) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps(asdict(r), ensure_ascii=False) + "\n")


def load(path: str | Path) -> list[Record]:
    with open(path, encoding="utf-8") as fh:
        return [Record(**json.loads(line)) for line in fh if line.strip()]
