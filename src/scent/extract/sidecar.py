"""What the file beside a photo or video says of it: Google Takeout's JSON (`IMG_1234.jpg.json`,
since 2024 `IMG_1234.jpg.supplemental-metadata.json`, cut to 51 characters as Takeout cuts long
names) with the title, description, people, when and where that Google Photos kept apart from the
picture's bytes; and an XMP sidecar (`IMG_1234.xmp`, `IMG_1234.CR2.xmp`), where Lightroom,
darktable and digiKam keep a raw photo's title, caption, keywords and people.

They are read with the picture (its name/date unit says what they say), and the walk does not
index a Takeout JSON as a file of its own beside its picture (scent.walk.sidecar_of). A sidecar's
size, time and bytes count as its picture's (`paths`), so a sidecar edited alone is an edit of
the picture.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import lru_cache

from .base import load_json
from .tags import MAX_XMP, people_and_words, xmp_words

TAKEOUT = ".supplemental-metadata"
_NUMBERED = re.compile(r"(.+)\((\d+)\)(\.[^.]+)")  # IMG_1(1).jpg


@lru_cache(maxsize=1)
def media_extensions() -> tuple[str, ...]:
    """What an .xmp named IMG_1.xmp may describe: IMG_1 with a picture's or video's extension."""
    from . import image, raw, video  # late: they import this module

    return tuple(dict.fromkeys(image.EXTENSIONS + raw.EXTENSIONS + video.EXTENSIONS))
MAX_JSON = 1024 * 1024


@dataclass
class Sidecar:
    lines: list[str] = field(default_factory=list)  # title, description, keywords, people
    taken: datetime | None = None
    place: str = ""  # in words ("in Porto, Portugal")


def paths(path: str, exists: Callable[[str], bool] = os.path.isfile) -> list[str]:
    """The sidecars of the picture or video at `path` that `exists` finds: its Takeout JSON and
    its .xmp, the first of each. The walk counts their sizes and times as the picture's, and the
    index's hash their bytes, so that a caption edited in Lightroom (which writes only the .xmp
    of a raw) is an edit of the picture."""
    found = []
    takeout = next((c for c in _takeout_names(path) if exists(c)), None)
    if takeout:
        found.append(takeout)
    xmp = next((c for c in _xmp_names(path) if exists(c)), None)
    if xmp:
        found.append(xmp)
    return found


def _takeout_names(path: str) -> list[str]:
    ends = [TAKEOUT[:k] for k in range(len(TAKEOUT), 0, -1)] + [""]
    names = [f"{path}{end}.json" for end in ends]
    # Takeout numbers a second photo of the same name IMG_1(1).jpg, and its JSON IMG_1.jpg(1).json.
    folder, name = os.path.split(path)
    if numbered := _NUMBERED.fullmatch(name):
        first = os.path.join(folder, numbered[1] + numbered[3])
        names += [f"{first}{end}({numbered[2]}).json" for end in ends]
    return names


def _xmp_names(path: str) -> list[str]:
    stem = os.path.splitext(path)[0]
    return [stem + ".xmp", path + ".xmp", stem + ".XMP"]


def beside(path: str, camera: str = "") -> Sidecar:
    """What the sidecars of the picture or video at `path` say; an empty Sidecar for none (or
    for ones that do not parse: they are no part of the picture)."""
    found = Sidecar()
    for side in paths(path):
        if side.endswith(".json"):
            _read_takeout(side, path, found)
            continue
        try:
            if os.path.getsize(side) <= MAX_XMP:
                with open(side, "rb") as f:
                    lines, place = xmp_words(f.read(), camera)
                found.lines += [line for line in lines if line not in found.lines]
                found.place = found.place or place
        except OSError:
            pass
    return found


def _read_takeout(sidecar: str, path: str, found: Sidecar) -> None:
    try:
        if os.path.getsize(sidecar) > MAX_JSON:
            return
        with open(sidecar, "rb") as f:
            data = load_json(f.read())
    except (OSError, ValueError):
        return
    if not isinstance(data, dict):
        return
    title = str(data.get("title") or "")
    name = os.path.basename(path)
    words = [t for t in (title, str(data.get("description") or "")) if t.strip() and t != name]
    listed = data.get("people")
    people = [str(p.get("name") or "") for p in listed if isinstance(p, dict)] if isinstance(listed, list) else []
    found.lines += people_and_words(words, [], people)
    try:
        stamp = int(data["photoTakenTime"].get("timestamp") or 0)
        found.taken = datetime.fromtimestamp(stamp, timezone.utc) if stamp > 0 else None
    except (KeyError, TypeError, ValueError, OverflowError, OSError, AttributeError):
        pass
    for key in ("geoData", "geoDataExif"):
        geo = data.get(key) if isinstance(data.get(key), dict) else {}
        try:
            lat, lon = float(geo.get("latitude") or 0), float(geo.get("longitude") or 0)
        except (TypeError, ValueError, AttributeError):
            continue
        if lat or lon:
            from scent.places import place_words

            found.place = place_words(lat, lon)
            break
