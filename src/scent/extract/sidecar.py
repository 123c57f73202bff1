"""What the file beside a photo or video says of it: Google Takeout's JSON (`IMG_1234.jpg.json`,
since 2024 `IMG_1234.jpg.supplemental-metadata.json`, cut to 51 characters as Takeout cuts long
names) with the title, description, people, when and where that Google Photos kept apart from the
picture's bytes; and an XMP sidecar (`IMG_1234.xmp`, `IMG_1234.CR2.xmp`), where Lightroom,
darktable and digiKam keep a raw photo's title, caption, keywords and people.

They are read with the picture (its name/date unit says what they say), and the walk does not
index a Takeout JSON as a file of its own beside its picture (scent.walk.sidecar_of). A sidecar
changed alone is read again when its picture is.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import datetime, timezone

from .tags import MAX_XMP, people_and_words, xmp_words

TAKEOUT = ".supplemental-metadata"
MAX_JSON = 1024 * 1024


@dataclass
class Sidecar:
    lines: list[str] = field(default_factory=list)  # title, description, keywords, people
    taken: datetime | None = None
    place: str = ""  # in words ("in Porto, Portugal")


def beside(path: str, camera: str = "") -> Sidecar:
    """What the sidecars of the picture or video at `path` say; an empty Sidecar for none (or
    for ones that do not parse: they are no part of the picture)."""
    found = Sidecar()
    takeout = _takeout_path(path)
    if takeout:
        _read_takeout(takeout, path, found)
    for xmp in (os.path.splitext(path)[0] + ".xmp", path + ".xmp", os.path.splitext(path)[0] + ".XMP"):
        if os.path.isfile(xmp):
            try:
                if os.path.getsize(xmp) <= MAX_XMP:
                    with open(xmp, "rb") as f:
                        lines, place = xmp_words(f.read(), camera)
                    found.lines += [line for line in lines if line not in found.lines]
                    found.place = found.place or (f"in {place}" if place else "")
            except OSError:
                pass
            break
    return found


def _takeout_path(path: str) -> str | None:
    for end in [TAKEOUT[:k] for k in range(len(TAKEOUT), 0, -1)] + [""]:
        candidate = f"{path}{end}.json"
        if os.path.isfile(candidate):
            return candidate
    return None


def _read_takeout(sidecar: str, path: str, found: Sidecar) -> None:
    try:
        if os.path.getsize(sidecar) > MAX_JSON:
            return
        with open(sidecar, "rb") as f:
            data = json.loads(f.read())
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
