"""The optional rapidocr engine: selectable by name and setting, a clear message when it is not
installed, and (slow, skipped without rapidocr) real reading of pictures drawn here."""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from scent import Settings, ocr
from scent.errors import OcrUnavailable, UsageError

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
LOHIT_DEVA = Path("/usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf")

RECEIPT = ["GREEN LEAF GROCERY", "Milk 2L            1.45", "TOTAL              5.35", "Order code: K7Q2ZP",
           "Thank you for shopping with us today."]


def draw(lines, face: Path = DEJAVU, size: int = 28) -> Image.Image:
    if not face.is_file():
        pytest.skip(f"font {face} is missing")
    font = ImageFont.truetype(str(face), size)
    step = int(size * 1.6)
    image = Image.new("RGB", (900, 40 + len(lines) * step), "white")
    pen = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        pen.text((30, 20 + i * step), line, font=font, fill="black")
    return image


def test_rapidocr_is_an_engine_and_a_setting():
    engine = ocr.engine("rapidocr")
    assert isinstance(engine, ocr.RapidOcrEngine) and isinstance(engine, ocr.ScoringEngine)
    assert Settings().with_values(ocr_engine="rapidocr").ocr_engine == "rapidocr"
    with pytest.raises(UsageError, match="tesseract, rapidocr"):
        Settings().with_values(ocr_engine="easyocr")


def test_missing_rapidocr_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "rapidocr", None)  # `import rapidocr` now raises ImportError
    with pytest.raises(OcrUnavailable, match=r"pip install 'scent\[rapidocr\]'"):
        ocr.read_text(Image.new("RGB", (200, 100), "white"), ocr.engine("rapidocr"), "eng")


def test_hindi_without_tesseract_says_what_rapidocr_reads():
    engine = ocr.RapidOcrEngine(fallback=ocr.TesseractEngine(binary="no-such-tesseract"))
    assert "hin" not in engine.languages() and "eng" in engine.languages()
    with pytest.raises(OcrUnavailable, match="Latin-script languages and Chinese only, not hin"):
        engine.words(Image.new("RGB", (200, 100), "white"), ("hin", "eng"))


@pytest.fixture(scope="module")
def rapid():
    pytest.importorskip("rapidocr", reason="rapidocr is not installed (pip install 'scent[rapidocr]')")
    return ocr.RapidOcrEngine()


@pytest.mark.slow
def test_rapidocr_reads_a_receipt(rapid):
    text = ocr.read_text(draw(RECEIPT), rapid)
    assert "K7Q2ZP" in text
    assert "GREEN LEAF GROCERY" in text
    # rapidocr sometimes drops a space; the sentence's words must all be there
    assert all(word in text for word in "Thank you for shopping with us today".split())


@pytest.mark.slow
def test_rapidocr_finds_no_text_in_a_blank_picture(rapid):
    assert ocr.read_text(Image.new("RGB", (640, 480), (120, 160, 90)), rapid) == ""


@pytest.mark.slow
def test_rapidocr_answers_a_reread_of_the_same_picture_from_memory(rapid):
    image = ocr.prepare(draw(["El señor pidió café y un pastel de limón."]))
    first = rapid.words(image, ("eng",))
    again = rapid.words(image, ("spa", "eng"))
    assert again.words == first.words and again.langs == ("spa", "eng")
    assert "señor" in first.text


@pytest.mark.slow
def test_hindi_goes_to_tesseract(rapid):
    if shutil.which("tesseract") is None or "hin" not in ocr.TesseractEngine().languages():
        pytest.skip("tesseract with Hindi data is not installed")
    text = ocr.read_text(draw(["मेरा बिजली का बिल", "कृपया रसीद संभाल कर रखें"], LOHIT_DEVA), rapid)
    assert "बिजली" in text and "रसीद" in text
