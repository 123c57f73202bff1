"""Sound files (.mp3, .m4a, .flac, .ogg, .wav, voice memos ...): kind `audio`. One unit of what
their container says: name and folders, how long it plays, when it was recorded (a phone's voice
memo), and the tags a music file carries (title, artist, album, composer, genre, year, comment);
a song's lyrics, when its tags hold them, as a section of their own, and so the titles of its
chapters (an audiobook's .m4b, a podcast's). What is said in a recording
is not transcribed: no speech model ships in a registry package here."""
from __future__ import annotations

import os

from scent.dates import in_words
from scent.units import Extracted, Section
from . import media
from .base import Limits, laid_out
from .image import name_unit

EXTENSIONS = (".mp3", ".m4a", ".m4b", ".aac", ".flac", ".ogg", ".oga", ".opus", ".wav", ".wma", ".aiff", ".aif",
              ".amr", ".3ga")
KIND = "audio"
# Tags said in the unit, in this order, as "name: value" (FFmpeg's names for ID3, Vorbis and MP4 tags).
_SAID_TAGS = ("title", "artist", "album_artist", "album", "composer", "genre", "date", "comment", "description")
# Where players keep lyrics (ID3's USLT comes as lyrics or lyrics-LANG).
_LYRICS = ("lyrics", "unsyncedlyrics")


def extract(path: str, limits: Limits) -> Extracted:
    got = media.facts(path, "sound file")
    lines = [name_unit(path, None, None, "", limits.root),  # its name and folders, as a photo's
             ", ".join(filter(None, ("audio", media.duration_words(got.seconds))))]
    if got.created:
        lines.append(f"recorded {in_words(got.created)}")
    lines += [f"{name.replace('_', ' ')}: {got.tags[name]}" for name in _SAID_TAGS if got.tags.get(name)]
    text = "\n".join(line for line in lines if line)
    sections = [Section(text=text, kind=KIND)]
    lyrics = next((v for k, v in got.tags.items() if k in _LYRICS or k.startswith("lyrics-")), "")
    if lyrics:
        sections.append(Section(text=lyrics, kind=KIND, title="lyrics"))
    sections += media.chapters_section(got, KIND)
    meta = {"seconds": round(got.seconds, 1)} if got.seconds else {}
    return Extracted(kind=KIND, sections=laid_out(sections), title=got.tags.get("title") or os.path.basename(path),
                     date=got.created.timestamp() if got.created else None, meta=meta)
