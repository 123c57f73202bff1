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
