"""Spreadsheets (.xlsx, .xlsm, .ods, Excel 97-2003 .xls read by xlrd, and Excel's binary workbooks
(.xlsb) read by calamine): per sheet, rows in
groups of 25 led by the sheet's header row, as CSV files are; the section title names the sheet (and says when it is hidden, since a
hidden sheet is often the one a person forgot they had). Formulas give the value the program that
saved the file computed (a file never opened in a spreadsheet program may have none: its cell is
empty). Reading stops at max_file_mb of text; meta["left_out"] says so."""
from __future__ import annotations

import datetime as dt
import io
import os
import zipfile
import zlib
from collections.abc import Iterator

from openpyxl.utils.exceptions import InvalidFileException

from scent.errors import ExtractError
from scent.units import Extracted
from . import chart, package
from .base import Limits, joined, named, ole_created, unreadable
from .table import ROWS_PER_SECTION, _line

EXTENSIONS = (".xlsx", ".xlsm", ".xltx", ".xltm", ".ods", ".xls", ".xlt", ".xlsb")  # templates: .xltx .xltm .xlt
MAX_COLUMNS = 1024  # beyond this a row is decoration or a bomb (ODS repeats empty cells 16384 times)
# What openpyxl and odfpy raise for a damaged package, besides the zip layer's own errors.
_DAMAGED = (zipfile.BadZipFile, zlib.error, EOFError, KeyError, ValueError, TypeError, SyntaxError,
            IndexError, AttributeError, NotImplementedError, InvalidFileException)


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0):
            return value.date().isoformat()
        return value.isoformat(sep=" ", timespec="minutes" if value.second == 0 else "seconds")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, float):
        return f"{value:.15g}"  # 2.5, 120 (not 120.0), and 0.3 rather than 0.30000000000000004
    return " ".join(str(value).split())


def _trimmed(cells: list[str]) -> list[str]:
    end = len(cells)
    while end and not cells[end - 1]:
        end -= 1
    return cells[:min(end, MAX_COLUMNS)]


def _xlsx_sheets(path: str) -> Iterator[tuple[str, bool, Iterator[list[str]]]]:
    import openpyxl

    # read_only streams each sheet's XML; data_only gives formulas' saved values, not their text.
    # Given the open file, not its name: openpyxl refuses a name it does not know (an .xlsx saved as .xls).
    with open(path, "rb") as stream:
        book = openpyxl.load_workbook(stream, read_only=True, data_only=True, keep_links=False)
        try:
            for sheet in book.worksheets:
                if not hasattr(sheet, "iter_rows"):
                    continue  # a chart sheet: no cells
                # The stored dimension may claim A1:XFD1048576; rows padded to it would cost minutes.
                sheet.reset_dimensions()
                rows = (_trimmed([_cell(v) for v in row]) for row in sheet.iter_rows(values_only=True))
                yield sheet.title, sheet.sheet_state != "visible", rows
        finally:
            book.close()


_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_THREADED = "{http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments}"
_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
MAX_COMMENTS = 5000  # read from one workbook
MAX_CHARTS = 200  # read from one workbook


class _Package:
    """A workbook's parts as XML, and what each is related to (Open Packaging Conventions)."""

    def __init__(self, z: zipfile.ZipFile):
        from lxml import etree

        self.z, self.names = z, set(z.namelist())
        self._parser = etree.XMLParser(resolve_entities=False, no_network=True)

    def xml(self, name: str):
        from lxml import etree

        return etree.fromstring(self.z.read(name), parser=self._parser) if name in self.names else None

    def related(self, part: str, kind: str = "") -> list[tuple[str, str, str]]:
        """(type, target, id) of `part`'s relationships whose type ends with `kind`."""
        try:
            return [r for r in package.relationships(self.z, part) if r[0].endswith(kind)]
        except KeyError:  # no relationships part
            return []


def _xlsx_extras(path: str) -> Iterator[tuple[str, str]]:
    """(title, text) of what openpyxl's streaming reader leaves unread: each sheet's comments
    ("Budget comments") and the words of its charts ("Budget charts", scent.extract.chart; a chart
    sheet's too)."""
    with zipfile.ZipFile(path) as z:
        book = _Package(z)
        book_part = next((t for _, t, _ in book.related("", "/officeDocument")), "xl/workbook.xml")
        root, links = book.xml(book_part), book.related(book_part)
        if root is None:
            return
        people = {}
        for _, target, _ in (link for link in links if link[0].endswith("/person")):
            if (found := book.xml(target)) is not None:
                people.update((p.get("id"), p.get("displayName", "")) for p in found)
        by_id = {rid: target for _, target, rid in links}
        comments = charts = 0
        for sheet in root.iter(_MAIN + "sheet"):
            part = by_id.get(sheet.get(_R_ID))
            if not part:
                continue
            name = sheet.get("name", "")
            lines = _comments(book, part, people)[:MAX_COMMENTS - comments]
            comments += len(lines)
            if lines:
                yield f"{name} comments", "\n".join(lines)
            said = []
            for _, drawing, _ in book.related(part, "/drawing"):
                for _, target, _ in book.related(drawing, "/chart")[:MAX_CHARTS - charts]:
                    if target in book.names:
                        said.extend(chart.lines(z.read(target), figures=False))  # the cells hold them
                        charts += 1
            if said:
                yield f"{name} charts", "\n".join(said)


def _comments(book: _Package, part: str, people: dict[str, str]) -> list[str]:
    """A sheet's comments, a line each: "comment by Ana Souza on B2: check the VAT rate", a reply
    "reply by ...": its threaded comments (Excel 365's), else its notes (the older comments, which
    Excel also writes for a threaded one, as a boilerplate 'your version of Excel' text)."""
    lines = []
    threaded = [t for _, t, _ in book.related(part, "/threadedComment")]
    for target in threaded:
        for c in (book.xml(target) if target in book.names else ()):
            text = " ".join((c.findtext(_THREADED + "text") or "").split())
            who = people.get(c.get("personId"), "")
            if text:
                lines.append(f"{'reply' if c.get('parentId') else 'comment'}{' by ' + who if who else ''} "
                             f"on {c.get('ref', '')}: {text}")
    for target in [] if threaded else [t for _, t, _ in book.related(part, "/comments")]:
        notes = book.xml(target)
        if notes is None:
            continue
        authors = [" ".join((a.text or "").split()) for a in notes.iter(_MAIN + "author")]
        for c in notes.iter(_MAIN + "comment"):
            text = " ".join("".join(t.text or "" for t in c.iter(_MAIN + "t")).split())
            index = int(c.get("authorId", -1)) if c.get("authorId", "").isdigit() else -1
            who = authors[index] if 0 <= index < len(authors) else ""
            if text:
                lines.append(f"comment{' by ' + who if who else ''} on {c.get('ref', '')}: {text}")
    return lines


def _xls_sheets(path: str) -> Iterator[tuple[str, bool, Iterator[list[str]]]]:
    import xlrd

    # on_demand: one sheet's cells in memory at a time (each is let go once its rows are read).
    # xlrd writes its warnings to stdout unless given a log of its own (it would break --json).
    book = xlrd.open_workbook(path, on_demand=True, logfile=io.StringIO())
    try:
        for index in range(book.nsheets):
            sheet = book.sheet_by_index(index)
            width = min(sheet.ncols, MAX_COLUMNS)
            rows = (_trimmed([_xls_cell(c, book.datemode) for c in sheet.row_slice(r, 0, width)])
                    for r in range(sheet.nrows))
            yield sheet.name, sheet.visibility != 0, rows
            book.unload_sheet(index)
    finally:
        book.release_resources()


def _xlsb_sheets(path: str) -> Iterator[tuple[str, bool, Iterator[list[str]]]]:
    """A binary workbook's sheets (its chart sheets hold no cells). calamine holds one sheet's cells
    at a time; the package's inflated size is bounded first (package.check)."""
    from python_calamine import CalamineError, CalamineWorkbook, SheetTypeEnum, SheetVisibleEnum

    what = "Excel binary workbook"
    try:
        with open(path, "rb") as stream:
            book = CalamineWorkbook.from_filelike(stream)
            try:
                for sheet in book.sheets_metadata:
                    if sheet.typ != SheetTypeEnum.WorkSheet:
                        continue
                    rows = [_trimmed([_cell(v) for v in row]) for row in book.get_sheet_by_name(sheet.name).iter_rows()]
                    yield sheet.name, sheet.visible != SheetVisibleEnum.Visible, iter(rows)
            finally:
                book.close()
    except CalamineError as e:  # an encrypted one is refused before (package.check)
        raise unreadable(path, what, named(e)) from e


def _xls_cell(cell, datemode: int) -> str:
    import xlrd

    if cell.ctype == xlrd.XL_CELL_DATE:  # a number the cell's format shows as a date
        try:
            return _cell(xlrd.xldate.xldate_as_datetime(cell.value, datemode))
        except (xlrd.xldate.XLDateError, OverflowError, ValueError):
            return _cell(cell.value)
    if cell.ctype == xlrd.XL_CELL_BOOLEAN:
        return _cell(bool(cell.value))
    if cell.ctype == xlrd.XL_CELL_ERROR:
        return xlrd.error_text_from_code.get(cell.value, "#ERROR")
    return _cell(cell.value if cell.ctype != xlrd.XL_CELL_EMPTY else None)


def _ods_sheets(path: str, comments: dict[str, list[str]]) -> Iterator[tuple[str, bool, Iterator[list[str]]]]:
    """An .ods's sheets; a sheet's comments (office:annotation, not words of their cell) are put
    in `comments` under its name as its rows are read: "comment by Ana Souza on B2: ..."."""
    from odf import teletype
    from odf.namespaces import DCNS, OFFICENS, STYLENS, TABLENS
    from odf.table import Table, TableRow
    from openpyxl.utils import get_column_letter

    document = package.load_odf(path)
    hidden_styles = set()
    for style in document.automaticstyles.childNodes:
        for props in getattr(style, "childNodes", ()):
            if props.qname == (STYLENS, "table-properties") and props.getAttrNS(TABLENS, "display") == "false":
                hidden_styles.add(style.getAttrNS(STYLENS, "name"))

    def rows(table, said: list[str]) -> Iterator[list[str]]:
        number = 0
        for row in table.getElementsByType(TableRow):
            number += 1
            cells: list[str] = []
            for cell in row.childNodes:
                if cell.qname not in ((TABLENS, "table-cell"), (TABLENS, "covered-table-cell")):
                    continue
                words = []
                for child in cell.childNodes:
                    if getattr(child, "qname", None) != (OFFICENS, "annotation"):
                        words.append(teletype.extractText(child) if child.nodeType == child.ELEMENT_NODE else child.data)
                    elif len(said) < MAX_COMMENTS:
                        who = " ".join(" ".join(teletype.extractText(n) for n in child.childNodes
                                                if getattr(n, "qname", None) == (DCNS, "creator")).split())
                        text = " ".join(" ".join(teletype.extractText(n) for n in child.childNodes
                                                 if getattr(n, "qname", ("",))[0] != DCNS).split())
                        if text:
                            said.append(f"comment{' by ' + who if who else ''} on "
                                        f"{get_column_letter(len(cells) + 1)}{number}: {text}")
                text = " ".join(" ".join(words).split())
                repeat = int(cell.getAttrNS(TABLENS, "number-columns-repeated") or 1)
                # A row's tail is one empty cell repeated to column 16384: capped, then trimmed.
                cells.extend([text] * min(repeat, MAX_COLUMNS - len(cells)))
                if len(cells) >= MAX_COLUMNS:
                    break
            line = _trimmed(cells)
            if any(line):
                # An empty row repeated a million times is the sheet's tail; a repeated value row is data.
                for _ in range(min(int(row.getAttrNS(TABLENS, "number-rows-repeated") or 1), 10_000)):
                    yield line
            number += int(row.getAttrNS(TABLENS, "number-rows-repeated") or 1) - 1

    for table in document.spreadsheet.getElementsByType(Table):
        name = table.getAttrNS(TABLENS, "name") or ""
        yield name, table.getAttrNS(TABLENS, "style-name") in hidden_styles, rows(table, comments.setdefault(name, []))


def _parts(sheets, limit: int, meta: dict) -> list[tuple[str, str]]:
    parts, size = [], 0
    for name, hidden, rows in sheets:
        meta.setdefault("sheets", []).append(name)
        if hidden:
            meta.setdefault("hidden_sheets", []).append(name)
        label = f"{name} (hidden sheet)" if hidden else name
        header: list[str] | None = None
        group: list[str] = []
        first = 1

        def flush() -> None:
            nonlocal group, first
            parts.append((f"{label} rows {first}-{first + len(group) - 1}", "\n".join([_line(header), *group])))
            first += len(group)
            group = []

        for row in rows:
            if not any(row):
                continue
            if header is None:
                header = row
                continue
            line = _line(row)
            size += len(line) + 1
            if size > limit:
                meta.setdefault("left_out", []).append(
                    f"only the first {limit // (1024 * 1024)} MB of cell text were indexed (max_file_mb); "
                    "raise max_file_mb to read the rest")
                if group:
                    flush()
                return parts
            group.append(line)
            if len(group) == ROWS_PER_SECTION:
                flush()
        if group:
            flush()
        elif header is not None and first == 1:
            parts.append((label, _line(header)))
    return parts


def extract(path: str, limits: Limits) -> Extracted:
    ext = os.path.splitext(path)[1].lower()
    if ext in (".xls", ".xlt") and not package.starts_with(path, package.ZIP_MAGIC):  # else an .xlsx named .xls
        return _extract_xls(path, limits)
    ods, binary = ext == ".ods", ext == ".xlsb"
    what = "OpenDocument .ods spreadsheet" if ods else "Excel binary workbook" if binary else "Excel workbook"
    package.check(path, limits, what)
    meta: dict = {}
    try:
        comments: dict[str, list[str]] = {}
        sheets = _ods_sheets(path, comments) if ods else _xlsb_sheets(path) if binary else _xlsx_sheets(path)
        parts = _parts(sheets, limits.max_text_bytes, meta)
        parts += [(f"{name} comments", "\n".join(lines)) for name, lines in comments.items() if lines]
        if not ods and not binary:
            parts += _extra_parts(path, meta)
    except _DAMAGED as e:
        raise unreadable(path, what, named(e)) from e

    except OSError as e:
        if e.errno is not None:  # a real I/O error (the file vanished): extract() says so
            raise
        # openpyxl raises a bare IOError for a package without a workbook part.
        raise unreadable(path, what, str(e)) from e
    name = os.path.basename(path)
    return Extracted(kind="sheet", sections=joined(parts, "sheet"), title=name, meta=meta)


def _extra_parts(path: str, meta: dict) -> list[tuple[str, str]]:
    """_xlsx_extras' parts; damaged, they cost only themselves."""
    from lxml import etree

    try:
        return list(_xlsx_extras(path))
    except (*_DAMAGED, etree.XMLSyntaxError) as e:
        meta.setdefault("left_out", []).append(f"its comments and charts were not read ({named(e)}); "
                                               "the rest of it is indexed")
        return []


def _extract_xls(path: str, limits: Limits) -> Extracted:
    """An Excel 97-2003 workbook (one binary OLE file, not a zip package): xlrd reads it whole, so
    its size is held to max_file_mb first."""
    import struct

    import xlrd
    from xlrd.compdoc import CompDocError

    what = "Excel 97-2003 .xls workbook"
    size = os.stat(path).st_size
    if size > limits.max_text_bytes:
        raise ExtractError(path, f"{what} is {size // (1024 * 1024)} MB, over the max_file_mb limit of "
                                 f"{limits.max_text_bytes // (1024 * 1024)} MB; raise max_file_mb or add it to .scentignore")
    meta: dict = {}
    try:
        parts = _parts(_xls_sheets(path), limits.max_text_bytes, meta)
    except (xlrd.XLRDError, CompDocError, struct.error, *_DAMAGED) as e:
        if package.starts_with(path, b"<"):
            raise ExtractError(path, "a web page saved with an .xls name (as many sites export tables), not an "
                                     "Excel workbook: rename it to .html and it is read as one") from e
        raise unreadable(path, what, named(e), "it may be damaged or cut short, or another format named .xls") from e
    return Extracted(kind="sheet", sections=joined(parts, "sheet"), title=os.path.basename(path), meta=meta,
                     date=ole_created(path))

