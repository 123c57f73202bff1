"""Fuzzing every way a query gets in (the library with filters, the CLI, the HTTP API, MCP) and
every setting: hypothesis makes the inputs; none may raise anything but scent's own errors (one
line), none may reach an engine as a syntax error, each answers in bounded time.

The fake embedder carries the volume (plumbing: query parsing, FTS quoting, filters, fusion); a
smaller sample goes through the real model in the slow suite. The slow suite tries 10,000 queries
through the library; the normal suite a few hundred per surface. `-s` prints the counts.
"""
from __future__ import annotations

import asyncio
import math
import time
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st

import scent.index
from conftest import FakeEmbedder
from scent import Filters, Index, Settings
from scent.chunk import chunk
from scent.errors import ScentError, UsageError
from scent.filters import KNOWN_KINDS
from scent.settings import SETTINGS
from scent.units import Section

MAX_SECONDS = 5.0  # one query, on a loaded CI machine (they take milliseconds)
FTS_WORDS = ['"', "'", "*", "(", ")", ":", "-", "^", "+", "NEAR", "NEAR(", "AND", "OR", "NOT", "{", "}", "[", "]",
             "text:", "units_fts", "MATCH", ";", "--", "/*", "\\", "%", "_", "\x00", "\ud800", "LD-2026-0417",
             "parseHttpHeader", "deposit", "tomato", "é", "ß", "ﬁ", "🦀", "\u200b", "\u202e", "NULL", "0x1F"]
QUERY = st.one_of(
    st.text(max_size=60),
    st.lists(st.sampled_from(FTS_WORDS), min_size=1, max_size=8).map(" ".join),
    st.lists(st.sampled_from(FTS_WORDS), min_size=1, max_size=8).map("".join),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=900, max_size=1100),  # about the length limit
)
KIND = st.one_of(st.sampled_from(sorted(KNOWN_KINDS)), st.text(max_size=8))
DATE = st.one_of(st.none(), st.dates().map(str), st.text(max_size=12), st.just("2025-02-30"))
PATH = st.one_of(st.none(), st.sampled_from(["code/", "notes/*.md", "*", "[", "**/x", "../", "/etc", "%", "_"]),
                 st.text(max_size=12))
FILTERS = st.fixed_dictionaries({"kinds": st.lists(KIND, max_size=3), "path": PATH, "after": DATE, "before": DATE,
                                 "lang": st.one_of(st.none(), st.sampled_from(["en", "es", "xx", ""]),
                                                   st.text(max_size=4))})
SEARCH_OVERRIDES = st.fixed_dictionaries({}, optional={
    "strategy": st.sampled_from(["dense", "keyword", "hybrid", "hybrid+mmr"]),
    "match": st.sampled_from(["and", "or", "and_or", "min_share"]),
    "stopwords": st.booleans(), "candidates": st.integers(1, 300), "dims": st.integers(0, 100)})
COUNTS: dict[str, list[int]] = {}  # surface -> [inputs tried, failures] (failures fail the test too)


def tried(surface: str, failed: bool = False) -> None:
    c = COUNTS.setdefault(surface, [0, 0])
    c[0] += 1
    c[1] += failed


@pytest.fixture(scope="module", autouse=True)
def print_counts():
    yield
    for surface, (n, failed) in sorted(COUNTS.items()):
        print(f"\nfuzz {surface}: {n} inputs, {failed} failures")


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    from fpdf import FPDF

    root = tmp_path_factory.mktemp("fuzz") / "notes"
    (root / "code").mkdir(parents=True)
    (root / "lease.md").write_text("# Lease\n\nThe deposit refund is due within 30 days. Ticket LD-2026-0417.\n")
    (root / "recette.md").write_text("# Soupe\n\nLa soupe de tomates mijote avec du basilic et de l'ail.\n")
    (root / "code" / "http.py").write_text("def parseHttpHeader(line):\n    return line.split(':', 1)\n")
    (root / "rent.csv").write_text("month,amount\nJanuary,1200\nFebruary,1200\n")
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(text="The boiler was serviced in March by a gas engineer.")
    pdf.output(str(root / "boiler.pdf"))
    index_dir = tmp_path_factory.mktemp("fuzz-index")
    with Index(root, index_dir=index_dir, embedder=FakeEmbedder()) as idx:
        idx.update()
    idx = Index(index_dir=index_dir, embedder=FakeEmbedder())
    yield idx
    idx.close()


def timed(fn, limit: float | None = None):
    started = time.perf_counter()
    out = fn()
    assert time.perf_counter() - started < (limit or MAX_SECONDS)
    return out


def library_search(idx: Index, query: str, k: int, f: dict, overrides: dict, limit: float | None = None) -> None:
    try:
        filters = Filters.build(**f)
        results = timed(lambda: idx.search(query, k=k, filters=filters, **overrides), limit)
    except UsageError:  # naming what to change (the CLI writes it as one line: scent.terminal.visible)
        tried("library")
        return
    except BaseException:
        tried("library", failed=True)
        raise
    assert len(results) <= k
    assert all(r.kind in KNOWN_KINDS for r in results)
    tried("library")


def fuzz_library(idx: Index, n: int, limit: float | None = None) -> None:
    @hsettings(max_examples=n, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(QUERY, st.integers(-2, 60), FILTERS, SEARCH_OVERRIDES)
    def run(query, k, f, overrides):
        library_search(idx, query, k, f, overrides, limit)
    run()


def test_library_queries_with_filters(indexed):
    fuzz_library(indexed, 400)


@pytest.mark.slow
def test_library_queries_10000(indexed):
    before = COUNTS.get("library", [0])[0]
    fuzz_library(indexed, 10_000)
    assert COUNTS["library"][0] - before >= 9_000  # hypothesis may stop early only if it runs out of inputs


@pytest.mark.slow
def test_library_queries_through_the_real_model(tmp_path):
    """The real model's query path (its tokenizer, surrogates, long texts) on a smaller sample."""
    from scent.embed import E5Embedder

    root = tmp_path / "notes"
    root.mkdir()
    (root / "lease.md").write_text("# Lease\n\nThe deposit refund is due within 30 days. Ticket LD-2026-0417.\n")
    (root / "soupe.md").write_text("La soupe de tomates mijote avec du basilic.\n")
    with Index(root, index_dir=tmp_path / "idx", embedder=E5Embedder()) as idx:
        idx.update()
        idx.search("warm up")  # the model's first query loads it: not a query's own time
        # A 1,000-character query is several of the model's windows: ~0.1 s alone, seconds on a busy machine.
        fuzz_library(idx, 300, limit=30.0)


# ---- the CLI, in process -----------------------------------------------------------------------

def test_cli_search(indexed, monkeypatch):
    import click
    from click.testing import CliRunner

    from scent.commands import cli

    monkeypatch.setattr(scent.index, "E5Embedder", FakeEmbedder)
    runner = CliRunner()

    @hsettings(max_examples=200, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(QUERY.filter(lambda q: not q.startswith("-")), st.integers(-1, 30), FILTERS, st.booleans(), st.booleans())
    def run(query, k, f, as_json, explain):
        args = ["search", query, "--index", str(indexed.index_dir), "-k", str(k)]
        args += [a for kind in f["kinds"] for a in ("--only", kind)]
        for name in ("path", "after", "before", "lang"):
            if f[name]:
                args += [f"--{name}", f[name]]
        args += ["--json"] * as_json + ["--explain"] * explain
        result = timed(lambda: runner.invoke(cli, args, standalone_mode=False))
        ok = result.exception is None or isinstance(result.exception, (ScentError, click.ClickException))
        tried("cli", failed=not ok)
        assert ok, (args, repr(result.exception))
        assert "Traceback" not in result.output
    run()


def test_cli_search_as_a_program(indexed, tmp_path):
    """A few through `scent search` itself: exit 0, 1 or 2, one line on stderr, no traceback."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    child = tmp_path / "child.py"
    child.write_text("import sys; sys.path.insert(0, sys.argv.pop(1)); import scent.index; from conftest import "
                     "FakeEmbedder; scent.index.E5Embedder = FakeEmbedder; sys.argv[0] = 'scent'; "
                     "from scent.cli import main; main()\n")
    tests = str(Path(__file__).resolve().parent)
    for query in ['"', "NEAR(", "\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "surrogateescape"),
                  "text: OR", "x" * 5000, "*", "deposit"]:
        proc = subprocess.run([sys.executable, str(child), tests, "search", query, "--index", str(indexed.index_dir)],
                              capture_output=True, text=True, env={**os.environ, "PYTHONIOENCODING": "utf-8"},
                              timeout=120)
        tried("cli-process", failed=proc.returncode not in (0, 1, 2))
        assert proc.returncode in (0, 1, 2) and "Traceback" not in proc.stderr, proc.stderr
        assert len(proc.stderr.strip().splitlines()) <= 1, proc.stderr


# ---- HTTP and MCP, in process ------------------------------------------------------------------

def test_http_api_search(indexed):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from scent.serve.app import create_app

    with TestClient(create_app(indexed), raise_server_exceptions=False) as client:
        @hsettings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(QUERY, st.one_of(st.integers(-5, 500), st.text(max_size=4)), FILTERS, st.booleans())
        def run(query, k, f, explain):
            params = {"q": query, "k": k, "only": f["kinds"], "path": f["path"], "after": f["after"],
                      "before": f["before"], "lang": f["lang"], "explain": explain}
            params = {name: v for name, v in params.items() if v is not None}
            # Lone surrogates go as the bytes a client would send: invalid UTF-8, percent-encoded.
            url = "/api/search?" + urlencode(params, doseq=True, errors="surrogatepass")
            response = timed(lambda: client.get(url))
            tried("http", failed=response.status_code >= 500)
            assert response.status_code < 500, (params, response.text)
            body = response.json()
            assert ("results" in body) if response.status_code == 200 else ("error" in body or "detail" in body)
        run()


def test_mcp_tools(indexed):
    pytest.importorskip("mcp")
    from mcp.server.mcpserver.exceptions import ToolError

    from scent.serve.mcp_server import build_server

    server = build_server(indexed)
    loop = asyncio.new_event_loop()

    @hsettings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(QUERY, st.integers(-3, 60), st.lists(KIND, max_size=3), PATH,
           st.one_of(st.sampled_from(["lease.md", "boiler.pdf", "../etc/passwd", "/etc/passwd", "", "."]),
                     st.text(max_size=20)), st.one_of(st.none(), st.integers(-2, 5)))
    def run(query, k, kinds, path, fetch_path, page):
        for tool, args in (("search", {"query": query, "k": k, "kinds": kinds, "path": path}),
                           ("fetch", {"path": fetch_path, "page": page})):
            try:
                timed(lambda: loop.run_until_complete(server.call_tool(tool, args)))
                tried("mcp")
            except ToolError as err:  # a ScentError or a refused argument, as the tool's one-line message
                tried("mcp")
                assert "Traceback" not in str(err)
            except BaseException:
                tried("mcp", failed=True)
                raise
    try:
        run()
    finally:
        loop.close()


# ---- settings ----------------------------------------------------------------------------------

VALUE = st.one_of(st.text(max_size=12), st.integers(-10, 10_000), st.floats(allow_nan=True, allow_infinity=True),
                  st.booleans(), st.sampled_from(["0", "-1", "1e400", "nan", "inf", "2.5", "yes", "3<30%", "60%",
                                                  "eng+hin", "and", "int8", "text,image", ""]))
NAMES = sorted(s.name for s in SETTINGS)
SECTION = [Section(text=" ".join(f"w{i}" for i in range(500)), kind="text")]


def test_settings_are_refused_up_front_or_work_all_the_way(indexed):
    """A value (or combination) is refused by Settings itself, in one line; one it accepts never
    fails later: chunking (every index-time rule the chunker has) and a search with it both run."""
    @hsettings(max_examples=1500, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(st.dictionaries(st.sampled_from(NAMES), VALUE, max_size=4), st.booleans())
    def run(values, as_strings):
        if as_strings:
            values = {k: str(v) for k, v in values.items()}
        try:
            s = Settings().with_values(**values)
        except UsageError as err:
            assert "\n" not in str(err)
            tried("settings")
            return
        for name in NAMES:
            v = getattr(s, name)
            assert not isinstance(v, float) or math.isfinite(v)
        chunk(SECTION, s.chunk_words, s.chunk_overlap, max_units=s.max_units_per_file + 1)
        search = {k: getattr(s, k) for k in NAMES if next(x for x in SETTINGS if x.name == k).scope == "search"}
        indexed.search("deposit refund", k=3, **search)
        tried("settings")
    run()


@pytest.mark.parametrize("values, message", [
    ({"chunk_overlap": 200}, "setting chunk_overlap (200) must be smaller than chunk_words (180)"),
    ({"chunk_words": 20}, "setting chunk_overlap (30) must be smaller than chunk_words (20)"),
    ({"chunk_words": 0}, "setting chunk_words must be at least 1, got 0"),
    ({"embed_batch": 0}, "setting embed_batch must be at least 1, got 0"),  # was an endless loop
    ({"candidates": 0}, "setting candidates must be at least 1, got 0"),
    ({"mmr_lambda": 1.5}, "setting mmr_lambda must be at most 1, got 1.5"),
    ({"weight_dense": float("nan")}, "setting weight_dense must be a finite number, got nan"),
    ({"weight_keyword": "inf"}, "setting weight_keyword must be a finite number, got inf"),
    ({"rrf_k": 2.5}, "setting rrf_k expects a whole number, got 2.5"),
])
def test_bad_settings_are_one_line_before_any_work(values, message, notes, fake_embedder):
    with pytest.raises(UsageError) as info:
        Settings().with_values(**values)
    assert str(info.value) == message
    with pytest.raises(UsageError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        Settings(**{k: float(v) if k.startswith("weight") else v for k, v in values.items()})


def test_chunk_overlap_over_chunk_words_is_refused_by_scent_index(notes, tmp_path):
    """Was accepted, and raised a raw ValueError from the chunker once the first file was read."""
    from click.testing import CliRunner

    from scent.commands import cli

    result = CliRunner().invoke(cli, ["index", str(notes), "--index", str(tmp_path / "i"), "--chunk-overlap", "300"],
                                standalone_mode=False)
    assert isinstance(result.exception, UsageError)
    assert str(result.exception) == "setting chunk_overlap (300) must be smaller than chunk_words (180)"
    assert not (tmp_path / "i" / "index.db").exists()
