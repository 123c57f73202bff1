"""Subtitles and meeting transcripts (.srt, .vtt): scent.extract.subtitles, on files written here as
players and meeting apps write them (cue numbers, timings, voice spans, NOTE blocks, rolling lines)."""
import pytest

from scent import Index
from scent.errors import ExtractError
from scent.extract import extract, file_kind

MEETING = """WEBVTT

NOTE Recorded on Teams

00:00:01.000 --> 00:00:04.000
<v Ana Silva>We should move the budget review to March.</v>

00:00:04.500 --> 00:00:07.000
<v Ana Silva>Finance needs the numbers first.</v>

00:00:07.500 --> 00:00:09.000
<v Tom Baker>Fine by me, <i>if</i> finance agrees.

00:01:05.000 --> 00:01:09.000
<v Tom Baker>Next item: the office move to Harbour Street.
"""

FILM = ("1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hello</i> there\r\nsecond line\r\n\r\n"
        "2\r\n00:00:02,500 --> 00:00:04,000\r\nsecond line\r\n{\\an8}third line\r\n\r\n"
        "3\r\n01:02:03,000 --> 01:02:05,000\r\nThe end.\r\n")


def test_a_transcript_says_who_speaks_in_sections_of_a_minute(tmp_path):
    path = tmp_path / "standup.vtt"
    path.write_text(MEETING)
    got = extract(str(path))
    assert file_kind(str(path)) == got.kind == "text"
    # the NOTE block is no speech; a name is said where the speaker changes; 1:05 is a minute past 0:01
    assert [(s.title, s.text) for s in got.sections] == [
        ("0:01", "Ana Silva: We should move the budget review to March.\nFinance needs the numbers first.\n"
                 "Tom Baker: Fine by me, if finance agrees."),
        ("1:05", "Tom Baker: Next item: the office move to Harbour Street.")]
    # the first section's 128 characters and the blank line between sections before the second
    assert [s.start for s in got.sections] == [0, 130]


def test_a_subrip_file_loses_its_numbers_tags_and_repeated_lines(tmp_path):
    path = tmp_path / "film.srt"
    path.write_bytes(FILM.encode())
    got = extract(str(path))
    # "second line" rolls over into cue 2 and is said once; {\an8} places a line, it is no word
    assert [(s.title, s.text) for s in got.sections] == [("0:01", "Hello there\nsecond line\nthird line"),
                                                          ("1:02:03", "The end.")]


def test_a_file_is_read_by_what_it_holds(tmp_path):
    path = tmp_path / "standup.srt"  # WebVTT saved under a SubRip name
    path.write_text(MEETING)
    assert extract(str(path)).sections[0].text.startswith("Ana Silva: ")


@pytest.mark.parametrize("name, content", [("notes.srt", "this is not\na subtitle file\n"),
                                           ("talk.vtt", "WEBVTT\n\n00:00:01.000 --> soon\nhello\n")])
def test_what_is_not_a_subtitle_file_is_refused_with_its_reason(tmp_path, name, content):
    (tmp_path / name).write_text(content)
    with pytest.raises(ExtractError, match=r"not a readable (SubRip subtitle|WebVTT) file \(webvtt-py: "):
        extract(str(tmp_path / name))


def test_a_transcript_is_found_at_the_minute_of_its_words(tmp_path, fake_embedder):
    (tmp_path / "standup.vtt").write_text(MEETING)
    (tmp_path / "film.srt").write_text(FILM)
    with Index(tmp_path, embedder=fake_embedder) as idx:
        assert idx.update().added == 2
        hit = idx.search("office move Harbour Street", k=1, strategy="keyword")[0]
    assert (hit.path, hit.title) == ("standup.vtt", "1:05")
