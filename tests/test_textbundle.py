"""Text bundles (scent.extract.textbundle): Bear's and Ulysses' Markdown exports, a folder (or a
zip of one) holding text.md, info.json and assets/, indexed as one Markdown file."""
from __future__ import annotations

import zipfile

from conftest import FakeEmbedder
from scent import Index
from scent.extract import Limits, extract, file_kind
from test_formats import reason_of

HARBOUR = "# Harbour budget\n\nDredging the east quay costs 42,000 EUR.\n\n## Timeline\n\nWork starts in May.\n"


def bundle(folder, name="Harbour.textbundle", text=HARBOUR, text_name="text.md"):
    path = folder / name
    (path / "assets").mkdir(parents=True)
    (path / text_name).write_text(text)
    (path / "info.json").write_text('{"version": 2, "type": "net.daringfireball.markdown"}')
    (path / "assets" / "draft.md").write_text("# An asset, not a note\n")
    return path


def test_a_bundle_is_its_markdown_with_headings(tmp_path):
    got = extract(str(bundle(tmp_path)), Limits())
    assert file_kind("Harbour.textbundle") == got.kind == "text"
    assert got.title == "Harbour budget"
    assert [(s.title, s.text) for s in got.sections] == [
        ("Harbour budget", "# Harbour budget\n\nDredging the east quay costs 42,000 EUR."),
        ("Timeline", "## Timeline\n\nWork starts in May.")]


def test_a_text_pack_is_read_from_its_zip_and_named_by_it_without_a_heading(tmp_path):
    path = tmp_path / "Quay.textpack"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("Quay.textbundle/assets/text.md", "not this one: deeper")
        z.writestr("Quay.textbundle/text.markdown", "bollards need paint")
        z.writestr("Quay.textbundle/info.json", "{}")
    got = extract(str(path), Limits())
    assert (got.title, [s.text for s in got.sections]) == ("Quay", ["bollards need paint"])


def test_a_bundle_is_one_file_of_the_index_not_a_folder(tmp_path):
    folder = tmp_path / "notes"
    bundle(folder)
    with Index(folder, index_dir=tmp_path / "ix", embedder=FakeEmbedder()) as idx:
        assert idx.update().added == 1
        assert [r.path for r in idx.search("dredging quay", strategy="keyword")] == ["Harbour.textbundle"]
        assert not idx.search("asset", strategy="keyword")  # assets/ is not walked


def test_a_pack_without_text_says_so(tmp_path):
    path = tmp_path / "empty.textpack"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("x.textbundle/info.json", "{}")
    assert "holds no text.md" in reason_of(path)
    path.write_bytes(b"PK\x03\x04 cut")
    assert "not a readable text pack" in reason_of(path)
