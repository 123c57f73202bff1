"""Example queries made at index time (scent.suggest), with hand-computed expectations."""
from scent.units import Suggestion, UnitRecord
from scent.suggest import DETAIL, FILE, MAX_PAGES, MAX_PER_FILE, TOPIC, VISUAL, _picture_query, key_phrases, suggestions


def unit(text, kind="text", title="", page=None):
    return UnitRecord(kind=kind, text=text, text_hash="h", page=page, start=0, end=len(text), title=title,
                      lang=None, extra="", ids="")


def whole(title, units):
    """The file's own queries (the chips' first choices), without its pages'."""
    return [s.text for s in suggestions(title, units) if s.aspect == FILE]


def pages(title, units):
    return [s for s in suggestions(title, units) if s.aspect != FILE]


def test_the_title_comes_first():
    assert whole("Lease agreement", [unit("the deposit is due")])[0] == "Lease agreement"


def test_the_first_heading_follows_the_title_but_not_code_or_json_titles():
    units = [unit("intro", title="Lease"), unit("body", title="Deposit and refund"), unit("x", title="Pets")]
    assert whole("Lease", units)[:2] == ["Lease", "Deposit and refund"]
    assert whole("", [unit("x = 1", kind="code", title="def parse_header")]) == []
    assert whole("", [unit("x", kind="json", title="contacts[0].name")]) == []


def test_an_id_becomes_a_suggestion_but_dates_sizes_and_settings_do_not():
    got = whole("", [unit("Ticket LD-2026-0417 opened 2026-04-17 at 1200x800, charset=utf-8, in the 1970s.")])
    assert got == ["LD-2026-0417"]


def test_stop_word_only_phrases_never_become_suggestions():
    assert whole("The and of", [unit("it is of the and, for the one of them")]) == []
    assert key_phrases("of the, and in, to be or not to be") == []


def test_key_phrases_are_ranked_by_rake_degree_over_frequency():
    # candidates: (rooftop solar panels) (winter tyres) (solar panels)
    # freq: rooftop 1, solar 2, panels 2, winter 1, tyres 1; degree: rooftop 3, solar 5, panels 5, winter 2, tyres 2
    # phrase scores: 3/1 + 5/2 + 5/2 = 8; 2/1 + 2/1 = 4; 5/2 + 5/2 = 5
    text = "rooftop solar panels and winter tyres, and solar panels."
    assert key_phrases(text) == ["rooftop solar panels", "solar panels", "winter tyres"]
    assert whole("", [unit(text)]) == ["rooftop solar panels", "solar panels"]  # MAX_PHRASES = 2


def test_single_words_and_long_runs_are_not_phrases():
    assert key_phrases("Tomatoes. Basil. Simmer garlic tomatoes basil slowly today.") == []


def test_picture_text_gives_its_codes_never_its_garbled_words_and_the_file_description_gives_nothing():
    photo = [unit("IMG 0381\nexamples photos 2024 05 amsterdam\ntaken 9 May 2024", kind="image", title="IMG_0381.jpg"),
             unit("I based segmentation letermine markers on INV-2231", kind="ocr", title="IMG_0381.jpg")]
    assert whole("IMG_0381.jpg", photo) == ["INV-2231"]
    assert whole("IMG_0381.jpg", photo[:1]) == []


def test_common_verbs_end_a_phrase():
    # candidates: (deleted files) (trash folder); "go" and "keep" break like stop words
    assert key_phrases("where deleted files go; keep trash folder") == ["deleted files", "trash folder"]


def test_at_most_max_per_file_without_duplicates_and_deterministic():
    text = ("Codes AB-1001 CD-2002 EF-3003. Green garden hose. Broken kitchen tap. Blue bicycle lock. "
            "green garden hose again.")
    units = [unit(text, title="Garden"), unit("more", title="Garden hose")]
    got = whole("Garden", units)
    assert len(got) == MAX_PER_FILE == 5
    assert got == ["Garden", "Garden hose", "AB-1001", "CD-2002", "Green garden hose"]
    assert len({g.casefold() for g in got}) == len(got)
    assert whole("Garden", units) == got


# ---- each page's topic, detail and visual query ---------------------------------------------

def two_page_report():
    return [unit("Storage plan for the marlin cluster. Usable disk capacity grows each quarter. Ticket OPS-4411.",
                 kind="pdf_page", page=1),
            unit("chart, bar chart, page with a figure, white, blue\nmarlin: projected data vs usable disk (TB)\n16\n8",
                 kind="pdf_image", page=1),
            unit("Backup retention policy keeps nightly snapshots. Usable disk capacity is checked monthly.",
                 kind="pdf_page", page=2),
            unit("photo, seven umbrellas, a yellow umbrella, blue, yellow, sky", kind="pdf_image", page=2)]


def test_each_page_gets_a_topic_a_detail_and_a_visual_query():
    # Page 1's RAKE candidates: (Storage plan) (marlin cluster) (Usable disk capacity grows: four words, out)
    # (quarter) (Ticket); the two-word ones score 2/1 + 2/1 = 4 each, the first seen wins: the topic.
    # Its detail is its code; its picture a bar chart (more specific than "chart"), captioned by the
    # first line read in it, the bracketed unit left out.
    # Page 2's: (Backup retention policy) 3/1 * 3 = 9, (nightly snapshots) 4, (Usable disk capacity) 9,
    # (checked monthly) 4: the topic is the first 9. No code; "usable disk capacity" is on page 1
    # too, so the detail is the best phrase of page 2 alone: "nightly snapshots".
    got = suggestions("Capacity report", two_page_report())
    assert got == [
        # whole text: usable, disk, capacity each have degree 4 + 3 = 7 over frequency 2: 3 * 3.5 = 10.5
        Suggestion("Capacity report"), Suggestion("OPS-4411"), Suggestion("Usable disk capacity"),
        Suggestion("Backup retention policy"),
        Suggestion("Storage plan", 1, TOPIC), Suggestion("OPS-4411", 1, DETAIL),
        Suggestion("bar chart marlin: projected data vs usable disk", 1, VISUAL),
        Suggestion("Backup retention policy", 2, TOPIC), Suggestion("nightly snapshots", 2, DETAIL),
        Suggestion("photo of seven umbrellas", 2, VISUAL)]
    assert suggestions("Capacity report", two_page_report()) == got  # deterministic


def test_a_page_heading_is_its_topic_and_no_page_repeats_a_query():
    slides = [unit("Roadmap items: offline sync and faster export.", kind="slide", title="Quarterly roadmap", page=1),
              unit("Faster export ships first; offline sync follows.", kind="slide", title="slide 2", page=2)]
    # Slide 1: candidates (Roadmap items) (offline sync) (faster export), 4 each: the first is its detail.
    # Slide 2's title is only its number: its topic is its best phrase. Its candidates are (Faster
    # export ships first: four words, out) and (offline sync follows) 3/1 * 3 = 9; that one is the
    # topic, so slide 2 has no other phrase for a detail.
    assert pages("Deck", slides) == [Suggestion("Quarterly roadmap", 1, TOPIC), Suggestion("Roadmap items", 1, DETAIL),
                                     Suggestion("offline sync follows", 2, TOPIC)]
    twice = [unit("Lease terms and deposit rules.", kind="pdf_page", page=p) for p in (1, 2)]
    # both pages' best phrase is "Lease terms" (4, first seen): page 2 takes the next one
    assert [(s.text, s.page) for s in pages("", twice) if s.aspect == TOPIC] == [("Lease terms", 1),
                                                                                   ("deposit rules", 2)]


def test_a_picture_query_names_its_most_specific_kind_and_its_first_thing_or_caption():
    assert _picture_query("photo, seven umbrellas, a yellow umbrella, blue, yellow, sky") == "photo of seven umbrellas"
    assert _picture_query("photo, a photo of a tiger cat, Egyptian cat, tabby, cat, brown") == "photo of a tiger cat"
    assert _picture_query("diagram, drawing, page with a figure, white\nPump assembly and valve\n1 2") == \
        "diagram Pump assembly and valve"
    assert _picture_query("chart, line chart or graph, white", read="12 14 16\nMonthly rainfall (mm) in Pune") == \
        "line chart Monthly rainfall in Pune"
    # nothing to name: a photo of colours only, a chart whose text is numbers, a file's name and size
    assert _picture_query("photo, orange, dark blue, dark") is None
    assert _picture_query("chart, bar chart, white\n16\n8 12") is None
    assert _picture_query("IMG 0381\nphotos 2024\n1200x800") is None


def test_a_picture_files_name_gives_nothing_and_its_description_and_text_give_the_visual_query():
    name = unit("IMG 0381\nphotos 2024\n1200x800", kind="image", title="IMG_0381.jpg")
    assert suggestions("IMG_0381.jpg", [name]) == []
    chart = [unit("revenue chart\nreports\n1600x900", kind="image", title="revenue-chart.png"),
             unit("Revenue by region, 2024\n10 20 30", kind="ocr", title="revenue-chart.png"),
             unit("chart, bar chart, white, blue", kind="image", title="revenue-chart.png")]
    # the name unit names no kind of picture; the description's text is in the OCR unit beside it
    assert pages("revenue-chart.png", chart) == [Suggestion("bar chart Revenue by region, 2024", None, VISUAL)]


def test_at_most_max_pages_pages_get_queries():
    report = [unit(f"Invoice INV-{1000 + n} paid.", kind="pdf_page", page=n) for n in range(1, MAX_PAGES + 11)]
    got = pages("Invoices", report)
    assert {s.page for s in got} == set(range(1, MAX_PAGES + 1))
    assert [s.text for s in got if s.page == 3] == ["INV-1003"]  # one word per page: no phrase, only its code


def test_words_keep_their_vowel_signs():
    # Devanagari vowel signs are combining marks, not word characters to Python: "कपड़े" was cut to
    # "कपड" and became a broken query. Candidates (नए कपड़े) (पुराने जूते), each word once: 2/1 + 2/1.
    assert key_phrases("नए कपड़े, पुराने जूते.") == ["नए कपड़े", "पुराने जूते"]
