"""The query language: what a typed query becomes (hand-written expectations), and what search
then does with it on a small real folder."""
from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import FakeEmbedder
from scent import Index
from scent.errors import UsageError
from scent.filters import Filters
from scent.syntax import Constraints, Parsed, combine, parse


def test_a_query_without_syntax_is_returned_as_typed():
    for q in ("deposit refund", "LD-2026-0417", "state-of-the-art e-mail", "what's 10:30 -5 degrees",
              "parse_http_header", "dog or cat", "a:b http://x.y"):
        assert parse(q) == Parsed(q)


@given(st.text(alphabet=st.characters(blacklist_characters='"-:'), max_size=60))
def test_text_without_quotes_dashes_or_colons_never_changes(text):
    if "OR" not in text.split():
        assert parse(text) == Parsed(text)


def test_phrases_exclusions_and_or():
    p = parse('"deposit refund" -draft -"old lease" notice')
    assert p.text == "deposit refund notice"
    assert p.constraints == Constraints(required=((("deposit", "refund"),),), excluded=(("draft",), ("old", "lease")))
    assert p.alternatives == () and p.keyword_text == "deposit refund notice"
    p = parse('invoice OR "sales receipt" march')
    assert p.text == "invoice sales receipt march"
    assert p.alternatives == (("invoice", "sales receipt"),) and p.keyword_text == "march"
    assert parse("a OR b c OR d OR e f").alternatives == (("a", "b"), ("c", "d", "e"))
    assert p.constraints.required == ((("invoice",), ("sales", "receipt")),)  # one of them
    assert parse("invoice OR receipt").constraints == Constraints()  # only words: ranking decides


def test_fields_become_filters():
    p = parse('heron kind:image,pdf lang:ES dir:notes/work ext:MD after:2024 before:"2024-03"')
    assert p.text == "heron"
    assert p.filters == Filters(("image", "pdf"), "notes/work/*.[mM][dD]", dt.datetime(2024, 1, 1).timestamp(),
                                dt.datetime(2024, 4, 1).timestamp(), "es")
    assert parse("x dir:notes").filters.path == "notes/"      # a prefix
    assert parse("x ext:.pdf").filters.path == "*.[pP][dD][fF]"
    assert parse('x dir:"My [old] notes" ext:txt').filters.path == "My [[]old] notes/*.[tT][xX][tT]"


def test_mail_header_fields_are_constraints_on_messages():
    from scent.syntax import header_holds

    p = parse('lamp from:ann to:"board harbour" subject:quote')
    assert p.text == "lamp" and p.filters.kinds == ("email",)
    assert p.constraints.headers == (("from", ("ann",)), ("to", ("board", "harbour")), ("subject", ("quote",)))
    head = "From: Ann Keeper <ann@harbour.example>\nTo: x@y.example\nCc: board@harbour.example\nSubject: Lamp quote"
    assert header_holds(head, "from", ("ann", "keeper")) and header_holds(head, "from", ("harbour",))
    assert header_holds(head, "to", ("board", "harbour"))  # Cc counts as to
    assert not header_holds(head, "from", ("board",))       # in To/Cc, not From
    assert not header_holds(head, "subject", ("ann",))
    assert parse('from:"ann keeper" -draft').text == "ann keeper"  # a field alone: its words are ranked by
    assert not header_holds("Some note\nFrom: the library", "subject", ("library",))
    assert header_holds("Some note\nFrom: the library", "from", ("library",))  # a line that reads as a header


def test_fields_alone_have_no_text_to_rank_by():
    # They list the files they keep (scent.search.newest); Index refuses a query with no filter at all.
    parsed = parse("ext:pdf after:2025-03 -draft")
    assert parsed.text == ""
    assert parsed.filters.path == "*.[pP][dD][fF]" and parsed.filters.after is not None
    assert parsed.constraints.excluded == (("draft",),)
    assert parse("-draft").text == "" and parse("-draft").filters.empty


@pytest.mark.parametrize("query, message", [
    ("x from:", r"^from: needs a value, like from:alice$"),
    ("x subject:--", r"^subject:-- has no word to look for"),
    ("x from:ann kind:pdf", r"^from: finds mail, and kind:pdf leaves out mail"),
    ('"deposit refund', r'^the query has a " that is not closed'),
    ('x ""', r"^the query has an empty phrase"),
    ("OR x", r"^OR needs a word"), ("x OR", r"^OR needs a word"), ("x OR OR y", r"^OR needs a word"),
    ("x OR -y", r"^OR needs a word"),
    ("x ext:", r"^ext: needs a value, like ext:pdf$"),
    ("x ext:md ext:txt", r"^ext: is given 2 times \(ext:md, ext:txt\); give it once$"),
    ("x ext:*.md", r"^ext: wants a file extension"),
    ("x kind:spreadsheet", r"^unknown kind spreadsheet"),
    ("x after:soonish", r"^after: wants a date like 2025-07-14"),
    ("x after:2025 before:2024", r"^after:2025 is later than before:2024"),
    ('x dir:"notes', r'^dir: has a " that is not closed'),
])
def test_malformed_expressions_are_one_line(query, message):
    with pytest.raises(UsageError, match=message) as err:
        parse(query)
    assert "\n" not in str(err.value)


def test_the_query_and_the_callers_filters_both_hold():
    f = combine(Filters.build(kinds=["text", "pdf"], path="notes/", after="2024-01-01"),
                parse("x kind:pdf ext:md after:2024-06 before:2024-12").filters)
    assert f == Filters(("pdf",), "notes/*.[mM][dD]", dt.datetime(2024, 6, 1).timestamp(),
                        dt.datetime(2025, 1, 1).timestamp())
    for given, query, message in [(Filters.build(lang="en"), "x lang:es", "ask for two languages"),
                                  (Filters.build(kinds=["text"]), "x kind:pdf", "leave no kind"),
                                  (Filters.build(path="notes/"), "x dir:work", "both choose paths"),
                                  (Filters.build(before="2020"), "x after:2021", "leave no day")]:
        with pytest.raises(UsageError, match=message):
            combine(given, parse(query).filters)


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "f"
    (root / "notes").mkdir(parents=True)
    (root / "notes" / "lease.md").write_text("The deposit refund is due within 30 days of the end of the lease.\n")
    (root / "notes" / "draft.md").write_text("Draft: the refund of the deposit is due when the keys are back.\n")
    (root / "notes" / "refund.txt").write_text("Refund policy for the shop: a deposit is kept for damage.\n")
    (root / "scan.md").write_text("Deposit slip for the bank; refund requested in March.\n")
    return root


def paths(idx, query, **kw):
    return sorted(r.path for r in idx.search(query, k=10, **kw))


def test_search_applies_the_language(folder, tmp_path):
    with Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        assert paths(idx, "deposit refund") == ["notes/draft.md", "notes/lease.md", "notes/refund.txt", "scan.md"]
        assert paths(idx, '"deposit refund"') == ["notes/lease.md"]      # only there in this order
        assert paths(idx, '"deposit refund" OR "refund policy"') == ["notes/lease.md", "notes/refund.txt"]
        assert paths(idx, "deposit refund -draft") == ["notes/lease.md", "notes/refund.txt", "scan.md"]
        assert paths(idx, "deposit refund -draft dir:notes") == ["notes/lease.md", "notes/refund.txt"]
        assert paths(idx, "deposit refund ext:txt") == ["notes/refund.txt"]
        assert paths(idx, "deposit refund ext:md", filters=Filters.build(path="notes/")) == \
            ["notes/draft.md", "notes/lease.md"]
        # OR: one term, held by a unit with either word (the fake embedder's dense list is noise)
        hits = idx.search("slip OR policy", k=10, strategy="keyword", match="and")
        assert sorted(r.path for r in hits) == ["notes/refund.txt", "scan.md"]
        # ... and the query's other words still count: both say refund, only refund.txt damage
        hits = idx.search("slip OR policy refund", k=10, strategy="keyword", match="and")
        assert sorted(r.path for r in hits) == ["notes/refund.txt", "scan.md"]
        hits = idx.search("slip OR policy damage", k=10, strategy="keyword", match="and")
        assert sorted(r.path for r in hits) == ["notes/refund.txt"]
        with pytest.raises(UsageError, match="not closed"):
            idx.search('"deposit')


def test_cli_malformed_query_is_one_line_exit_2(tmp_path):
    import subprocess
    import sys

    (tmp_path / "f").mkdir()
    Index(tmp_path / "f", index_dir=tmp_path / "idx").close()  # an empty index: no model is loaded
    r = subprocess.run([sys.executable, "-c", "from scent.cli import main; main()", "search", '"deposit refund', "--index", str(tmp_path / "idx")],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == ['scent: error: the query has a " that is not closed; close the phrase '
                                             '("like this") or leave the quote out']
