"""Arabic words and their stems in keyword search (scent.stems)."""
from __future__ import annotations

from scent import Index
from scent.query import parse
from scent.stems import stems, with_stems

from conftest import FakeEmbedder


def test_arabic_spellings_of_a_word_share_a_stem():
    # the article joined to its word; a hamza on the alef or not; vowel marks or not
    assert stems("الكتاب", "ar") == "كتاب" and stems("كتاب", "ar") == ""  # a stem that is the word adds nothing
    assert stems("الأبراج", "ar") == stems("الابراج", "ar") == "ابراج"
    assert stems("خَيْرُ", "ar") == "خير"
    assert stems("الأبراج الابراج الكتاب", "ar") == "ابراج كتاب"  # each once, in order
    assert stems("las canciones", "es") == stems("the songs", "en") == stems("الكتاب", None) == ""


def test_an_arabic_query_word_matches_its_stem_too():
    query = with_stems(parse("الأبراج 2024"), "ar")
    assert [t.texts for t in query.terms] == [("الأبراج", "ابراج"), ("2024",)]
    assert query.terms[0].fts == '("الأبراج" OR "ابراج")'
    english = parse("the songs")
    assert with_stems(english, "en") is english


def test_an_arabic_note_is_found_however_its_words_are_spelt(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "abraj.md").write_text("الأبراج الفلكية اثنا عشر برجاً، أولها برج الحمل.\n")
    (tmp_path / "notes" / "quds.md").write_text("القدس مدينة قديمة، وفيها المسجد الأقصى وكنيسة القيامة.\n")
    with Index(tmp_path / "notes", index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        # typed without the hamza (الابراج), as the question was asked
        found = idx.search("ما هى الابراج", strategy="keyword")
    assert [r.path for r in found] == ["abraj.md"]
