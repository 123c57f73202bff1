import sqlite3

import pytest

from hypothesis import given, settings, strategies as st

from scent.query import extra_tokens, id_tokens, is_id_like, match_expression, parse, split_identifier


def _fts_db():
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(text, extra, "
               "tokenize=\"porter unicode61 remove_diacritics 2 tokenchars '_'\")")
    db.execute("INSERT INTO t VALUES ('Ticket LD-2026-0417: parseHttpHeader fails in read_file', ?)",
               (extra_tokens("Ticket LD-2026-0417: parseHttpHeader fails in read_file"),))
    return db


DB = _fts_db()


@settings(max_examples=400, deadline=None)
@given(st.text())
def test_any_string_is_a_valid_match(text):
    q = parse(text)
    for mode in ("and", "or"):
        expr = match_expression(q, mode)
        if expr is not None:
            DB.execute("SELECT rowid FROM t WHERE t MATCH ?", (expr,)).fetchall()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(['"', "'", "*", "(", ")", ":", "-", "^", "+", "NEAR", "AND", "OR", "NOT",
                                 "{", "}", "a", "b", "1", " ", "\u200c", "\x00"]), max_size=20))
def test_fts_operators_are_never_operators(tokens):
    expr = match_expression(parse("".join(tokens)), "and")
    if expr is not None:
        DB.execute("SELECT rowid FROM t WHERE t MATCH ?", (expr,)).fetchall()


def hits(query, mode="and"):
    return DB.execute("SELECT rowid FROM t WHERE t MATCH ?", (match_expression(parse(query), mode),)).fetchall()


def test_id_is_one_phrase_not_its_parts():
    q = parse("LD-2026-0417")
    assert q.ids == ("LD20260417",)
    assert match_expression(q, "or") == '("LD 2026 0417" OR "LD20260417")'
    assert hits("LD-2026-0417", "or")
    assert hits("ld20260417")  # typed without dashes
    assert not hits("LD-2026-0418", "or")  # parts alone never match under OR


def test_identifiers_match_whole_and_by_parts():
    assert hits("parseHttpHeader")
    assert hits("read_file")
    assert hits("http header parse")
    assert hits("read file")
    # in another style than the text's: its parts, side by side
    assert hits("parse_http_header") and hits("readFile") and hits("ReadFile")
    assert not hits("headerParseHttp")
    assert [t.fts for t in parse("parseHttpHeader read").terms] == ['("parseHttpHeader" OR "parse http header")', '"read"']


def test_a_dotted_name_matches_its_parts_anywhere():
    # "Retry.DEFAULT_BACKOFF_MAX" where the class Retry defines DEFAULT_BACKOFF_MAX = 120: no phrase there.
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(text, tokenize=\"porter unicode61 remove_diacritics 2 tokenchars '_'\")")
    db.executemany("INSERT INTO t VALUES (?)", [("class Retry:\n    DEFAULT_BACKOFF_MAX = 120",),
                                               ("delay = min(Retry.DEFAULT_BACKOFF_MAX, delay)",),
                                               ("DEFAULT_BACKOFF_MAX of the pool",)])
    expr = match_expression(parse("Retry.DEFAULT_BACKOFF_MAX"), "and")
    assert expr == '("Retry DEFAULT_BACKOFF_MAX" OR ("Retry" AND "DEFAULT_BACKOFF_MAX"))'
    assert [r for (r,) in db.execute("SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid", (expr,))] == [1, 2]
    # Not a dotted name: an e-mail address, an ID, parts of one letter ("e.g.")
    assert [t.fts for t in parse("ana@example.com").terms] == ['"ana example com"']
    assert all(" AND " not in t.fts for t in parse("v1.2.3 e.g. INV-2024-00918").terms)


def test_names_of_standards_are_words_not_ids():
    # In every log and README: as IDs they voted for every file holding them.
    assert not any(is_id_like(t) for t in ("HTTP/1.1", "utf-8", "UTF8", "sha256", "IPv6", "x86_64", "ISO-8601"))
    assert all(is_id_like(t) for t in ("K7Q2ZP", "INV-2024-00918", "HTTP-4412", "sha256-9f2c"))
    assert parse("HTTP/1.1 state machine").ids == ()
    assert hits("parseHttpHeader utf-8", "or")  # still searched as words


def test_stopwords_dropped_unless_only_stopwords():
    assert [t.text for t in parse("where is the lease").terms] == ["lease"]
    assert [t.text for t in parse("the who").terms] == ["the", "who"]
    assert [t.text for t in parse("where is the lease", stopwords=False).terms] == ["where", "is", "the", "lease"]


def test_empty_and_punctuation_only():
    assert match_expression(parse(""), "and") is None
    assert match_expression(parse("?!  ***"), "or") is None


def test_id_like():
    for s in ("LD-2026-0417", "58-QX-2210", "8f3a21", "INV-00042", "100234", "K7Q2ZP"):
        assert is_id_like(s), s
    for s in ("2026", "hello", "mp3", "state-of-the-art", "12"):
        assert not is_id_like(s), s


def test_split_identifier():
    assert split_identifier("parseHttpHeader") == ["parse", "http", "header"]
    assert split_identifier("XMLHttpRequest") == ["xml", "http", "request"]
    assert split_identifier("read_file") == ["read", "file"]


def test_id_tokens_normalised():
    assert id_tokens("ticket LD-2026-0417, plate 58-QX-2210 in 2026") == "LD20260417 58QX2210"


def test_a_run_longer_than_an_id_is_not_one():
    assert is_id_like("a1" * 32)  # 64 characters: a SHA-256 in hex is this long
    assert not is_id_like("a1" * 32 + "b")
    assert id_tokens("key " + "a1" * 40 + " INV-00042") == "INV00042"


def test_or_alternatives_are_one_term():
    q = parse("march", alternatives=(("invoice", "sales receipt"), ("LD-2026-0417", "the")))
    assert [t.fts for t in q.terms] == ['"march"', '("invoice" OR "sales receipt")',
                                        '(("LD 2026 0417" OR "LD20260417") OR "the")']
    assert q.ids == ("LD20260417",)
    assert q.words == ["march", "invoice", "sales", "receipt", "ld", "2026", "0417", "the"]
    DB.execute("SELECT rowid FROM t WHERE t MATCH ?", (match_expression(q, "and"),)).fetchall()  # valid FTS5


def test_required_terms_by_hand():
    from scent.query import required_terms

    # 60% of 3 is 1.8: rounded down; 3<30%: every term up to three, then 30% (of 4: 1.2 -> 1)
    cases = {(3, "60%"): 1, (10, "60%"): 6, (10, "0.55"): 5, (3, "3<30%"): 3, (4, "3<30%"): 1, (10, "3<30%"): 3,
             (5, "2"): 2, (5, "9"): 5, (5, "-50%"): 1, (10, "1.797e307"): 10}  # a share over 1: every term
    assert {k: required_terms(*k) for k in cases} == cases


@pytest.mark.parametrize("bad", ["inf%", "nan%", "1e400.", "x%", "many"])
def test_a_min_share_that_is_no_number_is_one_line(bad):
    from scent.errors import UsageError
    from scent.settings import Settings

    with pytest.raises(UsageError, match=r"^setting min_share wants 60%, 2 or 3<30%, got "):
        Settings().with_values(min_share=bad)


def test_a_name_with_symbols_is_one_word_beside_its_letters():
    """C++ and C#: the tokenizer keeps the letter c alone, which every C note holds."""
    assert extra_tokens("Templates in C++ and generics in C#, not C; i+1, #tag, x#y") == "cplusplus csharp"
    [term] = parse("(C++)").terms
    assert (term.text, term.fts, term.also) == ("C++", '("C" OR "cplusplus")', ("cplusplus",))
    assert [t.fts for t in parse("a+b issue #12 page#x").terms] == ['"a b"', '"issue"', '"12"', '"page x"']


def test_an_iban_in_groups_is_one_id_as_it_is_written_whole():
    """Paper writes GB33 BUKB 2020 1555 5555 55, a bank's app GB33BUKB20201555555555: each finds the other."""
    assert id_tokens("Pay to GB33 BUKB 2020 1555 5555 55, ref 7") == "GB33BUKB20201555555555"
    assert extra_tokens("IBAN: (DE89 3704 0044 0532 0130 00).") == "de89370400440532013000"
    [term] = parse("gb33 bukb 2020 1555 5555 55").terms
    assert term.is_id and term.fts == '("gb33 bukb 2020 1555 5555 55" OR "GB33BUKB20201555555555")'
    # Check digits that do not hold, or a run shorter than its country's IBANs: no IBAN, no joining.
    assert id_tokens("GB33 BUKB 2020 1555 5555 56") == "GB33"
    assert id_tokens("GB33 BUKB 2020 1555 5555") == "GB33"
    assert id_tokens("BE68 5390 0754 7034 paid") == "BE68539007547034"  # Belgium's are 16 long



def test_letters_the_text_index_keeps_are_also_spelled_out():
    """unicode61 takes off accents that decompose (é, ü), not ß, ø, æ, ł: a word holding them is
    asked and stored in both spellings, so Strasse finds Straße and Straße finds Strasse."""
    assert match_expression(parse("Leopoldstraße"), "and") == '("Leopoldstraße" OR "leopoldstrasse")'
    assert match_expression(parse("København"), "and") == '("København" OR "kobenhavn")'
    assert match_expression(parse("Strasse café"), "and") == '"Strasse" AND "café"'  # nothing to spell out
    assert extra_tokens("Dr. Müller, Leopoldstraße 12, Łódź and Ærø") == "leopoldstrasse lódź aero"  # ó, ź: the index takes those off itself


def test_an_amount_with_thousands_separators_is_also_stored_as_its_whole_number():
    """The text index holds "2,162.00" as 2 / 162 / 00 (and the ID machinery as 216200): a search for
    2162 found nothing. Its whole number is stored too, whichever separators the amount uses."""
    assert extra_tokens("Net 2,162.00 EUR") == "216200 2162"
    assert extra_tokens("Netto 2.162,00 EUR") == "216200 2162"
    assert extra_tokens("CHF 12'500.50").split()[-1] == "12500"
    assert extra_tokens("Pi is 3.14, page 12, year 2025") == ""  # no thousands group: nothing to add
