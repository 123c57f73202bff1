"""Recorded candidate lists (scent.candidates) and the fusion functions replayed on them (scent.replay)."""
import json

import numpy as np
import pytest

from scent import Index, candidates, replay
from scent.candidates import Record
from scent.evaluate import load_queries


def rec(lists, units, qrels=None, stand_in=(), facts=None, category="text"):
    return Record(id="q", query="q", category=category, hard=False, qrels=qrels or {}, lists=lists,
                  stand_in=list(stand_in), units={str(u): f for u, f in units.items()}, facts=facts or {})


def unit(path, kind="text", lang="en", page=None, coverage=0.0):
    return {"path": path, "key": path, "kind": kind, "file_kind": "text", "lang": lang, "page": page,
            "coverage": coverage}


TWO_LISTS = rec({"dense": [[1, 0.9], [2, 0.8], [3, 0.5]], "keyword": [[3, 12.0], [1, 4.0]]},
                {1: unit("a"), 2: unit("b"), 3: unit("c")}, qrels={"c": 1.0})


def test_min_max_normalisation_by_hand():
    got = replay.normalised([(1, 0.9), (2, 0.8), (3, 0.5)], "dense", "minmax")
    assert got == pytest.approx({1: 1.0, 2: 0.3 / 0.4, 3: 0.0})


def test_theoretical_min_normalisation_by_hand():
    # cosine: from -1 to the list's best; BM25: from 0
    assert replay.normalised([(1, 0.9), (3, 0.5)], "dense", "tmm") == pytest.approx({1: 1.0, 3: 1.5 / 1.9})
    assert replay.normalised([(3, 12.0), (1, 4.0)], "keyword", "tmm") == pytest.approx({3: 1.0, 1: 4 / 12})


def test_convex_combination_by_hand():
    q = replay.Replayed(TWO_LISTS)
    # min-max: dense a 1, b 0.75, c 0; keyword c 1, a 0.
    # alpha 0.5: a 0.5, b 0.375, c 0.5 (a first: ties keep the first seen); alpha 0.3: c 0.7, a 0.3, b 0.225
    assert replay.replay_convex(q, alpha=0.5) == ["a", "c", "b"]
    assert replay.replay_convex(q, alpha=0.3) == ["c", "a", "b"]
    assert replay.replay_convex(q, alpha=1.0)[:2] == ["a", "b"]


def test_convex_stand_in_gives_its_dense_score_as_keyword_score():
    r = rec({"dense": [[1, 0.9], [2, 0.8], [3, 0.5]], "keyword": [[3, 12.0]]},
            {1: unit("a"), 2: unit("b", lang="ta"), 3: unit("c")}, stand_in=[None, 2, None])
    # b: 0.5 * 0.75 (dense) + 0.5 * 0.75 (its dense score standing in) = 0.75 > a's 0.5 and c's 0.5
    assert replay.replay_convex(replay.Replayed(r), alpha=0.5)[0] == "b"


def test_rrf_replay_by_hand():
    q = replay.Replayed(TWO_LISTS)
    # a: 1/61 + 1/62, b: 1/62, c: 1/63 + 1/61
    assert replay.replay_rrf(q, k=60) == ["a", "c", "b"]
    # k=1: a 1/2 + 1/3 = 0.83, c 1/4 + 1/2 = 0.75
    assert replay.replay_rrf(q, k=1) == ["a", "c", "b"]
    assert replay.replay_rrf(q, k=60, weights={"dense": 0.0}) == ["c", "a", "b"]  # b scores 0, still listed


def test_pages_are_chosen_by_unit_score_and_picture_intent():
    r = rec({"dense": [[1, 0.9], [2, 0.8]], "keyword": [[1, 3.0]]},
            {1: {**unit("doc.pdf", page=1), "key": "doc.pdf#1"}, 2: {**unit("doc.pdf", kind="pdf_image", page=2),
                                                                     "key": "doc.pdf#2"}})
    assert replay.replay_rrf(replay.Replayed(r)) == ["doc.pdf#1"]
    r.facts = {"picture_intent": True}
    assert replay.replay_rrf(replay.Replayed(r)) == ["doc.pdf#2"]


def test_a_fused_tie_between_pages_goes_to_the_recorded_page_evidence():
    # pages 1 and 2: ranks 1 and 2, 2 and 1: one fused score; without "near" the first seen wins
    def page(n, near=None):
        return {**unit("doc.pdf", kind="pdf_page", page=n), "key": f"doc.pdf#{n}",
                **({} if near is None else {"near": near})}
    lists = {"dense": [[1, 0.9], [2, 0.8]], "keyword": [[2, 5.0], [1, 4.0]]}
    assert replay.replay_rrf(replay.Replayed(rec(lists, {1: page(1), 2: page(2)}))) == ["doc.pdf#1"]
    assert replay.replay_rrf(replay.Replayed(rec(lists, {1: page(1, 0.2), 2: page(2, 0.6)}))) == ["doc.pdf#2"]
    # equal evidence: the keyword score decides (page 2's 5.0)
    assert replay.replay_rrf(replay.Replayed(rec(lists, {1: page(1, 0.5), 2: page(2, 0.5)}))) == ["doc.pdf#2"]


def test_held_out_folds_never_score_a_choice_on_its_own_queries():
    # Half the queries want the dense list's first, half the keyword list's: a choice made on the
    # training folds is scored on the others, so the held-out mean is at most the best single alpha.
    recs = []
    for i in range(20):
        want = "a" if i % 2 else "c"
        recs.append(rec(TWO_LISTS.lists, {1: unit("a"), 2: unit("b"), 3: unit("c")}, qrels={want: 1.0}))
    queries = [replay.Replayed(r) for r in recs]
    fold = replay.folds_of(queries, 5)
    assert sorted(fold) == [f for f in range(5) for _ in range(4)]
    held = replay.held_out_grid(queries, "convex", replay.replay_convex, [{"alpha": 0.3}, {"alpha": 0.5}],
                                ("mrr@10",), fold, "mrr@10")
    assert len(held.chosen) == 5
    assert held.mean("mrr@10") <= max(np.mean([replay.score(q, replay.replay_convex(q, alpha=a), "mrr@10")
                                               for q in queries]) for a in (0.3, 0.5)) + 1e-9


def test_across_collections_each_is_scored_by_choices_made_on_the_others():
    # Collection "dense" always wants the dense list's first file (a), "keyword" the keyword list's
    # (c). Within either, a convex alpha chosen on folds of its own queries is right for it; tuned
    # on the other collection alone, it is wrong for it, and that is what --across reports.
    units = {1: unit("a"), 2: unit("b"), 3: unit("c")}
    dense = [rec(TWO_LISTS.lists, units, qrels={"a": 1.0}) for _ in range(10)]
    keyword = [rec(TWO_LISTS.lists, units, qrels={"c": 1.0}) for _ in range(10)]
    own = replay.compare_methods(dense, folds=5, learned=False)
    assert [m for m in own["methods"] if m["method"] == "convex minmax"][0]["mrr@10"]["mean"] == 1.0
    out = replay.compare_across({"dense": dense, "keyword": keyword}, learned=False)
    assert [(o["records"], o["queries"]) for o in out] == [("dense", 10), ("keyword", 10)]
    convex = {o["records"]: [m for m in o["methods"] if m["method"] == "convex minmax"][0] for o in out}
    # Minmax scores: a = alpha, b = 0.75 alpha, c = 1 - alpha. On "keyword" every alpha under 0.5
    # puts c first; the first of them, 0.0, is chosen for "dense", where it ranks c, then a.
    assert convex["dense"]["chosen"] == {"alpha": 0.0, "norm": "minmax"}
    assert convex["dense"]["mrr@10"]["mean"] < 1.0
    # On "dense" alphas from 0.5 up put a first (at 0.5 a and c tie, a the better dense rank);
    # 0.5 is chosen for "keyword", where it ranks a, c, b.
    assert convex["keyword"]["chosen"] == {"alpha": 0.5, "norm": "minmax"}
    assert convex["keyword"]["mrr@10"]["mean"] == pytest.approx(1 / 2)


def test_logistic_fit_separates_a_separable_feature():
    x = np.array([[0.0], [0.1], [0.2], [0.8], [0.9], [1.0]])
    y = np.array([0, 0, 0, 1, 1, 1.0])
    w = replay.fit_logistic(x, y, ridge=0.1)
    assert w[0] > 0 and (x[:, 0] * w[0] + w[1] > 0).tolist() == [False] * 3 + [True] * 3


def test_a_rows_weight_counts_it_that_many_times():
    x = np.array([[0.0], [0.3], [0.5], [0.6], [1.0]])
    y = np.array([0, 1, 0, 1, 1.0])
    twice = replay.fit_logistic(np.vstack([x, x[2:3]]), np.append(y, 0.0), ridge=0.1)
    weighted = replay.fit_logistic(x, y, ridge=0.1, weights=np.array([1, 1, 2, 1, 1.0]))
    assert weighted == pytest.approx(twice, abs=1e-6)
    # a row weighed 0 is as good as absent
    assert replay.fit_logistic(x, y, ridge=0.1, weights=np.array([1, 1, 0, 1, 1.0])) == pytest.approx(
        replay.fit_logistic(np.delete(x, 2, axis=0), np.delete(y, 2), ridge=0.1), abs=1e-6)


def test_trade_off_counts_the_confident_results_that_are_not_right():
    from scent.replay import OFF_TOPIC, Record

    recs = [Record(id=n, query=n, category=c, hard=False, qrels={}, lists={}, stand_in=[], units={})
            for n, c in (("a", "text"), ("b", "text"), ("c", OFF_TOPIC))]
    # query a: its answer first (0.9), then a wrong result at 0.6 and one at 0.2; query b: a wrong
    # result at 0.7, its answer at 0.4; query c (off-topic): 0.55 and 0.1
    p = np.array([0.9, 0.6, 0.2, 0.7, 0.4, 0.55, 0.1])
    y = np.array([1, 0, 0, 0, 1, 0, 0.0])
    qi = np.array([0, 0, 0, 1, 1, 2, 2])
    answer = y == 1
    at = {r["floor"]: r for r in replay.trade_off(recs, p, qi, answer, (0.5, 0.65), y)}
    assert at[0.5] == {"floor": 0.5, "answers_weak": 0.5, "off_topic_confident": 1.0, "answered": 2,
                       "off_topic": 1, "others_confident": 1.0}  # (0.6 and 0.7) over 2 queries
    assert at[0.65]["others_confident"] == 0.5 and at[0.65]["off_topic_confident"] == 0.0


def test_a_record_replays_to_the_pipelines_own_answer(notes, fake_embedder, tmp_path):
    idx = Index(notes, embedder=fake_embedder)
    idx.update()
    qfile = tmp_path / "q.jsonl"
    qfile.write_text("\n".join(json.dumps(q) for q in [
        {"id": "a", "query": "LD-2026-0417 deposit", "expect": "lease.md"},
        {"id": "b", "query": "tomato garlic basil", "expect": "recipe.txt"},
        {"id": "c", "query": "read_file", "expect": "code/http.py"}]) + "\n")
    recs = candidates.record_folder(idx, load_queries(qfile), off_topic=["zorbulate the frimble"])
    assert [r.category for r in recs][-1] == candidates.OFF_TOPIC and recs[-1].qrels == {}
    assert recs[0].lists["ids"] and recs[0].facts["has_ids"]
    assert recs[-1].facts["terms_in_index"] == 0
    path = tmp_path / "rec.jsonl"
    candidates.save(recs, path)
    loaded = candidates.load(path)
    assert replay.check_replay(loaded) == 0
    assert all(r.run for r in loaded[:3])
    out = replay.compare_methods(loaded, folds=3, learned=False)
    assert [m["method"] for m in out["methods"]][:2] == ["rrf", "rrf (k tuned)"]
    assert out["queries"] == 3


def test_recorded_features_give_the_confidence_search_shows(notes, fake_embedder, tmp_path):
    from scent import confidence

    idx = Index(notes, embedder=fake_embedder)
    idx.update()
    key = lambda path, page: path  # noqa: E731
    recs = [candidates.record(idx, q, key, id=q, category="text", hard=False, qrels={})
            for q in ("deposit refund", "tomato soup garlic", "xyzzyplugh")]
    x, _, qi, _ = replay.confidence_rows(recs)
    for i, r in enumerate(recs):
        shown = [s.confidence for s in idx.search(r.query, k=10)]
        replayed = [confidence.assess(list(row))[0] for row in x[qi == i]]
        assert replayed == pytest.approx(shown[:len(replayed)], abs=1e-4)


def test_confidence_report_measures_each_collection_on_held_out_folds(notes, fake_embedder):
    idx = Index(notes, embedder=fake_embedder)
    idx.update()
    key = lambda path, page: path  # noqa: E731
    answered = [candidates.record(idx, q, key, id=q, category="text", hard=False, qrels={want: 1.0})
                for q, want in (("deposit refund", "lease.md"), ("tomato soup", "recipe.txt"),
                                ("garlic basil", "recipe.txt"), ("read_file", "code/http.py"),
                                ("LD-2026-0417", "lease.md"))]
    off = candidates._off_topic(idx, ["xyzzyplugh", "zorbulate frimble", "qwxv plinth", "blorp", "vexuli morf"], key)
    out = replay.confidence_report({"notes": answered + off}, folds=5)
    table = out["collections"]["notes"]
    assert table[0]["answered"] == 5 and table[0]["off_topic"] == 5
    assert all(0 <= r["answers_weak"] <= 1 and 0 <= r["off_topic_confident"] <= 1 for r in table)
    # a higher floor flags more answers weak and leaves fewer off-topic queries confident
    assert [r["answers_weak"] for r in table] == sorted(r["answers_weak"] for r in table)
    assert [r["off_topic_confident"] for r in table] == sorted((r["off_topic_confident"] for r in table), reverse=True)
    # every shown result is in the calibration, the answered queries' other results too
    assert sum(c["n"] for c in out["calibration"]) == sum(len(r.run[:10]) for r in answered + off)
    assert all(r["others_confident"] >= 0 for r in table)


@pytest.mark.slow
def test_eval_record_and_replay_from_the_command_line(notes, tmp_path):
    from click.testing import CliRunner

    from scent.commands import cli

    qfile, off, out = tmp_path / "q.jsonl", tmp_path / "off.txt", tmp_path / "rec.jsonl"
    qfile.write_text('{"id": "a", "query": "deposit refund", "expect": "lease.md"}\n'
                     '{"id": "b", "query": "tomato soup", "expect": "recipe.txt"}\n')
    off.write_text("# nonsense\nxyzzyplugh\n")
    pictures = tmp_path / "off-pictures.txt"
    pictures.write_text("photo of a giraffe\n")
    runner = CliRunner()
    got = runner.invoke(cli, ["eval", str(qfile), "--folder", str(notes), "--index", str(tmp_path / "idx"),
                              "--record", str(out), "--off-topic", str(off), "--off-topic", str(pictures)])
    assert got.exit_code == 0, got.output
    recorded = candidates.load(out)
    assert [r.category for r in recorded] == ["uncategorised", "uncategorised", candidates.OFF_TOPIC, candidates.OFF_TOPIC]
    assert [r.query for r in recorded[2:]] == ["xyzzyplugh", "photo of a giraffe"]
    got = runner.invoke(cli, ["replay", str(out), "--folds", "2"])
    assert got.exit_code == 0, got.output
    assert "convex minmax" in got.output and "2 queries, 2 held-out folds" in got.output
    twin = tmp_path / "rec2.jsonl"
    twin.write_bytes(out.read_bytes())
    got = runner.invoke(cli, ["replay", str(out), str(twin), "--across"])
    assert got.exit_code == 0, got.output
    assert got.output.count("2 queries, tuned on the other files") == 2
    got = runner.invoke(cli, ["replay", str(out), str(out), "--across"])
    assert got.exit_code != 0 and "two record files or more" in str(got.exception)
