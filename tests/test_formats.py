"""Office, e-book, mail and phone-photo formats: real files written by the real libraries in
tmp_path, exact expected units, one damaged file per format, and one search per kind through
scent.Index with the fake embedder."""
from __future__ import annotations

import datetime as dt
import email
import hashlib
import shutil
import zipfile
from pathlib import Path

import pytest

from scent import Filters, Index
from scent.errors import ExtractError
from scent.extract import extract, file_kind
from scent.settings import Settings

from conftest import FakeEmbedder, write_epub


def reason_of(path) -> str:
    with pytest.raises(ExtractError) as info:
        extract(str(path))
    assert "\n" not in info.value.reason
    return info.value.reason


def texts(extracted):
    return [(s.kind, s.title, s.page, s.text) for s in extracted.sections]


def search_finds(folder, query, kind) -> list:
    """The paths `query` finds among files of `kind` in a fresh index of `folder`."""
    settings = Settings().with_values(ocr=False, describe=False)
    idx = Index(folder, index_dir=folder.parent / "ix", settings=settings, embedder=FakeEmbedder())
    try:
        report = idx.update()
        assert not report.skipped, report.skipped
        hits = idx.search(query, k=5, filters=Filters.build(kinds=[kind]))
        return [(h.path, h.kind, h.page) for h in hits]
    finally:
        idx.close()


def cut(path, fraction=0.5):
    data = path.read_bytes()
    out = path.with_name("cut-" + path.name)
    out.write_bytes(data[:int(len(data) * fraction)])
    return out


def bomb(path, member):
    """A package whose one part inflates 2 KB of zip to 64 MB."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(member, b"\0" * (64 * 1024 * 1024))
    return path


def encrypted_looking(path):
    """What Office writes for a password-protected file: an OLE compound file, not a zip.
    (Only its header matters to scent; no library here can write a real encrypted one.)"""
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504 + b"EncryptedPackage" + b"\0" * 1000)
    return path


# ---------------------------------------------------------------- spreadsheets

@pytest.fixture
def workbook(tmp_path):
    """Budget (a header, 2 rows, a formula with its saved value), a hidden Codes sheet, and an
    empty sheet. xlsxwriter, unlike openpyxl, can store a formula's computed value."""
    import xlsxwriter
    path = tmp_path / "books" / "budget.xlsx"
    path.parent.mkdir()
    book = xlsxwriter.Workbook(str(path))
    budget = book.add_worksheet("Budget")
    budget.write_row(0, 0, ["Item", "Cost", "Bought", "Double"])
    budget.write_row(1, 0, ["Lighthouse lamp", 120])
    budget.write_datetime(1, 2, dt.datetime(2025, 7, 14), book.add_format({"num_format": "yyyy-mm-dd"}))
    budget.write_formula(1, 3, "=B2*2", None, 240)
    budget.write_row(2, 0, ["Lamp oil", 2.5, None, None])
    codes = book.add_worksheet("Codes")
    codes.write_row(0, 0, ["code", "done"])
    codes.write_row(1, 0, ["LD-2026-0417", True])
    codes.hide()
    book.add_worksheet("Empty")
    book.close()
    return path


def test_xlsx_sheets_header_values_and_hidden(workbook):
    got = extract(str(workbook))
    assert got.kind == "sheet" and got.title == "budget.xlsx"
    assert texts(got) == [
        ("sheet", "Budget rows 1-2", None,
         "Item | Cost | Bought | Double\nLighthouse lamp | 120 | 2025-07-14 | 240\nLamp oil | 2.5"),
        ("sheet", "Codes (hidden sheet) rows 1-1", None, "code | done\nLD-2026-0417 | TRUE"),
    ]
    assert got.meta["sheets"] == ["Budget", "Codes", "Empty"] and got.meta["hidden_sheets"] == ["Codes"]
    assert got.sections[1].start == len(got.sections[0].text) + 2


def test_xlsx_groups_of_25_rows_each_led_by_the_header(tmp_path):
    import openpyxl
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Tides"
    sheet.append(["day", "metres"])
    for day in range(1, 31):
        sheet.append([day, day / 10])
    sheet["H1000"] = None  # a dimension far beyond the data must not pad rows
    book.save(tmp_path / "tides.xlsm")
    got = extract(str(tmp_path / "tides.xlsm"))
    assert [s.title for s in got.sections] == ["Tides rows 1-25", "Tides rows 26-30"]
    assert got.sections[1].text == "day | metres\n" + "\n".join(f"{d} | {d / 10:g}" for d in range(26, 31))


def test_a_workbooks_comments_are_a_part_of_each_sheet(tmp_path):
    """Notes as openpyxl writes them (Excel's older comments); a sheet's threaded comments (Excel
    365's) as Excel writes them, beside the note it also writes for each, whose boilerplate is not read."""
    import openpyxl
    from openpyxl.comments import Comment

    book = openpyxl.Workbook()
    budget = book.active
    budget.title = "Budget"
    budget.append(["Item", "Cost"])
    budget.append(["Paint", 40])
    budget["B2"].comment = Comment("Check the VAT rate", "Ana Souza")
    plan = book.create_sheet("Plan")
    plan.append(["Task"])
    plan.append(["Sand the floor"])
    plan["A2"].comment = Comment("[Threaded comment] Your version of Excel allows you to read this threaded comment",
                                 "tc=1")
    book.save(tmp_path / "plain.xlsx")
    threaded = "http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments"
    with zipfile.ZipFile(tmp_path / "plain.xlsx") as source, zipfile.ZipFile(tmp_path / "house.xlsx", "w") as out:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "xl/worksheets/_rels/sheet2.xml.rels":
                data = data.replace(b"</Relationships>", b'<Relationship Id="rT" Target="../threadedComments/t1.xml" '
                                    b'Type="http://schemas.microsoft.com/office/2017/10/relationships/threadedComment"/>'
                                    b"</Relationships>")
            if info.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(b"</Relationships>", b'<Relationship Id="rP" Target="persons/person.xml" '
                                    b'Type="http://schemas.microsoft.com/office/2017/10/relationships/person"/>'
                                    b"</Relationships>")
            out.writestr(info, data)
        out.writestr("xl/persons/person.xml", f'<personList xmlns="{threaded}"><person displayName="Ben Hart" id="{{P1}}"/>'
                                              '</personList>')
        out.writestr("xl/threadedComments/t1.xml", f'<ThreadedComments xmlns="{threaded}">'
                     '<threadedComment ref="A2" personId="{P1}" id="{C1}"><text>Hire a sander first</text></threadedComment>'
                     '<threadedComment ref="A2" personId="{P1}" id="{C2}" parentId="{C1}"><text>Booked for Friday</text>'
                     '</threadedComment></ThreadedComments>')
    got = extract(str(tmp_path / "house.xlsx"))
    assert [(s.title, s.text) for s in got.sections][2:] == [
        ("Budget comments", "comment by Ana Souza on B2: Check the VAT rate"),
        ("Plan comments", "comment by Ben Hart on A2: Hire a sander first\nreply by Ben Hart on A2: Booked for Friday")]


def test_a_workbooks_charts_are_a_part_of_each_sheet(tmp_path):
    """A chart drawn on a sheet and a chart sheet, as openpyxl writes them (their series name cells
    without the cached names Excel keeps: those are read by the .pptx test, the same chart part)."""
    import openpyxl
    from openpyxl.chart import BarChart, PieChart, Reference

    book = openpyxl.Workbook()
    sales = book.active
    sales.title = "Sales"
    for row in [["Quarter", "Bicycles"], ["Q1", 10], ["Q2", 12]]:
        sales.append(row)
    bars = BarChart()
    bars.title, bars.x_axis.title, bars.y_axis.title = "Sales by quarter", "Quarter", "Units sold"
    bars.add_data(Reference(sales, min_col=2, min_row=1, max_row=3), titles_from_data=True)
    sales.add_chart(bars, "E2")
    pie = PieChart()
    pie.title = "Where the money went"
    pie.add_data(Reference(sales, min_col=2, min_row=1, max_row=3), titles_from_data=True)
    book.create_chartsheet("Spending").add_chart(pie)
    book.save(tmp_path / "shop.xlsx")
    got = extract(str(tmp_path / "shop.xlsx"))
    assert [(s.title, s.text) for s in got.sections][1:] == [
        ("Sales charts", "chart: Sales by quarter\naxis: Quarter\naxis: Units sold"),
        ("Spending charts", "chart: Where the money went")]


def test_ods_sheets_repeated_cells_and_hidden(tmp_path):
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.style import Style, TableProperties
    from odf.table import Table, TableCell, TableRow
    from odf.text import P
    doc = OpenDocumentSpreadsheet()
    hidden = Style(name="ta2", family="table")
    hidden.addElement(TableProperties(display="false"))
    doc.automaticstyles.addElement(hidden)

    def add_sheet(name, rows, **style):
        table = Table(name=name, **style)
        for values in rows:
            row = TableRow()
            for value in values:
                cell = TableCell()
                cell.addElement(P(text=value))
                row.addElement(cell)
            row.addElement(TableCell(numbercolumnsrepeated=16000))  # as LibreOffice writes a row's tail
            table.addElement(row)
        table.addElement(TableRow(numberrowsrepeated=1048000))
        doc.spreadsheet.addElement(table)

    add_sheet("Budget", [["Item", "Cost"], ["Lighthouse lamp", "120"], ["Lamp oil", "2.5"]])
    add_sheet("Codes", [["code"], ["LD-2026-0417"]], stylename=hidden)
    doc.save(str(tmp_path / "budget.ods"))
    got = extract(str(tmp_path / "budget.ods"))
    assert texts(got) == [
        ("sheet", "Budget rows 1-2", None, "Item | Cost\nLighthouse lamp | 120\nLamp oil | 2.5"),
        ("sheet", "Codes (hidden sheet) rows 1-1", None, "code\nLD-2026-0417"),
    ]


def test_ods_comments_are_a_part_of_each_sheet_not_words_of_their_cell(tmp_path):
    """Annotations as LibreOffice writes them (author, date, then the words), one under a repeated
    empty row: its cell reference counts the repeated rows and cells."""
    from odf.dc import Creator, Date
    from odf.office import Annotation
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    table = Table(name="Budget")

    def row(*cells, **repeated) -> None:
        r = TableRow(**repeated)
        for value, note in cells:
            cell = TableCell(numbercolumnsrepeated=value) if isinstance(value, int) else TableCell()
            if note:
                annotation = Annotation()
                annotation.addElement(Creator(text="Ana Souza"))
                annotation.addElement(Date(text="2025-03-02T10:00:00"))
                annotation.addElement(P(text=note))
                cell.addElement(annotation)
            if isinstance(value, str):
                cell.addElement(P(text=value))
            r.addElement(cell)
        table.addElement(r)

    row(("Item", None), ("Cost", None))
    row(("Paint", None), ("40", "Check the VAT rate"))
    row((3, None), numberrowsrepeated=2)
    row((2, None), ("Skip", "Ask the landlord first"))
    doc.spreadsheet.addElement(table)
    doc.save(str(tmp_path / "budget.ods"))
    got = extract(str(tmp_path / "budget.ods"))
    assert [(s.title, s.text) for s in got.sections] == [
        ("Budget rows 1-2", "Item | Cost\nPaint | 40\n |  | Skip"),
        ("Budget comments", "comment by Ana Souza on B2: Check the VAT rate\n"
                            "comment by Ana Souza on C5: Ask the landlord first")]


def test_formulas_give_their_saved_values(tmp_path):
    """An .ods formula cell carries the value LibreOffice computed as its text, and that is what is
    read; an .xlsx written by openpyxl has no saved values (never opened in a spreadsheet program),
    so its formula cells are empty, never the formula's text."""
    import openpyxl
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P
    doc = OpenDocumentSpreadsheet()
    table = Table(name="Budget")
    for values in (("Item", "Cost", "Double"), ("Lamp", "120", None)):
        row = TableRow()
        for value in values:
            cell = TableCell(valuetype="float", value="240", formula="of:=[.B2]*2") if value is None else TableCell()
            cell.addElement(P(text=value or "240"))
            row.addElement(cell)
        table.addElement(row)
    doc.spreadsheet.addElement(table)
    doc.save(str(tmp_path / "f.ods"))
    assert texts(extract(str(tmp_path / "f.ods"))) == [("sheet", "Budget rows 1-1", None, "Item | Cost | Double\nLamp | 120 | 240")]
    book = openpyxl.Workbook()
    book.active.append(["Item", "Cost", "Double"])
    book.active.append(["Lamp", 120, "=B2*2"])
    book.save(tmp_path / "f.xlsx")
    assert texts(extract(str(tmp_path / "f.xlsx")))[0][3] == "Item | Cost | Double\nLamp | 120"


def test_a_really_encrypted_xlsx_is_one_line(tmp_path, workbook):
    """Encrypted with a password by msoffcrypto-tool (ECMA-376 agile encryption, as Excel does)."""
    pytest.importorskip("msoffcrypto")
    from msoffcrypto.format.ooxml import OOXMLFile
    with open(workbook, "rb") as plain, open(tmp_path / "locked.xlsx", "wb") as out:
        OOXMLFile(plain).encrypt("harbour", out)
    assert (tmp_path / "locked.xlsx").read_bytes()[:8] == bytes.fromhex("d0cf11e0a1b11ae1")  # an OLE container
    assert reason_of(tmp_path / "locked.xlsx") == (
        "password-protected (encrypted) Excel workbook, or an old binary Office file renamed: scent cannot read "
        "it; save it without a password or add it to .scentignore")


def test_sheet_kinds_by_name():
    assert [file_kind(n) for n in ("a.xlsx", "b.XLSM", "c.ods", "d.xls", "e.xlsb", "f.xlsbx")] == [
        "sheet", "sheet", "sheet", "sheet", "sheet", None]


@pytest.fixture
def old_workbook(tmp_path):
    """The workbook fixture's sheets as Excel 97-2003 saved them (.xls, BIFF8, written by xlwt)."""
    xlwt = pytest.importorskip("xlwt")
    path = tmp_path / "old" / "budget.xls"
    path.parent.mkdir()
    book = xlwt.Workbook()
    budget = book.add_sheet("Budget")
    for col, value in enumerate(["Item", "Cost", "Bought"]):
        budget.write(0, col, value)
    budget.write(1, 0, "Lighthouse lamp")
    budget.write(1, 1, 120)
    budget.write(1, 2, dt.datetime(2025, 7, 14), xlwt.easyxf(num_format_str="YYYY-MM-DD"))
    budget.write(2, 0, "Lamp oil")
    budget.write(2, 1, 2.5)
    budget.write(2, 2, dt.datetime(2025, 7, 15, 9, 30), xlwt.easyxf(num_format_str="YYYY-MM-DD HH:MM"))
    codes = book.add_sheet("Codes")
    codes.write(0, 0, "code")
    codes.write(0, 1, "done")
    codes.write(1, 0, "LD-2026-0417")
    codes.write(1, 1, True)
    codes.visibility = 1  # hidden
    book.add_sheet("Empty")
    book.save(str(path))
    return path


def test_xls_sheets_header_values_dates_and_hidden(old_workbook):
    got = extract(str(old_workbook))
    assert got.kind == "sheet" and got.title == "budget.xls"
    assert texts(got) == [
        ("sheet", "Budget rows 1-2", None,
         "Item | Cost | Bought\nLighthouse lamp | 120 | 2025-07-14\nLamp oil | 2.5 | 2025-07-15 09:30"),
        ("sheet", "Codes (hidden sheet) rows 1-1", None, "code | done\nLD-2026-0417 | TRUE"),
    ]
    assert got.meta["sheets"] == ["Budget", "Codes", "Empty"] and got.meta["hidden_sheets"] == ["Codes"]
    assert got.date is None  # xlwt writes no SummaryInformation: the mtime will do


def test_an_xls_that_is_not_one(tmp_path, old_workbook, workbook, capsys):
    """Cut short: one line (and xlrd's own warnings kept off stdout, where --json writes); a web
    page exported as .xls: says so; a workbook saved as .xlsx under an .xls name: read as one."""
    assert reason_of(cut(old_workbook)).startswith("not a readable Excel 97-2003 .xls workbook (")
    assert capsys.readouterr().out == ""
    (tmp_path / "export.xls").write_text("\ufeff<html><table><tr><td>Lamp</td></tr></table></html>")
    assert reason_of(tmp_path / "export.xls").startswith("a web page saved with an .xls name")
    renamed = tmp_path / "renamed.xls"
    renamed.write_bytes(workbook.read_bytes())
    assert texts(extract(str(renamed)))[0][3].startswith("Item | Cost | Bought | Double\nLighthouse lamp | 120")


def test_an_xls_is_found_by_a_keyword(old_workbook):
    assert search_finds(old_workbook.parent, "lighthouse lamp", "sheet")[0] == ("budget.xls", "sheet", None)


@pytest.fixture
def binary_workbook(tmp_path):
    """The workbook fixture's sheets as an Excel binary workbook (.xlsb, written by pyxlsbwriter)."""
    pyxlsbwriter = pytest.importorskip("pyxlsbwriter")
    path = tmp_path / "binary" / "budget.xlsb"
    path.parent.mkdir()
    with pyxlsbwriter.XlsbWriter(str(path)) as book:
        book.add_sheet("Budget")
        book.write_sheet([["Item", "Cost", "Bought"], ["Lighthouse lamp", 120, dt.datetime(2025, 7, 14)],
                          ["Lamp oil", 2.5, dt.datetime(2025, 7, 15, 9, 30)]])
        book.add_sheet("Codes", hidden=True)
        book.write_sheet([["code", "done"], ["LD-2026-0417", True]])
        book.add_sheet("Empty")
        book.write_sheet([])
    return path


def test_xlsb_sheets_read_as_the_xls_ones_are(binary_workbook):
    got = extract(str(binary_workbook))
    assert got.kind == "sheet" and got.title == "budget.xlsb"
    assert texts(got) == [
        ("sheet", "Budget rows 1-2", None,
         "Item | Cost | Bought\nLighthouse lamp | 120 | 2025-07-14\nLamp oil | 2.5 | 2025-07-15 09:30"),
        ("sheet", "Codes (hidden sheet) rows 1-1", None, "code | done\nLD-2026-0417 | TRUE"),
    ]
    assert got.meta["sheets"] == ["Budget", "Codes", "Empty"] and got.meta["hidden_sheets"] == ["Codes"]
    assert search_finds(binary_workbook.parent, "lighthouse lamp", "sheet")[0] == ("budget.xlsb", "sheet", None)


def test_a_damaged_xlsb_is_one_line(tmp_path, binary_workbook):
    assert reason_of(cut(binary_workbook)).startswith("not a readable Excel binary workbook (BadZipFile")
    assert reason_of(encrypted_looking(tmp_path / "locked.xlsb")).startswith(
        "password-protected (encrypted) Excel binary workbook")
    assert "zip bomb" in reason_of(bomb(tmp_path / "bomb.xlsb", "xl/worksheets/sheet1.bin"))
    with zipfile.ZipFile(binary_workbook) as z, zipfile.ZipFile(tmp_path / "garbled.xlsb", "w") as out:
        for name in z.namelist():  # each sheet's records garbled: calamine's own error, in one line
            data = z.read(name)
            out.writestr(name, bytes(255 - b for b in data) if name.endswith("sheet1.bin") else data)
    assert reason_of(tmp_path / "garbled.xlsb").startswith("not a readable Excel binary workbook (")


def test_damaged_spreadsheets(tmp_path, workbook):
    assert reason_of(cut(workbook)).startswith("not a readable Excel workbook (BadZipFile")
    assert reason_of(encrypted_looking(tmp_path / "locked.xlsx")).startswith(
        "password-protected (encrypted) Excel workbook")
    assert "zip bomb" in reason_of(bomb(tmp_path / "bomb.xlsx", "xl/worksheets/sheet1.xml"))
    (tmp_path / "fake.ods").write_bytes(b"PK\x03\x04 not really")
    assert reason_of(tmp_path / "fake.ods").startswith("not a readable OpenDocument .ods spreadsheet")
    with zipfile.ZipFile(tmp_path / "empty.xlsx", "w") as z:
        z.writestr("hello.txt", "no workbook here")
    assert reason_of(tmp_path / "empty.xlsx").startswith("not a readable Excel workbook")


def test_sheet_is_found_by_a_keyword(workbook):
    assert search_finds(workbook.parent, "lighthouse lamp", "sheet")[0] == ("budget.xlsx", "sheet", None)


# ---------------------------------------------------------------- slides

@pytest.fixture
def picture_png(tmp_path):
    from PIL import Image
    path = tmp_path / "orange.png"
    Image.new("RGB", (200, 150), "orange").save(path)
    return path


@pytest.fixture
def deck(tmp_path, picture_png):
    """Slide 1: title, two body lines, speaker notes. Slide 2: title, a picture, a 2x2 table."""
    from pptx import Presentation
    from pptx.util import Inches
    presentation = Presentation()
    first = presentation.slides.add_slide(presentation.slide_layouts[1])
    first.shapes.title.text = "Harbour budget"
    first.placeholders[1].text = "Lamp costs rose\nOil is cheap"
    first.notes_slide.notes_text_frame.text = "Mention the storm damage"
    second = presentation.slides.add_slide(presentation.slide_layouts[5])
    second.shapes.title.text = "Photos"
    second.shapes.add_picture(str(picture_png), Inches(1), Inches(1))
    table = second.shapes.add_table(2, 2, Inches(1), Inches(3), Inches(4), Inches(1)).table
    table.cell(0, 0).text, table.cell(0, 1).text = "keeper", "shift"
    table.cell(1, 0).text, table.cell(1, 1).text = "Ann", "night"
    path = tmp_path / "decks" / "deck.pptx"
    path.parent.mkdir()
    presentation.save(str(path))
    return path


SLIDE_1 = ("slide", "Harbour budget", 1, "Harbour budget\nLamp costs rose\nOil is cheap\n\nMention the storm damage")
SLIDE_2 = ("slide", "Photos", 2, "Photos\nkeeper | shift\nAnn | night")


def test_pptx_one_unit_per_slide_with_notes(deck):
    from scent.extract import Limits
    got = extract(str(deck))
    assert got.kind == "slides" and got.title == "Harbour budget" and got.meta["slides"] == 2
    assert texts(got) == [SLIDE_1, SLIDE_2]
    with_pictures = extract(str(deck), Limits(describe=True))
    assert texts(with_pictures)[:2] == [SLIDE_1, SLIDE_2]
    picture = with_pictures.sections[2]
    assert (picture.kind, picture.page, picture.title, picture.start) == (
        "slide_image", 2, "Photos", len(SLIDE_1[3]) + len(SLIDE_2[3]) + 4)
    assert "orange" in picture.text and picture.picture.locator == "ppt/media/image1.png"
    assert picture.picture.load(64).getpixel((5, 5)) == (255, 165, 0)


def test_a_slides_chart_and_smartart_are_its_words(tmp_path):
    """A chart python-pptx draws, and a SmartArt diagram as PowerPoint writes it: a graphic frame
    naming its data part, whose nodes hold the words (the transitions between them none)."""
    from lxml import etree
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.opc.package import Part
    from pptx.opc.packuri import PackURI
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Quarterly results"
    data = CategoryChartData()
    data.categories = ["Q1", "Q2", "Q3"]
    data.add_series("Bicycle sales", (10, 12, 15))
    data.add_series("Repairs", (3, 4, 6))
    chart = slide.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(2), Inches(6), Inches(4), data).chart
    chart.has_title = True
    chart.chart_title.text_frame.text = "Sales by quarter"
    chart.value_axis.has_title = True
    chart.value_axis.axis_title.text_frame.text = "Units sold"
    pie = deck.slides.add_slide(deck.slide_layouts[6])
    pie_data = CategoryChartData()
    pie_data.categories = ["Rent", "Food"]
    pie_data.add_series("Spending", (60, 40))
    pie.shapes.add_chart(XL_CHART_TYPE.PIE, Inches(1), Inches(1), Inches(4), Inches(4), pie_data)
    process = deck.slides.add_slide(deck.slide_layouts[6])
    dgm = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
    a = "http://schemas.openxmlformats.org/drawingml/2006/main"
    nodes = "".join(f'<dgm:pt modelId="{i}"{kind}><dgm:t><a:bodyPr/><a:p><a:r><a:t>{words}</a:t></a:r></a:p></dgm:t></dgm:pt>'
                    for i, (kind, words) in enumerate([(' type="doc"', ""), ("", "Order the frame"),
                                                      (' type="parTrans"', ""), ("", "Fit the wheels")]))
    part = Part(PackURI("/ppt/diagrams/data1.xml"), "application/vnd.openxmlformats-officedocument.drawingml.diagramData+xml",
                process.part.package, f'<dgm:dataModel xmlns:dgm="{dgm}" xmlns:a="{a}"><dgm:ptLst>{nodes}</dgm:ptLst>'
                                      "</dgm:dataModel>".encode())
    rid = process.part.relate_to(part, "http://schemas.openxmlformats.org/officeDocument/2006/relationships/diagramData")
    process.shapes._spTree.append(etree.fromstring(
        '<p:graphicFrame xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" '
        f'xmlns:a="{a}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        '<p:nvGraphicFramePr><p:cNvPr id="9" name="Diagram 1"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>'
        '<p:xfrm><a:off x="0" y="0"/><a:ext cx="100" cy="100"/></p:xfrm><a:graphic>'
        f'<a:graphicData uri="{dgm}"><dgm:relIds xmlns:dgm="{dgm}" r:dm="{rid}" r:lo="" r:qs="" r:cs=""/>'
        '</a:graphicData></a:graphic></p:graphicFrame>'))
    deck.save(tmp_path / "results.pptx")
    got = extract(str(tmp_path / "results.pptx"))
    assert [s.text for s in got.sections] == [
        "Quarterly results\nchart: Sales by quarter\nseries: Bicycle sales, Repairs\ncategories: Q1, Q2, Q3\n"
        "Bicycle sales: Q1 10, Q2 12, Q3 15\nRepairs: Q1 3, Q2 4, Q3 6\naxis: Units sold",
        "series: Spending\ncategories: Rent, Food\nSpending: Rent 60, Food 40", "Order the frame\nFit the wheels"]


def test_a_slides_reviewers_comments_follow_its_notes(tmp_path):
    """Comments as PowerPoint writes them: slide 1's of the older kind (p:cm, authors by number in
    commentAuthors.xml), slide 2's PowerPoint 365 threads (p188:cm, a reply, authors in authors.xml)."""
    from pptx import Presentation
    from pptx.opc.packuri import PackURI
    from pptx.opc.package import Part

    p = "http://schemas.openxmlformats.org/presentationml/2006/main"
    p188 = "http://schemas.microsoft.com/office/powerpoint/2018/8/main"
    a = "http://schemas.openxmlformats.org/drawingml/2006/main"
    deck = Presentation()
    first, second = (deck.slides.add_slide(deck.slide_layouts[5]) for _ in range(2))
    first.shapes.title.text, second.shapes.title.text = "Budget", "Timeline"
    first.notes_slide.notes_text_frame.text = "Mention the grant"

    def relate(owner, name: str, xml: str, kind: str) -> None:
        part = Part(PackURI(name), "application/xml", owner.package, xml.encode())
        owner.relate_to(part, kind)

    office = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    modern = "http://schemas.microsoft.com/office/2018/10/relationships"
    relate(deck.part, "/ppt/commentAuthors.xml", f'<p:cmAuthorLst xmlns:p="{p}"><p:cmAuthor id="0" name="Ana Souza" '
           'initials="AS" lastIdx="1" clrIdx="0"/></p:cmAuthorLst>', f"{office}/commentAuthors")
    relate(deck.part, "/ppt/authors.xml", f'<p188:authorLst xmlns:p188="{p188}"><p188:author id="{{A1}}" '
           'name="Ben Hart" initials="BH" userId="ben"/></p188:authorLst>', f"{modern}/authors")
    relate(first.part, "/ppt/comments/comment1.xml", f'<p:cmLst xmlns:p="{p}"><p:cm authorId="0" idx="1">'
           '<p:pos x="10" y="10"/><p:text>Is the  VAT included?</p:text></p:cm></p:cmLst>', f"{office}/comments")

    def body(words: str) -> str:
        return f"<p188:txBody><a:bodyPr/><a:p><a:r><a:t>{words}</a:t></a:r></a:p></p188:txBody>"

    relate(second.part, "/ppt/comments/modernComment_1.xml", f'<p188:cmLst xmlns:p188="{p188}" xmlns:a="{a}">'
           f'<p188:cm id="{{C1}}" authorId="{{A1}}"><p188:replyLst><p188:reply id="{{R1}}" authorId="{{A1}}">'
           f'{body("Moved to June")}</p188:reply></p188:replyLst>{body("Start in May?")}</p188:cm></p188:cmLst>',
           f"{modern}/comments")
    deck.save(tmp_path / "plan.pptx")
    assert [s.text for s in extract(str(tmp_path / "plan.pptx")).sections] == [
        "Budget\n\nMention the grant\ncomment by Ana Souza: Is the VAT included?",
        "Timeline\n\ncomment by Ben Hart: Start in May?\nreply by Ben Hart: Moved to June"]


def test_pptx_missing_picture_part_keeps_the_text(tmp_path, deck):
    from scent.extract import Limits
    broken = tmp_path / "broken.pptx"
    with zipfile.ZipFile(deck) as source, zipfile.ZipFile(broken, "w") as out:
        for info in source.infolist():
            if not info.filename.startswith("ppt/media/"):
                out.writestr(info, source.read(info))
    got = extract(str(broken), Limits(describe=True))
    assert texts(got) == [SLIDE_1, SLIDE_2]
    assert got.meta["picture_errors"] == [
        "a picture on slide 2 is missing from the file (KeyError: \"no relationship with key 'rId2'\")"]


def test_odp_slides_notes_and_pictures(tmp_path, picture_png):
    from odf.draw import Frame, Image, Page, TextBox
    from odf.opendocument import OpenDocumentPresentation
    from odf.presentation import Notes
    from odf.style import MasterPage, PageLayout
    from odf.text import P
    from scent.extract import Limits
    doc = OpenDocumentPresentation()
    layout = PageLayout(name="PL")
    doc.automaticstyles.addElement(layout)
    master = MasterPage(name="Default", pagelayoutname=layout)
    doc.masterstyles.addElement(master)

    def frame(lines, **kw):
        box_frame, box = Frame(width="20cm", height="3cm", x="1cm", y="1cm", **kw), TextBox()
        box_frame.addElement(box)
        for line in lines:
            box.addElement(P(text=line))
        return box_frame

    first = Page(masterpagename=master, name="page1")
    first.addElement(frame(["Harbour budget"], **{"class": "title"}))
    first.addElement(frame(["Lamp costs rose", "Oil is cheap"]))
    notes = Notes()
    notes.addElement(frame(["Mention the storm damage"]))
    first.addElement(notes)
    second = Page(masterpagename=master, name="page2")
    picture = Frame(width="5cm", height="5cm", x="1cm", y="1cm")
    picture.addElement(Image(href=doc.addPicture(str(picture_png))))
    second.addElement(picture)
    doc.presentation.addElement(first)
    doc.presentation.addElement(second)
    doc.save(str(tmp_path / "deck.odp"))
    got = extract(str(tmp_path / "deck.odp"), Limits(describe=True))
    assert texts(got)[0] == SLIDE_1
    assert [(s.kind, s.page, s.title) for s in got.sections[1:]] == [("slide_image", 2, "slide 2")]


def test_damaged_presentations(tmp_path, deck):
    assert reason_of(cut(deck)).startswith("not a readable PowerPoint .pptx presentation (BadZipFile")
    assert reason_of(encrypted_looking(tmp_path / "locked.pptx")).startswith(
        "password-protected (encrypted) PowerPoint .pptx presentation")
    with zipfile.ZipFile(tmp_path / "other.pptx", "w") as z:
        z.writestr("hello.txt", "no slides here")
    assert reason_of(tmp_path / "other.pptx").startswith("not a readable PowerPoint .pptx presentation")
    (tmp_path / "fake.odp").write_bytes(b"PK\x05\x06" + b"\0" * 18)
    assert reason_of(tmp_path / "fake.odp").startswith("not a readable OpenDocument .odp presentation")


def test_slide_is_found_by_its_speaker_notes_and_page(deck):
    assert search_finds(deck.parent, "storm damage", "slides")[0] == ("deck.pptx", "slides", 1)


# ---------------------------------------------------------------- phone photos

def make_photo(path, fmt, size=(640, 480)):
    """A phone-like photo: Apple iPhone 15 EXIF, taken 19:32 at UTC+2."""
    from PIL import Image
    path.parent.mkdir(parents=True, exist_ok=True)
    exif = Image.Exif()
    exif[0x010F], exif[0x0110] = "Apple", "iPhone 15"
    exif.get_ifd(0x8769)[0x9003] = "2025:07:14 19:32:00"
    exif.get_ifd(0x8769)[0x9011] = "+02:00"
    Image.new("RGB", size, "navy").save(path, format=fmt, exif=exif, quality=60)
    return path


@pytest.mark.parametrize("name, fmt", [("IMG_4120.HEIC", "HEIF"), ("IMG_4121.heif", "HEIF"),
                                       ("IMG_4122.avif", "AVIF")])
def test_phone_photos_name_date_camera_and_size(tmp_path, name, fmt):
    from scent.extract import Limits
    path = make_photo(tmp_path / "Trip 2025" / name, fmt)
    got = extract(str(path), Limits(root=str(tmp_path)))
    stem = name.split(".")[0].replace("_", " ")
    assert texts(got) == [("image", "", None,
                           f"{stem}\nTrip 2025\ntaken 14 July 2025 (2025-07-14)\ncamera Apple iPhone 15\n640x480")]
    assert got.kind == "image" and got.title == name and got.meta["format"] == fmt
    assert got.date == dt.datetime(2025, 7, 14, 17, 32, tzinfo=dt.timezone.utc).timestamp()
    assert got.sections[0].picture.load(100).size == (640, 480)


def test_phone_photo_without_its_decoder(tmp_path, monkeypatch):
    from PIL import Image
    path = make_photo(tmp_path / "IMG_1.heic", "HEIF")
    monkeypatch.setattr(Image, "registered_extensions", lambda: {".jpg": "JPEG"})
    assert reason_of(path) == (".heic pictures need pillow-heif, which is not installed here; "
                               "run scripts/setup.sh (or pip install pillow-heif) and index again")


def test_damaged_phone_photos(tmp_path):
    path = make_photo(tmp_path / "IMG_2.heic", "HEIF")
    # Its header whole and its pixels cut: known by its boxes' lengths, whichever libheif is here
    # (pillow-heif 1.8 refuses to open it, 1.9 opens it and fails only on its pixels); where it opens,
    # it is read by its name and size, its pixels said not to decode.
    try:
        got = extract(str(cut(path, 0.6)))
    except ExtractError as refused:
        assert refused.reason.startswith("unreadable image (")
    else:
        assert [s.kind for s in got.sections] == ["image"]
        assert got.meta["picture_error"] == ("its pixels did not decode (the file ends inside its 'mdat' box: it was "
                                             "cut short): it is indexed by its name and date, without its text or a "
                                             "description of what it shows")
    assert reason_of(cut(path, 0.2)).startswith("unreadable image (")
    (tmp_path / "IMG_3.avif").write_bytes(b"\0\0\0\x1cftypavif" + b"\0" * 100)
    assert reason_of(tmp_path / "IMG_3.avif").startswith("unreadable image (")


def test_phone_photo_is_found_by_its_camera(tmp_path):
    make_photo(tmp_path / "photos" / "IMG_4120.heic", "HEIF")
    assert search_finds(tmp_path / "photos", "iPhone", "image")[0] == ("IMG_4120.heic", "image", None)


# ---------------------------------------------------------------- text documents

@pytest.fixture
def odt_file(tmp_path):
    from odf.dc import Title
    from odf.opendocument import OpenDocumentText
    from odf.table import Table, TableCell, TableRow
    from odf.text import H, List, ListItem, P
    doc = OpenDocumentText()
    doc.meta.addElement(Title(text="Harbour report"))
    doc.text.addElement(P(text="Prepared for the harbour board."))
    doc.text.addElement(H(outlinelevel=1, text="Budget 2025"))
    doc.text.addElement(P(text="Spending rose because of the storm."))
    items = List()
    item = ListItem()
    item.addElement(P(text="new lamp"))
    items.addElement(item)
    doc.text.addElement(items)
    table = Table(name="costs")
    for values in (("Item", "Cost"), ("Lamp", "120")):
        row = TableRow()
        for value in values:
            cell = TableCell()
            cell.addElement(P(text=value))
            row.addElement(cell)
        table.addElement(row)
    doc.text.addElement(table)
    path = tmp_path / "docs" / "report.odt"
    path.parent.mkdir(exist_ok=True)
    doc.save(str(path))
    return path


def test_odt_order_headings_lists_and_tables(odt_file):
    got = extract(str(odt_file))
    assert got.kind == "odt" and got.title == "Harbour report"
    assert texts(got) == [
        ("odt", "", None, "Prepared for the harbour board."),
        ("odt", "Budget 2025", None, "Budget 2025\nSpending rose because of the storm.\nnew lamp\nItem | Cost\nLamp | 120"),
    ]


def test_damaged_odt(tmp_path, odt_file, capsys):
    assert reason_of(cut(odt_file)).startswith("not a readable OpenDocument .odt text (BadZipFile")
    broken = tmp_path / "broken.odt"
    with zipfile.ZipFile(odt_file) as source, zipfile.ZipFile(broken, "w") as out:
        for info in source.infolist():
            data = source.read(info)
            out.writestr(info, data[:len(data) // 2] if info.filename == "content.xml" else data)
    assert reason_of(broken) == (
        "not a readable OpenDocument .odt text (ValueError: its content.xml is not well-formed XML (cut short or "
        "edited by hand?)); it may be damaged or another format renamed; open and save it again, or add it to "
        ".scentignore")
    assert capsys.readouterr().out == ""  # odfpy prints the broken XML; none of it may reach stdout


RTF = (rb"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Times;}}{\info{\title Memo}}\f0 Caf\'e9 opening on "
       rb"\b Monday\b0 .\par Second line.\par}")


def test_rtf_text_and_code_page(tmp_path):
    (tmp_path / "memo.rtf").write_bytes(RTF)
    got = extract(str(tmp_path / "memo.rtf"))
    assert got.kind == "rtf" and texts(got) == [("rtf", "", None, "Café opening on Monday.\nSecond line.")]
    assert "left_out" not in got.meta


def test_damaged_rtf(tmp_path):
    (tmp_path / "cut.rtf").write_bytes(RTF[:-20])
    got = extract(str(tmp_path / "cut.rtf"))  # the text is there up to the cut: indexed, with a note
    assert texts(got) == [("rtf", "", None, "Café opening on Monday.")]
    assert got.meta["left_out"] == ["the RTF file ends before its last closing brace (cut short?): the text up to "
                                    "there is indexed; save it again to index all of it"]
    (tmp_path / "fake.rtf").write_bytes(b"hello")
    assert reason_of(tmp_path / "fake.rtf").startswith("not an RTF file")


@pytest.fixture
def epub_file(tmp_path):
    from ebooklib import epub
    book = epub.EpubBook()
    book.set_identifier("keeper-tales")
    book.set_title("Keeper Tales")
    book.set_language("en")
    one = epub.EpubHtml(title="The Storm", file_name="ch1.xhtml", lang="en")
    one.content = "<p>Night of the gale.</p><h2>After</h2><p>They rebuilt the lamp.</p>"
    two = epub.EpubHtml(title="Calm Seas", file_name="ch2.xhtml", lang="en")
    two.content = "<p>Quiet nights on the rock.</p>"
    (tmp_path / "books").mkdir(exist_ok=True)
    return write_epub(tmp_path / "books" / "tales.epub", book, [one, two])


def test_epub_chapters_as_sections(epub_file):
    got = extract(str(epub_file))
    assert got.kind == "epub" and got.title == "Keeper Tales"
    assert texts(got) == [
        ("epub", "The Storm", None, "Night of the gale."),
        ("epub", "After", None, "After\nThey rebuilt the lamp."),
        ("epub", "Calm Seas", None, "Quiet nights on the rock."),
    ]


def test_epub_with_broken_xhtml_and_damaged(tmp_path, epub_file):
    broken = tmp_path / "broken.epub"
    with zipfile.ZipFile(epub_file) as source, zipfile.ZipFile(broken, "w") as out:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith("ch2.xhtml"):
                data = b"<html><body><p>Quiet nights <b>on the <i>rock</p><p>unclosed &nbsp tags"
            out.writestr(info, data)
    got = extract(str(broken))
    assert texts(got)[-1] == ("epub", "Calm Seas", None, "Quiet nights on the rock\nunclosed tags")
    assert reason_of(cut(epub_file)).startswith("not a readable EPUB e-book (BadZipFile")
    with zipfile.ZipFile(tmp_path / "empty.epub", "w") as z:
        z.writestr("mimetype", "application/epub+zip")
    assert reason_of(tmp_path / "empty.epub").startswith("not a readable EPUB e-book")


def test_documents_are_found_by_a_keyword(tmp_path, odt_file, epub_file):
    (tmp_path / "docs" / "memo.rtf").write_bytes(RTF)
    folder = tmp_path / "docs"
    epub_file.rename(folder / "tales.epub")
    assert search_finds(folder, "spending storm", "odt")[0] == ("report.odt", "odt", None)
    assert search_finds(folder, "café monday", "rtf")[0] == ("memo.rtf", "rtf", None)
    assert search_finds(folder, "gale night", "epub")[0] == ("tales.epub", "epub", None)


def test_empty_old_office_files_are_skipped_as_damaged(tmp_path):
    folder = tmp_path / "old"
    folder.mkdir()
    for name in ("minutes.doc", "budget.xls", "talk.ppt"):
        (folder / name).write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 512)
    (folder / "note.txt").write_text("kept")
    idx = Index(folder, index_dir=tmp_path / "ix", settings=Settings().with_values(ocr=False, describe=False),
                embedder=FakeEmbedder())
    try:
        report = idx.update()
    finally:
        idx.close()
    assert report.added == 1
    skipped = dict(report.skipped)
    # .doc, .xls and .ppt are read (catdoc, xlrd, scent.extract.ppt): these are empty OLE shells
    assert skipped.pop("minutes.doc").startswith("not a readable Word 97-2003 .doc file (catdoc: " if shutil.which(
        "catdoc") else "Word 97-2003 .doc files are read by catdoc, which is not installed here")
    assert skipped.pop("talk.ppt").startswith("not a readable PowerPoint 97-2003 .ppt presentation (")
    assert skipped.pop("budget.xls").startswith("not a readable Excel 97-2003 .xls workbook (")
    assert not skipped


# ---------------------------------------------------------------- Word 97-2003

# tests/data/keeper.doc: a Word document written with python-docx (a title, two headings, a table,
# accents and a line in Hindi) and saved as Word 97-2003 by LibreOffice 7.4 (soffice --convert-to doc).
KEEPER_DOC = Path(__file__).parent / "data" / "keeper.doc"
needs_catdoc = pytest.mark.skipif(shutil.which("catdoc") is None, reason="catdoc is not installed (apt: catdoc)")


@needs_catdoc
def test_a_doc_is_read_as_a_word_document():
    got = extract(str(KEEPER_DOC))
    assert (got.kind, file_kind("MINUTES.DOC")) == ("docx", "docx")
    assert got.date is None  # its create time is python-docx's template stamp, which says nothing: the mtime will do
    assert texts(got) == [("docx", "", None, "\n".join([
        "Harbour lighthouse: keeper's handbook", "Lamp",
        "Trim the wick every evening before dusk. The lamp burns paraffin; order 40 litres from Café Müller by the 14th.",
        "Fog signal", "Sound the horn every 30 seconds in fog. Reference FG-2291 in the log.",
        "Item\tStock", "Spare mantles\t12",
        "Résumé: naïve façade, jalapeño — and a line in Hindi: दीपक जलाओ."]))]


@needs_catdoc
def test_a_doc_is_found_by_its_words_and_as_a_word_document(tmp_path):
    folder = tmp_path / "old"
    folder.mkdir()
    (folder / "keeper.doc").write_bytes(KEEPER_DOC.read_bytes())
    assert search_finds(folder, "fog horn FG-2291", "docx")[0] == ("keeper.doc", "docx", None)


# tests/data/harbour.doc: two headings with a line each and a bar chart (a PNG) between them,
# written with python-docx and saved as Word 97-2003 by LibreOffice 7.4, as keeper.doc.
HARBOUR_DOC = Path(__file__).parent / "data" / "harbour.doc"


@needs_catdoc
def test_a_doc_pictures_are_described_after_its_text():
    from scent.extract.base import Limits

    got = extract(str(HARBOUR_DOC), Limits(describe=True))
    text, picture = got.sections
    assert text.text.startswith("Harbour works 2009\nThe breakwater tonnage by quarter")
    assert (picture.kind, picture.title, picture.start) == ("docx_image", "", len(text.text) + 2)
    assert "chart" in picture.text and not got.meta
    # Its blip in the Data stream (inline pictures): a 25-byte header, then the PNG.
    assert picture.picture.locator == "Data@222"
    assert picture.picture.load(64).mode == "RGB"  # its pixels, for an image-text model
    assert [s.kind for s in extract(str(HARBOUR_DOC)).sections] == ["docx"]  # describe off: the text alone


@needs_catdoc
def test_a_doc_picture_that_does_not_decode_costs_only_itself(tmp_path):
    from scent.extract.base import Limits

    data = bytearray(HARBOUR_DOC.read_bytes())
    at = data.find(b"\x89PNG")
    data[at + 12:at + 16] = b"JUNK"  # the header chunk's name: no longer a PNG PIL can open
    broken = tmp_path / "harbour.doc"
    broken.write_bytes(bytes(data))
    got = extract(str(broken), Limits(describe=True))
    assert [s.kind for s in got.sections] == ["docx"]
    assert got.meta["picture_errors"] and "Data@222" in got.meta["picture_errors"][0]


def test_blips_are_found_by_their_pictures_and_checked_by_their_headers():
    import struct

    from scent.extract import officeart

    png, jpeg = b"\x89PNG\r\n\x1a\n" + b"p" * 10, b"\xff\xd8\xff" + b"j" * 5
    one = struct.pack("<HHI", 0x6E0 << 4, 0xF01E, 17 + len(png)) + b"u" * 16 + b"t" + png  # one id
    two = struct.pack("<HHI", 0x46B << 4, 0xF01D, 33 + len(jpeg)) + b"u" * 32 + b"t" + jpeg  # two ids
    wrong_ids = struct.pack("<HHI", 0x6E1 << 4, 0xF01E, 17 + len(png)) + b"u" * 16 + b"t" + png  # says two, has one
    metafile = struct.pack("<HHI", 0x216 << 4, 0xF01B, 17 + len(png)) + b"u" * 16 + b"t" + png  # a WMF's type
    cut_short = struct.pack("<HHI", 0x6E0 << 4, 0xF01E, 999) + b"u" * 16 + b"t" + png
    text = b"a PNG starts \x89PNG\r\n\x1a\n in words"
    buf = b"x" * 5 + one + text + two + wrong_ids + metafile + cut_short
    assert officeart.blips(buf) == [5, 5 + len(one) + len(text)]
    assert officeart.blip(buf, 5) == png and officeart.blip(buf, 5 + len(one) + len(text)) == jpeg
    assert officeart.blip(buf, 0) is None  # not a record


def test_what_is_saved_as_doc_is_read_as_what_it_is(tmp_path, capsys):
    """Word writes RTF and web pages under the .doc name, and a .docx is often renamed: each is read
    by its own reader. Plain text named .doc is refused (catdoc would print any file as if it were text)."""
    import docx

    document = docx.Document()
    document.add_paragraph("Renamed minutes: the pier opens in May.")
    document.save(tmp_path / "renamed.doc")
    assert texts(extract(str(tmp_path / "renamed.doc"))) == [("docx", "", None, "Renamed minutes: the pier opens in May.")]
    (tmp_path / "memo.doc").write_bytes(b"{\\rtf1\\ansi Caf\\'e9 memo for Monday}")
    got = extract(str(tmp_path / "memo.doc"))
    assert got.kind == "rtf" and got.sections[0].text == "Café memo for Monday"
    (tmp_path / "page.doc").write_text("<html><body><h1>Minutes</h1><p>The pier opens in May.</p></body></html>")
    got = extract(str(tmp_path / "page.doc"))
    assert got.kind == "html" and "The pier opens in May." in got.sections[0].text
    (tmp_path / "notes.doc").write_text("just text, named .doc")
    assert reason_of(tmp_path / "notes.doc").startswith("not a Word 97-2003 document (not the binary Office format")


@needs_catdoc
def test_a_damaged_doc_is_one_line(tmp_path):
    assert reason_of(cut(_copy(KEEPER_DOC, tmp_path))).startswith(
        "not a readable Word 97-2003 .doc file (catdoc: Broken OLE file")


def test_without_catdoc_a_doc_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no catdoc on it
    assert reason_of(_copy(KEEPER_DOC, tmp_path)) == (
        "Word 97-2003 .doc files are read by catdoc, which is not installed here; sudo apt-get install catdoc "
        "(or save it as .docx), then run scent index again")


def test_a_doc_or_ppt_too_big_to_hold_is_refused_before_it_is_read(tmp_path):
    from scent.extract.base import Limits

    small = Limits(max_text_bytes=1024)  # 4 KiB may be held
    for fixture, what in ((KEEPER_DOC, "Word 97-2003 .doc file"), (PLAN_PPT, "PowerPoint 97-2003 .ppt presentation")):
        with pytest.raises(ExtractError) as err:
            extract(str(_copy(fixture, tmp_path)), small)
        assert err.value.reason.startswith(f"{what} is ") and "over the 4.0 KB limit (4x max_file_mb)" in err.value.reason


def _copy(path, folder):
    out = folder / path.name
    out.write_bytes(path.read_bytes())
    return out


# ---------------------------------------------------------------- PowerPoint 97-2003

# tests/data/plan.ppt: three slides (a title and a line each) with speaker notes, and a bar chart
# (a PNG) on the second, written with python-pptx and saved as PowerPoint 97-2003 by LibreOffice 7.4
# (soffice --convert-to ppt).
PLAN_PPT = Path(__file__).parent / "data" / "plan.ppt"


def test_a_ppt_gives_each_slide_its_text_and_notes():
    got = extract(str(PLAN_PPT))
    assert (got.kind, got.title, got.meta["slides"], file_kind("TALK.PPT")) == ("slides", "Harbour plan 2009", 3, "slides")
    # Dated by its SummaryInformation's create time (python-pptx's template: 2013-01-27 09:14:16 UTC),
    # which a copy keeps, not by its mtime.
    assert got.date == 1359278056
    assert texts(got) == [
        ("slide", "Harbour plan 2009", 1, "Harbour plan 2009\nNew breakwater and a ferry pier\n\n"
                                          "speaker note for Harbour plan 2009"),
        ("slide", "Budget", 2, "Budget\nBreakwater 1.2 million; pier 0.4 million\n\nspeaker note for Budget"),
        ("slide", "Timeline", 3, "Timeline\nWorks start in March; ferry service by October\n\n"
                                 "speaker note for Timeline")]


def test_a_ppt_pictures_are_units_on_their_slide():
    from scent.extract.base import Limits

    got = extract(str(PLAN_PPT), Limits(describe=True))
    [picture] = [s for s in got.sections if s.kind == "slide_image"]
    assert (picture.page, picture.title) == (2, "Budget") and "chart" in picture.text
    assert picture.picture.locator == "Pictures@0"  # the first blip of the Pictures stream
    assert picture.picture.load(64).mode == "RGB"  # its pixels, for an image-text model


def test_a_ppt_is_found_at_its_slide(tmp_path):
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "plan.ppt").write_bytes(PLAN_PPT.read_bytes())
    assert search_finds(folder, "ferry service October", "slides")[0] == ("plan.ppt", "slides", 3)


def test_a_damaged_or_foreign_ppt_is_one_line(tmp_path, deck):
    assert reason_of(cut(_copy(PLAN_PPT, tmp_path))).startswith("not a readable PowerPoint 97-2003 .ppt presentation (")
    (tmp_path / "notes.ppt").write_text("a text file named .ppt")
    assert reason_of(tmp_path / "notes.ppt").startswith("not a readable PowerPoint 97-2003 .ppt presentation (")
    import struct

    data = bytearray(PLAN_PPT.read_bytes())  # its Current User record says encrypted, as a locked file's does
    struct.pack_into("<I", data, bytes(data).find(struct.pack("<I", 0xE391C05F)), 0xF3D1C4DF)
    (tmp_path / "locked.ppt").write_bytes(bytes(data))
    assert reason_of(tmp_path / "locked.ppt") == (
        "password-protected (encrypted) PowerPoint 97-2003 .ppt presentation: scent cannot read it; save it "
        "without a password or add it to .scentignore")
    renamed = tmp_path / "renamed.ppt"  # a .pptx under a .ppt name: read as one
    renamed.write_bytes(deck.read_bytes())
    assert extract(str(renamed)).sections[0].kind == "slide"


def test_a_ppt_whose_slide_was_saved_again_shows_its_newest_text():
    """PowerPoint's fast save appends a changed slide and a newer persist directory: the slide's
    newest version is read, once, and the old one is passed by. Built here from plan.ppt's own
    records: the Budget slide's container copied to the end with new text, a directory naming it,
    and an edit record pointing back at the file's own."""
    import struct

    import olefile

    from scent.extract import ppt

    with olefile.OleFileIO(str(PLAN_PPT)) as ole:
        current = ole.openstream("Current User").read()
        document = ole.openstream(ppt.STREAM).read()
    before = ppt.slides(current, document)
    edit = struct.unpack_from("<I", current, 16)[0]  # CurrentUserAtom.offsetToCurrentEdit
    where, document_ref = ppt._persist_directory(document, edit)
    budget_ref = ppt._slide_list(document, ppt._container(document, where, document_ref, ppt._DOCUMENT))[1][0]
    _, end = ppt._body(document, where[budget_ref])
    new_slide = document[where[budget_ref]:end].replace("1.2 million".encode("utf-16-le"),
                                                        "1.9 million".encode("utf-16-le"))
    new_at = len(document)
    directory = struct.pack("<II", budget_ref | (1 << 20), new_at)  # one entry: the slide, at its new place
    directory_at = new_at + len(new_slide)
    directory_record = struct.pack("<HHI", 0, ppt._PERSIST_DIRECTORY, len(directory)) + directory
    edit_body = bytearray(document[edit + 8:ppt._body(document, edit)[1]])
    struct.pack_into("<II", edit_body, 8, edit, directory_at)  # offsetLastEdit: the file's own edit
    edit_at = directory_at + len(directory_record)
    saved_again = (document + new_slide + directory_record
                   + struct.pack("<HHI", 0, ppt._USER_EDIT, len(edit_body)) + bytes(edit_body))
    current_again = bytearray(current)
    struct.pack_into("<I", current_again, 16, edit_at)
    after = ppt.slides(bytes(current_again), saved_again)
    assert [s.lines for s in after] == [before[0].lines, ["Budget", "Breakwater 1.9 million; pier 0.4 million"],
                                        before[2].lines]


# ---------------------------------------------------------------- mail

def make_message(subject="Lamp repair quote", html=False):
    from email.message import EmailMessage
    message = EmailMessage()
    message["From"] = "Ann Keeper <ann@harbour.example>"
    message["To"] = "board@harbour.example"
    message["Subject"] = subject
    message["Date"] = "Mon, 14 Jul 2025 19:32:00 +0200"
    if html:
        message.set_content("<p>Oil arrives <i>Tuesday</i>.</p><p>Two barrels.</p>", subtype="html")
    else:
        message.set_content("The new lamp costs 120 euros.\nInstall on Friday.")
        message.add_alternative("<p>The new lamp costs <b>120</b> euros.</p>", subtype="html")
        # a real PDF: attachments are indexed as files of their own (quote.eml#quote.pdf)
        from badfiles import pdf_bytes

        message.add_attachment(pdf_bytes(["Quote: lamp repair, 120 euros."]), maintype="application", subtype="pdf",
                               filename="quote.pdf")
    return message


HEAD = ("From: Ann Keeper <ann@harbour.example>\nTo: board@harbour.example\nSubject: {}\n"
        "Date: Mon, 14 Jul 2025 19:32:00 +0200\n\n")
QUOTE = HEAD.format("Lamp repair quote") + "The new lamp costs 120 euros.\nInstall on Friday.\n\nattachments: quote.pdf"
OIL = HEAD.format("Oil delivery") + "Oil arrives Tuesday.\nTwo barrels."


def test_eml_headers_body_attachment_names_and_date(tmp_path):
    (tmp_path / "quote.eml").write_bytes(bytes(make_message()))
    got = extract(str(tmp_path / "quote.eml"))
    assert got.kind == "email" and got.title == "Lamp repair quote"
    assert texts(got) == [("email", "Lamp repair quote", None, QUOTE)]
    assert got.date == dt.datetime(2025, 7, 14, 17, 32, tzinfo=dt.timezone.utc).timestamp()


def test_an_apple_mail_message_is_read_as_its_mail(tmp_path):
    """.emlx: the message's length, the message, Apple's property list after it (not read)."""
    data = bytes(make_message())
    plist = (b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>flags</key>'
             b"<integer>8590195713</integer></dict></plist>\n")
    (tmp_path / "1234.emlx").write_bytes(f"{len(data)}\n".encode() + data + plist)
    got = extract(str(tmp_path / "1234.emlx"))
    assert got.kind == "email" and texts(got) == [("email", "Lamp repair quote", None, QUOTE)]
    assert [m.name for m in got.members] == ["quote.pdf"]
    (tmp_path / "broken.emlx").write_bytes(b"From: ann@harbour.example\n\nno length line")
    assert reason_of(tmp_path / "broken.emlx").startswith("not a readable Apple Mail message (it does not start")


def _outlook(message, path):
    """`message` saved as Outlook saves it (.msg: MAPI properties in a compound file)."""
    from aspose.email_foss import msg

    msg.MapiMessage.from_email_message(message).save(str(path))
    return path


def test_an_outlook_message_is_read_as_its_mail(tmp_path):
    got = extract(str(_outlook(make_message(), tmp_path / "quote.msg")))
    # MAPI keeps the time in UTC (19:32 +0200) and a recipient's display name (the address where none was given)
    assert texts(got) == [("email", "Lamp repair quote", None, QUOTE.replace(
        "To: board@harbour.example", 'To: "board@harbour.example" <board@harbour.example>').replace(
        "Mon, 14 Jul 2025 19:32:00 +0200", "Mon, 14 Jul 2025 17:32:00 +0000"))]
    assert got.date == dt.datetime(2025, 7, 14, 17, 32, tzinfo=dt.timezone.utc).timestamp()
    assert got.kind == "email" and file_kind("quote.msg") == "email"


def test_an_outlook_messages_attachment_is_a_file_of_its_own(tmp_path):
    (tmp_path / "mail").mkdir()
    _outlook(make_message(), tmp_path / "mail" / "quote.msg")
    with Index(tmp_path / "mail", index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        assert idx.update().added == 2
        found = [(r.path, r.kind) for r in idx.search("quote lamp repair 120 euros", strategy="keyword")]
    assert set(found) == {("quote.msg", "email"), ("quote.msg#quote.pdf", "pdf")}


@pytest.mark.parametrize("rtf, body", [
    (rb"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Arial;}}\f0 Dear Ana,\par the boiler service is on Friday.\par "
     rb"Caf\'e9 at 10.}", "Dear Ana,\nthe boiler service is on Friday.\nCafé at 10."),
    # HTML Outlook wrapped in RTF: its tags are skipped destinations, its words plain text
    (rb"{\rtf1\ansi\fromhtml1 \deff0{\fonttbl{\f0 Arial;}}{\*\htmltag19 <html>}{\*\htmltag64 <p>}\htmlrtf {\htmlrtf0 "
     rb"Dear Ana,{\*\htmltag244 <br>}\htmlrtf \line \htmlrtf0 the boiler service is on Friday.\htmlrtf \par \htmlrtf0"
     rb"{\*\htmltag72 </p>}}", "Dear Ana,\nthe boiler service is on Friday."),
    (b"not compressed RTF at all", ""),
])
def test_an_outlook_message_kept_only_as_compressed_rtf_is_read(tmp_path, rtf, body):
    """A message with no plain or HTML body, only PR_RTF_COMPRESSED (as Outlook keeps a rich text
    message): its RTF, decompressed, is the body; one that does not decompress leaves it empty."""
    import compressed_rtf
    from aspose.email_foss import msg

    message = msg.MapiMessage.create(subject="Boiler")
    message.set_property(0x1009, 0x0102, compressed_rtf.compress(rtf) if rtf.startswith(b"{") else rtf)
    message.save(str(tmp_path / "boiler.msg"))
    got = extract(str(tmp_path / "boiler.msg"))
    assert [s.text for s in got.sections] == ["Subject: Boiler\n\n" + body if body else "Subject: Boiler"]


def test_a_damaged_outlook_message_is_one_line(tmp_path):
    data = _outlook(make_message(), tmp_path / "whole.msg").read_bytes()
    (tmp_path / "cut.msg").write_bytes(data[:len(data) // 3])
    (tmp_path / "junk.msg").write_bytes(b"From: not an Outlook file\n")
    for name in ("cut.msg", "junk.msg"):
        reason = reason_of(tmp_path / name)
        assert reason.startswith("not a readable Outlook message (") and "\n" not in reason, reason


def test_a_mailboxs_messages_are_files_inside_it_numbered(tmp_path):
    import mailbox
    box = mailbox.mbox(str(tmp_path / "harbour.mbox"))
    box.add(make_message())
    box.add(make_message("Oil delivery", html=True))
    box.close()
    got = extract(str(tmp_path / "harbour.mbox"))
    assert texts(got) == [("email", "harbour.mbox", None, "harbour.mbox: mailbox of 2 messages, sent 2025-07-14")]
    members = list(got.members)  # newest first, each message before its attachments
    assert [m.name for m in members] == ["2.eml", "1.eml", "1/quote.pdf"]
    two, one = (m.got for m in members[:2])
    assert (texts(one), texts(two)) == ([("email", "Lamp repair quote", None, QUOTE)],
                                        [("email", "Oil delivery", None, OIL)])
    assert one.title == "Lamp repair quote" and one.date == two.date == 1752514320  # 2025-07-14 17:32 UTC
    # A message read back is the message: its bytes, which its hash was made of.
    from scent.extract.members import read_member
    data = read_member(str(tmp_path / "harbour.mbox"), "2.eml")
    assert hashlib.sha1(data).hexdigest() == members[0].hash
    assert email.message_from_bytes(data)["Subject"] == "Oil delivery"


def test_a_message_is_read_back_by_its_place_kept_at_indexing(tmp_path, monkeypatch):
    """Opening message N does not read the whole mailbox again (mailbox.mbox does, to find N): the
    messages' places found when it was read are kept, by its size and time; a mailbox that changed
    is read through once more, and a cache that cannot be written costs only that."""
    import mailbox

    from scent.extract import mail as mail_reader
    from scent.extract.members import read_member

    path = tmp_path / "harbour.mbox"
    box = mailbox.mbox(str(path))
    for subject in ("Lamp repair quote", "Oil delivery", "Mooring fees"):
        box.add(make_message(subject))
    box.close()
    got = extract(str(path))
    hashes = {m.name: m.hash for m in got.members}
    got.members.discard()

    def whole_file(f, start):
        raise AssertionError("the mailbox was read to find one message")

    with monkeypatch.context() as m:
        m.setattr(mail_reader, "_places_from", whole_file)
        for n in (1, 2, 3):
            assert hashlib.sha1(read_member(str(path), f"{n}.eml")).hexdigest() == hashes[f"{n}.eml"]
    box = mailbox.mbox(str(path))
    box.add(make_message("Winter storage"))
    box.close()
    assert email.message_from_bytes(read_member(str(path), "4.eml"))["Subject"] == "Winter storage"
    monkeypatch.setenv("SCENT_HOME", str(path / "home"))  # inside a file: no cache to be had
    assert email.message_from_bytes(read_member(str(path), "2.eml"))["Subject"] == "Oil delivery"


def test_a_mailbox_that_grew_is_read_from_its_last_message_on(tmp_path, monkeypatch):
    """New mail is appended: the places kept before hold for the messages there were, and only what
    follows the last of them is read; read so, the places are mailbox.mbox's own. Where the messages
    moved (a compacted mailbox), it is read whole. A status header rewritten in place (Thunderbird
    marking a message read) moves nothing."""
    import mailbox

    from scent.extract import mail as mail_reader

    path = tmp_path / "harbour.mbox"
    box = mailbox.mbox(str(path))
    for subject in ("Lamp repair quote", "Oil delivery", "Mooring fees"):
        box.add(make_message(subject))
    box.close()
    mail_reader._message_places(str(path))
    read_from = []
    real = mail_reader._places_from
    monkeypatch.setattr(mail_reader, "_places_from", lambda f, start: read_from.append(start) or real(f, start))

    def toc():
        box = mailbox.mbox(str(path))
        box.keys()
        return [list(box._toc[k]) for k in sorted(box._toc)]

    data = path.read_bytes()
    third = toc()[2][0]
    status = data.index(b"Oil delivery")
    path.write_bytes(data[:status] + b"Oil Delivery" + data[status + len(b"Oil delivery"):])  # in place
    box = mailbox.mbox(str(path))
    box.add(make_message("Winter storage"))
    box.add(make_message("Crane hire"))
    box.close()
    assert mail_reader._message_places(str(path)).tolist() == toc() and len(toc()) == 5
    assert read_from == [third]
    read_from.clear()
    box = mailbox.mbox(str(path))
    box.remove(0)  # compacted: every message moves
    box.close()
    assert mail_reader._message_places(str(path)).tolist() == toc() and len(toc()) == 4
    assert read_from == [0]


def test_a_gmail_takeout_message_says_its_labels(tmp_path):
    message = make_message("Oil delivery", html=True)
    message["X-Gmail-Labels"] = "Inbox,Important,Opened,Category Updates,Harbour board"
    (tmp_path / "oil.eml").write_bytes(bytes(message))
    text = extract(str(tmp_path / "oil.eml")).sections[0].text
    assert text.startswith(HEAD.format("Oil delivery").replace(
        "\n\n", "\nLabels: Inbox, Important, Category Updates, Harbour board\n\n", 1))


def test_damaged_mail(tmp_path):
    (tmp_path / "junk.eml").write_bytes(b"\x89PNG\r\n\x1a\n\0\0binary")
    assert reason_of(tmp_path / "junk.eml").startswith("not an e-mail message")
    (tmp_path / "junk.mbox").write_bytes(b"hello")
    assert reason_of(tmp_path / "junk.mbox").startswith("not an mbox mailbox")
    data = bytes(make_message())
    (tmp_path / "cut.eml").write_bytes(data[:data.index(b"Install")])  # the rest of the run went missing
    got = extract(str(tmp_path / "cut.eml"))
    assert got.sections[0].text.startswith(HEAD.format("Lamp repair quote") + "The new lamp costs 120 euros.")


def test_from_to_and_subject_choose_messages(tmp_path):
    import mailbox
    (tmp_path / "mail").mkdir()
    box = mailbox.mbox(str(tmp_path / "mail" / "harbour.mbox"))
    box.add(make_message())                                 # 1: from Ann, about a lamp
    box.add(make_message("Oil delivery", html=True))        # 2: from Ann, about oil
    other = make_message("Lamp oil order", html=True)
    other.replace_header("From", "Piet Stoker <piet@harbour.example>")
    box.add(other)                                          # 3: from Piet
    long = make_message("Winter log", html=True)
    long.replace_header("From", "Zed Ward <zed@harbour.example>")
    long.set_content("\n\n".join(f"Day {n}: the keeper checked the lamp room and the stairs." for n in range(80))
                     + "\n\nThe spare anchor is in the boathouse.")
    box.add(long)                                           # 4: from Zed, cut into several units
    box.close()
    (tmp_path / "mail" / "notes.md").write_text("From: Ann Keeper\n\nThe lamp and the oil.\n")
    with Index(tmp_path / "mail", index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()

        def pages(query):
            return [(r.path, r.page) for r in idx.search(query, strategy="keyword")]

        assert pages("lamp oil") and ("notes.md", None) in pages("lamp oil")
        # each message a result of its own: Ann's two, not Piet's nor the note that starts "From: Ann"
        assert sorted(pages("lamp OR oil from:ann")) == [("harbour.mbox#1.eml", None), ("harbour.mbox#2.eml", None)]
        assert pages("anchor from:zed") == [("harbour.mbox#4.eml", None)]  # the unit without the header lines
        anchor = [u for u in idx.engine.catalog.file_units("harbour.mbox#4.eml") if "anchor" in u.text]
        assert len(anchor) == 1 and not anchor[0].text.startswith("From:")
        assert pages("lamp OR oil from:piet") == [("harbour.mbox#3.eml", None)]
        assert pages("oil subject:delivery") == [("harbour.mbox#2.eml", None)]
        assert pages("oil to:board from:stoker") == [("harbour.mbox#3.eml", None)]
        assert pages("lamp from:nobody") == []
        # a field alone asks for the mail it names: its words are what the lists rank by
        assert sorted(pages("from:ann")) == [("harbour.mbox#1.eml", None), ("harbour.mbox#2.eml", None)]
        assert pages("subject:delivery") == [("harbour.mbox#2.eml", None)]


def test_mail_is_found_by_a_keyword(tmp_path):
    (tmp_path / "mail").mkdir()
    (tmp_path / "mail" / "quote.eml").write_bytes(bytes(make_message()))
    assert search_finds(tmp_path / "mail", "lamp repair", "email")[0] == ("quote.eml", "email", None)


def test_a_zip_says_its_entries_before_they_are_listed(tmp_path):
    from scent.extract.package import zip_entries

    with zipfile.ZipFile(tmp_path / "six.zip", "w") as z:
        for i in range(6):
            z.writestr(f"{i}.txt", "")
    with zipfile.ZipFile(tmp_path / "zip64.zip", "w") as z:  # over 65,535 entries: the ZIP64 end record
        for i in range(70_000):
            z.writestr(str(i), b"")
    assert zip_entries(tmp_path / "six.zip") == 6
    assert zip_entries(tmp_path / "zip64.zip") == 70_000
    (tmp_path / "plain.txt").write_text("no zip")
    assert zip_entries(tmp_path / "plain.txt") is None


def test_too_many_parts_or_files_are_refused_before_zipfile_lists_them(tmp_path, monkeypatch):
    from scent.extract import archive, package

    with zipfile.ZipFile(tmp_path / "many.xlsx", "w") as z:
        for i in range(6):
            z.writestr(f"xl/part{i}.xml", "<x/>")
    (tmp_path / "many.zip").write_bytes((tmp_path / "many.xlsx").read_bytes())
    monkeypatch.setattr(package, "MAX_MEMBERS", 5)
    monkeypatch.setattr(archive, "MAX_ZIP_ENTRIES", 5)

    def never(*args, **kwargs):
        raise AssertionError("the central directory was listed")

    monkeypatch.setattr(zipfile, "ZipFile", never)
    assert reason_of(tmp_path / "many.xlsx").startswith("Excel workbook holds 6 parts (over 5)")
    assert reason_of(tmp_path / "many.zip").startswith("the zip archive lists 6 files (over 5)")


def test_reference_lists_are_read_as_text(tmp_path):
    (tmp_path / "thesis.bib").write_text("@article{okafor2021,\n  title = {Tidal scour under harbour piles},\n"
                                         "  author = {Okafor, Ada and Lindqvist, Per},\n  year = {2021}\n}\n")
    (tmp_path / "refs.ris").write_text("TY  - JOUR\nAU  - Okafor, Ada\nTI  - Tidal scour under harbour piles\nER  - \n")
    for name in ("thesis.bib", "refs.ris"):
        got = extract(str(tmp_path / name))
        assert got.kind == "text" and "Tidal scour under harbour piles" in got.sections[0].text


def test_r_markdown_and_quarto_are_markdown_with_front_matter_and_headings(tmp_path):
    path = tmp_path / "analysis.qmd"
    path.write_text("---\ntitle: Tide gauge analysis\ndate: 2024-03-01\n---\n\n# Data\n\n```{r}\nread.csv('tides.csv')\n"
                    "```\n\n# Findings\n\nHigh water rose 4 cm a decade.\n")
    got = extract(str(path))
    assert (got.kind, got.title) == ("text", "Tide gauge analysis")
    assert [s.title for s in got.sections] == ["Data", "Findings"]
    assert extract(str(path.rename(tmp_path / "analysis.Rmd"))).title == "Tide gauge analysis"


def _retyped(source, target, old: str, new: str):
    """An Office package saved as another of its forms: the same parts, the main part's content type
    changed in [Content_Types].xml (what Office writes for a template, a show, a macro-enabled file)."""
    import zipfile

    with zipfile.ZipFile(source) as zi, zipfile.ZipFile(target, "w") as zo:
        for info in zi.infolist():
            data = zi.read(info)
            zo.writestr(info, data.replace(old.encode(), new.encode()) if info.filename == "[Content_Types].xml" else data)
    return target


@pytest.mark.parametrize("name, content_type", [
    ("letter.dotx", "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml"),
    ("macros.docm", "application/vnd.ms-word.document.macroEnabled.main+xml"),
    ("macros.dotm", "application/vnd.ms-word.template.macroEnabledTemplate.main+xml")])
def test_word_templates_and_macro_enabled_documents_read_as_docx(tmp_path, name, content_type):
    import docx

    d = docx.Document()
    d.add_paragraph("Harbour dues are paid each March.")
    d.save(tmp_path / "plain.docx")
    path = _retyped(tmp_path / "plain.docx", tmp_path / name,
                    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml", content_type)
    got = extract(str(path))
    assert (got.kind, [s.text for s in got.sections]) == ("docx", ["Harbour dues are paid each March."])


@pytest.mark.parametrize("name, content_type", [
    ("show.ppsx", "application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml"),
    ("show.ppsm", "application/vnd.ms-powerpoint.slideshow.macroEnabled.main+xml"),
    ("deck.potx", "application/vnd.openxmlformats-officedocument.presentationml.template.main+xml")])
def test_shows_and_templates_read_as_pptx(tmp_path, name, content_type):
    import pptx

    p = pptx.Presentation()
    p.slides.add_slide(p.slide_layouts[5]).shapes.title.text = "Harbour open day"
    p.save(tmp_path / "plain.pptx")
    path = _retyped(tmp_path / "plain.pptx", tmp_path / name,
                    "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml", content_type)
    got = extract(str(path))
    assert (got.kind, [s.text for s in got.sections]) == ("slides", ["Harbour open day"])


def test_a_powerpoint_97_show_and_an_excel_template(tmp_path):
    import openpyxl

    shutil.copy(Path(__file__).parent / "data" / "plan.ppt", tmp_path / "plan.pps")
    assert extract(str(tmp_path / "plan.pps")).sections == extract(str(Path(__file__).parent / "data" / "plan.ppt")).sections
    if shutil.which("catdoc"):  # a Word 97-2003 template is a .doc
        shutil.copy(Path(__file__).parent / "data" / "keeper.doc", tmp_path / "keeper.dot")
        assert [s.text for s in extract(str(tmp_path / "keeper.dot")).sections] == \
            [s.text for s in extract(str(Path(__file__).parent / "data" / "keeper.doc")).sections]
    book = openpyxl.Workbook()
    book.active.append(["Item", "Cost"])
    book.active.append(["Harbour dredging", 42000])
    book.save(tmp_path / "costs.xlsx")
    path = _retyped(tmp_path / "costs.xlsx", tmp_path / "costs.xltx", "spreadsheetml.sheet.main+xml",
                    "spreadsheetml.template.main+xml")
    assert [s.text for s in extract(str(path)).sections] == ["Item | Cost\nHarbour dredging | 42000"]
    pytest.importorskip("xlwt")
    import badfiles

    (tmp_path / "ledger.xlt").write_bytes(badfiles.xls_bytes(rows=2))  # an Excel 97-2003 template is an .xls
    assert [s.text for s in extract(str(tmp_path / "ledger.xlt")).sections] == ["entry 0 | 0\nentry 1 | 1.5"]
