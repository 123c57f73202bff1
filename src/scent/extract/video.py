"""Videos (.mp4, .mov, .mkv, .webm ...): kind `video`. One unit of what is known without watching
(name and folders, when it was recorded, the camera, how long it plays, its size, the title its
container holds), and, as for a photo, a frame a third of the way in read for its text (when OCR
is on: a screen recording's, a slide filmed in a talk) and described (when `describe` is on:
"video, birthday cake, candles ..."). Subtitles it carries as text (a film's, a lecture's, a
screen recording's captions) are read as a .srt beside it would be: what is said, in sections of
about a minute titled by when they begin. A phone's folder of VID_2190.mp4 is found by the
folder's name, the day, and what the clip shows."""
from __future__ import annotations

import os
from functools import partial

from scent import ocr
from scent.describe import describe
from scent.errors import OcrFailed
from scent.units import Extracted, Picture, Section
from . import media, subtitles
from .base import Limits, laid_out
from .image import name_unit

EXTENSIONS = (".mp4", ".m4v", ".mov", ".mkv", ".webm", ".avi", ".3gp", ".mts", ".m2ts", ".wmv", ".mpg", ".mpeg")
KIND = "video"
# What the describer calls a frame, said as what it is.
_SAID = {"photo": "video", "screenshot": "screen recording"}


def extract(path: str, limits: Limits) -> Extracted:
    got = media.facts(path, "video")
    meta: dict = {}
    if got.size:
        meta["width"], meta["height"] = got.size
    if got.seconds:
        meta["seconds"] = round(got.seconds, 1)
    lines = [name_unit(path, got.size, got.created, media.camera(got.tags), limits.root),
             ", ".join(filter(None, ("video", media.duration_words(got.seconds)))), got.tags.get("title", "")]
    text = "\n".join(line for line in lines if line)
    load = partial(media.frame, path)
    sections = [Section(text=text, kind=KIND, picture=Picture("", load) if got.video else None)]
    if got.video and (limits.ocr is not None or limits.describe):
        try:
            picture = load(limits.ocr_max_side)
        except ValueError as e:
            meta["picture_error"] = (f"no frame of it decoded ({e}): it is indexed by its name, date and length, "
                                     "without a description of what it shows")
            picture = None
        if picture is not None:
            seen = _read_text(picture, limits, meta)
            shows = _shows(picture, seen) if limits.describe else ""
            sections += [Section(text=words, kind=kind) for words, kind in ((seen, "ocr"), (shows, KIND)) if words]
    if got.subtitles:
        try:
            sections += subtitles.spoken(media.captions(path, limits.max_text_bytes), meta, limits)
        except ValueError as e:
            meta.setdefault("left_out", []).append(f"its subtitles were not read ({e}); the rest of it is indexed")
    return Extracted(kind=KIND, sections=laid_out(sections), title=got.tags.get("title") or os.path.basename(path),
                     date=got.created.timestamp() if got.created else None, meta=meta)


def _read_text(picture, limits: Limits, meta: dict) -> str:
    if limits.ocr is None:
        return ""
    try:
        return ocr.read_text(picture, limits.ocr, limits.ocr_langs, limits.ocr_max_side)
    except OcrFailed as e:
        meta["ocr_error"] = f"text in its frame was not read: {e}; it is indexed by its name and date"
        return ""


def _shows(picture, seen: str) -> str:
    shows = describe(picture, ocr_text=seen, video=True)
    head, _, rest = shows.partition(",")
    return _SAID[head] + ("," + rest if rest else "") if head in _SAID else shows
