"""Which words of a unit a snippet marks, and where its window sits."""
import math
import re

from hypothesis import given, settings, strategies as st

from scent.query import MARK_CLASS, normalise_id
from scent.snippet import _TOKEN, matches, snippet, snippet_weights, stem, table_snippet


def test_words_match_by_stem_and_ids_whole():
    text = "Leases: the LD-2026-0417 lease_terms were leasing notes; dying is die."
    assert matches(text, ["lease"]) == [(0, 6), (25, 30), (42, 49)]
    assert [text[a:b] for a, b in matches(text, ["die"])] == ["dying", "die"]  # Snowball's exception
    # The ID is one span; its parts are not matched again as words.
    assert [text[a:b] for a, b in matches(text, ["ld", "lease"], (normalise_id("LD-2026-0417"),))] == [
        "Leases", "LD-2026-0417", "lease", "leasing"]
    assert matches(text, []) == [] and matches("", ["lease"]) == []
    assert matches("İstanbul", ["İstanbul"]) == [(0, 8)]  # "İ".lower() is two characters


def test_an_id_held_whole_marks_itself_not_its_parts_in_the_next_row():
    text = ("Product code | Description | List price\n"
            "SKU-88231-B | Pallet racking beam 2.7 m | 84.9\n"
            "SKU-88231-A | Pallet racking beam 1.8 m | 61.5\n")
    shown, marks = snippet(text, ["price", "sku", "88231"], (normalise_id("SKU-88231-B"),), width=70)
    assert [shown[a:b] for a, b in marks] == ["price", "SKU-88231-B"]
    # Not held whole (one character off): its parts are what is left to show.
    shown, marks = snippet(text, ["sku", "88231"], (normalise_id("SKU-88231-C"),), width=200)
    assert [shown[a:b] for a, b in marks] == ["SKU", "88231", "SKU", "88231"]


def test_a_tables_snippet_is_its_header_and_the_row_that_answers():
    text = ("Department | Office | Personnel (EUR) | Travel (EUR) | Software (EUR)\n"
            "Operations | Madrid | 612000 | 18500 | 42000\n" + "Warehouse | Lyon | 380000 | 3900 | 8100\n" * 6 +
            "Marketing | Madrid | 214000 | 42500 | 33600\n"
            "Finance | Madrid | 276000 | 7400 | 28900")
    shown, marks = table_snippet(text, ["travel", "budget", "marketing"], width=120)
    assert shown == ("Department | Office | Personnel (EUR) | Travel (EUR) | Software (EUR) Marketing | Madrid | "
                     "214000 | 42500 | 33600…")  # the next row does not fit in 120
    assert [shown[a:b] for a, b in marks] == ["Travel", "Marketing"]
    # An ID's row, not the next row's parts of it; no row holding a word: as any snippet.
    sku = "Code | Price\nSKU-88231-A | 61.5\nSKU-88231-B | 84.9"
    shown, marks = table_snippet(sku, ["sku", "88231"], (normalise_id("SKU-88231-B"),))
    assert shown == "Code | Price SKU-88231-B | 84.9" and [shown[a:b] for a, b in marks] == ["SKU-88231-B"]
    assert table_snippet(sku, ["nothing"]) == snippet(sku, ["nothing"])


def test_the_window_holds_the_most_matches_and_marks_them():
    text = "filler " * 60 + "the deposit refund: deposit back in 30 days " + "filler " * 60
    shown, marks = snippet(text, ["deposit", "refund"], width=80)
    assert shown.startswith("…") and shown.endswith("…")
    assert [shown[a:b] for a, b in marks] == ["deposit", "refund", "deposit"]


def test_a_word_few_results_hold_weighs_more_than_the_topic_every_result_holds():
    # By hand, of 3 texts: "loss" in all 3 -> 1 + ln(4/4) = 1; "temperature" in 1 -> 1 + ln(4/2) = 1.693
    texts = ["contrastive loss and its temperature", "the loss curve", "a focal loss"]
    weights = snippet_weights(["temperature", "loss"], texts)
    assert weights == {"temperatur": 1.0 + math.log(2), "loss": 1.0}
    assert snippet_weights([], texts) == {} and snippet_weights(["loss"], []) == {}


def test_the_window_holds_the_weightiest_words_and_what_follows_them():
    """Two windows of one word each: the one whose word weighs more is shown, begun just before
    it (a question's answer mostly follows its words), its value whole."""
    text = ("The contrastive loss is computed on pairs. " + "filler " * 40
            + "We set the temperature to 0.07 for every run. " + "filler " * 40)
    flat, _ = snippet(text, ["temperature", "loss"], width=80)
    assert "loss" in flat and "0.07" not in flat  # unweighted: a tie, the first window
    shown, marks = snippet(text, ["temperature", "loss"], width=80, weights={"temperatur": 1.7, "loss": 1.0})
    assert "temperature to 0.07" in shown and [shown[a:b] for a, b in marks] == ["temperature"]
    assert shown.index("temperature") < 20


def _one_token_at_a_time(text, words, ids=()):
    """The reference: each token, then each letters-and-digits run of it, stemmed; the parts of an
    ID the text holds whole are no words."""
    held = {normalise_id(m.group()).lower() for m in _TOKEN.finditer(text)
            if ids and any(ch.isdigit() for ch in m.group()) and normalise_id(m.group()) in set(ids)}
    words = [w for w in words if not any(w.lower() in i for i in held)]
    stems = {stem(w) for w in words if w}
    joined = {w.lower().replace("_", "") for w in words if len(w) > 3}
    whole = [m.span() for m in re.finditer(r"\w+", text)  # identifiers, whole: snake_case, camelCase
             if (re.search(r"[^\W_]_[^\W_]", m.group()) or re.search(r"[a-z][A-Z]", m.group()))
             and m.group().lower().replace("_", "") in joined]
    spans = []
    for m in _TOKEN.finditer(text):
        tok = m.group()
        if ids and any(ch.isdigit() for ch in tok) and normalise_id(tok) in set(ids):
            spans.append(m.span())
            continue
        for sub in re.finditer(rf"[^\W_](?:[^\W_]|[{MARK_CLASS}])*", tok):  # a letter's vowel signs with it
            a, b = m.start() + sub.start(), m.start() + sub.end()
            if stem(sub.group()) in stems and not any(x <= a < y for x, y in whole):
                spans.append((a, b))
    return sorted(set(spans) | set(whole))


def test_an_identifier_is_marked_whole_in_any_style():
    text = "ERR_CONN_RESET: in parse_http_header() and parseHttpHeader, not parse or RESET_TIMER"
    marked = [text[a:b] for a, b in matches(text, ["err_conn_reset", "parsehttpheader"])]
    assert marked == ["ERR_CONN_RESET", "parse_http_header", "parseHttpHeader"]


WORDS = ["lease", "Leases", "leasing", "dying", "die", "LD-2026-0417", "x_y", "café", "ÉTÉ", "नमस्ते", "ties",
         "lease_term", "leaseTerm", "term",
         "A-1", "Running", "run", "o'clock", "İstanbul", "sky", "skies", "42"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from([" ", "-", ".", "/", "_", ", ", "\n", "'"])),
                max_size=12),
       st.lists(st.sampled_from(WORDS), max_size=3), st.lists(st.sampled_from(WORDS), max_size=2))
def test_matches_as_the_one_token_at_a_time_reading(parts, words, id_words):
    text = "".join(w + sep for w, sep in parts)
    ids = tuple(normalise_id(w) for w in id_words if any(c.isdigit() for c in w))
    assert matches(text, words, ids) == _one_token_at_a_time(text, words, ids)


def test_a_letter_split_off_a_word_is_not_marked_on_its_own():
    from scent.query import parse

    words = parse("cat video from ana's birthday e-mail vitamin c").words
    assert words == ["cat", "video", "ana", "birthday", "mail", "vitamin", "c"]
    text, marks = snippet("Ana's video, 3 s long", words, ())
    assert [text[a:b] for a, b in marks] == ["Ana", "video"]


def test_an_identifier_that_is_also_an_id_is_marked_once():
    # Marked twice, the terminal printed FEATURE_PRORATION_V2FEATURE_PRORATION_V2.
    text = "Proration v2 behind FEATURE_PRORATION_V2. Upgrade gunicorn"
    assert matches(text, ["FEATURE_PRORATION_V2"], (normalise_id("FEATURE_PRORATION_V2"),)) == [(20, 40)]


def test_words_typed_without_their_accents_are_marked():
    text = "Dr. Müller, Leopoldstraße 12; Käsespätzle for Élodie"
    marked = [text[a:b] for a, b in matches(text, ["Muller", "leopoldstrasse", "kasespatzle", "elodie"])]
    assert marked == ["Müller", "Leopoldstraße", "Käsespätzle", "Élodie"]
    plain = "Muller and Strasse"
    assert [plain[a:b] for a, b in matches(plain, ["Müller", "Straße"])] == ["Muller", "Strasse"]


def test_devanagari_and_tamil_words_are_marked_whole():
    # Python's \w leaves out their vowel signs and virama: हल्दी was four runs, none the query word.
    text = "सबको हल्दी: 16 फ़रवरी; பொங்கல் விழா"
    assert [text[a:b] for a, b in matches(text, ["हल्दी", "பொங்கல்"])] == ["हल्दी", "பொங்கல்"]
