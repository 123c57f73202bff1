"""XML files (scent.extract.xmldata): the words in them, as lines worked out by hand."""
from __future__ import annotations

import pytest

from test_formats import reason_of
from scent import Index
from scent.extract import Limits, extract, file_kind

from conftest import FakeEmbedder

INVOICES = """<?xml version="1.0"?>
<!DOCTYPE invoices [<!ENTITY boom "exploded">]>
<invoices xmlns="urn:example:billing" xmlns:x="urn:example:extra">
  <invoice id="INV-2291" status="paid" x:batch="7">
    <customerName>Okafor Lindqvist</customerName>
    <note>Paid by <b>bank transfer</b> on time &boom;.</note>
    <link href="https://example.com/a" rel="alternate"/>
  </invoice>
  <!-- a comment is not read -->
  <invoice id="INV-2292"><customerName>Okafor Lindqvist</customerName></invoice>
</invoices>"""


def test_an_xml_file_is_its_texts_and_wordy_attributes_once_each(tmp_path):
    path = tmp_path / "billing.xml"
    path.write_text(INVOICES)
    got = extract(str(path), Limits())
    assert file_kind(str(path)) == got.kind == "code"
    # Attributes at their start tag, text at its end tag, a tail where what follows it is read; the
    # entity is not expanded; a link and a number are no words; the second customer line is the first's.
    assert [(s.title, s.text) for s in got.sections] == [("billing.xml lines 1-9", "\n".join((
        "invoice id: INV-2291", "invoice status: paid", "customer name: Okafor Lindqvist", "b: bank transfer",
        "note: Paid by", "on time", ".", "link rel: alternate", "invoice id: INV-2292")))]
    assert got.meta == {}


def test_an_xml_file_is_found_by_its_words(tmp_path):
    (tmp_path / "billing.xml").write_text(INVOICES)
    idx = Index(tmp_path, embedder=FakeEmbedder())
    idx.update()
    assert idx.search("Okafor bank transfer", strategy="keyword")[0].path == "billing.xml"


def test_xml_that_breaks_off_keeps_what_came_before(tmp_path):
    path = tmp_path / "cut.xml"
    path.write_text(INVOICES[:INVOICES.index("<!-- a comment")])
    got = extract(str(path), Limits())
    assert "customer name: Okafor Lindqvist" in got.sections[0].text
    assert got.meta["left_out"][0].startswith("its XML breaks off (")


@pytest.mark.parametrize("data", ["not xml at all, a note named .xml", "<a><b></a>", ""])
def test_xml_that_does_not_parse_is_one_line(tmp_path, data):
    path = tmp_path / "bad.xml"
    path.write_text(data)
    assert reason_of(path).startswith("not a readable XML file (it does not parse: ")
