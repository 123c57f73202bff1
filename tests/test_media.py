"""Videos and sound files: real files encoded here with PyAV (H.264 in MP4, MP3, AAC in M4A)."""
from __future__ import annotations

import datetime as dt
import io
from fractions import Fraction

import numpy as np
import pytest
from PIL import Image

from scent import Filters, Index
from scent.extract import Limits, extract, file_kind, media

from conftest import FakeEmbedder
from test_formats import reason_of

av = pytest.importorskip("av")
skimage_data = pytest.importorskip("skimage.data")


def write_video(path, seconds=4, black=1, metadata=None, size=(320, 240)):
    """An H.264 MP4 at 25 frames a second: `black` seconds of black, then the cat of scikit-image's
    samples. FFmpeg writes the index (moov) at the end, as cameras without fast start do."""
    cat = Image.fromarray(skimage_data.chelsea()).resize(size)
    # QuickTime keeps keys such as Apple's com.apple.quicktime.* only when told to
    options = {"movflags": "use_metadata_tags"} if str(path).lower().endswith(".mov") else {}
    with av.open(str(path), "w", options=options) as out:
        for key, value in (metadata or {}).items():
            out.metadata[key] = value
        stream = out.add_stream("libx264", rate=25)
        stream.width, stream.height, stream.pix_fmt = *size, "yuv420p"
        for i in range(25 * seconds):
            picture = Image.new("RGB", size, "black") if i < 25 * black else cat
            for packet in stream.encode(av.VideoFrame.from_image(picture)):
                out.mux(packet)
        for packet in stream.encode():
            out.mux(packet)
    return path


def write_sound(path, codec, seconds=2, metadata=None, rate=22050, chapters=()):
    """A quiet 330 Hz tone, mono; `chapters`: (start, end, title), in seconds."""
    with av.open(str(path), "w") as out:
        for key, value in (metadata or {}).items():
            out.metadata[key] = value
        stream = out.add_stream(codec, rate=rate)
        stream.layout = "mono"
        tone = (0.2 * np.sin(2 * np.pi * 330 * np.arange(rate * seconds) / rate)).astype(np.float32)
        step = 1024
        for at in range(0, len(tone), step):
            frame = av.AudioFrame.from_ndarray(tone[None, at:at + step], format="fltp", layout="mono")
            frame.sample_rate = rate
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode():
            out.mux(packet)
        out.set_chapters([{"id": i, "start": start, "end": end, "time_base": Fraction(1), "metadata": {"title": title}}
                          for i, (start, end, title) in enumerate(chapters)])
    return path


PARTY = {"creation_time": "2024-12-14T18:03:21.000000Z", "title": "Chelsea at the party"}


def test_a_video_is_its_name_folders_day_length_size_and_title(tmp_path):
    (tmp_path / "2024-12-ana-birthday").mkdir()
    path = write_video(tmp_path / "2024-12-ana-birthday" / "VID_2190.mp4", metadata=PARTY)
    got = extract(str(path), Limits(root=str(tmp_path)))
    assert file_kind("VID_2190.mp4") == file_kind("IMG_1.MOV") == got.kind == "video"
    assert [(s.kind, s.text) for s in got.sections] == [
        ("video", "VID 2190\n2024 12 ana birthday\ntaken 14 December 2024 (2024-12-14)\n320x240\nvideo, 4 seconds\n"
                  "Chelsea at the party")]
    assert got.title == "Chelsea at the party"
    assert got.date == dt.datetime(2024, 12, 14, 18, 3, 21, tzinfo=dt.timezone.utc).timestamp()
    assert got.meta == {"width": 320, "height": 240, "seconds": 4.0}
    assert got.sections[0].picture is not None  # a frame, for an image-text model where there is one


def test_a_videos_frame_is_a_third_of_the_way_in_and_upright(tmp_path):
    path = write_video(tmp_path / "clip.mp4", seconds=6, black=1)  # black for 1 s; 2 s in is the cat
    frame = media.frame(str(path), 64)
    assert frame.size == (64, 48)
    assert np.asarray(frame).mean() > 60  # the cat, not the black start
    assert media.frame(io.BytesIO(path.read_bytes()), 640).size == (320, 240)  # never enlarged; from bytes too

    class Lying:  # what PyAV says of a portrait phone video: stored 4:3 lying down, turned 90 degrees
        width, height, rotation = 320, 240, 90.0

        def to_image(self, width, height):
            picture = Image.new("RGB", (width, height), "black")
            picture.paste((255, 255, 255), (0, 0, width // 2, height))  # its left half white
            return picture

    upright = media._upright(Lying(), 160)
    assert upright.size == (120, 160)
    assert upright.getpixel((60, 150)) == (255, 255, 255) and upright.getpixel((60, 10)) == (0, 0, 0)


@pytest.mark.parametrize("seconds, words", [(None, ""), (0.4, "1 second"), (45.4, "45 seconds"), (60, "1 minute"),
                                            (192, "3 minutes 12 seconds"), (3725, "1 hour 2 minutes"),
                                            (7200, "2 hours")])
def test_how_long_it_plays_in_words(seconds, words):
    assert media.duration_words(seconds) == words


def test_a_videos_frame_is_described_as_a_video(tmp_path):
    from scent import ocr

    # 1280x720: a screen's size, which alone makes a picture a screenshot, but every video frame has one
    path = write_video(tmp_path / "VID_2191.mp4", size=(1280, 720))
    got = extract(str(path), Limits(describe=True, ocr=ocr.engine("tesseract")))
    assert [s.kind for s in got.sections] == ["video", "video"]  # no text in the frame: no ocr unit
    shows = got.sections[1].text.split(", ")
    assert shows[0] == "video" and "cat" in shows


def test_a_screen_recording_is_said_to_be_one(tmp_path):
    from PIL import ImageDraw, ImageFont

    from scent import ocr

    screen = Image.new("RGB", (1280, 720), "white")
    pen = ImageDraw.Draw(screen)
    for i, line in enumerate(["Settings > Accounts > Sign-in options", "Use your security key to sign in",
                              "Windows Hello fingerprint is not available", "Add a new passkey for this device"]):
        pen.text((60, 80 + 70 * i), line, fill="black", font=ImageFont.load_default(size=40))
    path = tmp_path / "capture.mp4"
    with av.open(str(path), "w") as out:
        stream = out.add_stream("libx264", rate=25)
        stream.width, stream.height, stream.pix_fmt = 1280, 720, "yuv420p"
        for _ in range(50):
            for packet in stream.encode(av.VideoFrame.from_image(screen)):
                out.mux(packet)
        for packet in stream.encode():
            out.mux(packet)
    got = extract(str(path), Limits(describe=True, ocr=ocr.engine("tesseract")))
    assert [s.kind for s in got.sections] == ["video", "ocr", "video"]
    assert "security key" in got.sections[1].text
    assert got.sections[2].text.startswith("screen recording")


def test_a_song_is_its_tags_and_lyrics_and_a_voice_memo_its_day(tmp_path):
    song = write_sound(tmp_path / "song.mp3", "libmp3lame", metadata={
        "title": "Harbour Lights", "artist": "The Keepers", "album": "Lamp Room", "date": "1997", "genre": "Folk",
        "lyrics": "the lamp turns all night\nover the harbour"})
    got = extract(str(song), Limits(root=str(tmp_path)))
    assert file_kind("a.flac") == file_kind("b.M4A") == got.kind == "audio" and got.title == "Harbour Lights"
    assert [(s.kind, s.title, s.text) for s in got.sections] == [
        ("audio", "", "song\naudio, 2 seconds\ntitle: Harbour Lights\nartist: The Keepers\nalbum: Lamp Room\ngenre: Folk\n"
                      "date: 1997"),
        ("audio", "lyrics", "the lamp turns all night over the harbour")]
    assert got.date is None  # a song's year is when it came out, not when the file was made
    memo = write_sound(tmp_path / "New Recording 12.m4a", "aac", seconds=3, rate=16000,
                       metadata={"creation_time": "2025-03-02T09:15:00Z"})
    got = extract(str(memo), Limits(root=str(tmp_path)))
    assert [s.text for s in got.sections] == ["New Recording 12\naudio, 3 seconds\nrecorded 2 March 2025 (2025-03-02)"]
    assert got.date == dt.datetime(2025, 3, 2, 9, 15, tzinfo=dt.timezone.utc).timestamp()


def test_chapters_with_titles_are_a_section_of_their_own(tmp_path):
    book = write_sound(tmp_path / "Woodturning for Beginners.m4b", "aac", seconds=8, chapters=[
        (0, 2, "Chapter 1"), (2, 5, "Choosing a lathe"), (5, 8, "Sharpening gouges")])
    got = extract(str(book), Limits(root=str(tmp_path)))
    assert [(s.kind, s.title, s.text) for s in got.sections][1:] == [
        ("audio", "chapters", "0:02 Choosing a lathe\n0:05 Sharpening gouges")]
    numbered = write_sound(tmp_path / "album.m4a", "aac", seconds=4, chapters=[(0, 2, "Track 01"), (2, 4, "2")])
    assert len(extract(str(numbered), Limits(root=str(tmp_path))).sections) == 1  # numbers alone say nothing
    assert media.clock(312) == "5:12" and media.clock(3912.4) == "1:05:12" and media.clock(0) == "0:00"


def test_a_damaged_or_foreign_media_file_is_one_line(tmp_path):
    whole = write_video(tmp_path / "whole.mp4").read_bytes()
    (tmp_path / "cut.mp4").write_bytes(whole[:len(whole) // 2])  # its index (moov) was at the end
    (tmp_path / "notes.mp4").write_text("not a video, a note renamed")
    (tmp_path / "noise.mp3").write_bytes(bytes(range(256)) * 8)
    for name, what in (("cut.mp4", "video"), ("notes.mp4", "video"), ("noise.mp3", "sound file")):
        assert reason_of(tmp_path / name).startswith(f"not a readable {what} ("), name


def test_videos_and_sounds_are_found_by_their_words_and_kind(tmp_path):
    from scent.serve.files import make_thumbnail

    folder = tmp_path / "phone"
    (folder / "2024-12-ana-birthday").mkdir(parents=True)
    write_video(folder / "2024-12-ana-birthday" / "VID_2190.mp4", metadata=PARTY)
    write_sound(folder / "song.mp3", "libmp3lame", metadata={"title": "Harbour Lights", "artist": "The Keepers"})
    (folder / "party-plan.md").write_text("# Ana's birthday\n\nCake at six, then the video call with grandma.\n")
    with Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        assert idx.update().added == 3
        found = idx.search("ana birthday video", strategy="keyword")
        assert {r.path for r in found} == {"2024-12-ana-birthday/VID_2190.mp4", "party-plan.md"}
        only = idx.search("ana birthday video", strategy="keyword", filters=Filters(kinds=("video",)))
        assert [(r.path, r.kind) for r in only] == [("2024-12-ana-birthday/VID_2190.mp4", "video")]
        assert [r.path for r in idx.search("keepers harbour lights", strategy="keyword")] == ["song.mp3"]
    thumb = Image.open(io.BytesIO(make_thumbnail(folder / "2024-12-ana-birthday" / "VID_2190.mp4", "video", None)))
    assert thumb.format == "JPEG" and thumb.size == (320, 240)


def test_a_live_photos_moving_part_names_its_photo(tmp_path):
    phone = tmp_path / "2024"
    phone.mkdir()
    for name in ("IMG_1234.JPG", "IMG_2000.HEIC", "IMG_3000.jpg", "CLIP.jpg"):
        Image.fromarray(skimage_data.chelsea()).save(phone / name, format="JPEG")
    apple = {"com.apple.quicktime.content.identifier": "5E1B3A5C-1234-4D2B-9A11-ABCDEF012345"}
    write_video(phone / "IMG_1234.MOV", seconds=3, metadata=apple)
    write_video(phone / "IMG_2000.MOV", seconds=7, metadata=apple)  # Apple's identifier says it, whatever its length
    write_video(phone / "IMG_3000.mp4", seconds=3)  # short, and named as a photo beside it is
    write_video(phone / "CLIP.mov", seconds=7)  # a video of its own with its poster
    write_video(phone / "IMG_4000.MOV", seconds=3, metadata=apple)  # no photo beside it
    limits = Limits(root=str(tmp_path))
    assert {name: extract(str(phone / name), limits).part_of
            for name in ("IMG_1234.MOV", "IMG_2000.MOV", "IMG_3000.mp4", "CLIP.mov", "IMG_4000.MOV")} == {
        "IMG_1234.MOV": "2024/IMG_1234.JPG", "IMG_2000.MOV": "2024/IMG_2000.HEIC", "IMG_3000.mp4": "2024/IMG_3000.jpg",
        "CLIP.mov": "", "IMG_4000.MOV": ""}
    said = {name: extract(str(phone / name), limits).sections[0].text for name in ("IMG_1234.MOV", "CLIP.mov")}
    assert said["IMG_1234.MOV"].endswith("\nvideo, 3 seconds, the moving part of a Live Photo")
    assert said["CLIP.mov"].endswith("\nvideo, 7 seconds")


def test_a_live_photo_is_one_result(tmp_path):
    Image.fromarray(skimage_data.chelsea()).save(tmp_path / "IMG_1234.JPG", format="JPEG")
    write_video(tmp_path / "IMG_1234.MOV", seconds=3)
    write_video(tmp_path / "IMG_1235.MOV", seconds=8)
    with Index(tmp_path, index_dir=tmp_path / ".idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        found = {r.path: r.copies for r in idx.search("IMG 1234 1235", strategy="keyword")}
    assert len(found) == 2 and found.pop("IMG_1235.MOV") == ()
    [(shown, copies)] = found.items()  # the photo or its moving part, whichever ranks first, the other under it
    assert {shown, *copies} == {"IMG_1234.JPG", "IMG_1234.MOV"} and len(copies) == 1


def test_subtitles_a_video_carries_are_what_it_says(tmp_path):
    # A Matroska file made as a muxer makes one: a video's packets and a .srt's, remuxed
    srt = tmp_path / "talk.srt"
    srt.write_text("1\n00:00:00,500 --> 00:00:01,700\nWelcome to the kiln workshop.\n\n"
                   "2\n00:00:02,000 --> 00:00:03,200\nGlaze firing reaches <i>1240</i> degrees.\n\n"
                   "3\n00:01:05,000 --> 00:01:06,000\nThank you for coming.\n")
    video = write_video(tmp_path / "picture.mp4", seconds=2)
    with av.open(str(video)) as pictures, av.open(str(srt)) as said, av.open(str(tmp_path / "talk.mkv"), "w") as out:
        streams = {pictures.streams.video[0]: out.add_stream_from_template(pictures.streams.video[0]),
                   said.streams.subtitles[0]: out.add_stream_from_template(said.streams.subtitles[0])}
        for source, target in streams.items():
            for packet in source.container.demux(source):
                if packet.dts is not None:
                    packet.stream = target
                    out.mux(packet)
    got = extract(str(tmp_path / "talk.mkv"), Limits(root=str(tmp_path)))
    assert [(s.kind, s.title, s.text) for s in got.sections] == [
        ("video", "", "talk\n320x240\nvideo, 1 minute 6 seconds"),  # the container plays until its last cue ends
        ("text", "0:00", "Welcome to the kiln workshop.\nGlaze firing reaches 1240 degrees."),
        ("text", "1:05", "Thank you for coming.")]
    assert [s.start for s in got.sections] == [0, 40, 106]  # offsets into the sections joined by blank lines
