"""FictionBook e-books (scent.extract.fb2), laid out as FBReader's and Calibre's are: a description,
a body of chapters (sections with titles, poems, subtitles), a notes body, a base64 cover."""
from __future__ import annotations

import base64

from scent.extract import Limits, extract, file_kind
from test_formats import reason_of

BOOK = f"""<?xml version="1.0" encoding="utf-8"?>
<FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0" xmlns:l="http://www.w3.org/1999/xlink">
  <description>
    <title-info>
      <genre>sf_history</genre><genre>adventure</genre>
      <author><first-name>Ada</first-name><last-name>Okafor</last-name></author>
      <book-title>The Lighthouse Almanac</book-title>
      <annotation><p>A keeper's year of storms, told month by month.</p></annotation>
      <keywords>lighthouse, storms, keeper</keywords>
      <date value="1998-05-01">1998</date>
      <lang>en</lang>
      <coverpage><image l:href="#cover.jpg"/></coverpage>
    </title-info>
  </description>
  <body>
    <title><p>The Lighthouse Almanac</p></title>
    <section>
      <title><p>Chapter 1</p><p>January</p></title>
      <p>The lamp was lit at four.</p>
      <poem><stanza><v>Wind at the door,</v><v>salt on the floor.</v></stanza></poem>
      <section><title><p>The first gale</p></title><p>Slates flew off the store.</p></section>
    </section>
    <section><title><p>Chapter 2</p></title><subtitle>February</subtitle><p>Fog for nine days.</p></section>
  </body>
  <body name="notes"><section id="n1"><title><p>1</p></title><p>A gale is force 8.</p></section></body>
  <binary id="cover.jpg" content-type="image/jpeg">{base64.b64encode(bytes(3000)).decode()}</binary>
</FictionBook>"""


def test_a_fictionbook_is_its_description_then_its_chapters(tmp_path):
    path = tmp_path / "almanac.fb2"
    path.write_text(BOOK, encoding="utf-8")
    got = extract(str(path), Limits())
    assert file_kind(str(path)) == got.kind == "epub"
    assert (got.title, got.date) == ("The Lighthouse Almanac", 883612800.0)  # 1998-01-01 UTC
    assert [(s.title, s.text) for s in got.sections] == [
        ("The Lighthouse Almanac", "The Lighthouse Almanac\nby Ada Okafor\ngenre: sf history, adventure\n"
                                   "keywords: lighthouse, storms, keeper\nA keeper's year of storms, told month by month."),
        ("Chapter 1 January", "Chapter 1 January\nThe lamp was lit at four.\nWind at the door,\nsalt on the floor.\n"
                              "The first gale\nSlates flew off the store."),
        ("Chapter 2", "Chapter 2\nFebruary\nFog for nine days."),
        ("1", "1\nA gale is force 8.")]


def test_not_a_fictionbook_says_so(tmp_path):
    path = tmp_path / "book.fb2"
    path.write_text("<html><body>not a book</body></html>")
    assert "not a <FictionBook>" in reason_of(path)
    path.write_text("<FictionBook><body>")
    assert "does not parse" in reason_of(path)
