"""Confidence of a result (scent.confidence) and how the CLI shows weak matches."""
import json

import pytest

from scent import Index
from scent import confidence as sure
from scent.query import parse


@pytest.mark.parametrize("query, text, expected", [
    ("deposit refund", "The deposit refund is due.", 1.0),
    ("deposits refunded late", "The deposit refund is due.", 2 / 3),     # by stem; "late" is missing
    ("test_settlement_rounding", "def test_settlement_rounding(): pass", 1.0),
    ("settlement rounding", "def test_settlement_rounding(): pass", 1.0),  # identifiers split as indexed
    ("LD20260417", "Ticket LD-2026-0417.", 1.0),                            # an ID by its normalised form
    ("xyzzyplugh", "The deposit refund is due.", 0.0),
])
def test_coverage_by_hand(query, text, expected):
    assert sure.coverage(parse(query), text) == pytest.approx(expected)


def test_coverage_counts_an_or_group_once_held_by_any_member():
    q = parse("march", alternatives=(("invoice", "sales receipt"),))
    assert sure.coverage(q, "the sales receipt for March") == 1.0
    assert sure.coverage(q, "an invoice") == 0.5
    assert sure.coverage(q, "sales in March") == 0.5  # half a phrase holds nothing


def test_coverage_holds_words_joined_by_hyphens_only_side_by_side():
    # as the keyword list matches them: a phrase
    assert sure.coverage(parse("second-hand shop"), "the second-hand shop on Vale Street") == 1.0
    assert sure.coverage(parse("second-hand shop"), "Second hand shop") == 1.0
    assert sure.coverage(parse("second-hand shop"), "the shop's second year, all made by hand") == 0.5
    q = parse("march", alternatives=(("invoice", "sales receipt"),))
    assert sure.coverage(q, "the receipt for the sales in March") == 0.5
    assert sure.coverage(parse("parse_http_header"), "parseHttpHeader") == 1.0  # identifier parts: anywhere
    assert sure.coverage(parse("parseHttpHeader"), "def parse_http_header(raw):") == 1.0


def test_a_name_with_symbols_is_held_whole():
    assert sure.coverage(parse("C++ templates"), "Templates in C++.") == 1.0
    assert sure.coverage(parse("C++ templates"), "Templates in C and C#.") == 0.5
    assert sure.coverage(parse("C templates"), "Templates in C++.") == 1.0  # the letter is there


def test_a_word_naming_a_kind_of_picture_is_no_topic():
    """Every photo's description holds "photo": "photo of the eiffel tower" is about the tower."""
    assert sure.coverage(parse("photo of the eiffel tower"), "photo, a bicycle, grey, blue") == 0.0
    assert sure.coverage(parse("photo of a red bicycle"), "photo, a bicycle, grey, blue") == 0.5
    assert sure.coverage(parse("bar chart of monthly sales"), "chart, bar chart, sales") == 2 / 3
    assert sure.coverage(parse("photos"), "photo, a bicycle") == 1.0  # all it says: kept
    assert sure.coverage(parse("screenshots charts"), "a chart") == 0.5


@pytest.mark.parametrize("text, asks", [
    ("map of the survey zones", True), ("Map of the zones", True), ("photos from Lisbon", True),
    ("comparing the baseline and SimCLR mAP", False), ("MAP estimate of the prior", False),
    ("final validation mAP and the loss plot", True), ("mapping of the zones", False)])
def test_an_acronym_is_no_kind_of_picture(text, asks):
    assert sure.asks_for_picture(text) is asks


def test_an_acronym_is_a_topic():
    assert sure.coverage(parse("mAP"), "macro mAP 0.58") == 1.0
    assert [t.text for t in sure.topic_terms(parse("SimCLR mAP"))] == ["SimCLR", "mAP"]
    assert [t.text for t in sure.topic_terms(parse("SimCLR map"))] == ["SimCLR"]


def test_coverage_of_no_terms_is_zero():
    assert sure.coverage(parse(""), "anything") == 0.0


def test_features_and_probability_by_hand():
    facts = {"lang": "en", "terms": 2, "terms_in_index": 1}
    x = sure.features({"dense": 0.85, "dense_50": 0.80, "coverage": 0.5, "keyword": True, "lang": "ta",
                       "kind": "image", "rank": 2, "dense_rank": 4, "keyword_rank": None}, facts)
    got = dict(zip(sure.FEATURES, x))
    assert got["dense_margin"] == pytest.approx(0.05)
    assert got["in_index"] == 0.5 and got["no_word_in_index"] == 0.0
    assert got["other_language"] == 1.0 and got["picture"] == 1.0 and got["picture_cov"] == 0.5
    assert got["inv_rank"] == 0.5 and got["inv_dense_rank"] == 0.25 and got["inv_keyword_rank"] == 0.0
    # bias 1 + 2 x coverage 0.5 = 2: 1 / (1 + e^-2)
    assert sure.probability({"bias": 1.0, "coverage": 2.0}, x) == pytest.approx(1 / (1 + 2.718281828 ** -2))
    assert sure.assess(x, {"bias": 1.0, "coverage": 2.0}, floor=0.9) == (pytest.approx(0.8808, abs=1e-4), True)


def test_nonsense_has_no_word_in_the_index(notes, fake_embedder):
    with Index(notes, embedder=fake_embedder) as idx:
        idx.update()
        results = idx.search("xyzzyplugh frimble", k=3)
        good = idx.search("deposit refund", k=3)
    assert all(r.confidence is not None and 0 <= r.confidence <= 1 for r in results + good)
    assert all(isinstance(r.weak, bool) for r in results)
    d = results[0].to_dict()
    assert set(d) >= {"confidence", "weak"}
    assert results[0].confidence < good[0].confidence


def test_cli_says_no_good_match_and_lists_weak_ones(monkeypatch):
    from scent import commands
    from scent.search import SearchResult

    def result(rank, weak, conf):
        return SearchResult(rank, f"f{rank}.txt", None, "text", "text", 0.01, "snip", [], "", 0.0, rank,
                            confidence=conf, weak=weak)

    shown = []
    monkeypatch.setattr(commands.click, "echo", lambda text="", **kw: shown.append(str(text)))
    commands._show([result(1, False, 0.9), result(2, True, 0.1)], as_json=False, several=False)
    assert [s for s in shown if not s.startswith("    ")] == [
        commands.click.style("f1.txt", bold=True).join([" 1. ", "  [text]  0.0100  90% sure"]), "weak matches:",
        commands.click.style("f2.txt", bold=True).join([" 2. ", "  [text]  0.0100  10% sure"])]
    shown.clear()
    # A weak result ranked between sure ones: listed after them, numbered as listed (fused ranks 1, 3, then 2).
    commands._show([result(1, False, 0.9), result(2, True, 0.2), result(3, False, 0.7)], as_json=False, several=False)
    assert [s.split(".")[0] for s in shown if not s.startswith("    ")] == [" 1", " 2", "weak matches:", " 3"]
    assert [s for s in shown if not s.startswith("    ")][1].startswith(" 2. " + commands.click.style("f3.txt", bold=True))
    shown.clear()
    commands._show([result(1, False, 0.998)], as_json=False, several=False)
    assert shown[0].endswith("  [text]  0.0100  99% sure")  # never 100%
    shown.clear()
    commands._show([result(1, True, 0.1)], as_json=False, several=False)
    assert shown[0].startswith("no good match")
    shown.clear()
    commands._show([result(1, True, 0.1)], as_json=True, several=False)
    assert json.loads(shown[0])["weak"] is True and json.loads(shown[0])["confidence"] == 0.1
    # -k 2 of results assessed deeper: the sure one at fused rank 3 is shown first, as with -k 10;
    # "no good match" is not said for the two weak ones above it. JSON keeps the fused order.
    ten = [result(1, True, 0.2), result(2, True, 0.1), result(3, False, 0.6), result(4, True, 0.1)]
    shown.clear()
    commands._show(ten, as_json=False, several=False, k=2)
    listed = [s for s in shown if not s.startswith("    ")]
    assert [s.split(". ")[1].split()[0] for s in listed if s[:1] == " "] == [commands.click.style(f"f{i}.txt", bold=True)
                                                                             for i in (3, 1)]
    assert not any(s.startswith("no good match") for s in shown)
    shown.clear()
    commands._show(ten, as_json=True, several=False, k=2)
    assert [json.loads(s)["path"] for s in shown] == ["f1.txt", "f2.txt"]


def test_words_outside_a_filter_still_count_as_in_the_index(notes, fake_embedder):
    """A narrowed search that holds none of the query's words where it looks is not nonsense: the
    words are in the folder (by hand: "deposit" and "refund" are in lease.md, outside code/)."""
    from scent import Filters

    with Index(notes, embedder=fake_embedder) as idx:
        idx.update()
        narrowed = idx._request("deposit refund", Filters.build(path="code/"), {})
        nonsense = idx._request("xyzzyplugh frimble", Filters.build(path="code/"), {})
        facts, none = sure.query_facts(narrowed), sure.query_facts(nonsense)
    assert (facts["terms"], facts["terms_in_index"]) == (2, 2)
    assert (none["terms"], none["terms_in_index"]) == (2, 0)


def test_a_query_of_stop_words_holds_no_word_of_a_topic(notes, fake_embedder):
    """"the" and "is" are in the notes, but a query of only such words names no topic: none of its
    terms counts as held (a confident "a" was every note at 99%). A quoted phrase is no stop word."""
    with Index(notes, embedder=fake_embedder) as idx:
        idx.update()
        only = sure.query_facts(idx._request("what is the", None, {}))
        mixed = sure.query_facts(idx._request("the deposit", None, {}))
        phrase = sure.query_facts(idx._request('"the deposit"', None, {}))
        group = sure.query_facts(idx._request("a AND OR NOT", None, {}))
        named = sure.query_facts(idx._request("the OR deposit", None, {}))
    assert (only["terms"], only["terms_in_index"]) == (3, 0)
    # "a" and the group ("AND" OR "NOT", searched as typed): every note holds both, neither names a topic.
    assert (group["terms"], group["terms_in_index"]) == (2, 0)
    assert (named["terms"], named["terms_in_index"]) == (1, 1)
    assert (mixed["terms"], mixed["terms_in_index"]) == (1, 1)
    assert (phrase["terms"], phrase["terms_in_index"]) == (1, 1)


def test_a_picture_kind_is_not_a_term_the_index_holds(notes, fake_embedder):
    """"recipe" names no kind and counts; "photo" and "chart" do, so "photo of the tomato soup"
    has two terms, both held (recipe.txt), and "chart of the garlic" one."""
    with Index(notes, embedder=fake_embedder) as idx:
        idx.update()
        photo = sure.query_facts(idx._request("photo of the tomato soup", None, {}))
        chart = sure.query_facts(idx._request("chart of the garlic", None, {}))
        tower = sure.query_facts(idx._request("photo of the eiffel tower", None, {}))
    assert (photo["terms"], photo["terms_in_index"], photo["picture_intent"]) == (2, 2, True)
    assert (chart["terms"], chart["terms_in_index"]) == (1, 1)
    assert (tower["terms"], tower["terms_in_index"]) == (2, 0)


@pytest.mark.parametrize("lang, langs, text, settled", [
    (None, ["es", "en"], "Spanish potato omelette", "en"),  # a result in Spanish, a query of English words
    (None, ["en", None], "Spanish potato omelette", None),  # no other-language result: left open
    (None, ["es"], "receta de pan", None),  # not English words
    ("pt", ["en"], "receita de pão", "pt"),  # a language already read stays
])
def test_an_open_language_is_english_only_for_english_words_beside_another_language(lang, langs, text, settled):
    assert sure.settle_language({"lang": lang}, text, langs)["lang"] == settled


def test_a_short_english_query_weighs_a_spanish_answer_as_another_language(notes, fake_embedder):
    """"potato omelette" is too short for its language to be read (scent.language.query_language),
    but its words are English: with the Spanish note among the results the query's facts say English,
    and the note's other_language fact is 1 (hand-checked: features' 8th value)."""
    from scent import search

    (notes / "tortilla.md").write_text("# Tortilla de patatas\n\nPelar las patatas y cortarlas en láminas finas. "
                                       "Freírlas despacio en aceite de oliva con la cebolla, batir los huevos y "
                                       "cuajar la tortilla en la sartén por los dos lados.\n")
    with Index(notes, embedder=fake_embedder) as idx:
        idx.update()
        request = idx._request("potato omelette", None, {})
        assert request.lang is None
        results, _ = search.run(request, 10)
    spanish = next(r for r in results if r.path == "tortilla.md")
    assert request.facts["lang"] == "en"
    assert sure.features({"lang": "es", "rank": spanish.rank}, request.facts)[sure.FEATURES.index("other_language")] == 1.0


def test_a_file_outside_the_dense_list_is_weighed_by_its_own_cosine():
    lists = {"dense": [(1, 0.90), (2, 0.80)], "keyword": [(3, 7.0), (1, 5.0)]}
    paths = {1: "a.md", 2: "b.md", 3: "log.txt"}
    cosines = {3: 0.83}
    inputs = sure.result_inputs(lists, paths.get, [("log.txt", 3), ("a.md", 1)],
                                lambda uid: {"lang": "en", "kind": "text", "coverage": 1.0, "cosine": cosines.get(uid)})
    assert inputs[0]["dense"] == 0.83 and inputs[0]["dense_rank"] is None and inputs[0]["keyword_rank"] == 1
    assert inputs[1]["dense"] == 0.90 and inputs[1]["dense_rank"] == 1
    assert "cosine" not in inputs[0]
    x = dict(zip(sure.FEATURES, sure.features(inputs[0], {"lang": "en", "terms": 1, "terms_in_index": 1})))
    assert x["dense"] == 0.83 and x["below_top_dense"] == pytest.approx(0.83 - 0.90)
    assert x["inv_dense_rank"] == 0.0


def test_a_units_own_cosine_is_its_dense_score(notes, fake_embedder):
    """unit_cosines scores a unit as the dense list does (best of its vectors against the query's),
    so a file outside that list is weighed on the same scale as those in it."""
    from scent import search

    with Index(notes, embedder=fake_embedder) as idx:
        idx.update()
        r = idx._request("deposit refund LD-2026-0417", None, {})
        listed = dict(search.dense_search(r, search.query_vector(r)))
        own = search.unit_cosines(r, sorted(listed))
        off = idx._request("deposit refund", None, {"strategy": "keyword"})
        assert search.unit_cosines(off, sorted(listed)) == {}
    # The list scores int8 codes against the query, get() gives the vectors decoded: rounding apart
    assert len(listed) >= 3 and own == pytest.approx(listed, abs=0.01)
