"""Misspelt query words (scent.spelling): which words are corrected, to what, and how a search says so.
The index is real (SQLite, the `notes` files of conftest); the embedder is the fake one."""
from __future__ import annotations

import pytest

from scent import Index
from scent.query import parse
from scent.spelling import corrected_query, corrected_text, is_english, is_known, slips


def test_slips_are_one_letter_dropped_added_changed_or_two_swapped():
    assert {"bc", "ac", "ab", "bac", "acb", "abcd", "xbc"} <= slips("abc")
    assert "abc" not in slips("abc") and "ca" not in slips("abc")  # two slips away
    # "ab", counted by hand: 2 dropped (b, a), 1 swapped (ba), 2 x 25 changed, 3 x 26 added of which
    # aab and abb are made twice (an a before or after the a, a b before or after the b).
    assert len(slips("ab")) == 2 + 1 + 50 + (78 - 2)


@pytest.mark.parametrize("word", ["chess", "stone", "ibex", "rigs", "largest", "running", "flourless", "happier",
                                  "tortilla", "kartoffel"])
def test_a_dictionary_word_or_a_regular_form_of_one_is_known(word):
    assert is_known(word)


@pytest.mark.parametrize("word", ["securty", "depost", "paymets", "xyzzyplugh", "monitring"])
def test_a_slip_is_not_known(word):
    assert not is_known(word)


def test_a_correction_replaces_the_word_in_the_keywords_and_the_text():
    query = corrected_query(parse("Depost refund"), {"depost": "deposit"})
    assert [t.text for t in query.terms] == ["deposit", "refund"]
    assert query.terms[0].fts == '"deposit"'
    assert corrected_text("Depost refund, depost slip", {"depost": "deposit"}) == "deposit refund, deposit slip"
    assert corrected_text("deposted", {"depost": "deposit"}) == "deposted"  # whole words only


@pytest.fixture
def index(notes, fake_embedder, tmp_path):
    with Index(notes, index_dir=tmp_path / "idx", embedder=fake_embedder) as idx:
        idx.update()
        yield idx


def test_a_word_no_file_holds_is_searched_as_the_word_one_slip_away(index):
    # lease.md: "The deposit refund is due within 30 days."
    assert index.spelling("deposti refnd") == {"deposti": "deposit", "refnd": "refund"}
    assert index.search("deposti refnd", k=1)[0].path == "lease.md"


def test_a_word_too_long_to_be_a_slip_is_not_looked_for(index, monkeypatch):
    from scent import spelling

    looked = []
    monkeypatch.setattr(spelling, "slips", lambda word: looked.append(word) or set())
    assert index.spelling("deposit " + "a" * 900) == {} and looked == []
    index.spelling("deposti")
    assert looked == ["deposti"]  # the same way, a word of a length a slip has is looked for


@pytest.mark.parametrize("query", [
    '"deposti" refund',      # quoted: searched as typed
    "chess refund",          # a real word the folder lacks
    "soop refund",           # four letters: one slip from too many words
    "deposit refund",        # every word held
    '"LD-2026-0418"',        # a quoted ID
])
def test_words_that_are_searched_as_typed(index, query):
    assert index.spelling(query) == {}


def test_an_id_no_file_holds_is_searched_as_the_one_a_file_holds_one_character_off(index, notes):
    """The ID list found lease.md for LD-2026-0418 (one character off), and the result read as no good match
    (0% sure: the index held none of the query's words): said as a correction, it is searched and weighed as
    the ID the folder holds. Two IDs one off: neither is said, the ID list finds both."""
    found = index.search("LD-2026-0418", k=1)
    assert found.corrected == {"ld-2026-0418": "LD-2026-0417"} and found[0].path == "lease.md"
    assert not found[0].weak
    assert index.spelling("lease ld-2026-0418") == {"ld-2026-0418": "ld-2026-0417"}  # written as typed
    (notes / "other.md").write_text("Lease reference LD-2026-0419, the garage.\n")
    index.update()
    assert index.spelling("LD-2026-0418") == {}
    assert {r.path for r in index.search("LD-2026-0418", k=2)} == {"lease.md", "other.md"}


def test_an_id_one_off_is_respelt_as_it_was_typed():
    from scent.spelling import respelt

    assert respelt("LD-2026-0418", "LD20260417") == "LD-2026-0417"  # changed
    assert respelt("inv-20932", "INV2093") == "inv-2093"            # dropped
    assert respelt("INV-2093", "INV20932") == "INV-20932"           # added at the end
    assert respelt("AB-12345", "XAB12345") == "XAB-12345"           # added at the start


def test_a_stop_word_with_two_letters_swapped_or_one_dropped_is_that_stop_word(index):
    # ("adn" is not "and": French has "adn")
    assert index.spelling("teh deposit taht refund") == {"teh": "the", "taht": "that"}
    # left out as stop words are: the keyword list reads what "deposit refund" reads
    assert [(r.path, r.confidence) for r in index.search("teh deposit taht refund", strategy="keyword")] == \
        [(r.path, r.confidence) for r in index.search("deposit refund", strategy="keyword")]
    assert index.spelling("deposit refund abou lease") == {"abou": "about"}  # a letter dropped
    assert index.spelling("tge deposit") == {}  # a changed letter: a short word has too many neighbours
    assert index.spelling("hte deposit") == {}  # "the", but not with its first letter kept


def test_spelling_can_be_turned_off(index):
    assert index.spelling("deposti refund", spelling=False) == {}
    assert index.search("deposti", k=3, spelling=False, strategy="keyword") == []
    assert [r.path for r in index.search("deposti", k=3, strategy="keyword")] == ["lease.md"]


def test_a_slip_of_the_first_letter_needs_the_other_words(index):
    # "tefund" is one slip from "refund" (lease.md), but its first letter: taken only beside words held with it.
    assert index.spelling("tefund deposit") == {"tefund": "refund"}
    assert index.spelling("tefund garlic") == {}
    assert index.spelling("tefund") == {}


def test_a_word_only_the_folder_knows_is_a_correction_too(tmp_path, fake_embedder):
    (tmp_path / "ui.md").write_text("Debounce the search box input. Kubernetes drains the node. Covers and covering.\n")
    with Index(tmp_path, index_dir=tmp_path / "idx", embedder=fake_embedder) as idx:
        idx.update()
        # no dictionary has them; the index holds them as "debounc" and "kubernet"
        assert idx.spelling("debouce input") == {"debouce": "debounce"}
        assert idx.spelling("kubrnetes node") == {"kubrnetes": "kubernetes"}
        assert idx.spelling("kubernets node") == {}  # held as it is: "kubernet", the stem of kubernetes
        # "coveration" (one slip from "coveraton") is held as "cover", five letters short of it: no word
        assert idx.spelling("coveraton node") == {}


def test_a_joined_word_is_searched_as_the_files_hyphenate_it(tmp_path, fake_embedder):
    (tmp_path / "shop.md").write_text("Bought a second-hand bike and a non-stick pan. The replica is read-only.\n"
                                      "The oncall rota. The rapist was caught. We set up the router.\n")
    with Index(tmp_path, index_dir=tmp_path / "idx", embedder=fake_embedder) as idx:
        idx.update()
        # dictionary words or not, written with a hyphen in the file
        assert idx.spelling("secondhand nonstick pan") == {"secondhand": "second-hand", "nonstick": "non-stick"}
        assert idx.spelling("readonly replica") == {"readonly": "read-only"}
        # two words side by side with a space are no hyphenated word: "therapist", "setup" stay
        assert idx.spelling("therapist") == {}
        assert idx.spelling("setup router") == {}
        # the other way: a hyphenated word no file holds, which files write joined
        assert idx.spelling("on-call rota") == {"on-call": "oncall"}
        assert idx.spelling('"readonly" replica') == {}  # quoted: as typed
        # the keyword list reads the hyphenated word as the phrase the file holds
        hits = idx.search("readonly", k=1, strategy="keyword")
        assert [h.path for h in hits] == ["shop.md"] and hits.corrected == {"readonly": "read-only"}


def test_the_words_of_a_query_in_another_language_are_not_corrected(tmp_path, fake_embedder):
    from scent.language import query_language

    (tmp_path / "bake.md").write_text("Combine the flour and the butter, then bake for an hour.\n")
    with Index(tmp_path, index_dir=tmp_path / "idx", embedder=fake_embedder) as idx:
        idx.update()
        assert query_language("combien coûte le beurre") == "fr"  # 19 letters: short, but a French word
        assert idx.spelling("combien coûte le beurre") == {}  # "how much is the butter", not "combine"
        assert idx.spelling("conbine the flour") == {"conbine": "combine"}  # an English query: a slip
        # "combien" itself is a French question word, a stop word in every query (stopwords.py).
        assert idx.spelling("combien the flour") == {}
        assert query_language("garage door opener") is None  # the guesser says Dutch; no word bears it out


@pytest.mark.parametrize("query", ["receita de lentilha", "notas de reunião", "foto da caminhada"])
def test_a_short_query_of_another_language_s_headwords_is_read_as_that_language(query):
    # Each has a Portuguese headword no English list holds (receita, notas, caminhada); glossed
    # languages' headwords are known words to spelling (is_known) but not English ones.
    from scent.language import query_language

    assert query_language(query) == "pt"


@pytest.mark.parametrize("word, english", [("potato", True), ("omelettes", True), ("the", True), ("whose", True),
                                           ("receta", False), ("kartoffel", False), ("securty", False)])
def test_an_english_word_is_one_of_english_s_lists_not_another_language_s(word, english):
    """`is_known` holds the glossed languages' headwords too ("receta", "kartoffel"); `is_english` not."""
    assert is_english(word) is english


def test_the_headwords_spelling_reads_are_the_glossaries_headwords():
    # headwords.txt.gz is written from the glossaries (tools/make_glossary.py --headwords); Hindi's
    # are left out (no Devanagari word is one slip from an English one).
    from scent.gloss import _table
    from scent.spelling import _other_languages

    expected = {w for lang in ("es", "fr", "pt", "de") for w in _table(lang)[0]}
    headwords = _other_languages()
    assert len(headwords) == len(expected) and all(w in headwords for w in expected)
