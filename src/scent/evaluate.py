"""Run labelled queries against an index and score the answers.

Three inputs: a folder with a JSONL file of labelled queries (scent's format, see
docs/evaluation.md), a BEIR-layout collection (corpus.jsonl, queries.jsonl, qrels/test.tsv)
whose documents are written out as files and indexed by the normal pipeline, or the queries the
index made from its own pages (`synthetic_queries`; they favour the pages they were made from).
"""
from __future__ import annotations

import json
import random
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, unquote

from . import location
from .errors import IndexBusy, UsageError
from .filters import Filters
from .index import Index
from .settings import BY_NAME, Settings
from .metrics import BEIR_METRICS, FOLDER_METRICS, first_rank
from .storage import StoredSuggestion
from .suggest import DETAIL, TOPIC, VISUAL

RUN_DEPTH = 100  # results scored per query (recall@100 needs this many)


@dataclass(frozen=True)
class LabelledQuery:
    id: str
    query: str
    expect: str
    category: str = "uncategorised"
    page: int | None = None
    relevant: tuple[str, ...] = ()
    hard: bool = False
    note: str = ""
    filter: dict = field(default_factory=dict)

    def qrels(self) -> dict[str, float]:
        """Judged document keys: a path, or path#page when a page is the answer."""
        keys = {self.expect, *self.relevant}
        if self.page is not None:
            keys.discard(self.expect)
            keys.add(f"{self.expect}#{self.page}")
        return dict.fromkeys(keys, 1.0)

    def key(self, path: str, page: int | None) -> str:
        return f"{path}#{page}" if self.page is not None and path == self.expect else path

    def filters(self) -> Filters:
        f = self.filter
        kinds = f.get("kind", ())
        return Filters.build(kinds=[kinds] if isinstance(kinds, str) else kinds, path=f.get("path_prefix"),
                             after=f.get("after"), before=f.get("before"), lang=f.get("lang"))


FILTER_KEYS = {"kind", "path_prefix", "after", "before", "lang"}


def load_queries(path: str | Path) -> list[LabelledQuery]:
    queries, ids = [], set()
    with open(path, encoding="utf-8-sig") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            where = f"{path}:{n}"
            try:
                raw = json.loads(line)
            except json.JSONDecodeError as err:
                raise UsageError(f"{where}: not JSON ({err.msg})") from None
            if not isinstance(raw, dict) or not raw.get("query") or not raw.get("expect"):
                raise UsageError(f"{where}: each line needs at least \"query\" and \"expect\"")
            if not isinstance(raw["expect"], str):
                raise UsageError(f"{where}: \"expect\" is one path, the best answer (not {raw['expect']!r}); the "
                                 "other right answers go in \"relevant\": [\"path\", ...]")
            relevant = raw.get("relevant") or []
            if not isinstance(relevant, list) or not all(isinstance(r, str) for r in relevant):
                raise UsageError(f"{where}: \"relevant\" is a list of paths, not {relevant!r}")
            unknown = set(raw.get("filter") or {}) - FILTER_KEYS
            if unknown:
                raise UsageError(f"{where}: unknown filter {sorted(unknown)}; allowed: {sorted(FILTER_KEYS)}")
            page = raw.get("page")
            if page is not None and not (isinstance(page, int) or str(page).isdigit()):
                raise UsageError(f"{where}: \"page\" is a page number, not {page!r}")
            q = LabelledQuery(
                id=str(raw.get("id") or f"line{n}"), query=raw["query"], expect=_as_path(raw["expect"]),
                category=raw.get("category") or "uncategorised", page=None if page is None else int(page),
                relevant=tuple(map(_as_path, relevant)), hard=bool(raw.get("hard")),
                note=raw.get("note", ""), filter=raw.get("filter") or {})
            if q.id in ids:
                raise UsageError(f"{where}: duplicate id {q.id}")
            ids.add(q.id)
            queries.append(q)
    if not queries:
        raise UsageError(f"{path} holds no queries")
    return queries


def answers_missing(queries: list[LabelledQuery], folder: str | Path) -> list[str]:
    """The expected answers no file under `folder` holds (a file inside another counts as its
    container's: "mail.mbox#3.eml" is there when mail.mbox is)."""
    folder = Path(folder)
    return [q.expect for q in queries if not (folder / q.expect.partition("#")[0]).exists()]


def _as_path(path: str) -> str:
    """A judged file's path as the index names it, relative to the folder ("./photos/a.jpg" is
    "photos/a.jpg")."""
    path = str(path)
    while path.startswith("./"):
        path = path[2:]
    return path


@dataclass
class QueryOutcome:
    id: str
    query: str
    category: str
    hard: bool
    rank: int | None                 # rank of the first right answer, None when not in the run
    scores: dict[str, float]
    top: list[dict]                  # the first results: path, page
    list_ranks: dict[str, int | None]  # where the answer sat in each list before fusion
    why: str = ""                    # a miss in plain words: "right file, wrong page (showed 2, expected 5)"


@dataclass
class EvalResult:
    overall: dict[str, float]
    by_category: dict[str, dict[str, float]]
    hard: dict[str, float]
    queries: list[QueryOutcome]

    def to_dict(self) -> dict:
        return {"overall": self.overall, "by_category": self.by_category, "hard": self.hard,
                "queries": [{"id": q.id, "query": q.query, "category": q.category, "hard": q.hard, "rank": q.rank,
                             "scores": q.scores, "top": q.top, "list_ranks": q.list_ranks, "why": q.why}
                            for q in self.queries]}


def summarise(outcomes: list[QueryOutcome], metric_names) -> dict[str, float]:
    n = len(outcomes)
    out = {m: (sum(o.scores[m] for o in outcomes) / n if n else 0.0) for m in metric_names}
    out["n"] = n
    return out


def evaluate(index: Index, queries: list[LabelledQuery], as_user: str | None = None,
             leave_out: frozenset[str] = frozenset(), **overrides) -> EvalResult:
    """Each query's run as `as_user` sees the index (None: the user running this process): an
    answer they may not read counts as not found. The files at `leave_out` (the queries file, kept
    in the folder it is about: it holds every query's words) are no result."""
    outcomes = []
    for q in queries:
        results, lists = index.search_with_lists(q.query, k=RUN_DEPTH, filters=q.filters(), as_user=as_user,
                                                 **overrides)
        if leave_out:
            results = [r for r in results if r.path not in leave_out]
            lists = {name: [p for p in paths if p not in leave_out] for name, paths in lists.items()}
        qrels = q.qrels()
        # A result shown with its copies (the same bytes) is the answer when one of them is.
        run = list(dict.fromkeys(next((key for key in keys if key in qrels), keys[0])
                                 for keys in ([q.key(p, r.page) for p in (r.path, *r.copies)] for r in results)))
        answers = {q.expect, *q.relevant}
        list_ranks = {name: next((i for i, p in enumerate(paths, 1) if p in answers), None)
                      for name, paths in lists.items()}
        rank = first_rank(run, qrels)
        outcomes.append(QueryOutcome(
            q.id, q.query, q.category, q.hard, rank,
            {m: fn(run, qrels) for m, fn in FOLDER_METRICS.items()},
            [{"path": r.path, "page": r.page} for r in results[:5]], list_ranks,
            why_missed(q, results, rank, index.why_not_indexed(q.expect) if rank is None else None)))
    return _result(outcomes, FOLDER_METRICS)


def why_missed(q: LabelledQuery, results: list, rank: int | None, unindexed: str | None = None) -> str:
    """What went wrong, in words a person reads: "" when the answer came first. `unindexed`: why
    the expected file is not in the index at all (a hidden file, a kind scent does not read)."""
    if rank == 1:
        return ""
    if unindexed:
        return unindexed
    answers = {q.expect, *q.relevant}
    file_rank = next((i for i, r in enumerate(results, 1) if r.path in answers), None)
    if q.page is not None and file_rank is not None and (rank is None or file_rank < rank):
        shown = results[file_rank - 1]
        where = "" if file_rank == 1 else f" at rank {file_rank}"
        return f"right file, wrong page (showed {shown.page or 'the whole file'}, expected {q.page}){where}"
    if rank is None:
        first = results[0].path if results else "nothing"
        return f"not in the first {len(results)} results ({first} came first)" if results else "no results at all"
    return f"ranked {rank}; {results[0].path} came first"


def _result(outcomes: list[QueryOutcome], metric_fns) -> EvalResult:
    cats: dict[str, list[QueryOutcome]] = defaultdict(list)
    for o in outcomes:
        cats[o.category].append(o)
    return EvalResult(
        overall=summarise(outcomes, metric_fns),
        by_category={c: summarise(v, metric_fns) for c, v in sorted(cats.items())},
        hard=summarise([o for o in outcomes if o.hard], metric_fns),
        queries=outcomes)


# What each candidate list is, for people reading a report.
LIST_NAMES = {"dense": "meaning search (dense)", "keyword": "word search (keyword)", "ids": "ID lookup",
              "pictures": "picture search", "stand_in": "the other-language stand-in",
              "dated": "day named (dated)", "multivector": "page regions (multivector)"}


def miss_summary(result: EvalResult) -> list[str]:
    """How many queries missed, and what each candidate list alone did with their answers."""
    misses = [o for o in result.queries if o.rank != 1]
    if not misses:
        return ["No misses: every query had its answer first."]
    n = len(misses)
    lines = [f"{n} of {len(result.queries)} queries did not have their answer first."]
    wrong_page = sum(1 for o in misses if o.why.startswith("right file, wrong page"))
    if wrong_page:
        lines.append(f"{wrong_page} of them found the right file but showed another page.")
    for name in sorted({name for o in misses for name in o.list_ranks}):
        first = sum(1 for o in misses if o.list_ranks.get(name) == 1)
        absent = sum(1 for o in misses if o.list_ranks.get(name) is None)
        label = LIST_NAMES.get(name, name)
        if name == "stand_in":  # not a search of its own: only notes in another language than the query
            lines.append(f"A note in another language than the query keeps its meaning rank as its word rank "
                         f"(the other-language stand-in): that applied to the right file for {n - absent} of the {n}.")
            continue
        lines.append(f"Before the lists were combined, {label} had the right file first for {first} of the {n}, "
                     f"and did not find it for {absent}.")
    return lines


def list_places(o: QueryOutcome) -> str:
    """'word search 3, meaning search not found': where one query's answer sat in each list."""
    return ", ".join(f"{LIST_NAMES.get(name, name).split(' (')[0]} {rank if rank is not None else 'not found'}"
                     for name, rank in o.list_ranks.items() if name != "stand_in" or rank is not None)


# ---- synthetic queries: made from the index's own pages (scent.suggest) ------------------------

SYNTHETIC_ASPECTS = (TOPIC, DETAIL, VISUAL)  # a page's queries; a whole file's repeat them
SYNTHETIC_BIAS = ("synthetic queries: each was written from the page it expects, so it shares that page's words "
                  "and favours it; these figures are not comparable with a human-labelled set")


@dataclass
class SyntheticSet:
    queries: list[LabelledQuery]
    titles_left_out: int  # generated queries that were their file's title: found by its name alone


def synthetic_queries(index: Index, as_user: str | None = None) -> SyntheticSet:
    """Labelled queries from the pages' generated queries of the files `as_user` may read: the
    answer is the file they were made from, and for a PDF its page. Left out: a query that is its
    file's title (found by name alone). The same text made from several files is one query; the
    files after the first count as relevant too (a file's pages never repeat a query)."""
    made: dict[str, list[StoredSuggestion]] = {}  # casefolded text -> its generated queries, in path order
    titles = 0
    for s in index.generated_queries(as_user):
        if s.aspect not in SYNTHETIC_ASPECTS:
            continue
        if s.text.casefold() == s.title.casefold():
            titles += 1
            continue
        made.setdefault(s.text.casefold(), []).append(s)
    queries = []
    for group in made.values():
        first = group[0]
        queries.append(LabelledQuery(
            id=f"syn-{len(queries) + 1}", query=first.text, expect=first.path, category=f"synthetic-{first.aspect}",
            page=first.page if first.file_kind == "pdf" else None,
            relevant=tuple(dict.fromkeys(s.path for s in group if s.path != first.path))))
    return SyntheticSet(queries, titles)


# ---- BEIR collections ----------------------------------------------------------------------

def load_beir(folder: str | Path) -> tuple[dict[str, dict], dict[str, str], dict[str, dict[str, float]]]:
    """(corpus by id, the judged queries' texts by id, judgments: query id -> doc id -> grade) of a
    BEIR-layout collection. Read as collections are written, not only as BEIR writes them: a byte
    order mark, grades written 1.0, qrels in TREC's four columns, or only a dev split."""
    folder = Path(folder)
    for name in ("corpus.jsonl", "queries.jsonl"):
        if not (folder / name).is_file():
            raise UsageError(f"{folder} is not a BEIR collection: {name} is missing")
    judged = qrels_file(folder)
    corpus = {}
    for d in _jsonl(folder / "corpus.jsonl"):
        if not str(d["_id"]):
            raise UsageError(f"{folder / 'corpus.jsonl'} holds a document whose _id is empty")
        corpus[str(d["_id"])] = d
    queries = {str(q["_id"]): str(q.get("text") or "").strip() for q in _jsonl(folder / "queries.jsonl")}
    qrels = _read_qrels(judged)
    if not qrels:
        raise UsageError(f"{judged} holds no judgments (lines of query id, document id and grade)")
    kept = {q: t for q, t in queries.items() if q in qrels and t}
    if not kept:
        raise UsageError(f"none of the queries in queries.jsonl is judged in {judged.relative_to(folder)} (their "
                         "ids differ), or those judged have no text")
    return corpus, kept, dict(qrels)


def qrels_file(folder: str | Path) -> Path:
    """The judgments a BEIR collection is scored by: qrels/test.tsv, else qrels/dev.tsv, else the
    only file in qrels/."""
    qrels = Path(folder) / "qrels"
    for name in ("test.tsv", "dev.tsv"):
        if (qrels / name).is_file():
            return qrels / name
    found = sorted(p for p in qrels.glob("*") if p.is_file()) if qrels.is_dir() else []
    if len(found) == 1:
        return found[0]
    what = f"it holds {', '.join(p.name for p in found)}" if found else "there is none"
    raise UsageError(f"{folder} is not a BEIR collection: qrels/test.tsv is missing ({what})")


def _jsonl(path: Path):
    """The objects of a JSON-lines file, each with an _id; UsageError naming the line that is not."""
    with open(path, encoding="utf-8-sig") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as e:
                raise UsageError(f"{path} line {n} is not JSON ({e.msg})") from None
            if not isinstance(item, dict) or "_id" not in item:
                raise UsageError(f"{path} line {n} has no _id")
            yield item


def _read_qrels(path: Path) -> dict[str, dict[str, float]]:
    """query id -> document id -> grade, from BEIR's three columns (tab-separated, a header line) or
    TREC's four (query, iteration, document, grade; spaces); a line whose grade is no number (a
    header) is passed by."""
    qrels: dict[str, dict[str, float]] = defaultdict(dict)
    with open(path, encoding="utf-8-sig") as fh:
        for line in fh:
            row = [c.strip() for c in line.split("\t")] if "\t" in line else line.split()
            if len(row) not in (3, 4):
                continue
            try:
                qrels[row[0]][row[-2]] = float(row[-1])
            except ValueError:
                continue  # the header
    return qrels


NAME_PART = 200  # bytes of a document's file name (or of each folder it is cut into): 255 is the most


def write_beir_folder(corpus: dict[str, dict], folder: Path) -> None:
    """One text file per document, named by its id, so the collection goes through the normal pipeline;
    files of another corpus written there before are removed."""
    folder.mkdir(parents=True, exist_ok=True)
    wanted = set()
    for doc_id, d in corpus.items():
        path = folder / f"{_safe(doc_id)}.txt"
        wanted.add(str(path))
        if path.exists():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        title, text = str(d.get("title") or ""), str(d.get("text") or "")
        body = text if not title or text.startswith(title) else f"{title}\n\n{text}"
        path.write_text(body + "\n", encoding="utf-8")
    for path in folder.rglob("*"):
        if path.is_file() and str(path) not in wanted:
            path.unlink()


def _safe(doc_id: str) -> str:
    """A document's file name (without .txt) from its id: quoted, cut into folders of NAME_PART bytes
    where it is long (an id may be a URL), none of them beginning with a dot (the walk passes such
    names by)."""
    quoted = quote(doc_id, safe="-_.")
    parts = [quoted[i:i + NAME_PART] for i in range(0, len(quoted), NAME_PART)]
    return "/".join("%2E" + p[1:] if p.startswith(".") else p for p in parts)


def _unsafe(path: str) -> str:
    """The id of the document whose file is at `path`: _safe undone."""
    return unquote(path.removesuffix(".txt").replace("/", ""))


def evaluate_beir(index: Index, queries: dict[str, str], qrels: dict[str, dict[str, float]],
                  run_file: Path | None = None, as_user: str | None = None, **overrides) -> EvalResult:
    name_to_id = {}
    outcomes = []
    lines = []
    for qid, text in queries.items():
        results, lists = index.search_with_lists(text, k=RUN_DEPTH, as_user=as_user, **overrides)
        run = []
        for r in results:
            for path in (r.path, *r.copies):  # a document's copies (the same text) listed after it
                doc = name_to_id.setdefault(path, _unsafe(path))
                run.append(doc)
                lines.append(f"{qid} Q0 {doc} {len(run)} {r.score:.6f} scent")
        judged = qrels[qid]
        relevant_files = {f"{_safe(d)}.txt" for d, g in judged.items() if g > 0}
        list_ranks = {name: next((i for i, p in enumerate(paths, 1) if p in relevant_files), None)
                      for name, paths in lists.items()}
        outcomes.append(QueryOutcome(qid, text, "beir", False, first_rank(run, judged),
                                     {m: fn(run, judged) for m, fn in BEIR_METRICS.items()},
                                     [{"path": r.path, "page": r.page} for r in results[:5]], list_ranks))
    if run_file:
        run_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return _result(outcomes, BEIR_METRICS)


# ---- comparing variants ----------------------------------------------------------------------

@dataclass
class Comparison:
    metric: str
    baseline: float
    variant: float
    diff: float
    low: float
    high: float
    better: int
    worse: int

    @property
    def noise(self) -> bool:
        return self.low <= 0 <= self.high


def paired_bootstrap(a: list[float], b: list[float], samples: int = 10000, seed: int = 0) -> tuple[float, float, float]:
    """Mean of b - a and its 95% interval, resampling queries with replacement (paired)."""
    if len(a) != len(b) or not a:
        raise ValueError("paired bootstrap needs two equally long, non-empty lists")
    diffs = [y - x for x, y in zip(a, b)]
    n = len(diffs)
    rnd = random.Random(seed)
    means = sorted(sum(diffs[rnd.randrange(n)] for _ in range(n)) / n for _ in range(samples))
    return sum(diffs) / n, means[int(0.025 * samples)], means[int(0.975 * samples) - 1]


def compare(baseline: EvalResult, variant: EvalResult, metric: str, samples: int = 10000) -> Comparison:
    a = [o.scores[metric] for o in baseline.queries]
    b = [o.scores[metric] for o in variant.queries]
    diff, low, high = paired_bootstrap(a, b, samples)
    return Comparison(metric, baseline.overall[metric], variant.overall[metric], diff, low, high,
                      sum(y > x for x, y in zip(a, b)), sum(y < x for x, y in zip(a, b)))


# ---- running variants, including ones that need their own index ----------------------------------

WAIT_POLL = 1.0  # seconds between tries for an index another run is writing


class Evaluation:
    """Scores one query set under settings variants. Search-time variants share the base index;
    a variant that changes an index-time or storage setting (chunk_words, backend ...) gets its
    own index beside it."""

    def __init__(self, folder: str | Path, score: Callable[..., EvalResult], settings: Settings,
                 index_dir: str | Path | None = None, on_skip=None, on_wait: Callable[[str], None] | None = None):
        self.folder = folder
        self.score = score
        self.settings = settings
        self.index_dir = Path(index_dir) if index_dir else location.default_index_dir(folder)
        self.on_skip = on_skip
        self.on_wait = on_wait  # hears, once, that another run indexes the folder and this one waits for it
        self._indexes: dict[tuple, Index] = {}

    def index_for(self, index_values: dict) -> Index:
        key = tuple(sorted(index_values.items()))
        if key not in self._indexes:
            settings = self.settings.with_values(**index_values)
            suffix = "".join(f"-{k}={v}" for k, v in key)
            path = self.index_dir.with_name(self.index_dir.name + suffix) if key else self.index_dir
            idx = Index(self.folder, index_dir=path, settings=settings)
            self._updated(idx)
            self._indexes[key] = idx
        return self._indexes[key]

    def _updated(self, idx: Index) -> None:
        """Bring `idx` up to date; while another run indexes into it (two evaluations of one folder
        at once), wait for that run and then update what it left."""
        said = False
        while True:
            try:
                idx.update(on_skip=self.on_skip)
                return
            except IndexBusy:
                if not said and self.on_wait:
                    self.on_wait(f"another scent is indexing into {idx.index_dir}; waiting for it to finish")
                said = True
                time.sleep(WAIT_POLL)

    def run(self, overrides: dict | None = None) -> EvalResult:
        overrides = overrides or {}
        # Index-time and storage settings (another backend) need an index of their own.
        index_values = {k: v for k, v in overrides.items() if BY_NAME.get(k) and BY_NAME[k].scope in ("index", "storage")
                        and self.settings.with_values(**{k: v}) != self.settings}
        search_values = {k: v for k, v in overrides.items() if k not in index_values}
        return self.score(self.index_for(index_values), **search_values)

    def close(self) -> None:
        for idx in self._indexes.values():
            idx.close()


# ---- choosing settings without fooling ourselves: split-half cross-validation -----------------------

@dataclass
class GridReport:
    metric: str
    configs: list[dict]                 # each grid point's settings
    full: list[float]                   # each grid point's score on all queries
    held_out: list[float]               # per fold: the score, on the other half, of the point picked on one half
    baseline_held_out: list[float]      # per fold: the first grid point's score on that same other half
    chosen: dict[str, dict[str, int]]   # setting -> value -> how many folds picked it

    def summary(self) -> dict:
        def stats(xs):
            xs = sorted(xs)
            return {"mean": sum(xs) / len(xs), "low": xs[int(0.025 * len(xs))], "high": xs[int(0.975 * len(xs)) - 1]
                    if len(xs) > 1 else xs[0]}
        return {"metric": self.metric, "folds": len(self.held_out), "held_out": stats(self.held_out),
                "baseline_held_out": stats(self.baseline_held_out), "chosen": self.chosen}


def grid_points(grid: dict[str, list[str]]) -> list[dict]:
    points = [{}]
    for name, values in grid.items():
        points = [{**p, name: v} for p in points for v in values]
    return points


def split_half(outcomes: list[QueryOutcome], rnd: random.Random) -> tuple[list[int], list[int]]:
    """Two halves with each category split evenly between them."""
    by_cat: dict[str, list[int]] = defaultdict(list)
    for i, o in enumerate(outcomes):
        by_cat[o.category].append(i)
    a, b = [], []
    for cat in sorted(by_cat):
        idx = by_cat[cat][:]
        rnd.shuffle(idx)
        half = len(idx) // 2 + (rnd.random() < 0.5 if len(idx) % 2 else 0)
        a += idx[:half]
        b += idx[half:]
    return a, b


def cross_validate(configs: list[dict], results: list[EvalResult], metric: str, folds: int = 50,
                   seed: int = 0) -> GridReport:
    """Pick the best grid point on one half of the queries, score it on the other; repeat."""
    rnd = random.Random(seed)
    per_query = [[o.scores[metric] for o in r.queries] for r in results]
    held, base, chosen = [], [], defaultdict(lambda: defaultdict(int))
    for _ in range(folds):
        a, b = split_half(results[0].queries, rnd)
        mean = lambda scores, part: sum(scores[i] for i in part) / len(part)  # noqa: E731
        best = max(range(len(configs)), key=lambda c: (mean(per_query[c], a), -c))
        held.append(mean(per_query[best], b))
        base.append(mean(per_query[0], b))
        for name, value in configs[best].items():
            chosen[name][str(value)] += 1
    return GridReport(metric, configs, [r.overall[metric] for r in results], held, base,
                      {k: dict(v) for k, v in chosen.items()})
