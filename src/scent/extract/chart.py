"""The words of an Office chart (DrawingML's chart part, the same in .pptx, .xlsx and .docx): its
title, its series' and categories' names, its axes' titles, a line each ("chart: Sales by quarter",
"series: Bicycle sales, Repairs", "categories: Q1, Q2, Q3", "axis: Units sold"), then each
series' figures by category ("Bicycle sales: Q1 10, Q2 12, Q3 15"): a slide's chart is often the
only place a figure is written down, and a question about it ("hours recorded at Intervales") is
answered by that line, as a table's row answers it."""
from __future__ import annotations

from lxml import etree

from . import package
from .base import one_line

_C = "{http://schemas.openxmlformats.org/drawingml/2006/chart}"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
MAX_NAMES = 50  # of a chart's categories and of its series, said; of a series' figures
MAX_FIGURED = 10  # series whose figures are said
_AXES = (_C + "catAx", _C + "dateAx", _C + "valAx", _C + "serAx")


def lines(blob: bytes, figures: bool = True) -> list[str]:
    """A chart part's lines (see the module's docstring); [] for one that does not parse. Without
    `figures` where the chart's own cells hold them (a spreadsheet's)."""
    try:
        root = etree.fromstring(blob, parser=package.SAFE_XML)
    except etree.XMLSyntaxError:
        return []
    chart = root.find(_C + "chart")
    if chart is None:
        return []
    out = []
    title = _title(chart)
    if title:
        out.append(f"chart: {title}")
    plots = [p for p in chart.iterfind(f"{_C}plotArea/*") if p.tag.endswith("Chart")]
    series = [s for p in plots for s in p.iterfind(_C + "ser")]
    names = [one_line(" ".join(_texts(s.find(_C + "tx")))) for s in series[:MAX_NAMES]]
    first = series[0].find(_C + "cat") if series else None
    categories = [one_line(c) for c in _texts(first)[:MAX_NAMES]] if first is not None else []
    for label, values in (("series", names), ("categories", categories)):
        if any(values):
            out.append(f"{label}: {', '.join(v for v in values if v)}")
    at = _points(first)
    for name, ser in zip(names[:MAX_FIGURED] if figures else (), series):
        values = ser.find(_C + "val")
        values = _points(values if values is not None else ser.find(_C + "yVal"))
        said = [f"{at.get(i, '')} {_figure(v)}".strip() for i, v in sorted(values.items())[:MAX_NAMES] if v]
        if said:
            out.append(f"{name or 'values'}: {', '.join(said)}")
    for axis in chart.iterfind(f"{_C}plotArea/*"):
        if axis.tag in _AXES and (said := _title(axis)):
            out.append(f"axis: {said}")
    return out


def _points(element) -> dict[int, str]:
    """The cached points of a category or value reference, by their index ({} without a cache)."""
    return {i: one_line(v) for i, v in _cached(element)}


def _cached(element) -> list[tuple[int, str]]:
    """The cached cell values of a reference, (index, value) in the part's order ([] without one)."""
    if element is None:
        return []
    for cache in element.iter(_C + "strCache", _C + "numCache", _C + "multiLvlStrCache"):
        levels = cache.findall(_C + "lvl")
        # A multi-level category ("2024 / Q1"): the innermost level names each point.
        return [(_index(pt, n), pt.findtext(_C + "v") or "")
                for n, pt in enumerate((levels[0] if levels else cache).iterfind(_C + "pt"))]
    return []


def _index(pt, n: int) -> int:
    """A point's idx attribute; its place among the points where that is missing or not a number."""
    idx = pt.get("idx", "")
    return int(idx) if idx.isdigit() else n


def _figure(value: str) -> str:
    """A cached number as a person writes it: 0.57099999999999995 -> 0.571, 212.0 -> 212,
    1234567 -> 1234567."""
    try:
        return f"{float(value):.15g}"  # float's own digits less its binary noise
    except ValueError:
        return value


def _title(element) -> str:
    """The words of `element`'s title (typed in, or taken from a cell)."""
    title = element.find(_C + "title")
    return "" if title is None else one_line(" ".join(_texts(title.find(_C + "tx"))))


def _texts(element) -> list[str]:
    """The rich text's runs (joined) or the cached cell values, one string each point."""
    if element is None:
        return []
    rich = element.find(_C + "rich")
    if rich is not None:
        return [" ".join("".join(t.text or "" for t in p.iter(_A + "t")) for p in rich.iter(_A + "p"))]
    literal = element.find(_C + "v")
    if literal is not None:
        return [literal.text or ""]
    return [v for _, v in _cached(element)]
