"""draw.io diagrams (.drawio): each page's labels, read from the XML, compressed or not."""
from __future__ import annotations

import base64
import zlib
from urllib.parse import quote

import pytest

from scent import Index
from scent.errors import ExtractError
from scent.extract import Limits, extract, file_kind

from conftest import FakeEmbedder

NETWORK = ('<mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>'
           '<mxCell id="2" value="Router&lt;br&gt;192.168.1.1" style="html=1;" vertex="1" parent="1"/>'
           '<object label="NAS 2x4TB" owner="Ana" id="3"><mxCell vertex="1" parent="1"/></object>'
           '<mxCell id="4" value="Cable" edge="1" source="2" target="3" parent="1"/>'
           '<mxCell id="5" value="Router&lt;br&gt;192.168.1.1" vertex="1" parent="1"/>'  # a copy: once
           '</root></mxGraphModel>')
FLOOR = ('<mxGraphModel><root><mxCell id="0"/>'
         '<mxCell id="2" value="&lt;div&gt;&lt;b&gt;Kitchen&lt;/b&gt; 3.2 m&lt;/div&gt;" tooltip="new tiles" vertex="1"/>'
         '</root></mxGraphModel>')


def packed(xml: str) -> str:
    """A page as draw.io compresses it: the XML URL-encoded, deflated raw, in base64."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    return base64.b64encode(deflate.compress(quote(xml).encode()) + deflate.flush()).decode()


def diagram(pages) -> str:
    return '<mxfile host="app.diagrams.net">' + "".join(
        f'<diagram id="d{i}" name="{name}">{body}</diagram>' for i, (name, body) in enumerate(pages)) + "</mxfile>"


def test_each_page_is_its_labels_in_order_once_each(tmp_path):
    (tmp_path / "home").mkdir()
    path = tmp_path / "home" / "network.drawio"
    path.write_text(diagram([("Home network", NETWORK), ("Floor plan", packed(FLOOR)), ("Empty", "")]))
    got = extract(str(path), Limits(root=str(tmp_path)))
    assert file_kind("network.drawio") == file_kind("plan.dio") == got.kind == "image"
    assert [(s.kind, s.page, s.title, s.text) for s in got.sections] == [
        ("image", None, "", "network\nhome\ndraw.io diagram"),
        ("ocr", 1, "Home network", "Router 192.168.1.1\nNAS 2x4TB\nCable"),
        ("ocr", 2, "Floor plan", "Kitchen 3.2 m\nnew tiles")]
    assert got.meta == {"pages": 3}


def test_a_damaged_or_foreign_diagram_is_one_line(tmp_path):
    cut = packed(FLOOR)
    for name, content, reason in [
        ("cut.drawio", diagram([("Page-1", cut[:len(cut) // 2])]), "page 1: its compressed page"),
        ("svg.drawio", "<svg xmlns='http://www.w3.org/2000/svg'/>", "its XML is an <{http://www.w3.org/2000/svg}svg>"),
        ("half.drawio", diagram([("Page-1", NETWORK)])[:40], "its XML does not parse"),
    ]:
        (tmp_path / name).write_text(content)
        with pytest.raises(ExtractError, match=r"not a readable draw\.io diagram \(" + reason.replace(".", r"\.")
                           .replace("(", r"\(").replace("{", r"\{").replace("}", r"\}")):
            extract(str(tmp_path / name))


def test_a_diagram_is_found_by_its_labels_at_its_page(tmp_path):
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "network.drawio").write_text(diagram([("Home network", NETWORK), ("Floor plan", packed(FLOOR))]))
    (tmp_path / "home" / "notes.md").write_text("# Groceries\n\nApples, bread and coffee.\n")
    with Index(tmp_path / "home", index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        assert idx.update().added == 2
        hit = idx.search("kitchen tiles", k=1, strategy="keyword")[0]
    assert (hit.path, hit.kind, hit.page) == ("network.drawio", "image", 2)
