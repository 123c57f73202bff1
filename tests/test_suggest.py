"""Example queries made at index time (scent.suggest), with hand-computed expectations."""
from scent.storage import UnitRecord
from scent.suggest import MAX_PER_FILE, key_phrases, suggestions


def unit(text, kind="text", title=""):
    return UnitRecord(kind=kind, text=text, text_hash="h", page=None, start=0, end=len(text), title=title,
                      lang=None, extra="", ids="")


def test_the_title_comes_first():
    assert suggestions("Lease agreement", [unit("the deposit is due")])[0] == "Lease agreement"


def test_the_first_heading_follows_the_title_but_not_code_or_json_titles():
    units = [unit("intro", title="Lease"), unit("body", title="Deposit and refund"), unit("x", title="Pets")]
    assert suggestions("Lease", units)[:2] == ["Lease", "Deposit and refund"]
    assert suggestions("", [unit("x = 1", kind="code", title="def parse_header")]) == []
    assert suggestions("", [unit("x", kind="json", title="contacts[0].name")]) == []


def test_an_id_becomes_a_suggestion_but_dates_sizes_and_settings_do_not():
    got = suggestions("", [unit("Ticket LD-2026-0417 opened 2026-04-17 at 1200x800, charset=utf-8, in the 1970s.")])
    assert got == ["LD-2026-0417"]


def test_stop_word_only_phrases_never_become_suggestions():
    assert suggestions("The and of", [unit("it is of the and, for the one of them")]) == []
    assert key_phrases("of the, and in, to be or not to be") == []


def test_key_phrases_are_ranked_by_rake_degree_over_frequency():
    # candidates: (rooftop solar panels) (winter tyres) (solar panels)
    # freq: rooftop 1, solar 2, panels 2, winter 1, tyres 1; degree: rooftop 3, solar 5, panels 5, winter 2, tyres 2
    # phrase scores: 3/1 + 5/2 + 5/2 = 8; 2/1 + 2/1 = 4; 5/2 + 5/2 = 5
    text = "rooftop solar panels and winter tyres, and solar panels."
    assert key_phrases(text) == ["rooftop solar panels", "solar panels", "winter tyres"]
    assert suggestions("", [unit(text)]) == ["rooftop solar panels", "solar panels"]  # MAX_PHRASES = 2


def test_single_words_and_long_runs_are_not_phrases():
    assert key_phrases("Tomatoes. Basil. Simmer garlic tomatoes basil slowly today.") == []


def test_picture_text_gives_its_codes_never_its_garbled_words_and_the_file_description_gives_nothing():
    photo = [unit("IMG 0381\nexamples photos 2024 05 amsterdam\ntaken 9 May 2024", kind="image", title="IMG_0381.jpg"),
             unit("I based segmentation letermine markers on INV-2231", kind="ocr", title="IMG_0381.jpg")]
    assert suggestions("IMG_0381.jpg", photo) == ["INV-2231"]
    assert suggestions("IMG_0381.jpg", photo[:1]) == []


def test_common_verbs_end_a_phrase():
    # candidates: (deleted files) (trash folder); "go" and "keep" break like stop words
    assert key_phrases("where deleted files go; keep trash folder") == ["deleted files", "trash folder"]


def test_at_most_max_per_file_without_duplicates_and_deterministic():
    text = ("Codes AB-1001 CD-2002 EF-3003. Green garden hose. Broken kitchen tap. Blue bicycle lock. "
            "green garden hose again.")
    units = [unit(text, title="Garden"), unit("more", title="Garden hose")]
    got = suggestions("Garden", units)
    assert len(got) == MAX_PER_FILE == 5
    assert got == ["Garden", "Garden hose", "AB-1001", "CD-2002", "Green garden hose"]
    assert len({g.casefold() for g in got}) == len(got)
    assert suggestions("Garden", units) == got
