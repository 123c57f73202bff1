"""Files inside files: archive members and mail attachments indexed as files of their own at
CONTAINER#NAME, with real zips, tars and mailboxes made here (zipfile, tarfile, email), read by
the real extractors, on both engines."""
from __future__ import annotations

import io
import mailbox
import os
import tarfile
import time
import zipfile
from email.message import EmailMessage

import pytest

import badfiles
from scent import Filters, Index
from scent.settings import Settings


def docx_bytes(text: str) -> bytes:
    import docx

    doc = docx.Document()
    doc.add_paragraph(text)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


PDF_WORDS = "The boiler was serviced by the heating engineer in spring."
DOCX_WORDS = "Minutes of the allotment committee about compost bins."
MD_WORDS = "# Walks\n\nThe coastal path to the lighthouse takes three hours.\n"
WHEN = (2019, 5, 4, 10, 30, 0)  # the zip members' own time


def zip_with(path, members: dict[str, bytes], when=WHEN):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(zipfile.ZipInfo(name, when), data, zipfile.ZIP_DEFLATED)


def three_members():
    return {"papers/boiler.pdf": badfiles.pdf_bytes([PDF_WORDS]), "minutes.docx": docx_bytes(DOCX_WORDS),
            "walks.md": MD_WORDS.encode(), "setup.exe": b"MZ\x90\x00"}


def engines():
    return ["sqlite", "qdrant"]


@pytest.fixture(params=engines())
def settings(request):
    if request.param == "qdrant":
        pytest.importorskip("qdrant_client")
    return Settings(backend=request.param)


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "docs"
    root.mkdir()
    (root / "note.txt").write_text("A plain note about tomatoes.\n")
    zip_with(root / "2024.zip", three_members())
    return root


@pytest.fixture
def idx(folder, tmp_path, settings, fake_embedder):
    with Index(folder, index_dir=tmp_path / "ix", settings=settings, embedder=fake_embedder) as index:
        yield index


def paths(index) -> dict:
    return {rel: st.container for rel, st in index.engine.catalog.file_states().items()}


def top(index, query, **kw):
    hits = index.search(query, k=5, strategy="keyword", **kw)
    return hits[0].path if hits else None


def test_members_are_files_of_their_own(idx):
    report = idx.update()
    assert report.added == 2 + 3  # note.txt, the zip, and its three members scent reads (not setup.exe)
    assert paths(idx) == {"note.txt": "", "2024.zip": "", "2024.zip#papers/boiler.pdf": "2024.zip",
                          "2024.zip#minutes.docx": "2024.zip", "2024.zip#walks.md": "2024.zip"}
    assert top(idx, "boiler serviced engineer") == "2024.zip#papers/boiler.pdf"
    assert top(idx, "allotment compost") == "2024.zip#minutes.docx"
    assert top(idx, "coastal lighthouse") == "2024.zip#walks.md"
    hit = idx.search("boiler serviced", k=1, strategy="keyword")[0]
    assert (hit.kind, hit.page) == ("pdf", 1)
    # Each member's kind and path filter it as a file's would.
    assert top(idx, "boiler serviced", filters=Filters.build(["docx"])) is None
    assert top(idx, "allotment compost", filters=Filters.build(["docx"])) == "2024.zip#minutes.docx"
    assert top(idx, "coastal lighthouse", filters=Filters.build(path="2024.zip#")) == "2024.zip#walks.md"
    assert top(idx, "coastal lighthouse", filters=Filters.build(path="note")) is None
    # The archive itself is found by its members' names, setup.exe's too.
    assert top(idx, "setup exe") == "2024.zip"
    # A member's date is its own (the zip's time for it; a PDF's CreationDate first), not the archive's mtime.
    walks = idx.search("coastal lighthouse", k=1, strategy="keyword")[0]
    assert walks.date == time.mktime((*WHEN, 0, 0, -1))


def test_unchanged_archive_reads_nothing(idx, fake_embedder):
    idx.update()
    seen = fake_embedder.passages_seen
    report = idx.update()
    assert (report.added, report.updated, report.deleted, report.renamed) == (0, 0, 0, 0)
    assert report.unchanged == 5 and report.embedded == 0 and fake_embedder.passages_seen == seen


def test_touched_archive_touches_its_members(idx, folder):
    idx.update()
    os.utime(folder / "2024.zip", ns=(1, 1_700_000_000_000_000_000))
    report = idx.update()
    assert (report.touched, report.updated, report.embedded) == (4, 0, 0)
    states = idx.engine.catalog.file_states()
    assert {st.mtime_ns for rel, st in states.items() if rel.startswith("2024.zip")} == {1_700_000_000_000_000_000}
    assert idx.update().unchanged == 5


def test_edited_archive_updates_members_and_deletes_the_removed_one(idx, folder):
    idx.update()
    members = three_members()
    del members["minutes.docx"]
    members["walks.md"] = b"# Walks\n\nThe forest loop past the old mill takes one hour.\n"
    zip_with(folder / "2024.zip", members)
    report = idx.update()
    assert (report.updated, report.added, report.unchanged) == (3, 0, 1)  # the zip, boiler.pdf, walks.md
    assert "2024.zip#minutes.docx" not in paths(idx)
    assert top(idx, "allotment compost") is None
    assert top(idx, "forest mill") == "2024.zip#walks.md"
    assert top(idx, "coastal lighthouse") is None
    # boiler.pdf's text did not change: its vectors were kept (only walks.md's text and the listing are new)
    assert report.embedded <= 3


def test_deleted_archive_takes_its_members(idx, folder):
    idx.update()
    (folder / "2024.zip").unlink()
    report = idx.update()
    assert report.deleted == 4
    assert paths(idx) == {"note.txt": ""}
    assert top(idx, "boiler serviced") is None


def test_renamed_archive_renames_its_members(idx, folder, fake_embedder):
    idx.update()
    seen = fake_embedder.passages_seen
    os.rename(folder / "2024.zip", folder / "old-papers.zip")
    report = idx.update()
    assert (report.renamed, report.added, report.deleted, fake_embedder.passages_seen) == (4, 0, 0, seen)
    assert set(paths(idx)) == {"note.txt", "old-papers.zip", "old-papers.zip#papers/boiler.pdf",
                               "old-papers.zip#minutes.docx", "old-papers.zip#walks.md"}
    assert top(idx, "boiler serviced") == "old-papers.zip#papers/boiler.pdf"
    assert idx.update().unchanged == 5


def test_refresh_of_an_archive_path(idx, folder):
    idx.update()
    zip_with(folder / "2024.zip", {"walks.md": b"# Walks\n\nThe river walk to the weir.\n"})
    report = idx.refresh(["2024.zip"])
    assert report.updated == 2 and set(paths(idx)) == {"note.txt", "2024.zip", "2024.zip#walks.md"}
    (folder / "2024.zip").unlink()
    idx.refresh([str(folder / "2024.zip")])
    assert paths(idx) == {"note.txt": ""}


def test_members_have_their_containers_readers(idx, folder):
    (folder / ".scent-access").write_text("2024.zip u:carol\n")
    idx.update()
    states = idx.engine.catalog.file_states()
    assert {p: states[p].access for p in states if p.startswith("2024.zip")} == {
        "2024.zip": "u:carol", "2024.zip#papers/boiler.pdf": "u:carol", "2024.zip#minutes.docx": "u:carol",
        "2024.zip#walks.md": "u:carol"}
    assert idx.search("boiler serviced", strategy="keyword", as_user="carol")
    assert not idx.search("boiler serviced", strategy="keyword", as_user="dave")
    (folder / ".scent-access").write_text("2024.zip u:dave\n")  # no byte of the zip moved: the readers follow all the same
    idx.update()
    states = idx.engine.catalog.file_states()
    assert {states[p].access for p in states if p.startswith("2024.zip")} == {"u:dave"}
    assert not idx.search("boiler serviced", strategy="keyword", as_user="carol")


def test_tar_gz_members(tmp_path, fake_embedder):
    root = tmp_path / "f"
    root.mkdir()
    with tarfile.open(root / "backup.tar.gz", "w:gz") as tar:
        for name, data in {"notes/walks.md": MD_WORDS.encode(), "boiler.pdf": badfiles.pdf_bytes([PDF_WORDS])}.items():
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), 1_500_000_000
            tar.addfile(info, io.BytesIO(data))
    with Index(root, index_dir=tmp_path / "ix", embedder=fake_embedder) as idx:
        report = idx.update()
        assert report.added == 3 and not report.skipped
        hit = idx.search("coastal lighthouse", k=1, strategy="keyword")[0]
        assert (hit.path, hit.date) == ("backup.tar.gz#notes/walks.md", 1_500_000_000)
        assert top(idx, "boiler serviced") == "backup.tar.gz#boiler.pdf"


def mail_with_pdf(subject="Invoice for the paint") -> EmailMessage:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "ana@example.org", "ben@example.org", subject
    m["Date"] = "Tue, 03 Mar 2020 10:00:00 +0000"
    m.set_content("Please find the invoice attached.")
    m.add_attachment(badfiles.pdf_bytes(["Lighthouse paint: forty litres of marine white, total 420 euros."]),
                     maintype="application", subtype="pdf", filename="invoice.pdf")
    m.add_attachment(b"Packing list for the boat: rope, flares, biscuits.\n", maintype="text", subtype="plain",
                     filename="list.txt")
    return m


def test_mbox_attachment_is_found_by_its_words(tmp_path, settings, fake_embedder):
    root = tmp_path / "mail"
    root.mkdir()
    box = mailbox.mbox(root / "inbox.mbox")
    plain = EmailMessage()
    plain["From"], plain["Subject"], plain["Date"] = "c@example.org", "Lunch", "Mon, 02 Mar 2020 12:00:00 +0000"
    plain.set_content("Lunch on Friday?")
    box.add(plain)
    box.add(mail_with_pdf())
    box.flush()
    box.close()
    (root / "note.eml").write_bytes(mail_with_pdf("Second invoice").as_bytes())
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=fake_embedder) as idx:
        idx.update()
        hits = idx.search("marine white litres", k=5, strategy="keyword", filters=Filters.build(["pdf"]))
        assert sorted(h.path for h in hits) == ["inbox.mbox#2/invoice.pdf", "note.eml#invoice.pdf"]
        # An attachment is dated by its message (a PDF by its own CreationDate first).
        hit = idx.search("rope flares biscuits", k=1, strategy="keyword", filters=Filters.build(path="inbox"))[0]
        assert (hit.path, hit.date) == ("inbox.mbox#2/list.txt", 1583229600)
        assert idx.update().unchanged == 6


def test_limits_leave_out_with_one_line(tmp_path, fake_embedder):
    root = tmp_path / "f"
    root.mkdir()
    zip_with(root / "many.zip", {f"n{i}.md": f"note number {i} about owls\n".encode() for i in range(5)})
    settings = Settings(max_archive_members=2)
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=fake_embedder) as idx:
        report = idx.update()
        assert set(paths(idx)) == {"many.zip", "many.zip#n0.md", "many.zip#n1.md"}
        assert report.warnings == [("many.zip", "only its first 2 files were read (max_archive_members); raise "
                                                "max_archive_members to read the rest")]
