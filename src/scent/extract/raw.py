"""Camera raw photos (.dng .cr2 .cr3 .nef .arw .orf .rw2 .raf .pef ...): pictures (kind `image`)
read as a JPEG or PNG is, through LibRaw (rawpy): the name and date unit (when it was taken, the
camera, its size, and "raw photo"), the text in it and what it shows, both from the preview the
camera stored beside the sensor's data (a full-size JPEG, in most), or from the sensor's data
developed at half size where there is none. Pillow cannot open these files, which were found by
their names alone before."""
from __future__ import annotations

import io
import os
import sys
import tempfile
import warnings
from contextlib import contextmanager
from datetime import datetime, timezone
from functools import partial
from typing import BinaryIO

import numpy as np
from PIL import Image

from scent import ocr
from scent.describe import describe
from scent.errors import ExtractError, OcrFailed
from scent.units import Extracted, Picture, Section
from . import sidecar, tags
from .base import SECTION_SEPARATOR, Limits
from .image import _BAD_EXIF, _camera, _place, _quiet, _taken, name_unit, upright

# rawpy warns in every forked process of its OpenMP build (OpenMP's threads do not survive a fork).
# scent's reader processes are forked from an indexing process that reads no raw itself, but for a
# small run, which forks only to read apart a file that crashed a reader; and a camera's preview,
# what is read almost always, is read without OpenMP.
warnings.filterwarnings("ignore", message="rawpy is being used in a process created by multiprocessing",
                        category=RuntimeWarning)

KIND = "image"
EXTENSIONS = (".dng", ".cr2", ".cr3", ".crw", ".nef", ".nrw", ".arw", ".srf", ".sr2", ".orf", ".rw2", ".raf",
              ".pef", ".srw", ".x3f", ".3fr", ".iiq", ".rwl", ".erf", ".kdc", ".dcr", ".mrw", ".mef", ".mos")


def extract(path: str, limits: Limits) -> Extracted:
    import rawpy

    meta: dict = {}
    said: list[str] = []
    try:
        # Opening reads the file's header, not its sensor data (which LibRaw's capture time would need).
        with _libraw_says(said), rawpy.imread(path) as raw:
            size = (raw.sizes.width, raw.sizes.height)
            stamp = _libraw_time(raw)
    except (rawpy.LibRawError, ValueError) as e:
        raise ExtractError(path, f"not a readable camera raw photo ({_said(e)}); it may be damaged, "
                                 "cut short, or from a camera LibRaw does not know; add it to .scentignore to skip it") from e
    taken, camera, place, said = _exif_of(path)
    side = sidecar.beside(path, camera)  # a raw's words live in an .xmp beside it, as a rule
    taken, place, said = taken or stamp or side.taken, place or side.place, list(dict.fromkeys(said + side.lines))
    meta["width"], meta["height"] = size
    meta["too_large"] = size[0] * size[1] > limits.max_image_pixels
    text = "\n".join((name_unit(path, size, taken, camera, limits.root, place), "raw photo", *said))
    pixels = Picture("", partial(load_picture, path)) if not meta["too_large"] else None
    sections = [Section(text=text, kind="image", picture=pixels)]
    if (limits.ocr is not None or limits.describe) and not meta["too_large"]:
        try:
            with _libraw_says(said):
                img = preview(path)
        except (OSError, ValueError, Image.DecompressionBombError) as e:
            if isinstance(e, OSError) and e.errno is not None:
                raise
            meta["picture_error"] = (f"its pixels did not decode ({' '.join(str(e).split())}): it is indexed by its "
                                     "name and date, without its text or a description of what it shows")
            img = None
        seen = ""
        if img is not None and limits.ocr is not None:
            try:
                seen = ocr.read_text(img, limits.ocr, limits.ocr_langs, limits.ocr_max_side)
            except OcrFailed as e:
                meta["ocr_error"] = f"text in the picture was not read: {e}; it is indexed by its name and date"
            if seen:
                sections.append(Section(text=seen, kind="ocr", start=len(text) + len(SECTION_SEPARATOR)))
        if img is not None and limits.describe:
            shows = describe(img, ocr_text=seen)
            if shows:
                last = sections[-1]
                sections.append(Section(text=shows, kind="image",
                                        start=last.start + len(last.text) + len(SECTION_SEPARATOR)))
    if said:
        meta["left_out"] = [f"its data is damaged (LibRaw: {'; '.join(dict.fromkeys(said))}); what could be read of it "
                            "is indexed"]
    return Extracted(kind="image", sections=sections, title=os.path.basename(path),
                     date=taken.timestamp() if taken else None, meta=meta)


@contextmanager
def _libraw_says(said: list[str]):
    """LibRaw (and the JPEG decoder inside it) writes what it finds wrong with a file's data
    ("PATH: Unexpected end of file", "Premature end of JPEG file") to the process's stderr itself,
    past Python: that stream is caught while it reads, and its lines put in `said`, the file's
    note (a line another thread writes in that moment would be taken for one)."""
    sys.stderr.flush()
    kept = os.dup(2)
    with tempfile.TemporaryFile() as caught:
        os.dup2(caught.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(kept, 2)
            os.close(kept)
            caught.seek(0)
            text = caught.read(64 * 1024).decode("utf-8", "replace")
    said.extend(" ".join(line.rsplit(": ", 1)[-1].split()) for line in text.splitlines() if line.strip())


def _libraw_time(raw) -> datetime | None:
    """When it was taken as LibRaw read it, from every kind of raw (a .cr3's, .raf's and .rw2's
    too, whose EXIF Pillow cannot reach): local wall-clock time, as EXIF keeps it, read as UTC as
    scent reads a naive EXIF time (scent.extract.image._taken)."""
    try:
        when = raw.other.timestamp
    except (AttributeError, ValueError, OverflowError, OSError):
        return None
    return when.replace(tzinfo=timezone.utc) if isinstance(when, datetime) and when.year > 1970 else None


def _exif_of(path: str) -> tuple[datetime | None, str, str, list[str]]:
    """When it was taken, the camera, where, and the words written into it (scent.extract.tags),
    where Pillow can read it (raws built on TIFF: .dng .cr2 .nef .arw .orf .pef ...); nothing for
    the others, which are dated by LibRaw's reading of their time."""
    try:
        with _quiet(), Image.open(path) as img:
            exif = img.getexif()
            camera = _camera(exif)
            said, written = tags.words(img, exif, camera)
            return _taken(exif), camera, _place(exif) or written, said
    except (*_BAD_EXIF, Image.DecompressionBombError):
        return None, "", "", []


def preview(source: str | BinaryIO) -> Image.Image:
    """The photo (its file, or its bytes as a file) as a picture: the camera's own preview (a JPEG,
    or a bitmap), else the sensor's data developed at half size (LibRaw's defaults, the camera's
    white balance), upright. ValueError when LibRaw cannot read it."""
    import rawpy

    try:
        return _preview(source)
    except rawpy.LibRawError as e:
        raise ValueError(_said(e)) from None


def _said(e: Exception) -> str:
    """A LibRaw error in words: rawpy gives LibRaw's message as bytes (b'Input/output error')."""
    message = e.args[0] if e.args else ""
    return f"{type(e).__name__}: {message.decode('utf-8', 'replace') if isinstance(message, bytes) else message}"


def _preview(source) -> Image.Image:
    import rawpy

    with rawpy.imread(source) as raw:
        try:
            thumb = raw.extract_thumb()
        except (rawpy.LibRawNoThumbnailError, rawpy.LibRawUnsupportedThumbnailError):
            thumb = None
        if thumb is None or thumb.format not in (rawpy.ThumbFormat.JPEG, rawpy.ThumbFormat.BITMAP):
            return Image.fromarray(raw.postprocess(half_size=True, use_camera_wb=True, output_bps=8))
        turn = _TURNS.get(raw.sizes.flip)
    if thumb.format == rawpy.ThumbFormat.JPEG:
        with _quiet():
            img = Image.open(io.BytesIO(thumb.data))
            img.load()
        turned = upright(img)
        if turned is not img:  # its own EXIF said how to turn it
            return turned.convert("RGB")
    else:
        img = Image.fromarray(np.ascontiguousarray(thumb.data, dtype=np.uint8))
    # The preview is stored as the sensor lay; LibRaw's flip says how the camera was held.
    return (img.transpose(turn) if turn is not None else img).convert("RGB")


_TURNS = {3: Image.Transpose.ROTATE_180, 5: Image.Transpose.ROTATE_90, 6: Image.Transpose.ROTATE_270}


def load_picture(source: str | BinaryIO, side: int) -> Image.Image:
    """The photo for an image-text model or a thumbnail, at most `side` pixels a side (LibRaw's
    complaints, said when the file was indexed, are not said again)."""
    with _libraw_says([]):
        img = preview(source)
    img.thumbnail((side, side))
    return img
