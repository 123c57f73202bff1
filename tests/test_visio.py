"""Visio drawings (.vsdx): each page's shapes' text and data, read from the package's XML."""
from __future__ import annotations

import zipfile

import pytest

from scent import Index
from scent.errors import ExtractError
from scent.extract import Limits, extract, file_kind

from conftest import FakeEmbedder

V = 'xmlns="http://schemas.microsoft.com/office/visio/2012/main"'
R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
# Listed first, the network page is kept in page2.xml: the order is pages.xml's, the part its relationship's
PAGES = (f'<Pages {V} {R}><Page ID="4" NameU="Network" Name="Home network"><Rel r:id="rId2"/></Page>'
         f'<Page ID="0" NameU="Page-1" Name="Floor plan"><Rel r:id="rId1"/></Page></Pages>')
RELS = ('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.microsoft.com/visio/2010/relationships/page" Target="page1.xml"/>'
        '<Relationship Id="rId2" Type="http://schemas.microsoft.com/visio/2010/relationships/page" Target="page2.xml"/>'
        '</Relationships>')
FLOOR = f'<PageContents {V}><Shapes><Shape ID="1"><Text>Kitchen<cp IX="0"/> 3.2 m</Text></Shape></Shapes></PageContents>'
NETWORK = (f'<PageContents {V}><Shapes>'
           '<Shape ID="1" Type="Group"><Text>Rack</Text><Shapes>'  # a group's shapes are read in order too
           '<Shape ID="2"><Section N="Property"><Row N="Row_1"><Cell N="Value" V="Ana"/><Cell N="Label" V="Owner"/>'
           '</Row></Section><Text>NAS 2x4TB</Text></Shape>'
           '<Shape ID="3"><Text>Router\n192.168.1.1</Text></Shape></Shapes></Shape>'
           '<Shape ID="4"><Text>Rack</Text></Shape>'  # the same words again: once
           '</Shapes></PageContents>')


def write_vsdx(path, pages=PAGES):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("visio/pages/pages.xml", pages)
        z.writestr("visio/pages/_rels/pages.xml.rels", RELS)
        z.writestr("visio/pages/page1.xml", FLOOR)
        z.writestr("visio/pages/page2.xml", NETWORK)
    return path


def test_each_page_is_its_shapes_words_in_order(tmp_path):
    (tmp_path / "home").mkdir()
    got = extract(str(write_vsdx(tmp_path / "home" / "house.vsdx")), Limits(root=str(tmp_path)))
    assert file_kind("house.vsdx") == got.kind == "image"
    assert [(s.kind, s.page, s.title, s.text) for s in got.sections] == [
        ("image", None, "", "house\nhome\nVisio drawing"),
        ("ocr", 1, "Home network", "Rack\nNAS 2x4TB\nOwner: Ana\nRouter 192.168.1.1"),
        ("ocr", 2, "Floor plan", "Kitchen 3.2 m")]
    assert got.meta == {"pages": 2}


def test_a_damaged_or_foreign_drawing_is_one_line(tmp_path):
    whole = write_vsdx(tmp_path / "whole.vsdx").read_bytes()
    (tmp_path / "cut.vsdx").write_bytes(whole[:len(whole) // 2])
    with zipfile.ZipFile(tmp_path / "word.vsdx", "w") as z:
        z.writestr("word/document.xml", "<w/>")
    write_vsdx(tmp_path / "broken.vsdx", pages=PAGES[:60])
    for name in ("cut.vsdx", "word.vsdx", "broken.vsdx"):
        with pytest.raises(ExtractError) as info:
            extract(str(tmp_path / name))
        assert "Visio .vsdx drawing" in info.value.reason and "\n" not in info.value.reason, info.value.reason


def test_a_drawing_is_found_at_its_page(tmp_path):
    (tmp_path / "home").mkdir()
    write_vsdx(tmp_path / "home" / "house.vsdx")
    (tmp_path / "home" / "notes.md").write_text("# Groceries\n\nApples, bread and coffee.\n")
    with Index(tmp_path / "home", index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        assert idx.update().added == 2
        hit = idx.search("kitchen", k=1, strategy="keyword")[0]
    assert (hit.path, hit.page) == ("house.vsdx", 2)
