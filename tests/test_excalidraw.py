"""Excalidraw drawings (.excalidraw): their text elements and frame names, read from the JSON."""
from __future__ import annotations

import json

import pytest

from scent import Index
from scent.errors import ExtractError
from scent.extract import Limits, extract, file_kind

from conftest import FakeEmbedder

# As excalidraw.com saves a drawing (fields it does not need for reading left out)
DRAWING = {"type": "excalidraw", "version": 2, "source": "https://excalidraw.com", "elements": [
    {"type": "frame", "id": "f", "name": "Checkout v2"},
    {"type": "rectangle", "id": "r"},
    {"type": "text", "id": "t1", "text": "Payment\ngateway", "originalText": "Payment gateway"},  # wrapped
    {"type": "text", "id": "t2", "text": "retries  3 times", "originalText": "retries  3 times"},
    {"type": "text", "id": "t3", "text": "old label", "isDeleted": True},
    {"type": "text", "id": "t4", "text": "Payment gateway"},  # a copy: once
    {"type": "arrow", "id": "a"}], "appState": {"viewBackgroundColor": "#ffffff"}, "files": {}}


def test_a_drawing_is_its_words_in_order_once_each(tmp_path):
    (tmp_path / "design").mkdir()
    path = tmp_path / "design" / "checkout.excalidraw"
    path.write_text(json.dumps(DRAWING))
    got = extract(str(path), Limits(root=str(tmp_path)))
    assert file_kind("checkout.excalidraw") == got.kind == "image"
    assert [(s.kind, s.text) for s in got.sections] == [
        ("image", "checkout\ndesign\nExcalidraw drawing"),
        ("ocr", "Checkout v2\nPayment gateway\nretries 3 times")]


@pytest.mark.parametrize("content, reason", [
    ('{"type": "excalidraw", "elements": [', "its JSON does not parse"),
    ('{"type": "excalidraw"}', "it has no list of elements"),
    ('[1, 2]', "it has no list of elements"),
])
def test_what_is_not_a_drawing_is_one_line(tmp_path, content, reason):
    (tmp_path / "bad.excalidraw").write_text(content)
    with pytest.raises(ExtractError, match=rf"not a readable Excalidraw drawing \({reason}"):
        extract(str(tmp_path / "bad.excalidraw"))


def test_a_drawing_is_found_by_its_words(tmp_path):
    (tmp_path / "design").mkdir()
    (tmp_path / "design" / "checkout.excalidraw").write_text(json.dumps(DRAWING))
    (tmp_path / "design" / "notes.md").write_text("# Groceries\n\nApples, bread and coffee.\n")
    with Index(tmp_path / "design", index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        assert idx.update().added == 2
        assert [r.path for r in idx.search("payment gateway retries", k=1, strategy="keyword")] == ["checkout.excalidraw"]
