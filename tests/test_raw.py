"""Camera raw photos (scent.extract.raw), as DNG files written here with tifffile: a linear DNG
(three colour channels a pixel, as LibRaw reads a demosaiced raw) whose left half is red and
right half blue, with or without the camera's 8-bit preview in the first IFD."""
from __future__ import annotations

from datetime import datetime, timezone

import numpy as np
import pytest

from test_formats import reason_of
from scent.extract import Limits, extract, file_kind
from scent.extract.raw import load_picture

tifffile = pytest.importorskip("tifffile")

RED, BLUE = (250, 20, 20), (20, 20, 250)


def dng(path, *, preview: bool, orientation: int = 1, width: int = 96, height: int = 64, extra=()) -> str:
    sensor = np.zeros((height, width, 3), np.uint16)
    sensor[:, :width // 2], sensor[:, width // 2:] = (60000, 6000, 6000), (6000, 6000, 60000)
    small = np.zeros((height // 2, width // 2, 3), np.uint8)
    small[:, :width // 4], small[:, width // 4:] = RED, BLUE
    identity = [v for x in (1, 0, 0, 0, 1, 0, 0, 0, 1) for v in (x * 10000, 10000)]
    camera = [(50706, "B", 4, (1, 4, 0, 0), True), (50708, "s", 0, "Scent Test Camera", True),
              (271, "s", 0, "Scent", True), (272, "s", 0, "Scent TC-1", True),
              (306, "s", 0, "2024:07:14 19:32:00", True), (274, "H", 1, orientation, True), *extra]
    colour = [(50721, "2i", 9, identity, True), (50778, "H", 1, 21, True)]
    with tifffile.TiffWriter(path) as tw:
        if preview:
            tw.write(small, photometric="rgb", subfiletype=1, subifds=1, extratags=camera, metadata=None)
            tw.write(sensor, photometric=34892, subfiletype=0, extratags=colour, metadata=None)
        else:
            tw.write(sensor, photometric=34892, extratags=camera + colour, metadata=None)
    return str(path)


def test_a_raw_photo_is_its_name_date_camera_and_what_its_preview_shows(tmp_path):
    (tmp_path / "harbour").mkdir()
    path = dng(tmp_path / "harbour" / "DSC_0042.dng", preview=True)
    assert file_kind(path) == "image"
    got = extract(path, Limits(describe=True, root=str(tmp_path)))
    assert got.kind == "image" and got.title == "DSC_0042.dng"
    assert got.date == datetime(2024, 7, 14, 19, 32, tzinfo=timezone.utc).timestamp()
    name, shows = got.sections
    assert name.text == ("DSC 0042\nharbour\ntaken 14 July 2024 (2024-07-14)\ncamera Scent TC-1\n"
                         "96x64\nraw photo")
    assert shows.kind == "image" and "red" in shows.text and "blue" in shows.text
    assert load_picture(path, 512).size == (48, 32)  # the camera's preview, not the sensor's data


def test_a_raw_photo_pillow_cannot_open_is_dated_by_libraw(tmp_path, monkeypatch):
    from scent.extract import raw

    # As a .cr3, .raf or .rw2 is: no EXIF Pillow can reach; LibRaw reads the time all the same.
    monkeypatch.setattr(raw, "_exif_of", lambda path: (None, "", "", []))
    got = extract(dng(tmp_path / "IMG_0042.dng", preview=True), Limits(root=str(tmp_path)))
    assert got.date == datetime(2024, 7, 14, 19, 32, tzinfo=timezone.utc).timestamp()
    assert "taken 14 July 2024 (2024-07-14)" in got.sections[0].text


def test_the_words_written_into_a_raw_photo_are_read(tmp_path):
    xmp = (b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
           b'<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li>Harbour lights'
           b'</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>')
    got = extract(dng(tmp_path / "DSC_7.dng", preview=True, extra=[(700, "B", len(xmp), xmp, True)]),
                  Limits(root=str(tmp_path)))
    assert got.sections[0].text.endswith("\nraw photo\nHarbour lights")


def test_a_raw_photo_without_a_preview_is_developed(tmp_path):
    path = dng(tmp_path / "IMG_7.dng", preview=False)
    img = load_picture(path, 512)
    assert img.size == (96, 64)  # LibRaw's half size halves a colour mosaic; a linear DNG's pixels are whole
    left, right = img.getpixel((5, 32)), img.getpixel((90, 32))
    assert left[0] > left[2] and right[2] > right[0]  # red stays left, blue right


def test_a_raw_photo_taken_upright_is_turned(tmp_path):
    """Orientation 6 (the camera held turned right): LibRaw's flip turns the preview a quarter."""
    assert load_picture(dng(tmp_path / "tall.dng", preview=True, orientation=6), 512).size == (32, 48)


def test_a_file_that_is_no_raw_photo_is_one_line(tmp_path):
    fake = tmp_path / "DSC_1.nef"
    fake.write_text("not a photo at all")
    assert reason_of(fake).startswith("not a readable camera raw photo (")


def test_a_raw_photos_thumbnail_is_its_preview(tmp_path):
    import io

    from PIL import Image

    from scent.serve.files import make_thumbnail

    path = dng(tmp_path / "DSC_9.dng", preview=True)
    for source in (tmp_path / "DSC_9.dng", (tmp_path / "DSC_9.dng").read_bytes()):  # a file, or a file inside another
        with Image.open(io.BytesIO(make_thumbnail(source, "image", None, name="DSC_9.dng"))) as thumb:
            assert thumb.size == (48, 32)
            assert thumb.getpixel((4, 16))[0] > 200 and thumb.getpixel((44, 16))[2] > 200
    assert path.endswith(".dng")


def test_what_libraw_writes_on_stderr_is_the_files_note(capfd):
    """LibRaw and its JPEG decoder write a damaged file's faults to file descriptor 2 themselves;
    written there (as C code does, past Python's sys.stderr) while it reads, they become the note."""
    import os

    from scent.extract.raw import _libraw_says

    said: list[str] = []
    with _libraw_says(said):
        os.write(2, b"/photos/DSC_1.nef: Unexpected end of file\nPremature end of JPEG file\n")
    assert said == ["Unexpected end of file", "Premature end of JPEG file"]
    assert capfd.readouterr().err == ""
    os.write(2, b"after\n")
    assert capfd.readouterr().err == "after\n"  # stderr is itself again
