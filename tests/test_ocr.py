"""OCR with the real Tesseract on small real pictures drawn here (DejaVu Sans, Lohit for Hindi
and Tamil), through extraction and the index. Skipped where tesseract is not installed."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from fpdf import FPDF
from PIL import Image, ImageDraw, ImageFont

from scent import Filters, Index, ScentError, Settings, ocr
from scent.errors import OcrFailed, OcrUnavailable
from scent.extract import Limits, extract
from scent.extract.base import SECTION_SEPARATOR

from conftest import EXAMPLES

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
LOHIT_DEVA = Path("/usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf")
LOHIT_TAML = Path("/usr/share/fonts/truetype/lohit-tamil/Lohit-Tamil.ttf")

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None,
                                     reason="tesseract is not installed (scripts/setup.sh installs it)")

RECEIPT = ["GREEN LEAF GROCERY", "12 Market Street, Leeds", "Milk 2L            1.45", "Bread loaf         2.10",
           "Tomatoes 500g      1.80", "TOTAL              5.35", "Order code: K7Q2ZP", "Thank you for shopping!"]
# What Tesseract 5.3.0 reads from RECEIPT as drawn by `draw` (checked by hand: every word right;
# the runs of spaces that align the prices become one).
RECEIPT_READ = ("GREEN LEAF GROCERY\n12 Market Street, Leeds\nMilk 2L 1.45\nBread loaf 2.10\n"
                "Tomatoes 500g 1.80\nTOTAL 5.35\nOrder code: K7Q2ZP\nThank you for shopping!")
LETTER = ["Dear Ms Novak,", "your parking permit PX-88213 is renewed", "until 31 March 2027. The fee of EUR 96.00",
          "was paid on 2 February.", "Kind regards, City Parking Office"]


def font(path: Path = DEJAVU, size: int = 28) -> ImageFont.FreeTypeFont:
    if not path.is_file():
        pytest.skip(f"font {path} is missing")
    return ImageFont.truetype(str(path), size)


def draw(lines, face=None, size: int = 28, width: int = 900, mode: str = "RGB") -> Image.Image:
    face = face or font(size=size)
    step = int(size * 1.6)
    image = Image.new("RGB", (width, 40 + len(lines) * step), "white")
    pen = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        pen.text((30, 20 + i * step), line, font=face, fill="black")
    return image if mode == "RGB" else image.convert(mode)


@pytest.fixture(scope="module")
def engine():
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed (scripts/setup.sh installs it)")
    return ocr.TesseractEngine()


class Spy(ocr.TesseractEngine):
    """The real engine, noting the languages of each call (to check the language choice)."""

    def __init__(self):
        super().__init__()
        self.calls: list[str] = []

    def words(self, image, langs, dpi=None):
        self.calls.append("+".join(langs))
        return super().words(image, langs, dpi)


# ---------------------------------------------------------------- reading pictures

def test_receipt_code_and_total_are_read(engine):
    text = ocr.read_text(draw(RECEIPT), engine)
    assert text == RECEIPT_READ


@needs_tesseract
def test_english_picture_takes_one_call():
    spy = Spy()
    assert "K7Q2ZP" in ocr.read_text(draw(RECEIPT), spy)
    assert spy.calls == ["eng"]


@needs_tesseract
def test_photo_without_text_gives_nothing():
    """The two photos in examples/: one reads as no words, one as a dozen low-confidence
    'words' (HA HH AE ...), which is not text."""
    spy = Spy()
    for photo in sorted((EXAMPLES / "photos").glob("*/*.jpg")):
        assert ocr.read_text(Image.open(photo), spy) == "", photo


@needs_tesseract
def test_latin_language_is_read_again_for_its_accents():
    spy = Spy()
    text = ocr.read_text(draw(["Die Heizung im Schlafzimmer wird nicht warm.",
                               "Bitte den Techniker für Dienstag bestellen."]), spy)
    assert "für" in text  # eng alone reads "fiir"
    assert spy.calls == ["eng", "deu+eng"]


@needs_tesseract
@pytest.mark.parametrize("face, lines, expect", [
    (LOHIT_DEVA, ["किराया हर महीने की पांच तारीख तक देना है।", "जमा राशि तीस दिनों के भीतर वापस मिलेगी।"],
     "जमा राशि तीस दिनों के भीतर वापस मिलेगी।"),
    (LOHIT_TAML, ["வாடகை ஒவ்வொரு மாதமும் ஐந்தாம் தேதிக்குள்", "செலுத்த வேண்டும்."], "செலுத்த வேண்டும்."),
])
def test_other_scripts_are_read_when_english_reads_poorly(face, lines, expect):
    spy = Spy()
    text = ocr.read_text(draw(lines, font(face, 28)), spy)
    assert expect in text.splitlines()
    assert "\u200c" not in text  # Tesseract writes U+200C after Tamil pulli; it is stripped
    assert spy.calls == ["eng", "eng+hin+tam"]


@needs_tesseract
def test_the_numbers_of_a_hindi_notice_are_read():
    # Read as hin+tam+eng, Hindi's model read the digits: 10 as 0, 31 as 33.
    lines = ["5 मार्च 2026 को सुबह 10 बजे से शाम 6 बजे तक", "अंतिम तिथि: 31 जनवरी 2026", "वार्षिक शुल्क ₹ 6,000 है।"]
    text = ocr.read_text(draw(lines, font(LOHIT_DEVA, 30)), Spy())
    for number in ("5", "10", "31", "2026"):
        assert number in text.split(), (number, text)


class _Scripted:
    """An engine that answers each language set with the words written for it (the choice, not reading)."""

    def __init__(self, answers):
        self.answers, self.calls = answers, []

    def languages(self):
        return {"eng", "hin", "tam"}

    def words(self, image, langs, dpi=None):
        self.calls.append("+".join(langs))
        text, confidence = self.answers["+".join(langs)]
        return ocr.Reading(tuple(ocr.Word(w, confidence, (1, 1, 1), 30) for w in text.split()), langs)


def test_a_latin_page_read_poorly_is_not_taken_for_another_script():
    # A letter photographed at an angle: English reads it poorly; the Tamil pass is surer but read a few
    # Tamil letters among the English words (the camera roll's letter). The English reading is kept.
    letter = "Rua da Prata 8, 3B Yours sincerely, Carla Mendes Property Manager"
    engine = _Scripted({"eng": (letter, 55.0), "eng+hin+tam": ("சார ட. " + letter + " ஐ", 61.0)})
    assert ocr._auto(Image.new("RGB", (400, 300), "white"), engine, 4000, None).text == letter
    assert engine.calls == ["eng", "eng+hin+tam"]
    hindi = "किराया हर महीने की पांच तारीख तक देना है"
    engine = _Scripted({"eng": ("flRl41 6R rf6d ch", 40.0), "eng+hin+tam": (hindi, 80.0)})
    assert ocr._auto(Image.new("RGB", (400, 300), "white"), engine, 4000, None).text == hindi


def test_tiny_text_is_read_at_twice_the_size(engine):
    lines = ["Your verification code is K7Q2ZP", "Reference LD-2026-0417 for support"]
    small = draw(lines, size=10, width=260)
    assert ocr.read_text(small, engine).split() == " ".join(lines).split()


def test_explicit_languages(engine):
    assert "K7Q2ZP" in ocr.read_text(draw(RECEIPT), engine, langs="eng")
    with pytest.raises(OcrUnavailable, match="tesseract-ocr-xyz"):
        ocr.read_text(draw(RECEIPT), engine, langs="eng+xyz")


# ---------------------------------------------------------------- awkward pictures

def _cmyk(path):
    draw(RECEIPT, mode="CMYK").save(path, "JPEG", quality=90)


def _sixteen_bit(path):
    grey = np.asarray(draw(RECEIPT, mode="L"), dtype=np.uint16) * 257
    image = Image.fromarray(grey)
    assert image.mode == "I;16"
    image.save(path)


def _animated(path):
    first, second = draw(RECEIPT), draw(["A different second frame"])
    first.save(path, save_all=True, append_images=[second.resize(first.size)], duration=500, loop=0)


def _transparent(path):
    # Black text on a transparent background: dropping alpha would leave black on black.
    face, layer = font(), Image.new("RGBA", (900, 380), (0, 0, 0, 0))
    pen = ImageDraw.Draw(layer)
    for i, line in enumerate(RECEIPT):
        pen.text((30, 20 + i * 44), line, font=face, fill=(0, 0, 0, 255))
    layer.save(path)


def _palette(path):
    draw(RECEIPT).convert("P", palette=Image.Palette.ADAPTIVE, colors=16).save(path)


def _photoshop(path):
    """A Photoshop document as the PSD spec lays one out: the header, empty colour-mode, resource
    and layer sections, then the merged picture, uncompressed, one plane per channel (Pillow reads
    that picture, which Photoshop always writes)."""
    import struct

    img = draw(RECEIPT).convert("RGB")
    header = b"8BPS" + struct.pack(">H6xHIIHH", 1, 3, img.height, img.width, 8, 3)
    planes = b"".join(band.tobytes() for band in img.split())
    path.write_bytes(header + struct.pack(">III", 0, 0, 0) + struct.pack(">H", 0) + planes)


def _huge(path):
    # 9000 px wide: scaled to ocr_max_side before OCR
    big = draw(RECEIPT, size=120, width=9000)
    big.save(path, quality=85)


@pytest.mark.parametrize("name, make", [("cmyk.jpg", _cmyk), ("grey16.png", _sixteen_bit),
                                        ("animated.gif", _animated), ("transparent.png", _transparent),
                                        ("palette.png", _palette), ("huge.jpg", _huge),
                                        ("poster.psd", _photoshop)])
def test_awkward_pictures_are_read(tmp_path, engine, name, make):
    path = tmp_path / name
    make(path)
    got = extract(str(path), Limits(ocr=engine))
    assert [s.kind for s in got.sections] == ["image", "ocr"]
    assert "K7Q2ZP" in got.sections[1].text
    assert "frame" not in got.sections[1].text  # only the first frame of an animation


def test_prepare_bounds_size_and_mode():
    for mode in ("1", "L", "LA", "P", "PA", "RGB", "RGBA", "CMYK", "I;16", "I", "F", "YCbCr"):
        image = Image.new(mode, (1200, 300))
        out = ocr.prepare(image, max_side=800)
        assert out.mode in ("RGB", "L") and out.size == (800, 200), mode
    assert ocr.prepare(Image.new("I;16", (10, 10))).getextrema() == (0, 0)  # flat: no division by zero


# ---------------------------------------------------------------- extraction

def test_image_gets_an_ocr_section_after_its_metadata(tmp_path, engine):
    path = tmp_path / "shots" / "receipt.png"
    path.parent.mkdir()
    draw(RECEIPT).save(path)
    got = extract(str(path), Limits(ocr=engine))
    meta, seen = got.sections
    assert (meta.kind, seen.kind, seen.page) == ("image", "ocr", None)
    assert seen.text == RECEIPT_READ
    assert seen.start == len(meta.text) + len(SECTION_SEPARATOR)
    # Without an engine (the default) no program runs and only the metadata is there.
    assert [s.kind for s in extract(str(path)).sections] == ["image"]


def _scanned_pdf(path: Path) -> None:
    """Page 1: a text layer. Page 2: a full-page scan (an image) with a page stamp as its only text."""
    scan = Image.new("L", (1240, 1754), 255)  # A4 at 150 dpi
    pen, face = ImageDraw.Draw(scan), font(size=30)
    for i, line in enumerate(LETTER):
        pen.text((120, 200 + i * 60), line, font=face, fill=0)
    image = path.with_suffix(".png")
    scan.save(image)
    pdf = FPDF()
    pdf.set_font("helvetica", size=12)
    pdf.add_page()
    pdf.multi_cell(0, 8, "How to renew a parking permit: fill in the form, pay the fee and wait for the "
                         "letter from the City Parking Office. The letter is on the next page.")
    pdf.add_page()
    pdf.image(str(image), x=0, y=0, w=210, h=297)
    pdf.text(190, 290, "p. 2")
    pdf.output(str(path))
    image.unlink()


def test_scanned_pdf_page_is_read_with_its_page_number(tmp_path, engine):
    path = tmp_path / "permit.pdf"
    _scanned_pdf(path)
    got = extract(str(path), Limits(ocr=engine))
    assert [(s.kind, s.page) for s in got.sections] == [("pdf_page", 1), ("pdf_page", 2), ("ocr", 2)]
    assert got.sections[1].text == "p. 2"
    assert got.sections[2].text == "\n".join(LETTER) + "\np.2"  # OCR sees the stamp too (at the scan's 150 dpi)
    # Without an engine: the pages only, as before.
    assert [(s.kind, s.page) for s in extract(str(path)).sections] == [("pdf_page", 1), ("pdf_page", 2)]


def test_a_scan_of_few_pixels_is_read_at_its_own_size(tmp_path, engine):
    """A receipt scanned at 72 dpi (a pixel a point), slightly turned, saved as JPEG: drawn at 300
    dpi for OCR, its blurred digits read "Tel 91223", "1A: 22", "12.93"; at its own pixels, as the
    picture itself is read, they are right."""
    mono = font(Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"), 34)
    scan = Image.new("L", (900, 700), 245)
    pen = ImageDraw.Draw(scan)
    for i, line in enumerate(["  Tel 01223 555 010", "  Date: 05/04/2025  14:22", "  Receipt #: TH-40417",
                              "  Claw hammer          12.99", "  Wood screws x200      6.49"]):
        pen.text((20, 30 + 58 * i), line, fill=20, font=mono)
    picture = tmp_path / "scan.jpg"
    scan.rotate(3, expand=True, fillcolor=255).convert("RGB").save(picture, quality=85)
    width, height = Image.open(picture).size
    pdf = FPDF(unit="pt", format=(width, height))
    pdf.add_page()
    pdf.image(str(picture), 0, 0, width, height)
    pdf.output(str(tmp_path / "scan.pdf"))
    [page, read] = extract(str(tmp_path / "scan.pdf"), Limits(ocr=engine)).sections
    assert (page.text, read.kind) == ("", "ocr")
    assert all(word in read.text.split() for word in ("01223", "05/04/2025", "14:22", "TH-40417", "12.99", "6.49"))


def test_the_scan_of_a_page_of_text_is_no_picture(tmp_path, engine):
    """Described, the scan of a letter would be a picture of a "document page, text" (what the
    page's OCR unit already holds, and a magnet for any "picture of ..." question)."""
    path = tmp_path / "permit.pdf"
    _scanned_pdf(path)
    got = extract(str(path), Limits(ocr=engine, describe=True))
    assert [(s.kind, s.page) for s in got.sections] == [("pdf_page", 1), ("pdf_page", 2), ("ocr", 2)]


def test_the_scan_of_a_letter_saved_as_a_picture_is_its_text(tmp_path, engine):
    """A scanned letter saved as a PNG: its name unit and its OCR unit, no "document page, text,
    white" unit (which won "what documents to bring" and "white paper" at 99%)."""
    scan = Image.new("L", (1240, 1754), 255)
    pen, face = ImageDraw.Draw(scan), font(size=30)
    for i, line in enumerate(LETTER * 3):
        pen.text((120, 200 + i * 60), line, font=face, fill=0)
    scan.save(tmp_path / "scan_0001.png")
    got = extract(str(tmp_path / "scan_0001.png"), Limits(ocr=engine, describe=True))
    assert [s.kind for s in got.sections] == ["image", "ocr"]
    assert got.sections[0].text.startswith("scan 0001")
    # Without its text read, the description is all that says what the picture is: it stays.
    assert [s.kind for s in extract(str(tmp_path / "scan_0001.png"), Limits(describe=True)).sections] == ["image", "image"]


@needs_tesseract
def test_text_and_blank_pdf_pages_are_not_read(tmp_path):
    pdf = FPDF()
    pdf.set_font("helvetica", size=12)
    pdf.add_page()
    pdf.multi_cell(0, 8, "A page with a text layer of its own, long enough that nothing needs OCR on it. " * 2)
    pdf.add_page()  # blank
    pdf.output(str(tmp_path / "plain.pdf"))
    spy = Spy()
    got = extract(str(tmp_path / "plain.pdf"), Limits(ocr=spy))
    assert [s.kind for s in got.sections] == ["pdf_page", "pdf_page"] and spy.calls == []


@needs_tesseract
def test_a_photo_page_is_read_once(tmp_path):
    """A page that is one photo and no text layer looks scanned: it is read as a page, which finds
    no words, and its photo is not read again (the page's reading saw those pixels); the photo is
    still described. A photo on a page with a text layer is read on its own."""
    photo = sorted((EXAMPLES / "photos").glob("*/*.jpg"))[0]
    pdf = FPDF()
    pdf.add_page()
    pdf.image(str(photo), x=0, y=0, w=210, h=297)
    pdf.set_font("helvetica", size=12)
    pdf.add_page()
    pdf.multi_cell(0, 8, "A page with a text layer of its own, long enough that nothing needs OCR on it. " * 2)
    pdf.image(str(photo), x=10, y=60, w=190)
    pdf.output(str(tmp_path / "album.pdf"))
    spy = Spy()
    got = extract(str(tmp_path / "album.pdf"), Limits(ocr=spy, describe=True))
    assert [(s.kind, s.page) for s in got.sections] == [("pdf_page", 1), ("pdf_image", 1), ("pdf_page", 2),
                                                        ("pdf_image", 2)]
    # Two readings (each an English pass, then a retry in Hindi and Tamil for the photo's poor
    # "words"): page 1 as a page, page 2's photo; before, page 1's photo was read a third time.
    assert spy.calls.count("eng") == 2 and len(spy.calls) <= 4


def test_any_engine_of_the_interface_plugs_in(tmp_path):
    class Fixed:
        name = "fixed"

        def read(self, image, langs):
            return f"  printed\u200c   {langs[0]}  \n\n  words "

    path = tmp_path / "any.png"
    Image.new("RGB", (20, 20), "white").save(path)
    got = extract(str(path), Limits(ocr=Fixed()))
    assert got.sections[1].text == "printed eng\nwords"
    assert isinstance(Fixed(), ocr.OcrEngine) and not isinstance(Fixed(), ocr.ScoringEngine)
    with pytest.raises(ScentError, match="known: tesseract"):
        ocr.engine("abbyy")


def test_ocr_failure_costs_only_the_text(tmp_path, engine):
    path = tmp_path / "receipt.png"
    draw(RECEIPT).save(path)
    slow = ocr.TesseractEngine(timeout=0.001)
    got = extract(str(path), Limits(ocr=slow))
    assert [s.kind for s in got.sections] == ["image"]
    assert "took over" in got.meta["ocr_error"]
    with pytest.raises(OcrFailed):
        slow.read(draw(RECEIPT), ("eng",))


# ---------------------------------------------------------------- no tesseract

def test_missing_tesseract_is_a_typed_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing to run here
    with pytest.raises(OcrUnavailable, match="tesseract is not installed"):
        ocr.TesseractEngine().read(draw(["x"], face=ImageFont.load_default()), ("eng",))
    with pytest.raises(OcrUnavailable):
        ocr.TesseractEngine(binary="no-such-ocr").languages()


def test_index_without_tesseract_says_so_once_and_indexes_everything(tmp_path, monkeypatch, fake_embedder):
    folder = tmp_path / "pics"
    folder.mkdir()
    for name in ("a.png", "b.png", "c.png"):
        draw(RECEIPT, face=ImageFont.load_default()).save(folder / name)
    (folder / "note.md").write_text("# Shopping\n\nMilk and bread from the grocery.\n")
    _scanned_pdf(folder / "permit.pdf")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with Index(folder, embedder=fake_embedder) as idx:
        report = idx.update()
        assert report.skipped == []
        assert len(report.warnings) == 1
        assert "tesseract is not installed" in report.warnings[0][1]
        assert report.added == len(os.listdir(folder))
        kinds = idx.status()["units_by_kind"]
        # each picture: its name/date unit and its description unit, and no OCR text
        assert "ocr" not in kinds and kinds["image"] == 6


# ---------------------------------------------------------------- end to end

@needs_tesseract
def test_keyword_search_finds_the_code_in_a_picture_and_a_scan(tmp_path, fake_embedder):
    folder = tmp_path / "files"
    (folder / "screenshots").mkdir(parents=True)
    draw(RECEIPT).save(folder / "screenshots" / "Screenshot 2025-10-02.png")
    _scanned_pdf(folder / "permit.pdf")
    (folder / "note.md").write_text("# Groceries\n\nBuy milk, bread and tomatoes at the market.\n")
    with Index(folder, embedder=fake_embedder) as idx:
        report = idx.update()
        assert report.skipped == []
        hits = idx.search("K7Q2ZP", strategy="keyword")
        assert (hits[0].path, hits[0].unit_kind) == ("screenshots/Screenshot 2025-10-02.png", "ocr")
        hits = idx.search("PX-88213", strategy="keyword")
        assert (hits[0].path, hits[0].page, hits[0].unit_kind) == ("permit.pdf", 2, "ocr")
        assert idx.search("K7Q2ZP", filters=None, strategy="keyword", exclude_kinds="ocr") == []


@needs_tesseract
def test_a_scan_listed_by_its_kind_shows_its_read_words(tmp_path, fake_embedder):
    """A PDF of scans alone: its page unit has no text, its words are the OCR unit's, and those are
    what a listing of PDFs shows under it (it showed nothing)."""
    folder = tmp_path / "files"
    folder.mkdir()
    scan = Image.new("L", (1240, 1754), 255)
    pen, face = ImageDraw.Draw(scan), font(size=30)
    for i, line in enumerate(LETTER):
        pen.text((120, 200 + i * 60), line, font=face, fill=0)
    scan.save(tmp_path / "scan.png")
    pdf = FPDF()
    pdf.add_page()
    pdf.image(str(tmp_path / "scan.png"), x=0, y=0, w=210, h=297)
    pdf.output(str(folder / "letter.pdf"))
    with Index(folder, embedder=fake_embedder) as idx:
        idx.update()
        [listed] = idx.search("", filters=Filters.build(kinds=["pdf"]))
    assert (listed.path, listed.page) == ("letter.pdf", 1)
    assert listed.snippet.startswith("Dear Ms Novak, your parking permit PX-88213")


def test_ocr_setting_off_reads_no_pixels(tmp_path, fake_embedder):
    folder = tmp_path / "files"
    folder.mkdir()
    draw(RECEIPT).save(folder / "receipt.png")
    with Index(folder, embedder=fake_embedder, settings=Settings(ocr=False)) as idx:
        assert idx.update().skipped == []
        assert "ocr" not in idx.status()["units_by_kind"]


def test_max_side_default_is_one_number():
    assert Settings().ocr_max_side == Limits().ocr_max_side == ocr.MAX_SIDE
