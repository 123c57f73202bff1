"""Spreadsheets (.xlsx, .xlsm, .ods): per sheet, rows in groups of 25 led by the sheet's header
row, as CSV files are; the section title names the sheet (and says when it is hidden, since a
hidden sheet is often the one a person forgot they had). Formulas give the value the program that
saved the file computed (a file never opened in a spreadsheet program may have none: its cell is
empty). Reading stops at max_file_mb of text; meta["left_out"] says so."""
from __future__ import annotations

import datetime as dt
import os
import zipfile
import zlib
from collections.abc import Iterator

from openpyxl.utils.exceptions import InvalidFileException

from scent.errors import ExtractError
from scent.units import Extracted
from . import package
from .base import Limits, joined
from .table import ROWS_PER_SECTION, _line

EXTENSIONS = (".xlsx", ".xlsm", ".ods")
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
    book = openpyxl.load_workbook(path, read_only=True, data_only=True, keep_links=False)
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


def _ods_sheets(path: str) -> Iterator[tuple[str, bool, Iterator[list[str]]]]:
    from odf import teletype
    from odf.namespaces import STYLENS, TABLENS
    from odf.table import Table, TableRow

    document = package.load_odf(path)
    hidden_styles = set()
    for style in document.automaticstyles.childNodes:
        for props in getattr(style, "childNodes", ()):
            if props.qname == (STYLENS, "table-properties") and props.getAttrNS(TABLENS, "display") == "false":
                hidden_styles.add(style.getAttrNS(STYLENS, "name"))

    def rows(table) -> Iterator[list[str]]:
        for row in table.getElementsByType(TableRow):
            cells: list[str] = []
            for cell in row.childNodes:
                if cell.qname not in ((TABLENS, "table-cell"), (TABLENS, "covered-table-cell")):
                    continue
                text = " ".join(teletype.extractText(cell).split())
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

    for table in document.spreadsheet.getElementsByType(Table):
        yield table.getAttrNS(TABLENS, "name") or "", table.getAttrNS(TABLENS, "style-name") in hidden_styles, rows(table)


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
    ods = path.lower().endswith(".ods")
    what = "OpenDocument .ods spreadsheet" if ods else "Excel workbook"
    package.check(path, limits, what)
    meta: dict = {}
    try:
        parts = _parts(_ods_sheets(path) if ods else _xlsx_sheets(path), limits.max_text_bytes, meta)
    except _DAMAGED as e:
        raise ExtractError(path, f"not a readable {what} ({type(e).__name__}: {e}); it may be damaged "
                                 "or another format renamed; open and save it again, or add it to .scentignore") from e
    except OSError as e:
        if e.errno is not None:  # a real I/O error (the file vanished): extract() says so
            raise
        # openpyxl raises a bare IOError for a package without a workbook part.
        raise ExtractError(path, f"not a readable {what} ({e}); it may be damaged or another format renamed; "
                                 "open and save it again, or add it to .scentignore") from e
    name = os.path.basename(path)
    return Extracted(kind="sheet", sections=joined(parts, "sheet"), title=name, meta=meta)
