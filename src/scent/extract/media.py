"""What a video or sound file's container says of it, and one frame of a video: read by PyAV
(FFmpeg's libraries, inside its wheel: nothing to install, nothing fetched).

Only the container's header is parsed for the facts (an hour of 4K video opens in milliseconds);
a frame is decoded from the nearest keyframe a third of the way in (a video's first frame is
often black or a fade), and the decoding gives up after MAX_PACKETS packets without a picture.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

from scent.units import Section
from .base import named, unreadable
from .image import camera_name

MAX_PACKETS = 600  # packets read for one frame: a keyframe interval is at most a few hundred
FRAME_AT = 1 / 3  # where in a video its frame is taken
# Where cameras and phones keep their make and model (QuickTime's keys for iPhones, the
# generic ones for cameras, Android's for its camera app).
_MAKE_KEYS = ("com.apple.quicktime.make", "make", "com.android.manufacturer")
_MODEL_KEYS = ("com.apple.quicktime.model", "model", "com.android.model")
# iPhones keep the local time with its offset here; creation_time is UTC.
_DATE_KEYS = ("com.apple.quicktime.creationdate", "creation_time", "date")
_OFFSET = re.compile(r"([+-]\d{2})(\d{2})$")
# Where phones keep the position a video was taken at, as ISO 6709 ("+38.7223-009.1393+012.000/"):
# iPhones' QuickTime key, Android's and cameras' MP4 location (FFmpeg names it "location").
_PLACE_KEYS = ("com.apple.quicktime.location.iso6709", "location", "location-eng")  # keys lower-cased
_ISO6709 = re.compile(r"([+-]\d{1,2}(?:\.\d+)?)([+-]\d{1,3}(?:\.\d+)?)")
# Subtitle streams of text (pictures of text, DVD's and Blu-ray's, are not read). FFmpeg gives
# each cue as a SubStation dialogue line, its line breaks written \N.
TEXT_SUBTITLES = {"subrip", "srt", "ass", "ssa", "mov_text", "webvtt", "text"}
_ASS_BREAK = re.compile(r"\\[Nn]")
MAX_CHAPTERS = 1000
_NUMBERED = re.compile(r"(?:chapter|chap\.?|track|part|kapitel|cap[ií]tulo|chapitre|parte)?\s*\d+\Z", re.I)


@dataclass
class Cue:
    """One subtitle, as scent.extract.subtitles reads a .srt's."""
    start_in_seconds: float
    text: str


@dataclass
class Facts:
    seconds: float | None  # how long it plays
    created: datetime | None  # when it was recorded, as the container says
    tags: dict[str, str] = field(default_factory=dict)  # lower-cased keys, the container's first
    size: tuple[int, int] | None = None  # a video's picture, as stored
    video: bool = False  # it has a picture stream (a music file's cover art is not one)
    audio: bool = False
    subtitles: bool = False  # it carries subtitles as text
    chapters: list[tuple[float, str]] = field(default_factory=list)  # (start in seconds, title) of those it names


def facts(path: str, what: str) -> Facts:
    """The container's facts; ExtractError saying "not a readable WHAT" when FFmpeg cannot open it."""
    import av

    try:
        with av.open(path, metadata_errors="ignore") as container:
            pictures = [s for s in container.streams.video if not _cover_art(s)]
            tags: dict[str, str] = {}
            # The container's tags first, then its picture's and sound's streams' (setdefault keeps the first)
            for metadata in (container.metadata, *(s.metadata for s in [*pictures[:1], *container.streams.audio[:1]])):
                for k, v in metadata.items():
                    if str(v).strip():
                        tags.setdefault(k.lower(), " ".join(str(v).split()))
            seconds = container.duration / 1_000_000 if container.duration else None
            size = None
            if pictures and pictures[0].codec_context.width:
                size = (pictures[0].codec_context.width, pictures[0].codec_context.height)
            return Facts(seconds, _created(tags), tags, size, bool(pictures), bool(container.streams.audio),
                         _subtitle_stream(container) is not None, _chapters(container))
    except av.error.FFmpegError as e:
        if isinstance(e, av.error.FileNotFoundError):
            raise OSError(2, "No such file or directory") from None  # extract() says it vanished
        raise unreadable(path, what, _said(e)) from None


def _said(e) -> str:
    """FFmpeg's words for what went wrong, without its error number and the file's path."""
    return f"{type(e).__name__}: {e.strerror}" if getattr(e, "strerror", None) else named(e)


def _chapters(container) -> list[tuple[float, str]]:
    """The chapters whose titles say something (an audiobook's, a lecture's, a podcast's), at most
    MAX_CHAPTERS; "Chapter 3" and "Track 03" say nothing a search could use."""
    found = []
    for chapter in container.chapters()[:MAX_CHAPTERS]:
        title = " ".join(str((chapter.get("metadata") or {}).get("title", "")).split())
        if title and not _NUMBERED.match(title) and chapter.get("time_base"):
            found.append((float(chapter["start"] * chapter["time_base"]), title))
    return found


def chapters_section(got: Facts, kind: str) -> list[Section]:
    """Its chapters' titles, each after the time it starts at ("5:12 Setting up the lathe"), as a
    section of their own; none where it names none."""
    if not got.chapters:
        return []
    return [Section(text="\n".join(f"{clock(start)} {title}" for start, title in got.chapters), kind=kind,
                    title="chapters")]


def clock(seconds: float) -> str:
    """5:12, 1:05:12."""
    hours, rest = divmod(max(0, round(seconds)), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _subtitle_stream(container):
    """The text subtitle stream to read: the one marked default, else the first."""
    texts = [s for s in container.streams.subtitles if s.codec_context.name in TEXT_SUBTITLES]
    return next((s for s in texts if s.disposition & 0x1), texts[0] if texts else None)  # AV_DISPOSITION_DEFAULT


def captions(path: str, max_chars: int) -> list[Cue]:
    """The cues of the video's text subtitles, in order, up to about `max_chars` characters.
    ValueError saying why when they cannot be read. (Demuxing one stream reads the whole file.)"""
    import av

    cues, read = [], 0
    try:
        with av.open(path, metadata_errors="ignore") as container:
            stream = _subtitle_stream(container)
            if stream is None:
                return []
            for packet in container.demux(stream):
                if packet.pts is None:
                    continue
                for cue in packet.decode():
                    text = _ASS_BREAK.sub("\n", bytes(getattr(cue, "dialogue", b"") or b"").decode("utf-8", "replace"))
                    if text.strip():
                        cues.append(Cue(float(packet.pts * stream.time_base), text))
                        read += len(text)
                if read > max_chars:
                    break
    except av.error.FFmpegError as e:
        raise ValueError(_said(e)) from None
    return sorted(cues, key=lambda c: c.start_in_seconds)


def _cover_art(stream) -> bool:
    """An album's cover picture, which FFmpeg lists as a video stream of one frame."""
    return bool(stream.disposition & 0x400)  # AV_DISPOSITION_ATTACHED_PIC


def _created(tags: dict[str, str]) -> datetime | None:
    for key in _DATE_KEYS:
        stamp = tags.get(key, "")
        try:
            when = datetime.fromisoformat(_OFFSET.sub(r"\1:\2", stamp.replace("Z", "+00:00")))
        except ValueError:
            continue
        when = when if when.tzinfo else when.replace(tzinfo=timezone.utc)
        if when.year >= 1971:  # a camera without a clock writes 1904 or 1970 (QuickTime's and Unix's zero)
            return when
    return None


def place(tags: dict[str, str]) -> str:
    """Where it was taken, in words (scent.places); "" where no tag holds a position in degrees."""
    for key in _PLACE_KEYS:
        if found := _ISO6709.match(tags.get(key, "").strip()):
            from scent.places import place_words  # only a video with a position needs the towns

            return place_words(float(found[1]), float(found[2]))
    return ""


def camera(tags: dict[str, str]) -> str:
    make = next((tags[k] for k in _MAKE_KEYS if tags.get(k)), "")
    return camera_name(make, next((tags[k] for k in _MODEL_KEYS if tags.get(k)), ""))


def duration_words(seconds: float | None) -> str:
    """"1 hour 2 minutes", "3 minutes 12 seconds", "45 seconds": the words a person searches with
    (an abbreviated "s" would match the "s" of "Ana's")."""
    if not seconds or seconds < 0:
        return ""
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if not hours and not minutes:
        secs = max(secs, 1)  # a clip under half a second still plays for "1 second"
    parts = [(hours, "hour"), (minutes, "minute")] if hours else [(minutes, "minute"), (secs, "second")]
    return " ".join(f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in parts if n)


def frame(source, side: int):
    """A frame a third of the way into the video (`source`: its path, or a file object), upright,
    as a PIL image whose longer side is at most `side`; ValueError saying why when none decodes."""
    import av

    try:
        with av.open(source, metadata_errors="ignore") as container:
            streams = [s for s in container.streams.video if not _cover_art(s)]
            if not streams:
                raise ValueError("it has no video stream")
            stream = streams[0]
            seconds = container.duration / 1_000_000 if container.duration else 0
            if seconds > 3 and stream.time_base:
                # To the keyframe before: the first frame decoded is then a whole picture.
                container.seek(int(seconds * FRAME_AT / stream.time_base), stream=stream, backward=True)
            for n, packet in enumerate(container.demux(stream)):
                if n >= MAX_PACKETS:
                    break
                for decoded in packet.decode():
                    return _upright(decoded, side)
    except av.error.FFmpegError as e:
        raise ValueError(_said(e)) from None
    raise ValueError(f"no frame decoded in its first {MAX_PACKETS} packets")


def _upright(decoded, side: int):
    width, height = decoded.width, decoded.height
    scale = min(1.0, side / max(width, height, 1))
    image = decoded.to_image(width=max(1, round(width * scale)), height=max(1, round(height * scale)))
    # A phone stores a portrait video lying down and says how to turn it (counterclockwise degrees).
    turn = round(getattr(decoded, "rotation", 0) or 0) % 360
    return image.rotate(turn, expand=True) if turn in (90, 180, 270) else image
