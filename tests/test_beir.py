"""`scent eval --beir`: a BEIR-layout collection read as collections are written (a byte order mark,
grades written 1.0, TREC's four-column qrels, only a dev split, ids that are URLs or begin with a dot),
its documents written as files and found again by their ids."""
from __future__ import annotations

import json

import pytest

from conftest import FakeEmbedder
from scent import Index
from scent.errors import UsageError
from scent.evaluate import evaluate_beir, load_beir, qrels_file, write_beir_folder

DOCS = {"d1": ("Boiler", "The boiler pressure valve was replaced by the technician."),
        "d2": ("Garden", "Tomatoes and basil grow well in the sunny corner of the garden."),
        "d3": ("Harbour", "Fishing boats leave the harbour at dawn.")}
QUERIES = {"q1": "boiler pressure valve", "q2": "tomatoes basil garden", "q3": "fishing boats harbour",
           "q4": "not judged"}
JUDGED = [("q1", "d1", 1), ("q2", "d2", 2), ("q3", "d3", 1)]


def collection(root, ids=lambda d: d, encoding="utf-8", qrels=None, split="test.tsv"):
    root.mkdir()
    (root / "qrels").mkdir()
    (root / "corpus.jsonl").write_text("".join(json.dumps({"_id": ids(d), "title": t, "text": x}) + "\n"
                                               for d, (t, x) in DOCS.items()), encoding=encoding)
    (root / "queries.jsonl").write_text("".join(json.dumps({"_id": q, "text": t, "metadata": {}}) + "\n"
                                                for q, t in QUERIES.items()), encoding=encoding)
    default = "query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{ids(d)}\t{g}\n" for q, d, g in JUDGED)
    (root / "qrels" / split).write_text(qrels if qrels is not None else default)
    return root


def scored(root, tmp_path):
    """nDCG@10 of every judged query, each document found by words alone (the fake embedder's
    meaning is noise)."""
    corpus, queries, qrels = load_beir(root)
    docs = tmp_path / "docs"
    write_beir_folder(corpus, docs)
    with Index(docs, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        result = evaluate_beir(idx, queries, qrels, strategy="keyword")
    return {o.id: o.scores["ndcg@10"] for o in result.queries}


@pytest.mark.parametrize("case", ["plain", "byte order mark", "grades 1.0", "trec columns", "url ids", "dot ids"])
def test_a_collection_written_otherwise_scores_as_one_written_as_beir_writes_it(tmp_path, case):
    ids, encoding, qrels = (lambda d: d), "utf-8", None
    if case == "byte order mark":
        encoding = "utf-8-sig"
    elif case == "grades 1.0":
        qrels = "".join(f"{q}\t{d}\t{g}.0\n" for q, d, g in JUDGED)
    elif case == "trec columns":
        qrels = "".join(f"{q} 0 {d} {g}\n" for q, d, g in JUDGED)
    elif case == "url ids":  # 300 characters, quoted to 340: over a file name's 255 bytes
        ids = lambda d: "http://example.org/" + "x" * 300 + "/" + d  # noqa: E731
    elif case == "dot ids":  # a file named .d1.txt is hidden: the walk passes it by
        ids = lambda d: "." + d  # noqa: E731
    root = collection(tmp_path / "c", ids, encoding, qrels)
    assert scored(root, tmp_path) == {"q1": 1.0, "q2": 1.0, "q3": 1.0}


def test_a_collection_with_only_a_dev_split_is_judged_by_it(tmp_path):
    root = collection(tmp_path / "c", split="dev.tsv")
    assert qrels_file(root) == root / "qrels" / "dev.tsv"
    assert scored(root, tmp_path) == {"q1": 1.0, "q2": 1.0, "q3": 1.0}


def test_what_is_wrong_with_a_collection_is_said_in_one_line(tmp_path):
    root = collection(tmp_path / "c", qrels="query-id\tcorpus-id\tscore\n")
    with pytest.raises(UsageError, match="holds no judgments"):
        load_beir(root)
    (root / "qrels" / "test.tsv").write_text("x1\td1\t1\n")
    with pytest.raises(UsageError, match="none of the queries in queries.jsonl is judged"):
        load_beir(root)
    (root / "qrels" / "test.tsv").unlink()
    (root / "qrels" / "a.tsv").write_text("q1\td1\t1\n")
    (root / "qrels" / "b.tsv").write_text("q1\td1\t1\n")
    with pytest.raises(UsageError, match=r"qrels/test.tsv is missing \(it holds a.tsv, b.tsv\)"):
        load_beir(root)
    (root / "qrels" / "b.tsv").unlink()
    (root / "corpus.jsonl").write_text('{"_id": "d1", "text": "fine"}\n{"_id": "d2", "text": "cut sho\n')
    with pytest.raises(UsageError, match="corpus.jsonl line 2 is not JSON"):
        load_beir(root)


def test_the_documents_folder_holds_only_the_corpus_written_last(tmp_path):
    docs = tmp_path / "docs"
    write_beir_folder({"a": {"text": "one"}, "b": {"text": "two"}}, docs)
    write_beir_folder({"b": {"text": "two"}, "c": {"text": "three"}}, docs)
    assert sorted(p.name for p in docs.rglob("*.txt")) == ["b.txt", "c.txt"]
