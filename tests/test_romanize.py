"""Hindi and Tamil words typed in Latin letters (scent.romanize): sound keys, and search by them."""
from __future__ import annotations

import pytest

from scent.romanize import KEY_PREFIX, keys, query_key, romanized, sound_key


@pytest.mark.parametrize("word, said", [
    ("शादी", "shaadii"), ("कब", "kab"), ("रोहन", "rohan"), ("कतली", "katlii"),  # the unsaid "a": end, middle
    ("मोतियाबिंद", "motiyaabind"), ("ज़रूर", "zaruur"),  # anusvara, nukta
    ("சாம்பார்", "chaampaar"), ("சென்னை", "chennai"), ("தாத்தா", "thaaththaa"),  # Tamil: pulli, vowel signs
])
def test_a_word_read_aloud_in_latin_letters(word, said):
    assert romanized(word) == said


@pytest.mark.parametrize("word, typed", [
    ("शादी", "shaadi"), ("शादी", "shadi"), ("कब", "kab"), ("गुलाब", "gulab"), ("जामुन", "jamun"), ("दिवाली", "diwali"),
    ("पनीर", "paneer"), ("चाय", "chai"), ("चिट्ठी", "chitthi"), ("कतली", "katli"),
    ("சாம்பார்", "sambar"), ("செய்முறை", "seimurai"), ("அன்புள்ள", "anbulla"), ("தாத்தா", "thatha"),
    ("முழங்கால்", "muzhangal"), ("கடிதம்", "kaditham"),
])
def test_how_people_type_a_word_meets_its_key(word, typed):
    assert query_key(typed) in keys(word).split()


def test_keys_are_kept_apart_from_words_and_short_ones_are_not_made():
    assert keys("योजना") == f"{KEY_PREFIX}yosn {KEY_PREFIX}yosan"  # with and without the inner "a" (yojana)
    assert keys("की है") == f"{KEY_PREFIX}hai"  # "ki": too short to key
    assert keys("plain English, no script") == ""
    assert query_key("ki") is None and query_key("LD-2026") is None and query_key("café") is None
    assert sound_key("Chennai") == sound_key("chenai") == "senai"


def test_a_hindi_note_is_found_by_its_words_typed_in_latin_letters(tmp_path, fake_embedder):
    from scent.index import Index

    root = tmp_path / "f"
    root.mkdir()
    (root / "chitthi.txt").write_text("प्रिय सुनीता, रोहन की शादी दिसंबर में है। मिठाई में काजू कतली होगी।\n")
    (root / "note.md").write_text("Reminder: the wedding gift for Anna, and sweets for the office party.\n")
    with Index(str(root), index_dir=tmp_path / "ix", embedder=fake_embedder) as idx:
        idx.update()
        assert [r.path for r in idx.search("rohan ki shaadi", k=2, strategy="keyword")] == ["chitthi.txt"]
        assert [r.path for r in idx.search("kaju katli", k=2, strategy="keyword")] == ["chitthi.txt"]
        # Such a query's language is none (langid reads it as Indonesian: every note of another
        # language would stand in for its keyword rank); one in Devanagari keeps its own.
        from scent.language import query_language

        assert query_language("kiraya bijli pani kharch") == "id" and idx._request("kiraya bijli pani kharch", None, {}).lang is None
        assert idx._request("रोहन की शादी कब है", None, {}).lang == "hi"
        assert idx._request("where did I put the sweets for the office party", None, {}).lang == "en"


def test_an_index_without_hindi_or_tamil_asks_for_no_keys(tmp_path, fake_embedder):
    from scent.index import Index

    root = tmp_path / "f"
    root.mkdir()
    (root / "note.md").write_text("The wedding is in December.\n")
    with Index(str(root), index_dir=tmp_path / "ix", embedder=fake_embedder) as idx:
        idx.update()
        assert KEY_PREFIX not in " ".join(t.fts for t in idx._request("shaadi december", None, {}).keywords.terms)
