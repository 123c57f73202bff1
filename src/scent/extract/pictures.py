"""Pictures stored inside a package (Word files, slides): the
words for what one shows and the text read in it, or None when it is an icon, too large, or does
not decode (meta says which). One picture's failure costs only that picture."""
from __future__ import annotations

import io
import warnings
import zipfile
import zlib
from collections.abc import Callable, Iterable

from PIL import Image

from scent import ocr
from scent.describe import describe
from scent.errors import OcrFailed
from .base import Limits
from .image import upright

MIN_PICTURE_PX = 64  # smaller pictures are icons and bullets
PICTURES_PER_FILE = 4  # a file reads up to 4 x Limits.max_pdf_images pictures, as a Word file does
# What reading one picture out of its file may raise: a missing member, a damaged zip or stream.
UNREADABLE = (KeyError, ValueError, OSError, EOFError, zlib.error, zipfile.BadZipFile)


def picture_text(blob: bytes, name: str, limits: Limits, meta: dict) -> str | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            # A picture's damaged EXIF says nothing about the document; raw on stderr it only alarms.
            warnings.simplefilter("ignore", UserWarning)
            with Image.open(io.BytesIO(blob)) as image:
                if min(image.size) < MIN_PICTURE_PX or image.width * image.height > limits.max_image_pixels:
                    return None
                image.load()
                image = upright(image)
                seen = ""
                if limits.ocr is not None:
                    seen = ocr.read_text(image, limits.ocr, limits.ocr_langs, limits.ocr_max_side)
                words = describe(image, ocr_text=seen)
    except OcrFailed as e:
        meta.setdefault("ocr_error", f"picture {name} was not read by OCR ({e})")
        return None
    except (OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombError) as e:
        meta.setdefault("picture_errors", []).append(f"{name} did not decode ({e})")
        return None
    return "\n".join(t for t in (words, seen) if t)


def described(placed: Iterable[tuple[str, str]], read: Callable[[str], bytes], limits: Limits,
              meta: dict) -> list[tuple[str, str, str]]:
    """(title, what it shows, name) of each picture `placed` names ((title, name), in document
    order), once each, and at most PICTURES_PER_FILE x max_pdf_images of them; `read(name)` gives
    its bytes. One that cannot be read or does not decode is noted in meta and costs only itself."""
    out, seen = [], set()
    for title, name in placed:
        if name in seen:
            continue
        seen.add(name)
        if len(out) >= PICTURES_PER_FILE * limits.max_pdf_images:
            meta["pictures_skipped"] = True
            break
        try:
            blob = read(name)
        except UNREADABLE as e:
            meta.setdefault("picture_errors", []).append(f"{name} is missing or damaged ({type(e).__name__})")
            continue
        text = picture_text(blob, name, limits, meta)
        if text is not None:
            out.append((title, text, name))
    return out


def decoded(blob: bytes, side: int) -> Image.Image:
    """A stored picture's bytes as an upright RGB image, reduced toward `side` where its format
    allows (JPEG): what an image-text model is given."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        warnings.simplefilter("ignore", UserWarning)
        with Image.open(io.BytesIO(blob)) as image:
            image.draft("RGB", (side, side))
            return upright(image).convert("RGB")
