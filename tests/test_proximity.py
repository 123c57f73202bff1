from scent.proximity import hits, window_share
from scent.query import parse


def test_hits_are_word_positions_and_stems_in_text_order():
    q = parse("warranty coffee machine")
    # Words are counted as snippet.matches splits them: "AC-200" is two words (AC, 200).
    text = "The AC-200 has a two-year warranty for the coffee machine"
    assert hits(text, q) == [(7, "warranti"), (10, "coffe"), (11, "machin")]


def test_an_id_is_one_hit_under_its_normalised_form():
    q = parse("ticket LD-2026-0417")
    assert hits("ticket number LD-2026-0417 is open", q) == [(0, "ticket"), (2, "LD20260417")]


def test_window_share_counts_the_most_query_words_within_the_width():
    found = [(0, "a"), (5, "b"), (30, "c"), (33, "a")]
    even = {"a": 1.0, "b": 1.0, "c": 1.0}
    # positions 0 and 5 hold a and b within 12 words; 30 and 33 hold c and a: 2 of 3 either way
    assert window_share(found, even) == 2 / 3
    # one window of 40 words holds all three
    assert window_share(found, even, width=40) == 1.0
    # width 3: a window holds words 30..32 or 31..33, never both 30 and 33; one word at a time
    assert window_share(found, even, width=3) == 1 / 3
    assert window_share(found, even, width=4) == 2 / 3


def test_window_share_weighs_words():
    found = [(0, "a"), (5, "b"), (30, "c"), (33, "a")]
    # c is rare (weight 3): the window at 30..33 holds c and a, 3 + 1 of 1 + 1 + 3
    assert window_share(found, {"a": 1.0, "b": 1.0, "c": 3.0}) == 4 / 5


def test_window_share_is_zero_without_hits_or_weights():
    assert window_share([], {"a": 1.0}) == 0.0
    assert window_share([(0, "a")], {}) == 0.0
    assert window_share([(0, "a")], {"b": 1.0}) == 0.0


def test_a_repeated_word_counts_once_per_window():
    found = [(0, "a"), (1, "a"), (2, "a"), (3, "b")]
    assert window_share(found, {"a": 1.0, "b": 1.0}) == 1.0
    # width 2: the window at 2..3 holds a and b
    assert window_share(found, {"a": 1.0, "b": 1.0}, width=2) == 1.0
    assert window_share([(0, "a"), (1, "a"), (5, "b")], {"a": 1.0, "b": 1.0}, width=2) == 0.5
