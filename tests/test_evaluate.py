import json
import random

import pytest

from scent import Index
from scent.errors import UsageError
from scent.evaluate import (SYNTHETIC_BIAS, EvalResult, LabelledQuery, QueryOutcome, cross_validate, evaluate,
                            grid_points, load_queries, split_half, synthetic_queries)

from conftest import EXAMPLES


def write_queries(tmp_path, rows):
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    return path


def test_load_queries_checks_every_line(tmp_path):
    with pytest.raises(UsageError, match=r"q.jsonl:2: each line needs"):
        load_queries(write_queries(tmp_path, [{"query": "a", "expect": "x"}, {"query": "b"}]))
    with pytest.raises(UsageError, match="unknown filter"):
        load_queries(write_queries(tmp_path, [{"query": "a", "expect": "x", "filter": {"colour": "red"}}]))
    with pytest.raises(UsageError, match="duplicate id"):
        load_queries(write_queries(tmp_path, [{"id": "1", "query": "a", "expect": "x"}] * 2))
    with pytest.raises(UsageError, match="\"page\" is a page number, not 'four'"):
        load_queries(write_queries(tmp_path, [{"query": "a", "expect": "x.pdf", "page": "four"}]))
    # several answers in "expect": said as such (it read as an answer missing from the folder)
    with pytest.raises(UsageError, match=r"q.jsonl:1: \"expect\" is one path, the best answer \(not \['a.md', 'b.md'\]\)"):
        load_queries(write_queries(tmp_path, [{"query": "a", "expect": ["a.md", "b.md"]}]))
    with pytest.raises(UsageError, match=r"\"relevant\" is a list of paths, not 'b.md'"):
        load_queries(write_queries(tmp_path, [{"query": "a", "expect": "a.md", "relevant": "b.md"}]))


def test_load_queries_reads_a_file_as_people_write_it(tmp_path):
    """A byte order mark (Windows' editors), a page written as a string, a path beginning ./"""
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps({"query": "rent", "expect": "./docs/lease.pdf", "page": "4",
                                "relevant": ["./notes/rent.md"]}) + "\n", encoding="utf-8-sig")
    (q,) = load_queries(path)
    assert (q.expect, q.page, q.relevant) == ("docs/lease.pdf", 4, ("notes/rent.md",))


def test_evaluate_scores_ranks_and_pages(notes, fake_embedder, tmp_path):
    idx = Index(notes, embedder=fake_embedder)
    idx.update()
    queries = load_queries(write_queries(tmp_path, [
        {"id": "a", "query": "LD-2026-0417", "expect": "lease.md", "category": "exact"},
        {"id": "b", "query": "tomato garlic basil", "expect": "recipe.txt", "category": "text"},
        {"id": "c", "query": "tomato garlic basil", "expect": "lease.md", "category": "text", "hard": True},
        {"id": "d", "query": "deposit", "expect": "lease.md", "filter": {"kind": "code"}, "category": "filter"},
    ]))
    result = evaluate(idx, queries)
    ranks = {o.id: o.rank for o in result.queries}
    assert ranks["a"] == 1 and ranks["b"] == 1
    assert ranks["c"] and ranks["c"] > 1          # a wrong label is scored as a miss, not hidden
    assert ranks["d"] is None                      # the filter excludes the only answer
    assert result.overall["n"] == 4
    assert result.overall["hit@1"] == pytest.approx(2 / 4)
    assert result.hard["n"] == 1
    assert set(result.by_category) == {"exact", "text", "filter"}
    assert result.queries[0].list_ranks["ids"] == 1


@pytest.fixture
def garden(tmp_path):
    """Two notes sharing a phrase, a recipe whose best phrase is its title, and a five-page lease."""
    root = tmp_path / "garden"
    root.mkdir()
    (root / "a.txt").write_text("Garden hose, kitchen tap.\n")
    (root / "b.txt").write_text("Garden hose, bicycle lock.\n")
    (root / "soup.md").write_text("# Tomato soup\n\nTomato soup: simmer tomatoes with garlic.\n")
    (root / "lease.pdf").write_bytes((EXAMPLES / "docs" / "apartment-lease.pdf").read_bytes())
    return root


def test_synthetic_queries_come_from_the_pages_leave_titles_out_and_share_a_text(garden, fake_embedder):
    with Index(garden, embedder=fake_embedder) as idx:
        idx.update()
        made = synthetic_queries(idx)
        pdf_pages = {u.page for u in idx.file_units("lease.pdf")}
    # a.txt: (Garden hose) 2/1 + 2/1 = 4, (kitchen tap) 4: the first seen is the topic, the other the
    # detail; b.txt the same with (bicycle lock). soup.md's heading is its title; of (Tomato soup)
    # twice: 4/2 + 4/2 = 4 and (simmer tomatoes) 4, the first seen is the topic: its title, left out.
    assert made.titles_left_out == 1
    plain = [q for q in made.queries if q.expect != "lease.pdf"]
    assert plain == [
        LabelledQuery("syn-1", "Garden hose", "a.txt", "synthetic-topic", relevant=("b.txt",)),
        LabelledQuery("syn-2", "kitchen tap", "a.txt", "synthetic-detail"),
        LabelledQuery("syn-3", "bicycle lock", "b.txt", "synthetic-detail"),
        LabelledQuery(plain[3].id, "simmer tomatoes", "soup.md", "synthetic-detail")]
    # every page of the PDF has a topic, and a hit needs that page
    lease = [q for q in made.queries if q.expect == "lease.pdf"]
    assert {q.page for q in lease if q.category == "synthetic-topic"} == pdf_pages == {1, 2, 3, 4, 5}
    assert LabelledQuery(lease[1].id, "ML-2024-0831", "lease.pdf", "synthetic-detail", page=1) in lease
    assert [q.id for q in made.queries] == [f"syn-{n}" for n in range(1, len(made.queries) + 1)]


def test_eval_synthetic_from_the_command_line(garden, tmp_path, monkeypatch):
    import scent.index
    from click.testing import CliRunner

    from conftest import FakeEmbedder
    from scent.commands import cli

    monkeypatch.setattr(scent.index, "E5Embedder", FakeEmbedder)
    runner = CliRunner()
    ran = runner.invoke(cli, ["eval", "--synthetic", "--folder", str(garden), "--index", str(tmp_path / "idx")])
    assert ran.exit_code == 0, ran.output
    lines = ran.stdout.splitlines()
    assert lines[0] == SYNTHETIC_BIAS + "."
    n = int(lines[1].split()[0])
    assert lines[1] == f"{n} queries; 1 left out for being their file's title."
    assert lines[2].split()[:2] == ["n", "hit@1"] and lines[3].split()[:2] == ["overall", str(n)]
    assert "synthetic-topic" in ran.stdout and "synthetic-detail" in ran.stdout
    # the index alone names its folder; --json says what the set is
    ran = runner.invoke(cli, ["eval", "--synthetic", "--index", str(tmp_path / "idx"), "--json"])
    assert ran.exit_code == 0, ran.output
    out = json.loads(ran.stdout)
    assert out["synthetic"] is True and out["bias"] == SYNTHETIC_BIAS and out["titles_left_out"] == 1
    assert out["overall"]["n"] == n == len(out["queries"]) and out["queries"][0]["id"] == "syn-1"
    assert out["queries"][0]["query"] == "Garden hose"
    # a comparison names its setting beside both scores (the variant's score once overwrote its name)
    ran = runner.invoke(cli, ["eval", "--synthetic", "--index", str(tmp_path / "idx"), "--json",
                              "--compare", "rrf_k=5"])
    (c,) = json.loads(ran.stdout)["comparisons"]
    assert c["setting"] == "rrf_k=5" and c["metric"] == "mrr@10" and isinstance(c["variant"], float)
    queries = write_queries(tmp_path, [{"query": "a", "expect": "a.txt"}])
    for wrong in (["--synthetic", str(queries), "--folder", str(garden)], ["--synthetic"]):
        ran = runner.invoke(cli, ["eval", *wrong])  # in process: `scent` itself maps it to exit 2
        assert isinstance(ran.exception, UsageError) and "--synthetic" in str(ran.exception)


def outcome(i, cat, score):
    return QueryOutcome(str(i), "q", cat, False, 1, {"mrr@10": score}, [], {})


def result_of(scores, cats):
    outs = [outcome(i, c, s) for i, (c, s) in enumerate(zip(cats, scores))]
    return EvalResult({"mrr@10": sum(scores) / len(scores), "n": len(scores)}, {}, {}, outs)


def test_grid_points_is_the_product():
    assert grid_points({"a": ["1", "2"], "b": ["x"]}) == [{"a": "1", "b": "x"}, {"a": "2", "b": "x"}]


def test_split_half_is_stratified():
    cats = ["x"] * 10 + ["y"] * 4
    a, b = split_half([outcome(i, c, 0) for i, c in enumerate(cats)], random.Random(1))
    assert sorted(a + b) == list(range(14))
    assert sum(cats[i] == "x" for i in a) == 5 and sum(cats[i] == "y" for i in a) == 2


def test_cross_validation_picks_the_better_point_and_scores_it_held_out():
    cats = ["x", "y"] * 10
    worse = result_of([0.5] * 20, cats)
    better = result_of([1.0] * 20, cats)
    g = cross_validate([{"k": "a"}, {"k": "b"}], [worse, better], "mrr@10", folds=7)
    assert g.chosen == {"k": {"b": 7}}
    assert g.held_out == [1.0] * 7
    assert g.baseline_held_out == [0.5] * 7


def test_misses_say_what_went_wrong_in_plain_words():
    from types import SimpleNamespace as R

    from scent.evaluate import LabelledQuery, why_missed

    pdf = LabelledQuery("p", "deposit", "lease.pdf", page=5)
    assert why_missed(pdf, [R(path="lease.pdf", page=2), R(path="a.md", page=None)], None) == \
        "right file, wrong page (showed 2, expected 5)"
    assert why_missed(pdf, [R(path="a.md", page=None), R(path="lease.pdf", page=3)], None) == \
        "right file, wrong page (showed 3, expected 5) at rank 2"
    assert why_missed(pdf, [R(path="lease.pdf", page=5)], 1) == ""
    note = LabelledQuery("n", "heron", "heron.md")
    assert why_missed(note, [R(path="a.md", page=None), R(path="heron.md", page=None)], 2) == \
        "ranked 2; a.md came first"
    assert why_missed(note, [R(path="a.md", page=None)], None) == "not in the first 1 results (a.md came first)"
    assert why_missed(note, [], None) == "no results at all"


def test_a_miss_whose_answer_scent_left_out_says_why(notes, fake_embedder):
    from scent import Index
    from scent.evaluate import LabelledQuery, evaluate

    (notes / ".github").mkdir()
    (notes / ".github" / "ci.yml").write_text("python-version: 3.11 for the heron tests\n")
    with Index(notes, embedder=fake_embedder) as idx:
        idx.update()
        [outcome] = evaluate(idx, [LabelledQuery("h", "python version for the heron tests", ".github/ci.yml")]).queries
    assert outcome.rank is None
    assert outcome.why.startswith(".github/ci.yml is not indexed: scent leaves it out by its name (a hidden file")


def test_the_report_records_the_run_and_reads_plainly(notes, fake_embedder, tmp_path):
    pytest.importorskip("matplotlib")
    from scent import report

    idx = Index(notes, embedder=fake_embedder)
    idx.update()
    queries = load_queries(write_queries(tmp_path, [
        {"id": "a", "query": "LD-2026-0417", "expect": "lease.md", "category": "exact"},
        {"id": "c", "query": "tomato garlic basil", "expect": "lease.md", "category": "text"}]))
    result = evaluate(idx, queries)
    text = report.misses(result)
    assert text.startswith("1 of 2 queries did not have their answer first.")
    assert "word search (keyword) had the right file first for 0 of the 1, and did not find it for 1." in text
    assert "rank 1 by" not in text and "stand_in" not in text
    assert "  c [text] 'tomato garlic basil': ranked 2; recipe.txt came first" in text or \
        "  c [text] 'tomato garlic basil': not in the first" in text
    run = {"folder": str(notes), "queries_file": "q.jsonl", "queries": 2, "index": "i", "backend": "sqlite",
           "model": "fake", "version": "9.9", "written": "2026-12-02T01:00:00+00:00", "settings": {"match": "or"}}
    written = report.write(tmp_path / "rep", result, [], run=run)
    md = written.read_text()
    assert f"- folder: `{notes}`" in md and "- scent 9.9, written 2026-12-02T01:00:00+00:00" in md
    assert "- settings: `match=or`" in md
    body = json.loads((tmp_path / "rep" / "report.json").read_text())
    assert body["run"] == run and body["queries"][1]["why"]


def test_eval_says_when_the_answers_are_not_in_the_folder(garden, tmp_path, monkeypatch):
    """Paths are relative to the folder the queries are about: given its parent, no answer is there,
    and every score would be 0 without a word."""
    import scent.index
    from click.testing import CliRunner

    from conftest import FakeEmbedder
    from scent.commands import cli

    monkeypatch.setattr(scent.index, "E5Embedder", FakeEmbedder)
    queries = write_queries(tmp_path, [{"query": "hose", "expect": "a.txt"}, {"query": "gone", "expect": "gone.md"}])
    ran = CliRunner().invoke(cli, ["eval", str(queries), "--folder", str(garden.parent), "--index",
                                   str(tmp_path / "idx0")])
    assert isinstance(ran.exception, UsageError)
    assert str(ran.exception).startswith(f"none of the answers in {queries} is in {garden.parent} (the first: a.txt)")
    ran = CliRunner().invoke(cli, ["eval", str(queries), "--folder", str(garden), "--index", str(tmp_path / "idx")])
    assert ran.exit_code == 0, ran.output
    assert f"scent: 1 of 2 queries' answers are not in {garden} (the first: gone.md); they count as missed" in ran.stderr


def test_a_queries_file_in_the_folder_it_is_about_is_no_result(garden, tmp_path, monkeypatch):
    """It holds every query's words: indexed with the folder, it would come first for each."""
    import scent.index
    from click.testing import CliRunner

    from conftest import FakeEmbedder
    from scent.commands import cli

    monkeypatch.setattr(scent.index, "E5Embedder", FakeEmbedder)
    queries = garden / "queries.jsonl"
    queries.write_text("".join(json.dumps(q) + "\n" for q in [
        {"query": "kitchen tap", "expect": "a.txt"}, {"query": "bicycle lock", "expect": "b.txt"},
        {"query": "simmer tomatoes garlic", "expect": "soup.md"}]))
    ran = CliRunner().invoke(cli, ["eval", str(queries), "--folder", str(garden), "--index", str(tmp_path / "idx"),
                                   "--strategy", "keyword", "--json"])
    assert ran.exit_code == 0, ran.output
    assert f"scent: {queries} lies in {garden}: indexed with it, it is no result here" in ran.stderr
    out = json.loads(ran.stdout)
    assert [q["top"][0]["path"] for q in out["queries"]] == ["a.txt", "b.txt", "soup.md"]
    assert out["overall"]["hit@1"] == 1.0


def test_an_evaluation_waits_for_another_run_indexing_its_folder(garden, tmp_path):
    """Two evaluations of one folder at once: the second waits for the first's indexing, then
    scores on the index it wrote (it was refused: "another scent is indexing")."""
    import threading

    import scent.index
    from conftest import FakeEmbedder
    from scent import Settings
    from scent.evaluate import Evaluation
    from scent.locking import IndexLock

    said = []
    queries = [LabelledQuery("q1", "kitchen tap", "a.txt")]
    ev = Evaluation(garden, lambda idx, **o: evaluate(idx, queries, **o), Settings(), tmp_path / "idx",
                    on_wait=said.append)
    held, release = threading.Event(), threading.Event()

    def other_run():
        with IndexLock(tmp_path / "idx"):
            held.set()
            release.wait(30)

    other = threading.Thread(target=other_run)
    other.start()
    held.wait(10)
    threading.Timer(1.5, release.set).start()
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(scent.index, "E5Embedder", FakeEmbedder)
            result = ev.run({"strategy": "keyword"})
    finally:
        release.set()
        other.join()
        ev.close()
    assert said == [f"another scent is indexing into {tmp_path / 'idx'}; waiting for it to finish"]
    assert result.overall["hit@1"] == 1.0
