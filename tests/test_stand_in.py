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
    lists = {"dense": DENSE, "keyword": []}
    assert _stand_in(lists, UNITS, "en", top=2) == ([1, None], ["ta.md", None])
    assert _stand_in(lists, UNITS, None, top=10) == ([None] * 6, [None] * 5)


def test_no_stand_in_for_glossed_languages_under_an_english_query():
    lists = {"dense": DENSE, "keyword": [(2, 5.0)]}
    # fr and hi carry an English gloss: absent from the keyword list, they get no stand-in; Tamil does.
    units, files = _stand_in(lists, UNITS, "en", top=10, glossed=frozenset({"fr", "hi"}))
    assert units == [1, None, None, 4, None, None]
    assert files == ["ta.md", None, None, None, None]
    # A French query: its words cannot match a Hindi note's English gloss, so the stand-in stays.
    assert _stand_in(lists, UNITS, "fr", top=10, glossed=frozenset({"fr", "hi"}))[0] == [1, None, None, 4, None, 6]
