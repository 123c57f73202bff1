from hypothesis import given, strategies as st

from scent.chunk import chunk
from scent.units import Section

words = st.lists(st.text(alphabet="abcdefg", min_size=1, max_size=6), max_size=60)
seps = st.sampled_from([" ", "  ", "\n", "\n\n", "\t"])


@st.composite
def sections(draw):
    out = []
    for page in range(draw(st.integers(1, 4))):
        ws = draw(words)
        text = "".join(w + draw(seps) for w in ws)
        out.append(Section(text=text, kind="pdf_page", page=page + 1, start=draw(st.integers(0, 50))))
    return out


@given(sections(), st.integers(1, 20), st.integers(0, 19))
def test_chunks_cover_every_word_within_their_section(secs, size, overlap):
    if overlap >= size:
        overlap = size - 1
    units = chunk(secs, size, overlap)
    for sec in secs:
        mine = [u for u in units if u.page == sec.page]
        assert mine, "every page gets at least one unit"
        covered = set()
        for u in mine:
            # the span maps back to the section text exactly
            assert sec.text[u.start - sec.start:u.end - sec.start] == u.text
            assert len(u.text.split()) <= size
            covered.update(range(u.start, u.end))
        for i, ch in enumerate(sec.text):
            if not ch.isspace():
                assert sec.start + i in covered


def test_overlap_by_hand():
    sec = Section(text="a b c d e f g", kind="text")
    assert [u.text for u in chunk([sec], words=3, overlap=1)] == ["a b c", "c d e", "e f g"]
    assert [(u.start, u.end) for u in chunk([sec], words=3, overlap=1)] == [(0, 5), (4, 9), (8, 13)]


def test_images_are_never_split():
    sec = Section(text=" ".join(["word"] * 50), kind="image")
    assert len(chunk([sec], words=10, overlap=2)) == 1


def test_text_without_spaces_is_split_into_bounded_units():
    # 10,000 characters are 500 words of 20 (LONGEST_WORD); windows of 180 every 150 words:
    # 0-180, 150-330, 300-480, 450-500.
    units = chunk([Section(text="x" * 10_000, kind="text")], 180, 30)
    assert [(u.start, u.end) for u in units] == [(0, 3600), (3000, 6600), (6000, 9600), (9000, 10_000)]


def test_chinese_and_japanese_characters_are_words():
    # Nine characters a sentence (the full stop is a word of its own), 40 sentences: 360 words.
    text = "日本語の文章です。" * 40
    units = chunk([Section(text=text, kind="text")], 180, 30)
    assert [(u.start, u.end) for u in units] == [(0, 180), (150, 330), (300, 360)]
    assert units[0].text == text[:180]


def test_max_units_keeps_the_first_units():
    secs = [Section(text="a b c d e f g h", kind="pdf_page", page=1), Section(text="i j k", kind="pdf_page", page=2)]
    assert [u.text for u in chunk(secs, 3, 1, max_units=4)] == ["a b c", "c d e", "e f g", "g h"]
    assert [u.text for u in chunk(secs, 3, 1, max_units=5)] == ["a b c", "c d e", "e f g", "g h", "i j k"]


def test_wordless_text_is_mostly_runs_longer_than_a_word():
    from scent.chunk import wordless

    assert wordless("QUJD" * 10)  # one run of 40 characters
    assert not wordless("the deposit refund is due within thirty days")
    # 21 characters of run against 20 of words and spaces: more than half.
    assert wordless("a b c d e f g h i j " + "x" * 21)
    assert not wordless("a b c d e f g h i j k " + "x" * 21)  # 22 of words: not more than half
    assert not wordless("")


def test_a_chunk_begins_at_its_sections_line_plus_the_lines_before_it():
    text = "one two\nthree four\n\nfive six\nseven eight\n"
    units = chunk([Section(text=text, kind="code", start=100, line=10)], words=3, overlap=1)
    assert [(u.text.split()[0], u.line) for u in units] == [("one", 10), ("three", 11), ("five", 13), ("seven", 14)]
    assert chunk([Section(text=text, kind="pdf_page", page=1)])[0].line is None  # no line: none

