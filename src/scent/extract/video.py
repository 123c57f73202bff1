"""Videos (.mp4, .mov, .mkv, .webm ...): kind `video`. One unit of what is known without watching
(name and folders, when it was recorded, the camera, how long it plays, its size, the title its
container holds), and, as for a photo, a frame a third of the way in read for its text (when OCR
is on: a screen recording's, a slide filmed in a talk) and described (when `describe` is on:
"video, birthday cake, candles ..."). Subtitles it carries as text (a film's, a lecture's, a
screen recording's captions) are read as a .srt beside it would be: what is said, in sections of
about a minute titled by when they begin; the titles of its chapters are a section too. A phone's
folder of VID_2190.mp4 is found by the folder's name, the day, and what the clip shows."""
from __future__ import annotations

import os
from functools import lru_cache, partial

from scent import ocr
from scent.describe import describe
from scent.errors import OcrFailed
from scent.units import Extracted, Picture, Section
from . import media, sidecar, subtitles
from .base import Limits, laid_out
from .image import name_unit

EXTENSIONS = (".mp4", ".m4v", ".mov", ".mkv", ".webm", ".avi", ".3gp", ".mts", ".m2ts", ".wmv", ".mpg", ".mpeg")
KIND = "video"
# A Live Photo's moving part: the .mov (or .mp4, as some exports write it) of an iPhone's photo,
# named as the photo is, about 3 s long; Apple's own files also carry the photo's identifier.
LIVE_PHOTO_SECONDS = 5
LIVE_PHOTO_ID = "com.apple.quicktime.content.identifier"
PHOTO_EXTENSIONS = (".heic", ".jpg", ".jpeg", ".heif")
# What the describer calls a frame, said as what it is.
_SAID = {"photo": "video", "screenshot": "screen recording"}


def extract(path: str, limits: Limits) -> Extracted:
    got = media.facts(path, "video")
    meta: dict = {}
    if got.size:
        meta["width"], meta["height"] = got.size
    if got.seconds:
        meta["seconds"] = round(got.seconds, 1)
    photo = live_photo(path, got, limits.root)
    side = sidecar.beside(path, media.camera(got.tags))
    created = got.created or side.taken
    lines = [name_unit(path, got.size, created, media.camera(got.tags), limits.root, media.place(got.tags) or side.place),
             ", ".join(filter(None, ("video", media.duration_words(got.seconds),
                                     "the moving part of a Live Photo" if photo else ""))),
             got.tags.get("title", ""), *side.lines]
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
    sections += media.chapters_section(got, KIND)
    if got.subtitles:
        try:
            sections += subtitles.spoken(media.captions(path, limits.max_text_bytes), meta, limits)
        except ValueError as e:
            meta.setdefault("left_out", []).append(f"its subtitles were not read ({e}); the rest of it is indexed")
    return Extracted(kind=KIND, sections=laid_out(sections), title=got.tags.get("title") or os.path.basename(path),
                     date=created.timestamp() if created else None, meta=meta, part_of=photo)


def live_photo(path: str, got: media.Facts, root: str | None) -> str:
    """The photo whose moving part the video at `path` is (a Live Photo's IMG_1234.MOV beside
    IMG_1234.HEIC), as a path relative to `root`; "" when it is a video of its own."""
    if root is None or os.path.splitext(path)[1].lower() not in (".mov", ".mp4"):
        return ""
    if LIVE_PHOTO_ID not in got.tags and not (got.seconds and got.seconds <= LIVE_PHOTO_SECONDS):
        return ""
    folder, name = os.path.split(path)
    try:
        names = _names(folder, os.stat(folder).st_mtime_ns)
    except OSError:
        return ""
    stem = os.path.splitext(name)[0].casefold()
    photo = next((names[stem + ext] for ext in PHOTO_EXTENSIONS if stem + ext in names), None)
    if photo is None:
        return ""
    rel = os.path.relpath(os.path.join(folder, photo), root)
    return "" if rel.startswith("..") else rel.replace(os.sep, "/")


@lru_cache(maxsize=16)
def _names(folder: str, mtime_ns: int) -> dict[str, str]:
    """The names in `folder`, case-folded -> as they are spelt (IMG_1234.HEIC beside IMG_1234.MOV, or
    .heic, or .Jpg), listed once for all its videos; its time changes when a name does."""
    return {n.casefold(): n for n in os.listdir(folder)}


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
