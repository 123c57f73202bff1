"""Subtitles and transcripts (.srt, .vtt): what is said, without cue numbers and timings, in
sections of about a minute titled by when they begin ("12:30"), so a result says where in the
video or the meeting the words are. Meeting transcripts (Teams, Zoom and Meet save WebVTT) name
who speaks (`<v Ana Silva>`): a line keeps the name where the speaker changes ("Ana Silva: ..."),
so "what did Ana say about the budget" finds it. Captions that roll (automatic ones repeat the
last line of a cue as the first of the next) are said once. Indexed as text (kind `text`).

Parsed by webvtt-py (MIT; it reads SubRip too): cue timings, voice spans, NOTE, STYLE and REGION
blocks, the tags within a cue. A file is read by what it holds, not by its name: a .srt that
begins "WEBVTT" is read as WebVTT."""
from __future__ import annotations

import io
import re

from scent.units import Extracted, Section
from .base import Limits, laid_out, read_text, unreadable

EXTENSIONS = (".srt", ".vtt")
KIND = "text"
SECTION_SECONDS = 60  # a minute of speech is ~150 words: about one chunk (chunk_words 180)
_OVERRIDE = re.compile(r"\{\\[^}]*\}")  # SubStation tags some .srt files carry ({\an8}, {\i1})


def extract(path: str, limits: Limits) -> Extracted:
    import webvtt

    text, encoding = read_text(path, limits)
    form = "vtt" if text.lstrip().startswith("WEBVTT") else "srt"
    what = "SubRip subtitle file" if form == "srt" else "WebVTT file"
    maybe = "it may be damaged, or another kind of text under a subtitle name"
    try:
        captions = webvtt.WebVTT.from_buffer(io.StringIO(text), format=form).captions
    except webvtt.errors.MalformedFileError as e:
        raise unreadable(path, what, f"webvtt-py: {e}", maybe=maybe) from None
    # webvtt-py passes over a cue whose timing it cannot read, and keeps the rest; none read at all
    # from a file that has timings is a file it did not understand
    if not captions and "-->" in text:
        raise unreadable(path, what, "webvtt-py: no cue's timing could be read", maybe=maybe)
    meta: dict = {"encoding": encoding}
    sections = spoken(captions, meta, limits)
    return Extracted(kind=KIND, sections=laid_out(sections), title="", meta=meta)


def spoken(captions, meta: dict, limits: Limits) -> list[Section]:
    """Sections of about a minute of `captions` (each with `start_in_seconds`, `text` and maybe
    `voice`: webvtt-py's, or a video's own subtitles, scent.extract.media.captions)."""
    sections: list[Section] = []
    lines: list[str] = []
    begin = 0.0
    speaker = last = None
    for caption in captions:
        if lines and caption.start_in_seconds >= begin + SECTION_SECONDS:
            sections.append(_section(lines, begin))
            lines, speaker = [], None
            if len(sections) == limits.max_sections:
                meta["left_out"] = [f"only its first {limits.max_sections} minutes were indexed (max_units_per_file)"]
                return sections
        if not lines:
            begin = caption.start_in_seconds
        voice = getattr(caption, "voice", None)
        for line in _OVERRIDE.sub("", caption.text).splitlines():
            line = " ".join(line.split())
            if not line or line == last:
                continue
            last = line
            if voice and voice != speaker:
                line, speaker = f"{voice}: {line}", voice
            lines.append(line)
    if lines:
        sections.append(_section(lines, begin))
    return sections


def _section(lines: list[str], begin: float) -> Section:
    return Section(text="\n".join(lines), kind="text", title=_clock(begin))


def _clock(seconds: float) -> str:
    """1:02:03 or 12:30: a time in the video, as players show it."""
    s = int(seconds)
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"
