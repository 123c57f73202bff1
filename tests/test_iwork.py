"""Apple iWork documents (scent.extract.iwork), written here as Pages, Keynote and Numbers write
them: Index/*.iwa parts of protobuf objects (ArchiveInfo, then the message), in raw Snappy
chunks with a 4-byte header, inside a zip. No iWork application runs here; the layout follows
the published format notes the reader's docstring names, and the expectations are by hand."""
from __future__ import annotations

import io
import os
import zipfile

import cramjam
import pytest

from test_formats import reason_of
from scent.extract import extract, file_kind
from scent.extract.base import Limits


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def message(*fields: tuple[int, int | bytes | str]) -> bytes:
    out = b""
    for number, value in fields:
        if isinstance(value, int):
            out += varint(number << 3) + varint(value)
        else:
            raw = value.encode() if isinstance(value, str) else value
            out += varint(number << 3 | 2) + varint(len(raw)) + raw
    return out


def ref(ident: int) -> bytes:
    return message((1, ident))


def obj(ident: int, type_: int, payload: bytes) -> bytes:
    info = message((1, ident), (2, message((1, type_), (2, b"\x01\x00\x05"), (3, len(payload)))))
    return varint(len(info)) + info + payload


def iwa(*objects: bytes, chunk: int = 65536) -> bytes:
    """The objects' stream in Snappy chunks of `chunk` bytes (an object may straddle two)."""
    stream = b"".join(objects)
    pieces = [stream[i:i + chunk] for i in range(0, len(stream), chunk)]
    return b"".join(b"\x00" + len(c).to_bytes(3, "little") + c
                    for c in (bytes(cramjam.snappy.compress_raw(p)) for p in pieces))


def storage(ident: int, kind: int, text: str) -> bytes:
    return obj(ident, 2001, message((1, kind), (3, text)))


def strings(ident: int, *values: str, list_type: int = 1) -> bytes:
    entries = [(3, message((1, key), (2, 1), (3, value))) for key, value in enumerate(values, 1)]
    return obj(ident, 6201, message((1, list_type), (2, len(values) + 1), *entries))


def package(path, parts: dict[str, bytes]) -> str:
    with zipfile.ZipFile(path, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)
    return str(path)


def sections(got) -> list[tuple]:
    return [(s.kind, s.page, s.title, s.text) for s in got.sections]


def test_a_pages_document_is_its_body_then_its_other_flows(tmp_path):
    """The body (an object anchor and a line separator in it), a text box, a table's cells, a
    header, a footnote; a stylesheet's placeholder text is not read; the body's stream is cut in
    chunks of 40 bytes, so objects straddle chunks."""
    document = iwa(obj(1, 10000, message((1, 7))),
                   storage(7, 0, "Kitchen plan\nThe worktop is oak.\ufffc\u2028Budget:  4,000 pounds\n\n"),
                   storage(8, 3, "Call Ana about the tiles"),
                   storage(9, 1, "Elm Close renovation"),
                   storage(10, 2, "Quoted in May 2025."),
                   storage(11, 5, "Sink: ceramic"), chunk=40)
    path = package(tmp_path / "kitchen.pages", {
        "Index/Document.iwa": document,
        "Index/DocumentStylesheet.iwa": iwa(storage(50, 3, "Lorem ipsum placeholder")),
        "Index/Tables/DataList.iwa": iwa(strings(60, "Oak worktop", "Tiles"), strings(61, "0.00", list_type=2)),
        "preview.jpg": b"\xff\xd8\xff",
    })
    assert file_kind(path) == "docx"
    got = extract(path, Limits(describe=False))
    assert got.title == "Kitchen plan"
    assert [(s.title, s.text) for s in got.sections] == [
        ("", "Kitchen plan\nThe worktop is oak.\nBudget: 4,000 pounds"),
        ("text boxes", "Call Ana about the tiles"),
        ("tables", "Sink: ceramic\nOak worktop\nTiles"),
        ("headers and footers", "Elm Close renovation"),
        ("footnotes", "Quoted in May 2025.")]


def test_keynote_slides_in_the_shows_order_with_their_notes(tmp_path):
    """A bundle zipped whole (a top folder, parts in an inner Index.zip). The show's slide tree puts
    the slide stored in Slide-10 first, before Slide-2's: the tree's order is kept, not the names'.
    A master slide's placeholder text is not read; a table's cells follow the slides."""
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        z.writestr("Index/Document.iwa", iwa(
            obj(1, 1, message((2, ref(2)))),
            obj(2, 2, message((3, message((2, ref(10)), (2, ref(11)))))),
            obj(10, 4, message((2, ref(21)), (4, 0))),
            obj(11, 4, message((2, ref(20)), (4, 0)))))
        z.writestr("Index/Slide-2.iwa", iwa(obj(20, 5, message((19, 1))), storage(30, 3, "Questions?")))
        z.writestr("Index/Slide-10.iwa", iwa(obj(21, 5, message((19, 1))), storage(31, 3, "Why bees matter"),
                                             storage(32, 3, "Pollination\nHoney"), storage(33, 4, "Mention the orchard")))
        z.writestr("Index/MasterSlide-1.iwa", iwa(obj(40, 5, b""), storage(41, 3, "Double-tap to edit")))
        z.writestr("Index/Tables/DataList-1.iwa", iwa(strings(50, "Hive count")))
    path = package(tmp_path / "bees.key", {"Bees.key/Index.zip": inner.getvalue(), "Bees.key/preview.jpg": b""})
    assert file_kind(path) == "slides"
    assert sections(extract(path, Limits(describe=False))) == [
        ("slide", 1, "Why bees matter", "Why bees matter\nPollination\nHoney\n\nMention the orchard"),
        ("slide", 2, "Questions?", "Questions?"),
        ("slide", None, "tables", "Hive count")]


def test_a_numbers_spreadsheet_is_its_sheets_tables_and_cells_words(tmp_path):
    path = package(tmp_path / "budget.numbers", {
        "Index/Document.iwa": iwa(obj(1, 1, b""), obj(2, 2, message((1, "Budget"))),
                                  obj(3, 6001, message((8, "Kitchen costs"), (6, 3), (7, 2)))),
        "Index/Tables/DataList-7.iwa": iwa(strings(8, "Oak worktop", "Tiles", "Oak worktop")),
    })
    assert file_kind(path) == "sheet"
    got = extract(path, Limits(describe=False))
    assert got.kind == "sheet"
    assert [(s.title, s.text) for s in got.sections] == [("sheets and tables", "Budget\nKitchen costs"),
                                                         ("", "Oak worktop\nTiles")]


def test_a_damaged_part_costs_only_itself(tmp_path):
    good = iwa(storage(1, 0, "Trip to Porto"))
    path = package(tmp_path / "trip.pages", {"Index/Document.iwa": good,
                                              "Index/Other.iwa": b"\x00\x05\x00\x00garbage",
                                              "Index/Shared.iwa": b"bvx2" + b"\x00" * 20})
    got = extract(path, Limits(describe=False))
    assert [s.text for s in got.sections] == ["Trip to Porto"]
    assert [line.split(" (")[0] for line in got.meta["left_out"]] == ["its part Other was not read",
                                                                      "its part Shared was not read"]


@pytest.mark.parametrize("name, parts, said", [
    ("locked.pages", {"Index/Document.iwa": b"\x01\x02", ".iwph": b"x"}, "password-protected (encrypted) Pages document"),
    ("old.pages", {"index.xml.gz": b"x", "QuickLook/Thumbnail.jpg": b""}, "scent does not index iWork '09 documents"),
    ("empty.numbers", {"Metadata/Properties.plist": b""}, "not a readable Numbers spreadsheet (it holds no Index parts)"),
    ("lzfse.key", {"Index/Document.iwa": b"bvx2" + b"\x00" * 20},
     "not a readable Keynote presentation (no part of it could be read)"),
])
def test_what_cannot_be_read_is_one_line(tmp_path, name, parts, said):
    assert said in reason_of(package(tmp_path / name, parts))


def test_a_key_file_that_is_a_key_is_left_alone(tmp_path):
    key = tmp_path / "server.key"
    key.write_text("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n")
    assert reason_of(key).startswith("scent does not index .key files other than Keynote presentations")


def _folder(path, parts: dict[str, bytes]):
    for name, data in parts.items():
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_bytes(data)
    return path


def test_a_document_saved_as_a_folder_is_one_file(tmp_path):
    """A Pages document kept as a package (its Index/ parts, a preview and a picture beside them),
    TextEdit's .rtfd (TXT.rtf and a picture), and a folder merely named .key: the first two are a
    file each to the walk, the index, a refresh and the watcher; the third is a folder."""
    from scent import Index
    from scent.extract import reported
    from scent.walk import files_at, walk
    from scent.watch import _Changes

    from conftest import FakeEmbedder

    notes = tmp_path / "notes"
    body = {"Index/Document.iwa": iwa(obj(1, 10000, message((1, 7))), storage(7, 0, "Kitchen plan\nThe worktop is oak."))}
    _folder(notes / "kitchen.pages", {**body, "preview.jpg": b"\xff\xd8\xff", "Data/tiles-12.jpg": b"\xff\xd8\xff"})
    _folder(notes / "letter.rtfd", {"TXT.rtf": b"{\\rtf1\\ansi Dear landlord, the boiler is broken.}",
                                    "boiler.png": b"\x89PNG"})
    _folder(notes / "x.key", {"a.md": b"Not a presentation: a folder of notes."})
    assert extract(str(notes / "kitchen.pages"), Limits(describe=False)).title == "Kitchen plan"
    assert extract(str(notes / "letter.rtfd"), Limits()).sections[0].text == "Dear landlord, the boiler is broken."
    found = ["notes/kitchen.pages", "notes/letter.rtfd", "notes/x.key/a.md"]
    assert sorted(f.rel for f in walk(tmp_path, accept=reported)) == found
    assert [f.rel for f in files_at(tmp_path, ["notes/kitchen.pages/Index/Document.iwa"], accept=reported)] == found[:1]
    assert sorted(f.rel for f in files_at(tmp_path, ["notes"], accept=reported)) == found

    idx = Index(tmp_path, embedder=FakeEmbedder())
    assert idx.update().added == 3
    assert idx.search("worktop oak", strategy="keyword")[0].path == "notes/kitchen.pages"
    assert idx.search("boiler landlord", strategy="keyword")[0].path == "notes/letter.rtfd"
    # An edit inside the package (the same size: Pages rewrites a part in place) is an edit of the document.
    old = (notes / "kitchen.pages" / "Index" / "Document.iwa").stat().st_mtime_ns
    _folder(notes / "kitchen.pages", {"Index/Document.iwa": iwa(obj(1, 10000, message((1, 7))),
                                                                storage(7, 0, "Kitchen plan\nThe worktop is elm."))})
    os.utime(notes / "kitchen.pages" / "Index" / "Document.iwa", ns=(old + 10**9, old + 10**9))
    report = idx.update()
    assert (report.updated, report.unchanged) == (1, 2)
    assert [r.path for r in idx.search("elm", strategy="keyword")] == ["notes/kitchen.pages"]
    # The watcher takes an event inside the package for the document's.
    changes = _Changes(str(tmp_path), str(tmp_path / ".scent"))
    changes._add(str(notes / "kitchen.pages" / "Index" / "Document.iwa"))
    assert changes._paths == {"notes/kitchen.pages"}
