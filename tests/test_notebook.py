"""Jupyter notebooks (scent.extract.notebook), on notebooks written here by hand as Jupyter saves them."""
import base64
import io
import json

import pytest
from PIL import Image, ImageDraw

from scent import Index
from scent.errors import ExtractError
from scent.extract import extract, file_kind
from scent.extract.base import Limits
from scent.filters import Filters


def _png() -> str:
    """A bar chart as matplotlib would draw it: white, an axis, four blue bars."""
    image = Image.new("RGB", (480, 320), "white")
    draw = ImageDraw.Draw(image)
    draw.line([(40, 20), (40, 290), (460, 290)], fill="black", width=2)
    for i, height in enumerate((120, 200, 90, 240)):
        draw.rectangle([70 + i * 95, 290 - height, 130 + i * 95, 290], fill=(31, 119, 180))
    out = io.BytesIO()
    image.save(out, "PNG")
    return base64.b64encode(out.getvalue()).decode()


def notebook(picture: str | None = None) -> dict:
    picture = _png() if picture is None else picture
    return {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"language": "python"}}, "cells": [
        {"cell_type": "markdown", "metadata": {},
         "source": ["# Soil moisture in the allotment beds\n", "\n", "We logged moisture twice a day."]},
        {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": "beds = load_beds('beds.csv')",
         "outputs": [{"output_type": "stream", "name": "stdout", "text": ["loaded 12 beds\n"]}]},
        {"cell_type": "code", "metadata": {}, "execution_count": 2, "source": "beds['depth']",
         "outputs": [{"output_type": "error", "ename": "KeyError", "evalue": "'depth'",
                      "traceback": ["\x1b[0;31mKeyError\x1b[0m Traceback (most recent call last)", "frame 1"]}]},
        {"cell_type": "markdown", "metadata": {}, "source": "## Results"},
        {"cell_type": "code", "metadata": {}, "execution_count": 3, "source": "plot_moisture(beds)",
         "outputs": [{"output_type": "display_data", "metadata": {},
                      "data": {"image/png": picture, "text/plain": ["<Figure size 640x480 with 1 Axes>"]}},
                     {"output_type": "execute_result", "execution_count": 3, "metadata": {},
                      "data": {"text/plain": ["mean moisture 31.5 percent"]}}]},
        {"cell_type": "raw", "metadata": {}, "source": "Exported for the committee."},
    ]}


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "moisture.ipynb"
    p.write_text(json.dumps(notebook()))
    return p


def test_cells_become_text_code_and_pictures_under_their_headings(path):
    got = extract(str(path), Limits(describe=True))
    assert file_kind(str(path)) == got.kind == "notebook"
    assert got.title == "Soil moisture in the allotment beds"
    kinds = [(s.kind, s.title) for s in got.sections]
    # "## Results" alone opens what follows; the raw cell is text under it too.
    assert kinds == [("text", "Soil moisture in the allotment beds"), ("code", "Soil moisture in the allotment beds"), ("code", "Results"),
                     ("notebook_image", "Results"), ("text", "Results")]
    text, code, result, picture, raw = got.sections
    assert text.text == "# Soil moisture in the allotment beds\n\nWe logged moisture twice a day."
    # Two code cells under one heading are one section; an error says its name and message, no frames.
    assert code.text == "beds = load_beds('beds.csv')\nloaded 12 beds\n\nbeds['depth']\nKeyError: 'depth'"
    assert result.text == "plot_moisture(beds)\n<Figure size 640x480 with 1 Axes>\nmean moisture 31.5 percent"
    assert raw.text == "Exported for the committee."
    assert picture.text.startswith("chart, bar chart") and picture.picture.locator == "4#0"
    # Starts are offsets into the sections joined by blank lines.
    lengths = [len(s.text) + 2 for s in got.sections]
    assert [s.start for s in got.sections] == [0, lengths[0], sum(lengths[:2]), sum(lengths[:3]), sum(lengths[:4])]
    assert picture.picture.load(200).size == (480, 320)  # a PNG is not reduced while decoded: the model scales it


def test_pictures_are_read_only_when_pictures_are_described(path):
    got = extract(str(path), Limits())
    assert [s.kind for s in got.sections] == ["text", "code", "code", "text"]


def test_a_broken_picture_costs_only_itself(tmp_path):
    p = tmp_path / "broken-picture.ipynb"
    p.write_text(json.dumps(notebook(picture="not base64 at all!")))
    got = extract(str(p), Limits(describe=True))
    assert "notebook_image" not in [s.kind for s in got.sections]
    assert got.meta["picture_errors"] == ["cell 5, output 1 is not valid base64"]
    assert "mean moisture" in got.sections[-2].text


@pytest.mark.parametrize("content", [json.dumps(notebook())[:500], "[1, 2, 3]", '{"cells": 7}', "\xff\xfe"])
def test_a_damaged_notebook_is_refused_with_its_reason(tmp_path, content):
    p = tmp_path / "damaged.ipynb"
    p.write_bytes(content.encode("utf-8", "surrogateescape") if content != "\xff\xfe" else b"\xff\xfe{")
    with pytest.raises(ExtractError, match="not a readable Jupyter notebook.*save it again|not a notebook"):
        extract(str(p), Limits())


def test_nbformat_3_worksheets_and_heading_cells(tmp_path):
    p = tmp_path / "old.ipynb"
    p.write_text(json.dumps({"nbformat": 3, "worksheets": [{"cells": [
        {"cell_type": "heading", "level": 2, "source": ["Tide tables"]},
        {"cell_type": "code", "input": ["high = tides('Falmouth')"], "language": "python",
         "outputs": [{"output_type": "pyout", "text": ["06:42 and 19:03"]}]},
    ]}]}))
    got = extract(str(p), Limits())
    assert [(s.kind, s.title, s.text) for s in got.sections] == [
        ("code", "Tide tables", "high = tides('Falmouth')\n06:42 and 19:03")]
    assert got.title == "Tide tables"


def test_a_notebook_is_found_by_its_words_and_its_kind(path, fake_embedder):
    with Index(path.parent, embedder=fake_embedder) as idx:
        report = idx.update()
        assert report.added == 1
        hit = idx.search("KeyError depth", k=1, strategy="keyword")[0]
        assert (hit.path, hit.unit_kind) == ("moisture.ipynb", "code")
        assert idx.search("allotment moisture", k=1, strategy="keyword", filters=Filters.build(["notebook"]))
        assert not idx.search("allotment moisture", strategy="keyword", match="and", filters=Filters.build(["pdf"]))
