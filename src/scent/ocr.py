"""OCR: text that is visible only in pixels (screenshots, receipt photos, scanned pages).

`OcrEngine` is the interface (one method, `read(image, langs) -> str`); `TesseractEngine` runs
the `tesseract` binary, `RapidOcrEngine` the optional rapidocr (ONNX, Latin and Chinese only);
`ENGINES` names them (the ocr_engine setting). `read_text` is what extraction calls: it prepares
a picture (first frame, EXIF rotation, 8-bit RGB or L, bounded size), chooses the languages
(see `_auto`) and returns "" when what was read is not real text.

Why a subprocess and not pytesseract: pytesseract is a wrapper around the same binary that
writes temporary files and parses the same TSV; calling the binary directly is ~60 lines,
keeps the image in memory (PNG on stdin), gives a per-call timeout and one fewer dependency.
"""
from __future__ import annotations

import io
import os
import shutil
import statistics
import subprocess
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np
from PIL import Image, ImageOps

from .errors import OcrFailed, OcrUnavailable, UsageError
from .language import detect
from .progress import stage

# Longest side, in pixels, of what is OCR'd; larger pictures are scaled down first. 3000 px
# keeps A4/Letter near 260 dpi (Tesseract wants ~300). A dense A4 page of 10 pt text (495
# words) took 3.1 s at 3000 px, 2.0 s at 2000, 3.5 s at 3500 (all words right on that clean page).
MAX_SIDE = 3000
# Seconds one tesseract call may take before the picture is given up on.
TIMEOUT_S = 60.0

# Language choice ("auto"). Measured with tesseract 5.3.0 on one core, on images drawn with
# DejaVu Sans / Lohit (receipt with code K7Q2ZP, Spanish, French, German, Hindi and Tamil
# paragraphs, two text-free photos from examples/), seconds per image:
#   eng 0.14-0.26 | eng+spa+fra+deu+por 0.44-0.92 | all seven 0.43-0.75 | hin+tam 0.07-0.13
#   | spa+eng / fra+eng / deu+eng 0.23-0.25 | OSD (--psm 0) 0.13-0.38, up to 2.3 on a full screenshot.
# Mean word confidence of the eng pass: Latin text 90-96, Hindi 39, Tamil 6, photos 0-37;
# hin+tam on Hindi 95.5 and on Tamil 96.3. eng alone reads accents wrong ("fiir" for "für",
# "tiéde", "dias"); spa/fra/deu+eng read them right (conf 96).
# So: (1) read with eng; no words -> no text, one call. (2) Poor (mean conf < POOR_CONFIDENCE):
# re-read with the installed non-Latin languages (+eng, for mixed text) and keep the more
# confident reading. (3) Good and the text's language (py3langid) is a Latin language other
# than English: re-read with it (+eng), to get the accents right.
# Tesseract's script detection (OSD) was not used: on 9 Devanagari samples of 1-6 lines it
# failed ("Too few characters", "Error during processing") on 5 and called one Bengali, and it
# put a rotated 12 px screenshot the wrong way up; the confidence race above was right on all.
ORIENTATION = 0x0112  # the EXIF tag saying which way up the camera was held
POOR_CONFIDENCE = 70.0
NON_LATIN = ("hin", "tam")
LATIN_BY_LANGUAGE = {"es": "spa", "fr": "fra", "de": "deu", "pt": "por"}
# Text smaller than this (median word height, px) is read again at twice the size: 9-11 px
# screenshot text gave "K702ZP" and "Refarance LD-20269417" at 1x and no errors at 2x.
SMALL_TEXT_PX = 16
# What counts as text and not the patterns of a photo: a mean word confidence of at least
# MIN_MEAN_CONFIDENCE and one word of 3+ letters or digits read with MIN_WORD_CONFIDENCE.
# (Measured: a text-free photo gave 12 "words", mean 37, best 3-letter word 32.)
MIN_MEAN_CONFIDENCE = 50.0
MIN_WORD_CONFIDENCE = 70.0
# Zero-width characters Tesseract puts in Tamil (U+200C after a pulli) and other invisible marks.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\ufeff"))


@runtime_checkable
class OcrEngine(Protocol):
    """Reads the text in a picture. `langs` are Tesseract-style codes (eng, hin, tam ...)."""

    name: str

    def read(self, image: Image.Image, langs: tuple[str, ...]) -> str: ...


@runtime_checkable
class ScoringEngine(OcrEngine, Protocol):
    """An engine that also says how sure it is of each word (needed for automatic languages)."""

    def words(self, image: Image.Image, langs: tuple[str, ...], dpi: int | None = None) -> Reading: ...

    def languages(self) -> frozenset[str]: ...


@dataclass(frozen=True)
class Word:
    text: str
    confidence: float  # 0-100
    line: tuple[int, int, int]  # (block, paragraph, line) in reading order
    height: int  # pixels


@dataclass(frozen=True)
class Reading:
    """The words one engine call found, in reading order."""
    words: tuple[Word, ...]
    langs: tuple[str, ...]

    @property
    def confidence(self) -> float:
        return statistics.fmean(w.confidence for w in self.words) if self.words else 0.0

    @property
    def text(self) -> str:
        """Words joined by single spaces, lines by newlines."""
        lines: list[list[str]] = []
        last = None
        for w in self.words:
            if w.line != last:
                lines.append([])
                last = w.line
            lines[-1].append(w.text)
        return "\n".join(" ".join(line) for line in lines)

    @property
    def small_text(self) -> bool:
        return bool(self.words) and statistics.median(w.height for w in self.words) < SMALL_TEXT_PX

    @property
    def is_text(self) -> bool:
        """Real words, not the patterns of a photo read as letters."""
        return self.confidence >= MIN_MEAN_CONFIDENCE and any(
            w.confidence >= MIN_WORD_CONFIDENCE and sum(ch.isalnum() for ch in w.text) >= 3 for w in self.words)


class TesseractEngine:
    """The `tesseract` command (Debian: tesseract-ocr, tesseract-ocr-LANG)."""

    name = "tesseract"

    def __init__(self, binary: str = "tesseract", timeout: float = TIMEOUT_S):
        self.binary = binary
        self.timeout = timeout
        self._languages: frozenset[str] | None = None

    def languages(self) -> frozenset[str]:
        """The installed language data (eng, hin ...); OcrUnavailable when tesseract is missing."""
        if self._languages is None:
            out = self._run(["--list-langs"], timeout=30.0).decode("utf-8", "replace")
            # First line: 'List of available languages in "/usr/share/tesseract-ocr/5/tessdata/" (8):'
            self._languages = frozenset(line.strip() for line in out.splitlines()[1:] if line.strip())
        return self._languages

    def read(self, image: Image.Image, langs: tuple[str, ...]) -> str:
        return self.words(image, langs).text

    def words(self, image: Image.Image, langs: tuple[str, ...], dpi: int | None = None) -> Reading:
        missing = [lang for lang in langs if lang not in self.languages()]
        if missing:
            packages = " ".join("tesseract-ocr-" + lang.replace("_", "-").lower() for lang in missing)
            raise OcrUnavailable(f"tesseract has no data for {', '.join(missing)} (installed: "
                                 f"{', '.join(sorted(self.languages())) or 'none'}); install {packages} "
                                 "or change the ocr_langs setting")
        png = io.BytesIO()
        image.save(png, "PNG", compress_level=1)
        args = ["stdin", "stdout", "-l", "+".join(langs)]
        if dpi:
            args += ["--dpi", str(dpi)]
        return Reading(_parse_tsv(self._run([*args, "tsv"], png.getvalue()).decode("utf-8", "replace")), langs)

    def _run(self, args: list[str], data: bytes | None = None, timeout: float | None = None) -> bytes:
        binary = shutil.which(self.binary)
        if binary is None:
            raise OcrUnavailable(
                f"{self.binary} is not installed, so text inside pictures and scanned pages is not "
                "read (they are still indexed by name and date); install it with scripts/setup.sh "
                "or `sudo apt-get install tesseract-ocr tesseract-ocr-eng`, then run scent index "
                "--rebuild; or set ocr = false to stop this message")
        # One thread: measured no faster with two on a 1920x1080 screenshot (1.87 s vs 1.91 s),
        # and the other cores are left to the embedder.
        env = {**os.environ, "OMP_THREAD_LIMIT": os.environ.get("OMP_THREAD_LIMIT", "1")}
        try:
            done = subprocess.run([binary, *args], input=data, capture_output=True,
                                  timeout=timeout or self.timeout, env=env, check=False)
        except subprocess.TimeoutExpired:
            raise OcrFailed(f"OCR took over {timeout or self.timeout:g} s and was stopped") from None
        except OSError as e:
            raise OcrUnavailable(f"cannot run {binary} ({e.strerror or e}); reinstall tesseract-ocr "
                                 "or set ocr = false") from e
        if done.returncode != 0:
            last = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["no message"])[-1]
            raise OcrFailed(f"tesseract failed ({last[:200]})")
        return done.stdout


def _parse_tsv(tsv: str) -> tuple[Word, ...]:
    """Word rows (level 5) of `tesseract ... tsv`: level page block par line word left top width
    height conf text. Words without a letter or digit (|, —, =) are dropped: never searched for."""
    words = []
    for row in tsv.splitlines()[1:]:
        cols = row.split("\t", 11)
        if len(cols) < 12 or cols[0] != "5":
            continue
        text = unicodedata.normalize("NFC", cols[11]).translate(_INVISIBLE).strip()
        if not any(ch.isalnum() for ch in text):
            continue
        words.append(Word(" ".join(text.split()), float(cols[10]), (int(cols[2]), int(cols[3]), int(cols[4])),
                          int(cols[9])))
    return tuple(words)


# rapidocr (PP-OCRv6 small, ONNX): the models ship inside the rapidocr wheel, and every path is
# given explicitly, so rapidocr never reaches the code that downloads a model or a dictionary.
# One multilingual model reads English, other Latin-script languages and Chinese/Japanese; it
# has no Devanagari or Tamil letters (Hindi came out as a few Latin/Chinese junk characters or
# nothing, Tamil as spaces and dots). So those languages go to Tesseract when it is installed with their data:
# indexing a folder should not silently lose the Hindi and Tamil text Tesseract reads well
# (1.0 / 0.97 character accuracy), and the confidence race in `_auto` decides per picture.
RAPID_MODELS = {"Det": "PP-OCRv6_det_small.onnx", "Rec": "PP-OCRv6_rec_small.onnx",
                "Cls": "ch_ppocr_mobile_v2.0_cls_mobile.onnx"}
# rapidocr keeps lines it scores >= 0.5 (its text_score) and scores clean text 0.92-1.0, but also
# gave Hindi junk lines 0.53-0.93 (mean per picture 0.59 and 0.74): on its raw scale x100 the
# Hindi junk passed POOR_CONFIDENCE and Tesseract was never asked. So 0.5-1 is spread over 0-100
# (Hindi junk 18 and 48, clean text 84-100), near Tesseract's scale that the thresholds above use.
RAPID_FLOOR = 0.5
# Tesseract codes of languages the PP-OCRv6 model reads (all with the same model).
RAPID_LANGS = frozenset({"eng", "spa", "fra", "deu", "por", "ita", "nld", "chi_sim", "chi_tra", "jpn"})


class RapidOcrEngine:
    """rapidocr with onnxruntime (`pip install 'scent[rapidocr]'`); Hindi and Tamil by Tesseract."""

    name = "rapidocr"
    # 9, 11 and 13 px screenshot text was read without an error at its own size, so `read_text`
    # does not read small text again at twice the size (Tesseract needs that).
    reads_small_text = True

    def __init__(self, fallback: ScoringEngine | None = None):
        self.fallback = fallback if fallback is not None else TesseractEngine()
        self._ocr = None  # the rapidocr.RapidOCR, made on first use
        self._last: tuple[Image.Image, Reading] | None = None

    def languages(self) -> frozenset[str]:
        """What rapidocr reads, and Hindi/Tamil when Tesseract has them."""
        try:
            others = self.fallback.languages() & frozenset(NON_LATIN)
        except OcrUnavailable:
            others = frozenset()
        return RAPID_LANGS | others

    def read(self, image: Image.Image, langs: tuple[str, ...]) -> str:
        return self.words(image, langs).text

    def words(self, image: Image.Image, langs: tuple[str, ...], dpi: int | None = None) -> Reading:
        foreign = [lang for lang in langs if lang not in RAPID_LANGS]
        if foreign:
            if not set(foreign) <= self.languages():
                raise OcrUnavailable(
                    f"rapidocr reads Latin-script languages and Chinese only, not {', '.join(foreign)}; "
                    f"for those install tesseract-ocr and tesseract-ocr-{foreign[0]} (read by Tesseract), "
                    "or change the ocr_langs setting")
            return self.fallback.words(image, langs, dpi)
        # The model ignores `langs`: a second call on the same picture (`_auto` re-reading Spanish
        # text with spa+eng) would give the same words, so it is answered from the last reading.
        if self._last is not None and self._last[0] is image:
            return Reading(self._last[1].words, langs)
        # Nothing found is said as one unread word too: rapidocr's detector, at the picture's own
        # size, found no lines at all in two Hindi pictures, so an empty answer cannot mean "no
        # text" when Tesseract could read Hindi or Tamil (`_auto` asks it: 0.07-0.13 s with hin+tam).
        words = self._lines(self._engine(), image) or (Word("", 0.0, (0, 0, 0), 0),)
        reading = Reading(words, langs)
        self._last = (image, reading)
        return reading

    def _engine(self):
        if self._ocr is None:
            try:
                import rapidocr
            except ImportError:
                raise OcrUnavailable(
                    "the rapidocr OCR engine is not installed; install it with "
                    "pip install 'scent[rapidocr]', or set ocr_engine = tesseract") from None
            folder = Path(rapidocr.__file__).parent / "models"
            missing = [name for name in RAPID_MODELS.values() if not (folder / name).is_file()]
            if missing:
                raise OcrUnavailable(f"rapidocr's models are missing ({', '.join(missing)} in {folder}); "
                                     "reinstall with pip install --force-reinstall 'scent[rapidocr]'")
            params = {f"{part}.model_path": str(folder / name) for part, name in RAPID_MODELS.items()}
            # One thread, as for Tesseract: the other cores are left to the embedder. Detection at
            # the picture's own size (at most rapidocr's max_side_len, 2000): its default scales the
            # SHORT side up to 736, so a 520x75 strip of 9-13 px text was detected at ~5100 px wide
            # and took 4.9-7.9 s; at its own size 0.2-0.3 s, every character still right.
            params |= {"Global.log_level": "error", "EngineConfig.onnxruntime.intra_op_num_threads": 1,
                       "EngineConfig.onnxruntime.inter_op_num_threads": 1,
                       "Det.limit_type": "max", "Det.limit_side_len": 2000}
            self._ocr = rapidocr.RapidOCR(params=params)
        return self._ocr

    @staticmethod
    def _lines(ocr, image: Image.Image) -> tuple[Word, ...]:
        """One rapidocr call -> words. rapidocr scores whole lines; each word of a line gets its
        line's score, spread from RAPID_FLOOR-1 to 0-100. A line with no letter or digit (Tamil read as "   .") stays as
        one empty word of confidence 0: text was seen and not read, so `_auto` tries Tesseract."""
        try:
            out = ocr(image)
        except (RuntimeError, ValueError, OSError, ArithmeticError) as e:  # onnxruntime, cv2, rapidocr
            raise OcrFailed(f"rapidocr failed ({type(e).__name__}: {str(e)[:200]})") from e
        if out.txts is None:
            return ()
        words = []
        for number, (text, score, box) in enumerate(zip(out.txts, out.scores, out.boxes)):
            height = int(round(float(np.max(box[:, 1]) - np.min(box[:, 1]))))
            line = (0, 0, number)
            tokens = [t for t in unicodedata.normalize("NFC", text).translate(_INVISIBLE).split()
                      if any(ch.isalnum() for ch in t)]
            if not tokens:
                words.append(Word("", 0.0, line, height))
            confidence = max(0.0, (float(score) - RAPID_FLOOR) / (1 - RAPID_FLOOR) * 100)
            words.extend(Word(t, confidence, line, height) for t in tokens)
        return tuple(words)


ENGINES = {"tesseract": TesseractEngine, "rapidocr": RapidOcrEngine}


def engine(name: str = "tesseract") -> OcrEngine:
    try:
        return ENGINES[name]()
    except KeyError:
        # The registry's order (the default first), so the message never goes stale.
        raise UsageError(f"unknown OCR engine {name!r}; known: {', '.join(ENGINES)}") from None


def parse_langs(langs: str) -> tuple[str, ...] | None:
    """"auto" -> None; "eng+hin" or "eng,hin" -> ("eng", "hin")."""
    if langs.strip().lower() == "auto":
        return None
    codes = tuple(code.strip() for code in langs.replace(",", "+").split("+") if code.strip())
    if not codes or not all(code.replace("_", "").isalnum() for code in codes):
        raise UsageError(f"ocr_langs wants auto or Tesseract codes such as eng+hin, got {langs!r}")
    return codes


def read_text(image: Image.Image, ocr: OcrEngine, langs: str = "auto", max_side: int = MAX_SIDE,
              dpi: int | None = None) -> str:
    """The text in `image`, or "" when there is none. `langs`: "auto" or codes ("eng+hin").
    `dpi` is the resolution when it is known (a rendered PDF page)."""
    with stage("OCR"):
        return _read_text(image, ocr, langs, max_side, dpi)


def _read_text(image: Image.Image, ocr: OcrEngine, langs: str, max_side: int, dpi: int | None) -> str:
    image = prepare(image, max_side)
    chosen = parse_langs(langs)
    if not isinstance(ocr, ScoringEngine):
        return _clean(ocr.read(image, chosen or ("eng",)))
    if chosen:
        reading = _larger_if_small(image, ocr.words(image, chosen, dpi), ocr, max_side, dpi)[0]
    else:
        reading = _auto(image, ocr, max_side, dpi)
    return _clean(reading.text) if reading.is_text else ""


def _auto(image: Image.Image, ocr: ScoringEngine, max_side: int, dpi: int | None) -> Reading:
    """English first; other scripts or Latin languages only when the English reading says so."""
    installed = ocr.languages()
    if "eng" not in installed:
        raise OcrUnavailable("tesseract has no English data; install tesseract-ocr-eng, or set "
                             "ocr_langs to the languages you have")
    reading = ocr.words(image, ("eng",), dpi)
    if not reading.words:
        return reading  # no text at all: the usual photo, one call
    reading, image, dpi = _larger_if_small(image, reading, ocr, max_side, dpi)
    if reading.confidence < POOR_CONFIDENCE:
        others = tuple(lang for lang in NON_LATIN if lang in installed)
        if others:
            # English first: listed first, Hindi's model read the digits (1,001 as ",004", 10 as 0); with
            # English first the numbers of 48 drawn Hindi and Tamil notices came back 0.70 -> 0.97 (Hindi)
            # and 0.94 -> 1.00 (Tamil), their letters as well or better (docs/retrieval-tuning.md).
            again = ocr.words(image, ("eng", *others), dpi)
            # A Latin page read poorly (a letter photographed at an angle) came back surer as a few
            # Tamil letters among its English words ("சார ட. Rua da Prata ஐ ... Yours sincerely"): the
            # other script's reading counts only where that script is a good part of what it read.
            if again.confidence > reading.confidence and _other_script_share(again.text) >= OTHER_SCRIPT_SHARE:
                return again
        return reading
    latin = LATIN_BY_LANGUAGE.get(detect(reading.text) or "")
    if latin and latin in installed:
        return max(reading, ocr.words(image, (latin, "eng"), dpi), key=lambda r: r.confidence)
    return reading


# Of a non-Latin reading's letters, the share in another script than Latin for it to count.
OTHER_SCRIPT_SHARE = 0.3


def _other_script_share(text: str) -> float:
    """The share of `text`'s letters (and combining marks) outside the Latin script."""
    letters = [ch for ch in text if ch.isalpha() or unicodedata.category(ch).startswith("M")]
    if not letters:
        return 0.0
    return sum(not ("LATIN" in unicodedata.name(ch, "") or ch.isascii()) for ch in letters) / len(letters)


def _larger_if_small(image: Image.Image, reading: Reading, ocr: ScoringEngine, max_side: int,
                     dpi: int | None) -> tuple[Reading, Image.Image, int | None]:
    """Read again at twice the size when the text is tiny and the picture may grow; keep the
    more confident reading, and the picture (and dpi) it was read from."""
    if not reading.small_text or getattr(ocr, "reads_small_text", False) or max(image.size) * 2 > max_side:
        return reading, image, dpi
    bigger = image.resize((image.width * 2, image.height * 2), Image.Resampling.LANCZOS)
    bigger_dpi = dpi * 2 if dpi else None
    again = ocr.words(bigger, reading.langs, bigger_dpi)
    return (again, bigger, bigger_dpi) if again.confidence >= reading.confidence else (reading, image, dpi)


def prepare(image: Image.Image, max_side: int = MAX_SIDE) -> Image.Image:
    """An 8-bit RGB or L picture, upright, no side over `max_side`: the first frame of an
    animation, alpha flattened onto white (dark text on a transparent screenshot stays
    readable), CMYK/palette to RGB, 16-bit and float stretched to 8 bits."""
    if getattr(image, "is_animated", False):
        image.seek(0)
    if max(image.size) > max_side:
        image.draft(None, (max_side, max_side))  # JPEG: decode at 1/2, 1/4, 1/8 size; others: no-op
    if image.getexif().get(ORIENTATION, 1) != 1:  # exif_transpose copies even an upright picture
        image = ImageOps.exif_transpose(image) or image
    image = _eight_bit(image)
    if max(image.size) > max_side:
        ratio = max_side / max(image.size)
        size = (max(1, round(image.width * ratio)), max(1, round(image.height * ratio)))
        image = image.resize(size, Image.Resampling.LANCZOS, reducing_gap=3.0)
    return image


def flat_rgb(image: Image.Image) -> Image.Image:
    """The first frame, 8 bits, alpha flattened onto white, as RGB: what every picture model reads."""
    if getattr(image, "is_animated", False):
        image.seek(0)
    return _eight_bit(image).convert("RGB")


def _eight_bit(image: Image.Image) -> Image.Image:
    mode = image.mode
    if mode in ("RGB", "L"):
        return image
    if mode == "1":
        return image.convert("L")
    if mode.startswith("I") or mode == "F":
        # Stretched a band of rows at a time: a float copy of a whole 50-megapixel 16-bit scan
        # (and its temporaries) took ~750 MB.
        pixels = np.asarray(image)
        lo, hi = (float(pixels.min()), float(pixels.max())) if pixels.size else (0.0, 0.0)
        out = np.zeros(pixels.shape, dtype=np.uint8)
        if hi > lo:
            for top in range(0, pixels.shape[0], 256):
                band = pixels[top:top + 256].astype(np.float32)
                out[top:top + 256] = (band - lo) * (255.0 / (hi - lo))
        return Image.fromarray(out, "L")
    if mode in ("LA", "La", "PA", "RGBA", "RGBa") or (mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        flat = Image.new("RGBA", rgba.size, "white")
        flat.alpha_composite(rgba)
        return flat.convert("RGB")
    return image.convert("RGB")  # CMYK, P, YCbCr, LAB, HSV


def _clean(text: str) -> str:
    text = unicodedata.normalize("NFC", text).translate(_INVISIBLE)
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())
