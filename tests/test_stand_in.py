"""Keyword rank stand-ins for units in another language than the query (index._stand_in)."""
from __future__ import annotations

from scent.search import stand_in as _stand_in
from scent.storage import StoredUnit


def stored(uid: int, path: str, lang: str | None) -> StoredUnit:
    return StoredUnit(uid, path, "text", "text", None, 0, 1, "", lang, "", 0.0)


UNITS = {1: stored(1, "ta.md", "ta"), 2: stored(2, "en.md", "en"), 3: stored(3, "fr.md", "fr"),
         4: stored(4, "ta.md", "ta"), 5: stored(5, "x.md", None), 6: stored(6, "hi.md", "hi")}
DENSE = [(1, 0.9), (2, 0.8), (3, 0.7), (4, 0.6), (5, 0.5), (6, 0.4)]


def test_other_language_units_keep_their_dense_rank():
    lists = {"dense": DENSE, "keyword": [(2, 5.0), (3, 4.0)]}
    units, files = _stand_in(lists, UNITS, "en", top=10)
    # 2 is English; 3 is French but the keyword list found it; 5's language is unknown.
    assert units == [1, None, None, 4, None, 6]
    # A file's rank is that of its first unit in the dense list.
    assert files == ["ta.md", None, None, None, "hi.md"]


def test_only_near_the_top_and_only_with_a_known_query_language():
    lists = {"dense": DENSE, "keyword": [(2, 5.0)]}
    assert _stand_in(lists, UNITS, "en", top=2) == ([1, None], ["ta.md", None])
    assert _stand_in(lists, UNITS, None, top=10) == ([None] * 6, [None] * 5)


def test_a_query_of_unknown_language_stands_in_only_for_units_of_another_script():
    # "temple festival date in Mylapore": too short for the guesser to say English, but its Latin
    # letters cannot be Tamil or Hindi; the French unit 3 may be in the query's language.
    from scent.language import script

    lists = {"dense": DENSE, "keyword": [(2, 5.0)]}
    assert script("temple festival date in Mylapore") == "LATIN"
    assert _stand_in(lists, UNITS, None, top=10, query_script="LATIN")[0] == [1, None, None, 4, None, 6]
    # A Tamil query: the English and French units are written apart from it; the Tamil ones are not.
    assert script("பொங்கல் எப்போது") == "TAMIL"
    assert _stand_in({"dense": DENSE, "keyword": [(1, 5.0)]}, UNITS, None, top=10,
                     query_script="TAMIL")[0] == [None, 2, 3, None, None, 6]
    # Letters of two scripts, or none: no stand-in without a known language.
    assert script("Pongal பொங்கல்") is None and script("2025-01-14") is None
    assert _stand_in(lists, UNITS, None, top=10, query_script=None)[0] == [None] * 6


def test_none_where_the_keyword_list_found_nothing():
    """No unit of any language holds the query's words: none has a keyword share to make up for."""
    lists = {"dense": DENSE, "keyword": []}
    assert _stand_in(lists, UNITS, "en", top=10) == ([None] * 6, [None] * 5)


def test_glossed_languages_under_an_english_query():
    fr_hi = frozenset({"fr", "hi"})
    lists = {"dense": DENSE, "keyword": [(2, 5.0)]}
    # "none": fr and hi carry an English gloss, so absent from the keyword list they get no stand-in; Tamil does.
    assert _stand_in(lists, UNITS, "en", top=10, glossed=(fr_hi, "none")) == (
        [1, None, None, 4, None, None], ["ta.md", None, None, None, None])
    # "better": a stand-in when the keyword rank is worse than the dense rank (absent counts as worse).
    assert _stand_in(lists, UNITS, "en", top=10, glossed=(fr_hi, "better"))[0] == [1, None, 3, 4, None, 6]
    # French unit 3: dense rank 3, keyword rank 2 -> none; keyword rank 4 -> its dense rank stands in.
    assert _stand_in({"dense": DENSE, "keyword": [(2, 5.0), (3, 4.0)]}, UNITS, "en", top=10,
                     glossed=(fr_hi, "better"))[0] == [1, None, None, 4, None, 6]
    # (Hindi unit 6 there: dense rank 6, keyword rank 3 -> none.)
    assert _stand_in({"dense": DENSE, "keyword": [(2, 5.0), (5, 4.5), (6, 4.2), (3, 4.0)]}, UNITS, "en", top=10,
                     glossed=(fr_hi, "better"))[0] == [1, None, 3, 4, None, None]
    # "absent": as any other language (the found unit 3 gets none).
    assert _stand_in({"dense": DENSE, "keyword": [(2, 5.0), (3, 4.0)]}, UNITS, "en", top=10,
                     glossed=(fr_hi, "absent"))[0] == [1, None, None, 4, None, 6]


def test_which_units_a_gloss_reaches_depends_on_the_query_language():
    from scent.gloss import GLOSSED
    from scent.search import glossed
    from scent.settings import Settings

    s = Settings()
    # An English query reaches the glossed languages' units through their stored English gloss.
    assert glossed(s, "en") == (GLOSSED, "better")
    assert glossed(s.with_values(english_gloss=False), "en") == (frozenset(), "better")
    # A French query is searched in English too (translate_query): English units can hold its words,
    # a Hindi note's English gloss cannot match French words.
    assert glossed(s, "fr") == (frozenset({"en"}), "better")
    assert glossed(s.with_values(translate_query="off"), "fr") == (frozenset(), "better")
    # No word list for Tamil, and an unknown language is no language.
    assert glossed(s, "ta") == (frozenset(), "better")
    assert glossed(s, None) == (frozenset(), "better")


def test_english_units_under_a_query_searched_in_english_too():
    # A German query (searched in English too): the English unit 2 (dense rank 2) is absent from
    # the keyword list, so "better" gives it its dense rank; found there first, it gets none.
    units = {**UNITS, 3: stored(3, "de.md", "de")}
    en = (frozenset({"en"}), "better")
    assert _stand_in({"dense": DENSE, "keyword": [(3, 5.0)]}, units, "de", top=10, glossed=en)[0] == \
        [1, 2, None, 4, None, 6]
    assert _stand_in({"dense": DENSE, "keyword": [(2, 5.0)]}, units, "de", top=10, glossed=en)[0] == \
        [1, None, None, 4, None, 6]
    # "none": English units never stand in under such a query; Tamil and Hindi still do.
    assert _stand_in({"dense": DENSE, "keyword": [(3, 5.0)]}, units, "de", top=10,
                     glossed=(frozenset({"en"}), "none"))[0] == [1, None, None, 4, None, 6]


def test_a_stand_in_replaces_the_keyword_rank():
    from scent.search import replaced

    paths = {1: "ta.md", 2: "en.md", 3: "fr.md", 4: "ta.md"}
    # fr.md has a stand-in rank: its keyword rank (2) is held by None; en.md keeps rank 1, ta.md
    # (units 4 then 1) ranks 3 by its best unit left.
    units, files = replaced([2, 3, 4, 1], [None, "fr.md"], paths.__getitem__)
    assert units == [2, None, 4, 1]
    assert files == ["en.md", None, "ta.md"]
    # By file: ta.md stands in, so both its units leave the keyword list. ta.md held one file
    # rank, so later files keep theirs.
    assert replaced([2, 3, 4, 1], ["ta.md"], paths.__getitem__) == ([2, 3, None, None], ["en.md", "fr.md", None])
    assert replaced([4, 1, 2], ["ta.md"], paths.__getitem__) == ([None, None, 2], [None, "en.md"])


def test_a_file_first_by_meaning_and_in_the_keyword_list_keeps_its_keyword_rank():
    """Its first unit in the dense list (1, page 1) is in the keyword list, so the file gets no
    stand-in rank; its page 4 (unit 4, not in the keyword list) stands in at the unit level only.
    The file's keyword rank stays (it was taken away, and the file counted in neither list)."""
    paths = {1: "newsletter.pdf", 4: "newsletter.pdf", 5: "doctor.md", 6: "recipe.md"}
    units = {u: stored(u, paths[u], {1: "fr", 4: "fr", 5: "en", 6: "pt"}[u]) for u in paths}
    lists = {"dense": [(1, 0.91), (5, 0.89), (4, 0.88)], "keyword": [(1, 9.0), (6, 5.0)]}
    unit_run, file_run = _stand_in(lists, units, "pt", top=10)
    assert unit_run == [None, 5, 4] and file_run == [None, "doctor.md"]
    from scent.search import replaced

    assert replaced([1, 6], file_run, paths.__getitem__) == ([1, 6], ["newsletter.pdf", "recipe.md"])
