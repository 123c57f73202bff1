"""CSV and TSV: rows in groups of 25, each group led by the header row."""
from __future__ import annotations

import csv
import io
import os

from scent.errors import ExtractError
from scent.units import Extracted
from .base import Limits, joined, read_text

EXTENSIONS = (".csv", ".tsv")
ROWS_PER_SECTION = 25
_DELIMITERS = ",;\t|"
_SNIFF_CHARS = 64 * 1024


def _delimiter(text: str, path: str) -> str:
    if path.lower().endswith(".tsv"):
        return "\t"
    sample = text[:_SNIFF_CHARS]
    if len(text) > _SNIFF_CHARS:  # a cut last line would confuse the sniffer
        sample = sample[:sample.rfind("\n") + 1] or sample
    try:
        # Spreadsheets in many locales write ";" because "," is their decimal mark.
        return csv.Sniffer().sniff(sample, delimiters=_DELIMITERS).delimiter
    except csv.Error:  # one column, or too irregular to tell
        return ","


def _line(row: list[str]) -> str:
    # "a | b | c" rather than "col: value; col: value": the header leads every section,
    # so a row's meaning is one line above it, and the compact form keeps 25 rows inside
    # one embedding window instead of repeating every column name on every row (which
    # doubles the tokens and lets column names dominate keyword scores).
    return " | ".join(" ".join(cell.split()) for cell in row)


def extract(path: str, limits: Limits) -> Extracted:
    text, encoding = read_text(path, limits)
    delimiter = _delimiter(text, path)
    try:
        reader = csv.reader(io.StringIO(text), delimiter=delimiter)
        rows = [row for row in reader if any(cell.strip() for cell in row)]
    except csv.Error as e:
        raise ExtractError(path, f"malformed CSV ({e}); fix the file or add it to .scentignore") from e
    name = os.path.basename(path)
    header, body = (rows[0], rows[1:]) if rows else ([], [])
    parts = []
    for i in range(0, len(body), ROWS_PER_SECTION):
        group = body[i:i + ROWS_PER_SECTION]
        title = f"{name} rows {i + 1}-{i + len(group)}"
        parts.append((title, "\n".join(map(_line, [header, *group]))))
    if not body and header:
        parts.append((name, _line(header)))
    return Extracted(kind="csv", sections=joined(parts, "csv"), title=name,
                     meta={"encoding": encoding, "delimiter": delimiter, "rows": len(body),
                           "columns": header})
