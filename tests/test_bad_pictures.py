"""The bad-input set for pictures, end to end: one folder of awkward pictures and documents
(a 50-megapixel photo, CMYK and 16-bit TIFFs, an animated GIF, a truncated JPEG, a 2,000-page
PDF, an encrypted PDF, a Word file whose picture is broken) beside good notes and a good photo,
indexed once with the real picture pipeline (OCR by Tesseract, describe on) and the fake
embedder. Each bad file is either indexed (with the units a person would expect) or skipped
with one line that says what happened and what to do; the good files are all found.

scripts/bad_input_figures.py measures the same kinds of file, one at a time: seconds and peak
memory per file.
"""
from __future__ import annotations

import io
import shutil
import zipfile

import docx
import numpy as np
import pytest
from fpdf import FPDF
from PIL import Image, ImageDraw, ImageFont

from conftest import FakeEmbedder
from scent import Index, Settings

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None,
                                reason="tesseract is not installed (scripts/setup.sh installs it)")

LONG_PAGES = 2000
CODE = "K7Q2ZP"  # drawn into the TIFFs and the GIF: found only if OCR read their pixels


# ---- making the files ------------------------------------------------------------------------

def text_picture(lines: list[str], mode: str = "RGB") -> Image.Image:
    face = ImageFont.load_default(size=36)
    image = Image.new("RGB", (900, 60 + 60 * len(lines)), "white")
    pen = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        pen.text((30, 30 + 60 * i), line, font=face, fill="black")
    return image.convert(mode)


def photo_like(w: int = 480, h: int = 320, seed: int = 7) -> Image.Image:
    """Sky over green ground with noise: a photo to the describer."""
    rng = np.random.default_rng(seed)
    y = np.linspace(0, 1, h)[:, None, None]
    pixels = np.where(y < 0.6, np.array([90, 150, 230]) * (1 - 0.3 * y), np.array([50, 140, 60])) * np.ones((h, w, 3))
    pixels += rng.normal(0, 18, pixels.shape)
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "RGB")


def fifty_megapixels(path) -> None:
    """8000 x 6250: sky and ground, flat (cheap to make here; scripts/bad_input_figures.py
    measures a noisy one)."""
    image = Image.new("RGB", (8000, 6250), (110, 160, 220))
    ImageDraw.Draw(image).rectangle([0, 4000, 8000, 6250], fill=(60, 130, 60))
    image.save(path, quality=80)


def cmyk_tiff(path) -> None:
    text_picture(["Print proof for the boathouse poster", f"Job code {CODE} cyan"], "CMYK").save(
        path, compression="tiff_lzw")


def sixteen_bit_tiff(path) -> None:
    grey = np.asarray(text_picture(["Scanner test strip, sixteen bit", f"Batch {CODE} grey"], "L"),
                      dtype=np.uint16) * 257
    image = Image.fromarray(grey)
    assert image.mode == "I;16"
    image.save(path)


def animated_gif(path) -> None:
    first = text_picture(["Lighthouse opening hours", f"Ticket {CODE} gif"])
    second = text_picture(["A second frame nobody reads"])
    first.save(path, save_all=True, append_images=[second], duration=400, loop=0)


def truncated_jpeg(path) -> None:
    out = io.BytesIO()
    photo_like(640, 480, seed=3).save(out, "JPEG", quality=90)
    path.write_bytes(out.getvalue()[: len(out.getvalue()) // 2])


def long_pdf(path, pages: int = LONG_PAGES) -> None:
    """Text-only pages, each naming its number (so a search can find page 1734)."""
    pdf = FPDF()
    pdf.set_font("helvetica", size=12)
    for n in range(1, pages + 1):
        pdf.add_page()
        pdf.cell(text=f"Ledger page {n}: the berth fees for mooring {'pier' + str(n)} were checked and signed.")
    pdf.output(str(path))


def encrypted_pdf(path) -> None:
    pdf = FPDF()
    pdf.set_encryption(owner_password="owner", user_password="user")
    pdf.add_page()
    pdf.set_font("helvetica", size=14)
    pdf.cell(text="The safe combination is in the locked file.")
    pdf.output(str(path))


def docx_with_broken_picture(path, scratch) -> None:
    document = docx.Document()
    document.add_heading("Kitchen plan", 1)
    document.add_paragraph("The new layout moves the hob to the island.")
    picture = io.BytesIO()
    photo_like(seed=5).save(picture, "PNG")
    document.add_picture(picture)
    whole = scratch / "whole.docx"
    document.save(str(whole))
    with zipfile.ZipFile(whole) as src, zipfile.ZipFile(path, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            dst.writestr(item, b"\x89PNG not really" if item.filename.startswith("word/media/") else data)


BAD = {  # name -> maker
    "big-photo.jpg": fifty_megapixels,
    "proof-cmyk.tif": cmyk_tiff,
    "strip-16bit.tif": sixteen_bit_tiff,
    "hours.gif": animated_gif,
    "cut-short.jpg": truncated_jpeg,
    "empty.jpg": lambda path: path.write_bytes(b""),
    "ledger-2000-pages.pdf": long_pdf,
    "locked.pdf": encrypted_pdf,
}
GOOD = {
    "garden.md": "# Garden\n\nPlant the garlic cloves in October, pointy end up.\n",
    "soup.txt": "Tomato soup: simmer tomatoes with basil for twenty minutes.\n",
    "boiler.md": "# Boiler\n\nThe boiler was serviced in March by a gas engineer.\n",
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad-pictures") / "files"
    root.mkdir()
    for name, make in BAD.items():
        make(root / name)
    docx_with_broken_picture(root / "kitchen-broken-picture.docx", root.parent)
    for name, text in GOOD.items():
        (root / name).write_text(text)
    photo_like().save(root / "meadow.png")
    return root


def messages(report) -> dict[str, list[str]]:
    """Every message of a run (skipped and warnings), by file."""
    out: dict[str, list[str]] = {}
    for path, reason in [*report.skipped, *report.warnings]:
        out.setdefault(path, []).append(reason)
    return out


def unit_kinds(idx: Index) -> dict[str, set[str]]:
    rows = idx.engine.db.execute("SELECT f.path, u.kind FROM units u JOIN files f ON f.id = u.file_id")
    out: dict[str, set[str]] = {}
    for path, kind in rows:
        out.setdefault(path, set()).add(kind)
    return out


@pytest.fixture(scope="module")
def indexed(folder, tmp_path_factory):
    """The folder indexed once with the defaults: OCR (Tesseract) and describe on."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SCENT_HOME", str(tmp_path_factory.mktemp("scent-home")))
        idx = Index(folder, index_dir=tmp_path_factory.mktemp("idx"), settings=Settings(), embedder=FakeEmbedder())
        report = idx.update()
    yield idx, report, unit_kinds(idx)
    idx.close()


# ---- the default run -------------------------------------------------------------------------

def test_the_folder_indexes_and_only_unreadable_files_are_skipped(indexed, folder):
    idx, report, kinds = indexed
    skipped = dict(report.skipped)
    assert set(skipped) == {"empty.jpg", "locked.pdf"}
    names = sorted(p.name for p in folder.iterdir())
    assert sorted(kinds) == sorted(set(names) - set(skipped))
    assert idx.status()["files"] == len(names) - 2
    # What the status command shows is what the run said.
    assert {e["path"]: e["reason"] for e in idx.status()["errors"] if e["level"] == "skipped"} == skipped


def test_every_message_is_one_line_and_one_per_file(indexed):
    _, report, _ = indexed
    for path, reasons in messages(report).items():
        assert len(reasons) == 1, (path, reasons)
        assert "\n" not in reasons[0] and reasons[0].strip() == reasons[0], (path, reasons[0])


def test_encrypted_pdf_says_what_to_do(indexed):
    _, report, _ = indexed
    assert dict(report.skipped)["locked.pdf"] == ("encrypted PDF: scent cannot read it without the password; "
                                                  "decrypt it or add it to .scentignore")


def test_truncated_jpeg_says_it_is_cut_short_and_is_found_by_its_name(indexed):
    idx, report, kinds = indexed
    reason = dict(report.warnings)["cut-short.jpg"]
    assert reason.startswith("its pixels did not decode (it was cut short: ") and "truncated" in reason
    assert reason.endswith("it is indexed by its name and date, without its text or a description of what it shows")
    assert kinds["cut-short.jpg"] == {"image"}  # the name unit alone
    assert idx.search("cut short", strategy="keyword")[0].path == "cut-short.jpg"


def test_an_empty_picture_says_it_is_empty(indexed):
    _, report, _ = indexed
    assert dict(report.skipped)["empty.jpg"] == ("empty file (0 bytes): nothing to read; a copy or a download may "
                                                 "have stopped before it began")


def test_fifty_megapixels_is_read_under_the_default_limit(indexed):
    idx, report, kinds = indexed
    assert "big-photo.jpg" not in messages(report)
    assert kinds["big-photo.jpg"] == {"image"}
    texts = [text for (text,) in idx.engine.db.execute(
        "SELECT u.text FROM units u JOIN files f ON f.id = u.file_id WHERE f.path = 'big-photo.jpg' ORDER BY u.id")]
    assert len(texts) == 2  # name, folders and size; then what the pixels show
    assert "8000x6250" in texts[0] and texts[1]


@pytest.mark.parametrize("name, words", [("proof-cmyk.tif", "boathouse poster"),
                                         ("strip-16bit.tif", "scanner strip"),
                                         ("hours.gif", "lighthouse opening hours")])
def test_awkward_modes_get_a_description_and_their_text(indexed, name, words):
    idx, report, kinds = indexed
    assert name not in messages(report)
    assert kinds[name] == {"image", "ocr"}
    hits = [h for h in idx.search(f"{words} {CODE}", strategy="keyword") if h.path == name]
    assert hits and hits[0].unit_kind == "ocr"


def test_animated_gif_is_read_from_its_first_frame_only(indexed):
    idx, _, _ = indexed
    assert not [h for h in idx.search("second frame nobody reads", strategy="keyword", match="and")
                if h.path == "hours.gif"]


def test_two_thousand_pages_are_all_indexed(indexed):
    idx, report, kinds = indexed
    assert "ledger-2000-pages.pdf" not in messages(report)
    assert kinds["ledger-2000-pages.pdf"] == {"pdf_page"}
    pages = idx.engine.db.execute("SELECT COUNT(*) FROM units u JOIN files f ON f.id = u.file_id "
                                 "WHERE f.path = 'ledger-2000-pages.pdf' AND u.kind = 'pdf_page'").fetchone()[0]
    assert pages == LONG_PAGES
    hit = idx.search("pier1734", strategy="keyword")[0]
    assert (hit.path, hit.page) == ("ledger-2000-pages.pdf", 1734)


def test_docx_with_a_broken_picture_keeps_its_text(indexed):
    idx, _, kinds = indexed
    assert kinds["kitchen-broken-picture.docx"] == {"docx"}
    hit = idx.search("hob island", strategy="keyword")[0]
    assert hit.path == "kitchen-broken-picture.docx"


def test_docx_with_a_broken_picture_says_so(indexed):
    _, report, _ = indexed
    reasons = messages(report).get("kitchen-broken-picture.docx", [])
    assert len(reasons) == 1 and "picture" in reasons[0] and "\n" not in reasons[0]


def test_good_files_are_all_found(indexed):
    idx, report, kinds = indexed
    for name in [*GOOD, "meadow.png"]:
        assert name not in messages(report)
    assert idx.search("garlic cloves", strategy="keyword")[0].path == "garden.md"
    assert idx.search("tomato soup basil", strategy="keyword")[0].path == "soup.txt"
    assert idx.search("boiler serviced", strategy="keyword")[0].path == "boiler.md"
    assert kinds["meadow.png"] == {"image"}
    hit = idx.search("meadow photo", strategy="keyword")[0]
    assert hit.path == "meadow.png"


# ---- limits lowered: the same files, a message naming the setting to raise -------------------

def test_lower_limits_index_by_name_and_say_which_setting_to_raise(folder, tmp_path, fake_embedder):
    small = tmp_path / "small"
    small.mkdir()
    for name in ("big-photo.jpg", "ledger-2000-pages.pdf", "meadow.png"):
        shutil.copy2(folder / name, small / name)
    idx = Index(small, index_dir=tmp_path / "idx", embedder=fake_embedder,
                settings=Settings(max_image_mp=20, max_pdf_pages=100))
    report = idx.update()
    assert not report.skipped and report.added == 3
    said = messages(report)
    assert set(said) == {"big-photo.jpg", "ledger-2000-pages.pdf"}
    (big,), (long,) = said["big-photo.jpg"], said["ledger-2000-pages.pdf"]
    assert "max_image_mp" in big and "20 megapixels" in big and "\n" not in big
    assert long == "only the first 100 pages were indexed; raise max_pdf_pages to read more"
    kinds = unit_kinds(idx)
    units = idx.engine.db.execute("SELECT COUNT(*) FROM units u JOIN files f ON f.id = u.file_id "
                                 "WHERE f.path = 'big-photo.jpg'").fetchone()[0]
    assert kinds["big-photo.jpg"] == {"image"} and units == 1  # its name, folders and size only
    assert idx.search("big photo", strategy="keyword")[0].path == "big-photo.jpg"
    assert idx.search("pier100", strategy="keyword")[0].page == 100
    pages = idx.engine.db.execute("SELECT COUNT(*), MAX(u.page) FROM units u JOIN files f ON f.id = u.file_id "
                                 "WHERE f.path = 'ledger-2000-pages.pdf'").fetchone()
    assert tuple(pages) == (100, 100)
    # The warnings are kept for the status command, as "warning" (indexed in part).
    assert {e["path"] for e in idx.status()["errors"] if e["level"] == "warning"} == set(said)
