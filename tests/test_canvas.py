"""Obsidian canvases (scent.extract.canvas), laid out as Obsidian writes JSON Canvas 1.0: cards
placed out of reading order, a group, a file card, a link card, labelled and bare arrows."""
from __future__ import annotations

import json

from scent.extract import Limits, extract, file_kind
from test_formats import reason_of

BOARD = {"nodes": [
    {"id": "t2", "type": "text", "text": "## Timeline\nDredging starts in May.", "x": 400, "y": 0, "width": 250,
     "height": 60},
    {"id": "g", "type": "group", "label": "Harbour project", "x": -50, "y": -100, "width": 900, "height": 500},
    {"id": "t1", "type": "text", "text": "## Budget\n42,000 EUR for the east quay.", "x": 0, "y": 0, "width": 250,
     "height": 60},
    {"id": "f", "type": "file", "file": "Projects/Harbour.md", "subpath": "#Quotes", "x": 0, "y": 200},
    {"id": "l", "type": "link", "url": "https://example.org/tides", "x": 400, "y": 200}],
    "edges": [{"id": "e1", "fromNode": "t1", "toNode": "t2", "label": "blocks"},
              {"id": "e2", "fromNode": "t1", "toNode": "f"}]}


def test_a_canvas_is_its_cards_in_reading_order_and_its_labelled_arrows(tmp_path):
    path = tmp_path / "Harbour board.canvas"
    path.write_text(json.dumps(BOARD))
    got = extract(str(path), Limits())
    assert file_kind(str(path)) == got.kind == "text" and got.title == "Harbour board"
    assert [s.text for s in got.sections] == [
        "Harbour project\n## Budget\n42,000 EUR for the east quay.\n## Timeline\nDredging starts in May.\n"
        "note: Projects/Harbour.md#Quotes\nlink: https://example.org/tides\n## Budget -> ## Timeline: blocks"]


def test_not_a_canvas_says_so(tmp_path):
    path = tmp_path / "board.canvas"
    path.write_text('{"nodes": ')
    assert "its JSON does not parse" in reason_of(path)
    path.write_text('["a list"]')
    assert "holds no list of nodes" in reason_of(path)
