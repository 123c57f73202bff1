"""XPS documents (scent.extract.xps), packaged as Windows' XPS Document Writer writes them: a
document sequence, a document, pages of Glyphs runs (drawn out of reading order, as printers do),
core properties."""
from __future__ import annotations

import zipfile

from scent.extract import Limits, extract, file_kind
from test_formats import reason_of

RELS = """<?xml version="1.0" encoding="utf-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Type="http://schemas.microsoft.com/xps/2005/06/fixedrepresentation" Target="/FixedDocSeq.fdseq" Id="R0"/>
  <Relationship Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"
                Target="/docProps/core.xml" Id="R1"/>
</Relationships>"""
SEQ = """<FixedDocumentSequence xmlns="http://schemas.microsoft.com/xps/2005/06">
  <DocumentReference Source="/Documents/1/FixedDoc.fdoc"/></FixedDocumentSequence>"""
DOC = """<FixedDocument xmlns="http://schemas.microsoft.com/xps/2005/06">
  <PageContent Source="Pages/1.fpage"/><PageContent Source="Pages/2.fpage"/></FixedDocument>"""


def page(*runs: tuple[float, float, str]) -> str:
    glyphs = "".join(f'<Glyphs OriginX="{x}" OriginY="{y}" FontRenderingEmSize="12" FontUri="/Resources/f.odttf" '
                     f'Fill="#ff000000" UnicodeString="{text}"/>' for x, y, text in runs)
    return f'<FixedPage xmlns="http://schemas.microsoft.com/xps/2005/06" Width="816" Height="1056"><Canvas>{glyphs}' \
           '</Canvas></FixedPage>'


CORE = """<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"
  xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Boiler service receipt</dc:title>
  <dc:creator>Okafor Heating Ltd</dc:creator></cp:coreProperties>"""


def xps(path, pages: list[str], core: str | None = CORE) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        z.writestr("_rels/.rels", RELS if core else RELS.replace('<Relationship Type="http://schemas.openxmlformats'
                                                                 '.org/package/2006/relationships/metadata/core-prope'
                                                                 'rties"\n                Target="/docProps/core.xml"'
                                                                 ' Id="R1"/>', ""))
        z.writestr("FixedDocSeq.fdseq", SEQ)
        z.writestr("Documents/1/FixedDoc.fdoc", DOC)
        for n, content in enumerate(pages, 1):
            z.writestr(f"Documents/1/Pages/{n}.fpage", content)
        if core:
            z.writestr("docProps/core.xml", core)


def test_pages_are_read_in_reading_order_with_title_and_author(tmp_path):
    path = tmp_path / "receipt.xps"
    # Drawn as a printer draws them: the total first, the heading last, a line in two runs.
    xps(path, [page((400, 700, "Total: 145.00 EUR"), (72, 300, "Annual service of the"), (72, 120, "RECEIPT BX-2291"),
                    (240, 300, "Vaillant boiler")),
               page((72, 120, "{}{Thank you}"))])
    got = extract(str(path), Limits())
    assert file_kind(str(path)) == got.kind == "pdf"
    assert got.title == "Boiler service receipt"
    assert [(s.kind, s.page, s.text) for s in got.sections] == [
        ("pdf_page", 1, "RECEIPT BX-2291\nAnnual service of the Vaillant boiler\nTotal: 145.00 EUR\nOkafor Heating Ltd"),
        ("pdf_page", 2, "{Thank you}")]


def test_pages_past_the_limit_are_left_out(tmp_path):
    path = tmp_path / "long.oxps"
    xps(path, [page((72, 72, "first")), page((72, 72, "second"))], core=None)
    got = extract(str(path), Limits(max_pdf_pages=1))
    assert ([s.text for s in got.sections], got.meta["truncated"], got.title) == (["first"], True, "")


def test_an_xps_without_its_parts_is_one_line(tmp_path):
    path = tmp_path / "broken.xps"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("_rels/.rels", RELS)
    assert reason_of(path).startswith("not a readable XPS document (KeyError:")
    path.write_bytes(b"not a zip")
    assert "not a readable XPS document" in reason_of(path)
