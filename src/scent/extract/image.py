"""Pictures: one unit of what is known without looking at the pixels (name, folders, EXIF, size);
when OCR is on (Limits.ocr), one `ocr` section of the text visible in them; and when
Limits.describe is on, a second `image` section of what the pixels show (scent.describe:
"photo, orange, dark blue, dark"). It is a section of its own, not words added to the first, so
a query about the scene meets a short text about the scene, not one diluted by a file name,
folders and a date (and the name/date unit stays as it was for date and name queries)."""
from __future__ import annotations

import logging
import math
import os
import struct
import warnings
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from functools import partial

from PIL import Image, ImageOps

from scent import ocr
from scent.dates import in_words
from scent.describe import describe, is_text_page
from scent.errors import ExtractError, OcrFailed
from scent.units import Extracted, Picture, Section
from . import sidecar, tags
from .base import SECTION_SEPARATOR, Limits, name_words

try:  # phones save HEIC; Pillow opens it (and AVIF, where Pillow lacks its own) only with pillow-heif
    from pillow_heif import register_heif_opener
except ImportError:
    pass
else:
    register_heif_opener()

# Pillow logs what it finds wrong in a damaged file (a TIFF's impossible samples per pixel) as an
# error; with no logging set up, Python prints that raw on stderr beside scent's own line for the
# file. A handler that drops them stops that; an application's own logging still gets them.
logging.getLogger("PIL").addHandler(logging.NullHandler())

# 2: a scanned page of text saved as a picture gives no description unit (its OCR unit is the page).
VERSION = 2

# .psd: Photoshop's merged picture (its layers, and a type layer's words, are not read apart).
_ALWAYS = (".jpg", ".jpeg", ".jpe", ".png", ".gif", ".webp", ".tif", ".tiff", ".bmp", ".psd")
# Claimed even where this Pillow cannot open them, so a photo is skipped with a reason, not unseen.
_PLUGIN = (".heic", ".heif", ".avif")
EXTENSIONS = _ALWAYS + _PLUGIN

_FOLDERS_KEPT = 3  # the nearest folders name the event or place; further up is /home/user
_EXIF_IFD, _DATETIME_ORIGINAL, _OFFSET_ORIGINAL = 0x8769, 0x9003, 0x9011
_DATETIME, _MAKE, _MODEL = 0x0132, 0x010F, 0x0110
_GPS_IFD, _LAT_REF, _LAT, _LON_REF, _LON = 0x8825, 1, 2, 3, 4
# How a complete file of these formats ends. A file that ends otherwise may be cut short
# (or carry trailing data), and only then is it decoded, at reduced size, to find out.
_ENDINGS = {"JPEG": b"\xff\xd9", "MPO": b"\xff\xd9", "PNG": b"IEND\xaeB`\x82", "GIF": b";"}
_BAD_EXIF = (OSError, ValueError, KeyError, TypeError, SyntaxError, struct.error, UnicodeDecodeError)


def _clean(value) -> str:
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    return " ".join(str(value).replace("\x00", " ").split())


def _taken(exif: Image.Exif) -> datetime | None:
    """When the picture was taken; naive times (no EXIF offset) are read as UTC."""
    sub = exif.get_ifd(_EXIF_IFD)
    stamp = _clean(sub.get(_DATETIME_ORIGINAL) or exif.get(_DATETIME) or "")
    try:
        when = datetime.strptime(stamp[:19], "%Y:%m:%d %H:%M:%S")
    except ValueError:  # absent, or the "0000:00:00 00:00:00" some cameras write
        return None
    offset = _clean(sub.get(_OFFSET_ORIGINAL) or "")
    try:
        sign = -1 if offset.startswith("-") else 1
        hours, minutes = offset.lstrip("+-").split(":")
        zone = timezone(sign * timedelta(hours=int(hours), minutes=int(minutes)))
    except ValueError:
        zone = timezone.utc
    return when.replace(tzinfo=zone)


def _place(exif: Image.Exif) -> str:
    """Where it was taken, in words (scent.places), from its GPS position; "" without one."""
    try:
        gps = exif.get_ifd(_GPS_IFD)
        lat, lon = _degrees(gps[_LAT], gps.get(_LAT_REF), "S"), _degrees(gps[_LON], gps.get(_LON_REF), "W")
    except (*_BAD_EXIF, ZeroDivisionError, IndexError):
        return ""
    from scent.places import place_words  # only a photo with a position needs the towns

    return place_words(lat, lon)


def _degrees(dms, ref, negative: str) -> float:
    """EXIF's degrees, minutes and seconds (rationals) and their N/S or E/W as one signed number."""
    d, m, s = (float(x) for x in dms)
    value = d + m / 60 + s / 3600
    if not math.isfinite(value):  # a rational over 0
        raise ValueError(value)
    return -value if _clean(ref or "").upper() == negative else value


def _camera(exif: Image.Exif) -> str:
    return camera_name(_clean(exif.get(_MAKE) or ""), _clean(exif.get(_MODEL) or ""))


def camera_name(make: str, model: str) -> str:
    """"Canon EOS R5": the make once, though many cameras repeat it in the model ("Canon" / "Canon EOS R5")."""
    return model if make and model.lower().startswith(make.lower()) else f"{make} {model}".strip()


def _complete(img: Image.Image, path: str) -> None:
    """Raises when the picture was cut short, by the cheapest check its format allows."""
    if img.format in _BOXED:
        _boxes_whole(path)
        return
    ending = _ENDINGS.get(img.format or "")
    if ending is None:
        return  # no cheap check for this format; trust its header
    with open(path, "rb") as f:
        f.seek(max(0, os.path.getsize(path) - 1024))
        if f.read().rstrip(b"\x00").endswith(ending):
            return
    img.draft("RGB", (1, 1))  # JPEG decodes at 1/8 scale; other formats ignore it
    img.load()


# HEIC and AVIF are ISO base media files: a row of boxes, each starting with its length.
_BOXED = {"HEIF", "AVIF"}


def iso_boxes(f, size: int):
    """(offset, length, type) of each top-level box of an ISO base media file open as `f`, whose
    length is `size`; a box of length 0 runs to the end. EOFError for a length no box can have."""
    at = 0
    while at + 8 <= size:
        f.seek(at)
        length, kind = struct.unpack(">I4s", f.read(8))
        if length == 1:  # a 64-bit length follows the type
            (length,) = struct.unpack(">Q", f.read(8))
        elif length == 0:
            length = size - at
        if length < 8:
            raise EOFError(f"its {kind.decode('latin-1')!r} box has a length of {length}")
        yield at, length, kind
        at += length


def _boxes_whole(path: str) -> None:
    """EOFError when a top-level box runs past the end of the file. A cut HEIC's header can be
    whole, and whether the decoder refuses it when opened or only when its pixels are asked for
    depends on the libheif version (pillow-heif 1.9 opens it)."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        for at, length, kind in iso_boxes(f, size):
            if at + length > size:
                raise EOFError(f"the file ends inside its {kind.decode('latin-1')!r} box: it was cut short")


def name_unit(path: str, size: tuple[int, int] | None, taken: datetime | None, camera: str,
              root: str | None = None, place: str = "") -> str:
    folder = os.path.dirname(os.path.abspath(path))
    if root:  # only folders inside the indexed one say something about the picture
        folder = os.path.relpath(folder, os.path.abspath(root))
    folders = [name_words(d) for d in folder.split(os.sep) if d and d != "."]
    lines = [name_words(os.path.splitext(os.path.basename(path))[0]),
             " ".join(folders[-_FOLDERS_KEPT:])]
    if taken:
        lines.append(f"taken {in_words(taken)}")
    if place:
        lines.append(place)
    if camera:
        lines.append(f"camera {camera}")
    if size:
        lines.append(f"{size[0]}x{size[1]}")
    return "\n".join(line for line in lines if line)


_UNREADABLE = (OSError, SyntaxError, ValueError, struct.error, EOFError)


def extract(path: str, limits: Limits) -> Extracted:
    ext = os.path.splitext(path)[1].lower()
    if ext in _PLUGIN and ext not in Image.registered_extensions():
        raise ExtractError(path, f"{ext} pictures need pillow-heif, which is not installed here; "
                                 "run scripts/setup.sh (or pip install pillow-heif) and index again")
    meta: dict = {}
    size, taken, camera, place, said = None, None, "", "", []
    try:
        with warnings.catch_warnings(record=True) as caught:
            # Pillow warns of huge images (max_image_pixels is our answer to that) and of damaged
            # EXIF, raw on stderr: the EXIF warning is kept and said once, as a scent line.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            warnings.simplefilter("always", UserWarning)
            with Image.open(path) as img:
                size, meta["format"] = img.size, img.format
                meta["too_large"] = size[0] * size[1] > limits.max_image_pixels
                try:
                    exif = img.getexif()
                    taken, camera, place = _taken(exif), _camera(exif), _place(exif)
                    said, written = tags.words(img, exif, camera)
                    place = place or written
                except _BAD_EXIF:
                    meta["bad_exif"] = True  # the picture is still worth its name
                if not meta["too_large"]:
                    try:
                        _complete(img, path)
                    except _UNREADABLE as e:
                        if isinstance(e, OSError) and e.errno is not None:
                            raise
                        # Its header read (size, date, camera): a photo cut short in a copy is still
                        # found by its name and the day it was taken.
                        meta["pixels_error"] = str(e) if "cut short" in str(e) else f"it was cut short: {e}"
    except Image.DecompressionBombError:
        meta["too_large"] = True  # too big for Pillow even to open; the name still counts
    except _UNREADABLE as e:
        if isinstance(e, OSError) and e.errno is not None:
            raise  # the file system's error, not the picture's: extract() reports it as such
        if os.path.getsize(path) == 0:
            raise ExtractError(path, "empty file (0 bytes): nothing to read; a copy or a download may have "
                                     "stopped before it began") from e
        raise ExtractError(path, f"unreadable image ({e}); it may be damaged, cut short or "
                                 "another format renamed; add it to .scentignore to skip it") from e
    damaged = [str(w.message).strip() for w in caught if issubclass(w.category, UserWarning)]
    if damaged or meta.get("bad_exif"):
        meta["bad_exif"] = damaged[0] if damaged else "it does not parse"
    if size:
        meta["width"], meta["height"] = size
    side = sidecar.beside(path, camera)
    taken, place = taken or side.taken, place or side.place
    text = "\n".join((name_unit(path, size, taken, camera, limits.root, place),
                      *dict.fromkeys(said + side.lines)))
    # The name/date unit is there whatever else is: it carries the pixels for an image-text model.
    readable = size and not meta["too_large"] and "pixels_error" not in meta
    pixels = Picture("", partial(load_picture, path)) if readable else None
    sections = [Section(text=text, kind="image", picture=pixels)]
    if limits.ocr is not None and readable:
        seen = _read_text(path, limits, meta)
        if seen:
            sections.append(Section(text=seen, kind="ocr", start=len(text) + len(SECTION_SEPARATOR)))
    else:
        seen = ""
    # Pixels that did not decode for OCR would not decode for the description either.
    if limits.describe and size and not meta["too_large"] and "pixels_error" not in meta:
        shows = _shows(path, seen, meta)
        # A scanned letter described is a "document page, text, white": a unit of generic words that
        # "what documents to bring" and "white paper" found first, at 99%. Its OCR unit is the page,
        # as a scanned PDF page's is (scent.extract.pdf).
        if shows and not (seen and is_text_page(shows)):
            last = sections[-1]
            sections.append(Section(text=shows, kind="image", start=last.start + len(last.text) + len(SECTION_SEPARATOR)))
    if "pixels_error" in meta:  # one line for the file, however many readers of its pixels failed
        meta["picture_error"] = (f"its pixels did not decode ({meta.pop('pixels_error')}): it is indexed by its "
                                 "name and date, without its text or a description of what it shows")
    return Extracted(kind="image", sections=sections,
                     title=os.path.basename(path), date=taken.timestamp() if taken else None,
                     meta=meta)


_ORIENTATION = 0x0112  # EXIF: how to turn the stored pixels to show the picture upright


def upright(img: Image.Image) -> Image.Image:
    """The picture turned as its EXIF says: a phone stores what the sensor saw (a portrait photo lies on
    its side) and records the turn, which OCR and the describers would otherwise not see. A picture
    without the tag (or with damaged EXIF) is returned as it is, not copied."""
    try:
        turned = img.getexif().get(_ORIENTATION, 1) not in (1, 0)
    except _BAD_EXIF:
        return img
    return ImageOps.exif_transpose(img) if turned else img


@contextmanager
def _quiet():
    """Pillow's warnings silenced when a picture is opened again: `extract` said what they say."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        warnings.simplefilter("ignore", UserWarning)
        yield


def load_picture(path: str, side: int) -> Image.Image:
    """The picture decoded for an image-text model; a JPEG decodes at the smallest scale that
    keeps `side`."""
    with _quiet():
        with Image.open(path) as img:
            img.draft("RGB", (side, side))
            return upright(img).convert("RGB")  # a copy, loaded: the file closes here


def _read_text(path: str, limits: Limits, meta: dict) -> str:
    """The text visible in the picture ("" when none). A failure of OCR costs only the text:
    meta["ocr_error"] says why. OcrUnavailable (no engine at all) goes to the indexer."""
    try:
        with _quiet():
            with Image.open(path) as img:
                return ocr.read_text(upright(img), limits.ocr, limits.ocr_langs, limits.ocr_max_side)
    except OcrFailed as e:
        meta["ocr_error"] = f"text in the picture was not read: {e}; it is indexed by its name and date"
    except (OSError, SyntaxError, ValueError, struct.error, EOFError, Image.DecompressionBombError) as e:
        if isinstance(e, OSError) and e.errno is not None:
            raise
        meta["pixels_error"] = " ".join(str(e).split())  # libheif ends its messages with a newline
    return ""


def _shows(path: str, seen: str, meta: dict) -> str:
    """What the picture shows, in words ("" when its pixels do not decode: meta says so)."""
    try:
        with _quiet():
            with Image.open(path) as img:
                return describe(upright(img), ocr_text=seen)
    except (OSError, SyntaxError, ValueError, struct.error, EOFError, Image.DecompressionBombError) as e:
        if isinstance(e, OSError) and e.errno is not None:
            raise
        meta["pixels_error"] = " ".join(str(e).split())  # libheif ends its messages with a newline
    return ""
