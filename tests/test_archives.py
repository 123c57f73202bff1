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
from dataclasses import replace
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
    with zipfile.ZipFile(folder / "2024.zip") as z:  # its very bytes (fpdf stamps each PDF with its second)
        members["papers/boiler.pdf"] = z.read("papers/boiler.pdf")
    zip_with(folder / "2024.zip", members)
    report = idx.update()
    # the zip and walks.md written; boiler.pdf, its bytes the same, kept as it was; minutes.docx gone
    assert (report.updated, report.added, report.touched, report.unchanged, report.deleted) == (2, 0, 1, 1, 1)
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


INVOICE = ["Lighthouse paint: forty litres of marine white, total 420 euros."]


def message(subject: str, body: str, date: str | None = None, **headers: str) -> EmailMessage:
    """A plain-text message from c@example.org; `headers` more of them (X_Mozilla_Status as X-Mozilla-Status)."""
    m = EmailMessage()
    m["From"], m["Subject"] = "c@example.org", subject
    if date:
        m["Date"] = date
    for name, value in headers.items():
        m[name.replace("_", "-")] = value
    m.set_content(body)
    return m


def add_to_mbox(path, *messages: EmailMessage) -> None:
    """Append `messages` to the mbox at `path` (made when missing), as a mail program does."""
    box = mailbox.mbox(path)
    for m in messages:
        box.add(m)
    box.flush()
    box.close()


def mail_with_pdf(subject="Invoice for the paint", invoice: bytes | None = None) -> EmailMessage:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "ana@example.org", "ben@example.org", subject
    m["Date"] = "Tue, 03 Mar 2020 10:00:00 +0000"
    m.set_content("Please find the invoice attached.")
    invoice = invoice or badfiles.pdf_bytes(INVOICE)
    m.add_attachment(invoice, maintype="application", subtype="pdf", filename="invoice.pdf")
    m.add_attachment(b"Packing list for the boat: rope, flares, biscuits.\n", maintype="text", subtype="plain",
                     filename="list.txt")
    return m


def test_mbox_attachment_is_found_by_its_words(tmp_path, settings, fake_embedder):
    root = tmp_path / "mail"
    root.mkdir()
    # One PDF's bytes in both messages: fpdf stamps each PDF it writes with the second it was made.
    invoice = badfiles.pdf_bytes(INVOICE)
    add_to_mbox(root / "inbox.mbox", message("Lunch", "Lunch on Friday?", "Mon, 02 Mar 2020 12:00:00 +0000"),
                mail_with_pdf(invoice=invoice))
    (root / "note.eml").write_bytes(mail_with_pdf("Second invoice", invoice).as_bytes())
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=fake_embedder) as idx:
        idx.update()
        hits = idx.search("marine white litres", k=5, strategy="keyword", filters=Filters.build(["pdf"]))
        # The same invoice attached to two messages: one result, naming its copy.
        assert len(hits) == 1 and sorted([hits[0].path, *hits[0].copies]) == ["inbox.mbox#2/invoice.pdf",
                                                                              "note.eml#invoice.pdf"]
        # An attachment is dated by its message (a PDF by its own CreationDate first).
        hit = idx.search("rope flares biscuits", k=1, strategy="keyword", filters=Filters.build(path="inbox"))[0]
        assert (hit.path, hit.date) == ("inbox.mbox#2/list.txt", 1583229600)
        # The mailbox, its two messages and their two attachments; the .eml and its two.
        assert idx.update().unchanged == 8


def test_a_mailbox_inside_a_zip_is_one_file_of_dated_messages(tmp_path, settings, fake_embedder):
    """A Takeout zip's mailbox: files inside files are read one level deep, so its messages are its
    sections, newest first, each dated when sent; their attachments unread, the zip says so (before,
    its messages were dropped without a word: only the mailbox's line was indexed)."""
    from scent.extract import extract

    root = tmp_path / "takeout"
    root.mkdir()
    add_to_mbox(tmp_path / "All mail.mbox", message("Lunch", "Lunch at the harbour?", "Mon, 02 Mar 2020 12:00:00 +0000"),
                mail_with_pdf(invoice=badfiles.pdf_bytes(INVOICE)))
    with zipfile.ZipFile(root / "takeout.zip", "w") as z:
        z.write(tmp_path / "All mail.mbox", "Takeout/Mail/All mail.mbox")
    [member] = extract(str(root / "takeout.zip")).members
    assert [(s.title, s.date) for s in member.got.sections] == [("Invoice for the paint", 1583229600.0),
                                                               ("Lunch", 1583150400.0)]
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=fake_embedder) as idx:
        report = idx.update()
        assert "1 file(s) inside it hold files of their own, indexed by their names only (Takeout/Mail/All mail.mbox)" in (
            report.warnings[0][1])
        hits = idx.search("lunch harbour", strategy="keyword", filters=Filters.build((), None, None, "2020-03-02", None))
        assert [(h.path, h.title) for h in hits] == [("takeout.zip#Takeout/Mail/All mail.mbox", "Lunch")]


def test_a_mailbox_inside_a_zip_keeps_its_latest_messages_within_max_file_mb(tmp_path):
    from scent.extract import Limits, extract

    badfiles.write(tmp_path, "old.mbox", badfiles.many_messages(50))
    got = extract(str(tmp_path / "old.mbox"), Limits(member_depth=0, max_text_bytes=2_000))
    # Each message's text (its four header lines and "Body 49 about the harbour.") is 126 characters:
    # 15 of them fit in 2,000, newest first.
    assert [s.title for s in got.sections] == [f"message {n}" for n in range(49, 34, -1)]
    assert got.meta["left_out"] == [f"only its latest messages, {len(got.sections)}, were read (max_file_mb of "
                                    "text); unpack the archive to index every message as a file of its own"]


def dated_mailbox(path):
    add_to_mbox(path, *(message(subject, f"{subject}: shall we meet for lunch on Friday?", day)
                        for day, subject in (("Mon, 04 Mar 2019 12:00:00 +0000", "Lunch at the harbour"),
                                             ("Tue, 05 Mar 2024 09:00:00 +0000", "Lunch at the market"))))


def test_each_message_of_a_mailbox_is_dated_and_filtered_by_its_own_date(tmp_path, settings, fake_embedder):
    """"lunch after:2023" means the messages sent after 2023, not the mailbox's own file time."""
    root = tmp_path / "mail"
    root.mkdir()
    dated_mailbox(root / "inbox.mbox")
    os.utime(root / "inbox.mbox", (1_500_000_000, 1_500_000_000))  # the file itself: July 2017
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=fake_embedder) as idx:
        idx.update()
        for strategy in ("keyword", "dense", "hybrid"):  # each message a result of its own
            def found(**dates):  # the messages: the fake embedder's dense list holds any file
                hits = idx.search("lunch", k=5, strategy=strategy, filters=Filters.build(**dates))
                return [(h.path, h.date) for h in hits if h.path != "inbox.mbox"]

            assert found(after="2023") == [("inbox.mbox#2.eml", 1709629200)], strategy
            assert found(before="2019-12") == [("inbox.mbox#1.eml", 1551700800)], strategy
            assert not found(after="2019-04", before="2024-02"), strategy
        both = idx.search("lunch", k=5, strategy="keyword")
        assert sorted(h.path for h in both) == ["inbox.mbox#1.eml", "inbox.mbox#2.eml"]
        # The mailbox itself says what it holds, and is found by its name.
        box = idx.search("inbox mailbox", k=1, strategy="keyword")[0]
        assert (box.path, box.snippet) == ("inbox.mbox", "inbox.mbox: mailbox of 2 messages, sent 2019-03-04 to 2024-03-05")


def test_the_cli_names_a_message_by_its_subject(tmp_path, monkeypatch, capsys):
    from test_skipped import _scent

    root = tmp_path / "mail"
    root.mkdir()
    dated_mailbox(root / "inbox.mbox")
    monkeypatch.setenv("SCENT_HOME", str(tmp_path / "home"))
    code, _, err = _scent(monkeypatch, capsys, "index", str(root), "-q")
    assert code == 0, err
    code, out, err = _scent(monkeypatch, capsys, "search", "harbour", "--folder", str(root), "-k", "1",
                            "--strategy", "keyword")
    assert code == 0, err
    assert "\n 1. inbox.mbox#1.eml  (Lunch at the harbour)  [email]  " in "\n" + out, out


def test_an_index_from_before_messages_were_files_reads_its_mailboxes_again(tmp_path, fake_embedder):
    """A mailbox read by mail 1 (its messages its pages) is read again by this mail reader: its
    messages become files of their own, and its pages go."""
    root = tmp_path / "mail"
    root.mkdir()
    dated_mailbox(root / "inbox.mbox")
    (root / "note.md").write_text("# Lunch\n\nLunch notes from the market.\n")
    with Index(root, index_dir=tmp_path / "ix", embedder=fake_embedder) as idx:
        idx.update()
        idx.engine.db.execute("UPDATE files SET reader = 'mail 1.1' WHERE path LIKE 'inbox.mbox%'")
    with Index(root, index_dir=tmp_path / "ix", embedder=fake_embedder) as idx:
        report = idx.update()
        assert (report.updated, report.unchanged) == (3, 1)  # the mailbox and its two messages, not the note
        assert [(h.path, h.page) for h in idx.search("harbour", k=5, strategy="keyword")] == [("inbox.mbox#1.eml", None)]


def test_limits_leave_out_with_one_line(tmp_path, fake_embedder):
    root = tmp_path / "f"
    root.mkdir()
    zip_with(root / "many.zip", {f"n{i}.md": f"note number {i} about owls\n".encode() for i in range(5)})
    settings = Settings(max_archive_members=2)
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=fake_embedder) as idx:
        report = idx.update()
        assert set(paths(idx)) == {"many.zip", "many.zip#n0.md", "many.zip#n1.md"}
        assert report.warnings == [("many.zip", "only its first files, 2, were read (max_archive_members); raise "
                                                "max_archive_members to read the rest")]


# ---- the web API and MCP -----------------------------------------------------------------------

def picture_bytes() -> bytes:
    out = io.BytesIO()
    badfiles.photo(64, 48).save(out, "PNG")
    return out.getvalue()


@pytest.fixture
def served(folder, tmp_path, fake_embedder, monkeypatch):
    from fastapi.testclient import TestClient

    from scent.serve.app import create_app

    members = three_members()
    members["photos/heron.png"] = picture_bytes()
    zip_with(folder / "2024.zip", members)
    log = tmp_path / "opened.txt"
    opener = tmp_path / "bin" / "xdg-open"
    opener.parent.mkdir()
    opener.write_text(f'#!/bin/sh\necho "$1" >> {log}\n')
    opener.chmod(0o755)
    monkeypatch.setenv("PATH", f"{opener.parent}:/usr/bin:/bin")
    with Index(folder, index_dir=tmp_path / "ix", embedder=fake_embedder) as idx:
        idx.update()
        with TestClient(create_app(idx), raise_server_exceptions=False) as client:
            yield client, log, idx


def test_file_preview_thumb_and_open_of_a_member(served, folder):
    client, log, _ = served
    r = client.get("/api/file", params={"path": "2024.zip#walks.md"})
    assert r.status_code == 200 and r.content == MD_WORDS.encode()
    assert r.headers["content-type"].startswith("text/plain")
    r = client.get("/api/file", params={"path": "2024.zip#papers/boiler.pdf"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf" and r.content.startswith(b"%PDF")
    r = client.get("/api/preview", params={"path": "2024.zip#walks.md", "q": "lighthouse"})
    assert r.status_code == 200, r.text
    assert [b["tag"] for b in r.json()["blocks"]] == ["h1", "p"] and r.json()["hits"] == 1
    r = client.get("/api/preview", params={"path": "2024.zip#papers/boiler.pdf", "q": "boiler"})
    assert r.status_code == 200 and r.json()["kind"] == "pdf" and r.json()["hits"] == 1
    r = client.get("/api/thumb", params={"path": "2024.zip#photos/heron.png"})
    assert r.status_code == 200 and r.content[:2] == b"\xff\xd8"
    r = client.get("/api/thumb", params={"path": "2024.zip#papers/boiler.pdf", "page": 1})
    assert r.status_code == 200 and r.content[:2] == b"\xff\xd8"
    # Not indexed (setup.exe is not read), or no such member: 404, as for a file.
    assert client.get("/api/file", params={"path": "2024.zip#setup.exe"}).status_code == 404
    assert client.get("/api/file", params={"path": "2024.zip#../note.txt"}).status_code == 404
    r = client.post("/api/open", json={"path": "2024.zip#walks.md"}, headers={"Origin": "http://testserver"})
    assert r.status_code == 200, r.text
    for _ in range(200):
        if log.exists():
            break
        time.sleep(0.02)
    assert log.read_text().split() == [str((folder / "2024.zip").resolve())]  # the archive is what opens


def test_member_gone_from_the_archive_is_404_with_a_reason(served, folder):
    client, _, _ = served
    zip_with(folder / "2024.zip", {"other.md": b"# Other\n"})  # changed on disk, not re-indexed yet
    r = client.get("/api/file", params={"path": "2024.zip#walks.md"})
    assert r.status_code == 404 and "no file walks.md" in r.json()["error"]


def test_mcp_fetch_of_a_member(served):
    import asyncio

    from scent.serve.mcp_server import build_server

    _, _, idx = served
    server = build_server(idx)
    hit = idx.search("coastal lighthouse", k=1, strategy="keyword")[0]
    result = asyncio.run(server.call_tool("fetch", {"id": str(hit.unit_id)}))
    payload = getattr(result, "structured_content", None) or result.structuredContent
    assert payload["path"] == "2024.zip#walks.md" and "coastal path" in payload["text"]
    photo = idx.search("heron", k=5, strategy="keyword", filters=Filters.build(["image"]))[0]
    assert photo.path == "2024.zip#photos/heron.png"
    result = asyncio.run(server.call_tool("fetch", {"id": str(photo.unit_id)}))
    payload = getattr(result, "structured_content", None) or result.structuredContent
    assert payload["picture"] is True


# ---- bad input: one line each, bounded, the rest indexes ---------------------------------------

BAD = ["zip bomb (1 GiB member)", "nested zips (42.zip-style)", "password-protected zip",
       "tar with ../evil, absolute names, links and a device", "zip holding a damaged PDF"]


@pytest.fixture
def bad_folder(tmp_path):
    root = tmp_path / "bad"
    badfiles.make_folder(root, good=False, only=BAD)
    return root


def test_bad_archives_are_one_line_each_and_bounded(bad_folder, tmp_path, fake_embedder):
    import tempfile

    before = set(os.listdir(tempfile.gettempdir()))
    started = time.perf_counter()
    with Index(bad_folder, index_dir=tmp_path / "ix", embedder=fake_embedder) as idx:
        report = idx.update()
        seconds = time.perf_counter() - started
        skipped, warnings = dict(report.skipped), dict(report.warnings)
        assert set(skipped) == {"arch/bomb.zip#big.txt", "arch/with-bad.zip#damaged.pdf"}
        assert skipped["arch/bomb.zip#big.txt"] == ("it would inflate 1019.2 KB to 1024.0 MB (over 200x: a zip "
                                                    "bomb?); not read")
        assert skipped["arch/with-bad.zip#damaged.pdf"].startswith("unreadable PDF")
        assert warnings == {
            "arch/42.zip": "8 file(s) inside it hold files of their own, indexed by their names only (lib 0.zip, "
                           "lib 1.zip, lib 2.zip, lib 3.zip, lib 4.zip and 3 more): files inside files are read one "
                           "level deep; unpack them to index what they hold",
            "arch/locked.zip": "2 file(s) in it are password-protected (encrypted): scent cannot read them (secret.md, "
                               "plan.txt); unpack them with the password to index them",
            "arch/evil.tar.gz": "5 entr(ies) were not read: links, devices and names that lead outside the archive are "
                                "never followed ('../evil.txt' (its name leads outside the archive ('..')), "
                                "'/etc/evil.txt' (its name is an absolute path), 'link.txt' (a link), 'hard.txt' "
                                "(a link), 'tty.txt' (a device or special file))"}
        assert set(paths(idx)) == {
            "arch/bomb.zip", "arch/bomb.zip#readme.md", "arch/locked.zip", "arch/evil.tar.gz", "arch/evil.tar.gz#good.md",
            "arch/with-bad.zip", "arch/with-bad.zip#fine.md", "arch/42.zip", *(f"arch/42.zip#lib {i}.zip" for i in range(8))}
        assert top(idx, "small readme beside the bomb") == "arch/bomb.zip#readme.md"
        assert top(idx, "osprey nest") == "arch/evil.tar.gz#good.md"
        assert top(idx, "fine member beside") == "arch/with-bad.zip#fine.md"
        # the inner zips of 42.zip are listed by name, not opened
        inner, = idx.file_units("arch/42.zip#lib 0.zip")
        assert inner.kind == "archive" and inner.text.endswith("lib 6.zip lib 7.zip".replace(" lib", "\nlib"))
        assert not any("never land" in h.snippet for h in idx.search("evil words never land", strategy="keyword"))
        # A second run reads nothing and says the same skips again (they are still there to fix).
        again = idx.update()
        assert (again.added, again.updated, again.unchanged) == (0, 0, 16)
        assert dict(again.skipped) == skipped
    assert seconds < 30  # the 1 GiB member is never inflated
    assert not (bad_folder.parent / "evil.txt").exists() and not (bad_folder / "evil.txt").exists()
    assert set(os.listdir(tempfile.gettempdir())) - before <= {p for p in os.listdir(tempfile.gettempdir())
                                                              if not p.startswith("scent-member-")}


def test_a_member_inflating_past_its_declared_size_is_refused(tmp_path):
    """A zip whose header says 10 bytes for a member that inflates to a megabyte."""
    from scent.extract import extract

    path = tmp_path / "liar.zip"
    zip_with(path, {"a.txt": b"a" * 1_000_000})
    data = bytearray(path.read_bytes())
    info = zipfile.ZipFile(path).getinfo("a.txt")
    data[22 + info.header_offset:26 + info.header_offset] = (10).to_bytes(4, "little")  # local header's size
    cd = data.rfind(b"PK\x01\x02")
    data[cd + 24:cd + 28] = (10).to_bytes(4, "little")  # the central directory's
    path.write_bytes(bytes(data))
    member, = extract(str(path)).members
    assert member.got is None and ("inflates past" in member.reason or "cannot be read out" in member.reason)


def test_tar_bomb_stops_before_inflating_it(tmp_path):
    """A tar.gz whose one member is 600 MB of zeros (600 KB on disk): over max_archive_mb's 512 MB,
    so reading stops at its header; nothing past it is inflated."""
    import gzip

    path = tmp_path / "zeros.tar.gz"
    with gzip.open(path, "wb", compresslevel=1) as gz:
        with tarfile.open(fileobj=gz, mode="w|") as tar:
            info = tarfile.TarInfo("first.md")
            info.size = 9
            tar.addfile(info, io.BytesIO(b"# first\n\n"))
            info = tarfile.TarInfo("zeros.txt")
            info.size = 600 * 1024 * 1024

            class Zeros(io.RawIOBase):
                left = info.size

                def readable(self):
                    return True

                def readinto(self, b):
                    n = min(len(b), self.left)
                    b[:n] = bytes(n)
                    self.left -= n
                    return n
            tar.addfile(info, io.BufferedReader(Zeros(), 1 << 20))
    stops_at_the_bomb(path)


def stops_at_the_bomb(path) -> None:
    """An archive of first.md and then 600 MB of zeros is read to its first member, quickly, and
    says where it stopped."""
    from scent.extract import extract

    started = time.perf_counter()
    got = extract(str(path))
    assert time.perf_counter() - started < 5
    assert [m.name for m in got.members] == ["first.md"]
    assert got.meta["left_out"] == ["only the files within its first 512.0 MB were read (max_archive_mb); raise "
                                    "max_archive_mb to read the rest"]


def test_mbox_of_100000_messages_is_read_whole_one_message_at_a_time(tmp_path):
    """Every message, newest first (the latest mail is written first), handed over in a spool file
    that is read back in that order: no limit on how many, and no list of them in memory."""
    from scent.extract import Limits, extract
    from scent.extract.members import Spool

    path = tmp_path / "big.mbox"
    badfiles.write(tmp_path, "big.mbox", badfiles.many_messages(100_000))
    spool = tmp_path / "spool"
    spool.mkdir()
    got = extract(str(path), Limits(max_sections=2000, spool=str(spool)))
    assert isinstance(got.members, Spool) and len(got.members) == 100_000
    assert [p.name for p in spool.iterdir()] == [os.path.basename(got.members.path)]
    names = [m.name for m in got.members]
    assert names[:2] == ["100000.eml", "99999.eml"] and names[-1] == "1.eml" and len(set(names)) == 100_000
    assert next(iter(got.members)).got.title == "message 99999"  # many_messages counts from 0
    assert "left_out" not in got.meta
    assert got.sections[0].text == "big.mbox: mailbox of 100000 messages, sent 2020-03-02"
    got.members.discard()
    assert list(spool.iterdir()) == []


def test_a_mailbox_run_stopped_part_way_goes_on_where_it_stopped(tmp_path, settings):
    """The messages written before the stop are kept by the next run, not embedded again; the mailbox
    itself, written last, comes then; nothing is left in the spool folder."""
    from conftest import FakeEmbedder

    class Stopping(FakeEmbedder):
        def embed_passages(self, texts):
            if self.passages_seen >= 40:
                raise KeyboardInterrupt
            return super().embed_passages(texts)

    root = tmp_path / "mail"
    root.mkdir()
    badfiles.write(root, "big.mbox", badfiles.many_messages(30))
    settings = settings.with_values(embed_batch=8)
    with pytest.raises(KeyboardInterrupt):
        with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=Stopping()) as idx:
            idx.update()
    assert not (tmp_path / "ix" / "spool").exists()
    whole = FakeEmbedder()
    with Index(root, index_dir=tmp_path / "whole", settings=settings, embedder=whole) as idx:
        idx.update()
    again = FakeEmbedder()
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=again) as idx:
        report = idx.update()
        assert report.touched > 0 and report.added == 31 - report.touched
        assert 0 < again.passages_seen < whole.passages_seen
        assert idx.update().unchanged == 31
        assert top(idx, "message 29") == "big.mbox#30.eml" and top(idx, "message 0") == "big.mbox#1.eml"


def test_a_spool_sent_to_another_process_is_read_there(tmp_path):
    """Pickled (a reader process's answer), a spool is its file: the members come back in order."""
    import pickle

    from scent.extract.members import Spool
    from scent.units import Extracted, Member, Section

    spool = Spool(str(tmp_path))
    for n in (3, 1, 2):
        spool.append(Member(f"{n}.eml", Extracted(kind="email", sections=[Section(text=f"message {n}", kind="email")])))
    there = pickle.loads(pickle.dumps(spool))
    del spool  # the reader's copy is gone: the file is the copy's that arrived
    assert [(m.name, m.got.sections[0].text) for m in there] == [("3.eml", "message 3"), ("1.eml", "message 1"),
                                                                  ("2.eml", "message 2")]
    assert len(there) == 3 and [m.name for m in there] == ["3.eml", "1.eml", "2.eml"]  # read again from the start
    del there  # no longer used: removed, as a library caller of extract() would leave it
    assert list(tmp_path.iterdir()) == []


def test_a_mailboxs_attachments_past_the_limit_are_its_oldest(tmp_path):
    """Read newest first, the attachments max_archive_members leaves out are the oldest mail's."""
    from scent.extract import Limits, extract

    for n in (1, 2, 3):
        add_to_mbox(tmp_path / "box.mbox", mail_with_pdf(f"Invoice {n}"))
    got = extract(str(tmp_path / "box.mbox"), Limits(max_members=2))
    assert [m.name for m in got.members] == ["3.eml", "3/invoice.pdf", "3/list.txt", "2.eml", "1.eml"]
    assert got.meta["left_out"] == ["only the files of its newest messages, 2, were read (max_archive_members); "
                                    "raise max_archive_members to read the rest"]


def test_a_mailbox_read_on_a_full_disk_says_so(tmp_path, monkeypatch):
    """Its messages wait on disk: a full one is named as the reason, not "vanished or unreadable"."""
    import errno

    from scent.errors import ExtractError
    from scent.extract import Limits, extract
    from scent.extract.members import Spool

    add_to_mbox(tmp_path / "box.mbox", message("Lunch", "At the harbour?"))

    def full(self, member):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Spool, "append", full)
    (tmp_path / "spool").mkdir()
    with pytest.raises(ExtractError) as err:
        extract(str(tmp_path / "box.mbox"), Limits(spool=str(tmp_path / "spool")))
    assert err.value.reason.startswith("no space left to read it (No space left on device: a mailbox's messages wait")
    assert list((tmp_path / "spool").iterdir()) == []


def test_a_mailbox_is_not_cut_by_the_text_budget_of_one_file(tmp_path):
    """max_file_mb bounds a file's text held at once; a mailbox holds one message at once."""
    from scent.extract import Limits, extract

    badfiles.write(tmp_path, "big.mbox", badfiles.many_messages(50))
    one = len(next(iter(extract(str(tmp_path / "big.mbox")).members)).got.sections[0].text)
    got = extract(str(tmp_path / "big.mbox"), Limits(max_text_bytes=int(one * 3.5)))
    assert len(got.members) == 50 and "left_out" not in got.meta


def test_a_mailbox_past_max_units_per_file_is_indexed_whole(tmp_path, settings, fake_embedder):
    """Each message is written as its batch is embedded, the mailbox last; the spool is gone after."""
    root = tmp_path / "mail"
    root.mkdir()
    badfiles.write(root, "big.mbox", badfiles.many_messages(30))
    settings = settings.with_values(max_units_per_file=10, embed_batch=4)
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=fake_embedder) as idx:
        report = idx.update()
        assert (report.added, report.warnings) == (31, [])
        assert top(idx, "message 0") == "big.mbox#1.eml" and top(idx, "message 29") == "big.mbox#30.eml"
        assert idx.update().unchanged == 31
    assert not (tmp_path / "ix" / "spool").exists()


def test_a_mailbox_that_gained_a_message_writes_that_message(tmp_path, settings, fake_embedder):
    """Its other messages (and their attachments) have the same bytes: kept as they are, not written again."""
    root = tmp_path / "mail"
    root.mkdir()
    dated_mailbox(root / "inbox.mbox")
    add_to_mbox(root / "inbox.mbox", mail_with_pdf())
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=fake_embedder) as idx:
        assert idx.update().added == 6  # the mailbox, 3 messages, 2 attachments
        add_to_mbox(root / "inbox.mbox", message("Dinner", "Dinner at the lighthouse instead?",
                                                 "Wed, 06 Mar 2024 19:00:00 +0000"))
        report = idx.update()
        assert (report.added, report.updated, report.touched) == (1, 1, 5)  # the new message; the mailbox's line
        assert top(idx, "dinner lighthouse") == "inbox.mbox#4.eml"
        assert top(idx, "rope flares biscuits") == "inbox.mbox#3/list.txt"
        # the kept ones carry the mailbox's new size: the next run finds nothing changed
        assert idx.update().unchanged == 7


def test_a_mailbox_that_gained_a_message_parses_that_message(tmp_path, settings, fake_embedder, monkeypatch):
    """The messages the index holds as they are (same number, same bytes, no attachments) are named,
    not parsed again; one with attachments is parsed (its attachments are kept as they are). The
    mailbox's own line (how many, sent when) is what a whole reading says."""
    import email

    from scent.extract import extract
    from scent.extract import mail as mail_reader

    root = tmp_path / "mail"
    root.mkdir()
    dated_mailbox(root / "inbox.mbox")
    add_to_mbox(root / "inbox.mbox", mail_with_pdf())  # two attachments
    settings = replace(settings, index_workers=1)  # read here, where the parses are counted
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=fake_embedder) as idx:
        idx.update()
        add_to_mbox(root / "inbox.mbox", message("Dinner", "Dinner at the lighthouse instead?",
                                                 "Wed, 06 Mar 2024 19:00:00 +0000"))
        parsed = []
        real = email.message_from_bytes
        monkeypatch.setattr(mail_reader.email, "message_from_bytes",
                            lambda raw, **kw: parsed.append(real(raw, **kw)["Subject"]) or real(raw, **kw))
        report = idx.update()
        assert (report.added, report.updated, report.touched) == (1, 1, 5)
        assert parsed == ["Dinner", "Invoice for the paint"]  # the new one; the one with attachments
        line = idx.search("inbox.mbox mailbox", k=1, strategy="keyword")[0]
        monkeypatch.undo()
        whole = extract(str(root / "inbox.mbox"))
        assert line.path == "inbox.mbox"
        assert idx.engine.catalog.units([line.unit_id])[line.unit_id].text == whole.sections[0].text
        assert whole.sections[0].text == "inbox.mbox: mailbox of 4 messages, sent 2019-03-04 to 2024-03-06"
        assert top(idx, "dinner lighthouse") == "inbox.mbox#4.eml"


def test_a_member_picture_is_read_again_from_its_archive(tmp_path):
    """The temporary copy is gone when an image-text model wants the pixels: they come from the zip."""
    import pickle

    from scent.extract import Limits, extract

    zip_with(tmp_path / "pic.zip", {"photos/heron.png": picture_bytes()})
    member, = extract(str(tmp_path / "pic.zip"), Limits(describe=True)).members
    picture, = [s.picture for s in member.got.sections if s.picture]
    load = pickle.loads(pickle.dumps(picture.load))  # as a reader process sends it back
    assert load(32).size == (64, 48)


def seven_zip(path, files: dict[str, bytes]) -> None:
    """A 7-Zip archive written by libarchive (LZMA, solid by default), as 7-Zip writes them."""
    import libarchive

    with libarchive.file_writer(str(path), "7zip") as archive:
        for name, data in files.items():
            archive.add_file_from_memory(name, len(data), data, mtime=(1_500_000_000, 0))


def test_7z_and_tar_xz_members_are_files_of_their_own(tmp_path, fake_embedder):
    pytest.importorskip("libarchive")
    root = tmp_path / "f"
    root.mkdir()
    seven_zip(root / "photos-2017.7z", {"notes/walks.md": MD_WORDS.encode(),
                                        "boiler.pdf": badfiles.pdf_bytes([PDF_WORDS]), "setup.exe": b"MZ\x90\x00"})
    with tarfile.open(root / "old.tar.xz", "w:xz") as tar:
        info = tarfile.TarInfo("list.txt")
        data = b"Packing list for the boat: rope, flares, biscuits.\n"
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    with Index(root, index_dir=tmp_path / "ix", embedder=fake_embedder) as idx:
        report = idx.update()
        assert report.added == 5 and not report.skipped  # two archives, three members (not the .exe)
        hit = idx.search("coastal lighthouse", k=1, strategy="keyword")[0]
        assert (hit.path, hit.date) == ("photos-2017.7z#notes/walks.md", 1_500_000_000)
        assert top(idx, "boiler serviced") == "photos-2017.7z#boiler.pdf"
        assert top(idx, "rope flares biscuits") == "old.tar.xz#list.txt"
        assert top(idx, "setup") == "photos-2017.7z"  # a member it does not read, found by its name
    from scent.extract.members import read_member

    assert read_member(str(root / "photos-2017.7z"), "notes/walks.md") == MD_WORDS.encode()


def test_a_7z_cut_short_or_a_rar_that_is_none_is_one_line(tmp_path):
    pytest.importorskip("libarchive")
    from test_formats import reason_of

    path = tmp_path / "cut.7z"
    seven_zip(path, {f"n{i}.md": f"# note {i}\n\n{MD_WORDS}".encode() for i in range(20)})
    path.write_bytes(path.read_bytes()[:-10])  # its header is at its end: nothing can be listed
    assert reason_of(path) == ("not a readable 7-Zip archive (Malformed 7-Zip archive); it may be damaged, cut short, "
                               "encrypted, or another format renamed; add it to .scentignore")
    fake = tmp_path / "film.rar"
    fake.write_bytes(b"a film, not an archive")
    assert reason_of(fake).startswith("not a readable RAR archive (Unrecognized archive format)")


def test_7z_bomb_stops_before_inflating_it(tmp_path):
    """A solid 7z whose second member is 600 MB of zeros: over max_archive_mb's 512 MB, so reading
    stops at its header, nothing of it inflated."""
    pytest.importorskip("libarchive")
    import libarchive

    path = tmp_path / "zeros.7z"
    with libarchive.file_writer(str(path), "7zip") as archive:
        archive.add_file_from_memory("first.md", 9, b"# first\n\n")
        chunk = bytes(1 << 20)
        archive.add_file_from_memory("zeros.txt", 600 << 20, (chunk for _ in range(600)))
    assert path.stat().st_size < 1 << 20
    stops_at_the_bomb(path)


def test_a_comic_book_is_its_pages_pictures(tmp_path):
    """.cbz (a zip of the pages) and .cb7: each page a picture of the archive, read as images are."""
    pytest.importorskip("libarchive")
    from PIL import Image

    from scent.extract import extract, file_kind

    pages = {}
    for n, colour in enumerate(((200, 30, 30), (30, 30, 200)), 1):
        out = io.BytesIO()
        Image.new("RGB", (120, 180), colour).save(out, "PNG")
        pages[f"Issue 1/page{n:03d}.png"] = out.getvalue()
    with zipfile.ZipFile(tmp_path / "Harbour Tales 1.cbz", "w") as z:
        for name, data in pages.items():
            z.writestr(name, data)
    seven_zip(tmp_path / "Harbour Tales 2.cb7", pages)
    for name in ("Harbour Tales 1.cbz", "Harbour Tales 2.cb7"):
        got = extract(str(tmp_path / name))
        assert file_kind(name) == got.kind == "archive"
        assert [(m.name, m.got.kind) for m in got.members] == [("Issue 1/page001.png", "image"),
                                                               ("Issue 1/page002.png", "image")]


def test_thunderbirds_mailboxes_are_read_as_mboxes(tmp_path, settings, fake_embedder):
    """Thunderbird keeps each folder as an mbox without an extension beside its .msf summary:
    Mail/Local Folders/Inbox, a subfolder's messages in Receipts.sbd/2024, an IMAP account's in
    ImapMail/SERVER/INBOX. Other files without an extension stay unread."""
    profile = tmp_path / "thunderbird" / "x.default-release"
    local, imap = profile / "Mail" / "Local Folders", profile / "ImapMail" / "imap.example.org"
    for folder in (local / "Receipts.sbd", imap):
        folder.mkdir(parents=True)
    lunch = message("Lunch", "Lunch on Friday at the harbour cafe?", "Mon, 02 Mar 2020 12:00:00 +0000")
    for path, m in ((local / "Inbox", lunch), (local / "Receipts.sbd" / "2024", mail_with_pdf()),
                    (imap / "INBOX", mail_with_pdf("Invoice for the sails"))):
        add_to_mbox(path, m)
        path.with_name(path.name + ".msf").write_text("// <!-- <mdb:mork:z v=\"1.4\"/> -->")
    (profile / "Mail" / "Local Folders" / "popstate").write_bytes(b"")  # an empty file: an empty mailbox
    (tmp_path / "thunderbird" / "notes").mkdir()
    (tmp_path / "thunderbird" / "notes" / "Inbox").write_text("a note named Inbox, not a mailbox")
    with Index(tmp_path / "thunderbird", index_dir=tmp_path / "ix", settings=settings, embedder=fake_embedder) as idx:
        report = idx.update()
        assert not report.skipped
        hit = idx.search("harbour cafe friday", k=1, strategy="keyword")[0]
        assert (hit.path, hit.kind, hit.title) == ("x.default-release/Mail/Local Folders/Inbox#1.eml", "email", "Lunch")
        # Both mailboxes hold the list (the same bytes): the first by name is named, the other its copy.
        hit = idx.search("rope flares biscuits", k=1, strategy="keyword")[0]
        assert (hit.path, hit.copies) == ("x.default-release/ImapMail/imap.example.org/INBOX#1/list.txt",
                                          ("x.default-release/Mail/Local Folders/Receipts.sbd/2024#1/list.txt",))
        assert top(idx, "invoice sails") == "x.default-release/ImapMail/imap.example.org/INBOX#1.eml"
        assert not idx.search("note named", strategy="keyword")  # notes/Inbox is not one of Thunderbird's


def test_messages_renumbered_by_a_compacted_mailbox_keep_their_vectors(tmp_path, settings, fake_embedder):
    """Message 1 removed from the mbox (Thunderbird compacts a folder after a delete): the next messages
    move up a number, and each takes the vectors its text had under its old number: only the mailbox's
    own line is embedded again."""
    root = tmp_path / "mail"
    root.mkdir()
    messages = [message(subject, f"{subject}: a few sentences. About the {subject.lower()} this week. Nothing else.",
                        f"Mon, 0{n + 2} Mar 2020 12:00:00 +0000")
                for n, subject in enumerate(("Lunch", "Boiler service", "Harbour dues"))]

    def write(ms):
        (root / "inbox.mbox").unlink(missing_ok=True)
        add_to_mbox(root / "inbox.mbox", *ms)

    write(messages)
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=fake_embedder) as idx:
        first = idx.update()
        write(messages[1:])
        report = idx.update()
        line = idx.engine.catalog.file_units("inbox.mbox")
        assert first.embedded > 6 and report.embedded == len(line) == 1  # the line: "mailbox of 2 messages ..."
        assert (report.updated, report.deleted) == (3, 1) and "inbox.mbox#3.eml" not in paths(idx)
        assert top(idx, "harbour dues") == "inbox.mbox#2.eml"


def test_a_message_of_a_thunderbird_folder_at_the_indexed_folders_top_can_be_sent(tmp_path, fake_embedder):
    """Local Folders indexed itself: its custom folder Receipts is a mailbox by its parent's name,
    and the web UI finds its messages in it by that too."""
    from scent.serve.files import locate, member_bytes

    local = tmp_path / "Local Folders"
    local.mkdir()
    add_to_mbox(local / "Receipts", mail_with_pdf("Bike shop receipt"))
    with Index(local, index_dir=tmp_path / "ix", embedder=fake_embedder) as idx:
        idx.update()
        assert top(idx, "rope flares biscuits") == "Receipts#1/list.txt"
    container, name = locate(str(local), "Receipts#1.eml", True)
    assert (container, name) == ((local / "Receipts").resolve(), "1.eml")
    assert b"Subject: Bike shop receipt" in member_bytes(container, name)
    assert locate(str(local), "Receipts#1/list.txt", True)[1] == "1/list.txt"


def test_a_message_thunderbird_deleted_is_not_read(tmp_path):
    """Deleted in Thunderbird, a message stays in its mbox (flagged Expunged, 0x0008, in
    X-Mozilla-Status) until the folder is compacted: it is left out, and the others keep their numbers."""
    from scent.extract import extract

    (tmp_path / "Local Folders").mkdir()
    add_to_mbox(tmp_path / "Local Folders" / "Inbox",  # read; read and deleted; not a number
                *(message(f"Message {n}", f"Body {n}.", X_Mozilla_Status=status)
                  for n, status in enumerate(("0001", "0009", "zz"), 1)))
    got = extract(str(tmp_path / "Local Folders" / "Inbox"))
    assert [(m.name, m.got.title) for m in got.members] == [("3.eml", "Message 3"), ("1.eml", "Message 1")]


def test_a_joplin_export_is_a_tar_of_its_notes(tmp_path):
    from scent.extract import extract, file_kind

    path = tmp_path / "notebooks.jex"
    note = b"Harbour budget\n\nDredging the east quay: 42,000 EUR.\n\nid: 5f2a\ncreated_time: 2020-03-01T10:00:00.000Z\n"
    with tarfile.open(path, "w") as tar:
        info = tarfile.TarInfo("5f2a9c0e0d8e4a1b9c7d6e5f4a3b2c1d.md")
        info.size = len(note)
        tar.addfile(info, io.BytesIO(note))
    got = extract(str(path))
    assert file_kind(str(path)) == got.kind == "archive"
    assert [(m.name, m.got.kind) for m in got.members] == [("5f2a9c0e0d8e4a1b9c7d6e5f4a3b2c1d.md", "text")]
    assert "Dredging the east quay" in got.members[0].got.sections[0].text


def test_maildir_messages_are_mails_of_their_own(tmp_path, settings, fake_embedder):
    """A Maildir (mutt's, KMail's, an mbsync backup): each message a file in cur/ or new/, named by
    its arrival time, a unique part and the host, flags after a colon."""
    (tmp_path / "Mail").mkdir()
    box = mailbox.Maildir(tmp_path / "Mail" / "work", create=True)
    key = box.add(mail_with_pdf("Invoice for the sails"))
    box.add(mailbox.MaildirMessage(EmailMessage()))  # a message without a header: skipped, saying why
    box.close()
    (tmp_path / "Mail" / "work" / "cur" / "notes").write_text("not a message: no arrival time in its name")
    new = sorted((tmp_path / "Mail" / "work" / "new").iterdir())[0]
    new.rename(new.parent.parent / "cur" / (new.name + ":2,S"))  # read, as a mail program moves it
    with Index(tmp_path / "Mail", index_dir=tmp_path / "ix", settings=settings, embedder=fake_embedder) as idx:
        report = idx.update()
        hit = idx.search("invoice sails", k=1, strategy="keyword")[0]
        assert hit.kind == "email" and hit.path.startswith("work/") and key in hit.path
        assert top(idx, "rope flares biscuits").endswith("#list.txt")  # its attachment, a file of its own
        # cur/notes is passed by, as a kind scent does not read; the headerless message is said
        assert [reason.split(" (")[0] for _, reason in report.skipped] == ["not an e-mail message"]


def _telling(flag, word: str = ""):
    """A fake embedder that touches `flag` when it embeds a text holding `word`: the run has taken
    files (a reader process sees it)."""
    from conftest import FakeEmbedder

    class Telling(FakeEmbedder):
        def embed_passages(self, texts):
            if any(word in t for t in texts):
                flag.touch()
            return super().embed_passages(texts)
    return Telling()


def _reader_waits_at(count: int, tmp_path, monkeypatch, then=None):
    """Make a container's reader (in its reader process: forked, it has this patch) stop after
    spooling `count` members until the run has embedded something (`_telling` touches the file
    returned), at most 30 s; write to tmp_path/"waited" whether it had, then call `then()`."""
    from scent.extract.members import Spool

    real, embedded, waited = Spool.append, tmp_path / "embedded", tmp_path / "waited"

    def append(self, member):
        real(self, member)
        if self.count == count:
            deadline = time.monotonic() + 30
            while not embedded.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            waited.write_text("embedded" if embedded.exists() else "not embedded")
            if then is not None:
                then()
    monkeypatch.setattr(Spool, "append", append)
    return embedded


def test_a_mailbox_is_embedded_while_its_reader_reads_it(tmp_path, settings, monkeypatch):
    """The run takes a mailbox's messages as its reader process spools them: the first are embedded
    (and written) while the reader has not read the rest, and the progress counts its messages
    before they are read."""
    embedded, waited = _reader_waits_at(60, tmp_path, monkeypatch), tmp_path / "waited"
    root = tmp_path / "mail"
    root.mkdir()
    badfiles.write(root, "big.mbox", badfiles.many_messages(120))
    seen = []
    settings = settings.with_values(embed_batch=8, index_workers=2)
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=_telling(embedded)) as idx:
        report = idx.update(progress=seen.append)
        assert waited.read_text() == "embedded"
        assert report.added == 121 and report.skipped == []
        assert top(idx, "message 119") == "big.mbox#120.eml" and top(idx, "message 0") == "big.mbox#1.eml"
        assert idx.update().unchanged == 121
    # 120 messages counted while the first were embedded; at the end, every file done
    assert any(p.files_total >= 120 and p.files_done < 60 for p in seen)
    assert (seen[-1].files_done, seen[-1].files_total) == (121, 121)
    assert not (tmp_path / "ix" / "spool").exists()


def test_a_mailbox_whose_reader_dies_part_way_keeps_what_it_gave(tmp_path, settings, monkeypatch):
    """A reader killed part way through a mailbox (a native library's fault on an attachment):
    the messages it spooled before are written, the mailbox is skipped with the reason, and the
    next run reads it whole, keeping those messages as they are."""
    from scent.skipped import CRASHED

    embedded = _reader_waits_at(30, tmp_path, monkeypatch, then=lambda: os._exit(1))
    root = tmp_path / "mail"
    root.mkdir()
    badfiles.write(root, "big.mbox", badfiles.many_messages(80))
    settings = settings.with_values(embed_batch=8, index_workers=2)
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=_telling(embedded)) as idx:
        report = idx.update()
        assert [(path, reason.split(" (")[0]) for path, reason in report.skipped] == [("big.mbox", CRASHED)]
        assert report.added == 30
        assert top(idx, "message 79") == "big.mbox#80.eml"  # the newest first
        monkeypatch.undo()
        again = idx.update()
        assert (again.added, again.touched, again.skipped) == (51, 30, [])
        assert top(idx, "message 0") == "big.mbox#1.eml"


def test_a_mailbox_read_beside_other_files_is_followed_and_read_again_when_its_pool_dies(tmp_path, settings,
                                                                                        monkeypatch):
    """Among enough files for a pool of readers, a mailbox is followed as well; when its reader dies
    part way (taking the pool down), it is read again by a process of its own: every message is
    indexed, those written before kept, and no file is skipped."""
    died = tmp_path / "died"

    def die_once():  # once, after the run took its first messages
        if not died.exists():
            died.write_text("embedded" if embedded.exists() else "not embedded")
            os._exit(1)
    embedded = _reader_waits_at(30, tmp_path, monkeypatch, then=die_once)
    root = tmp_path / "mail"
    root.mkdir()
    for n in range(40):
        (root / f"note{n}.md").write_text(f"# Note {n}\n\nA note about the harbour, number {n}.\n")
    badfiles.write(root, "big.mbox", badfiles.many_messages(80))
    settings = settings.with_values(embed_batch=8, index_workers=2)
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=_telling(embedded, "message")) as idx:
        report = idx.update()
        assert died.read_text() == "embedded" and report.skipped == []
        assert report.readers == 2
        assert top(idx, "message 79") == "big.mbox#80.eml" and top(idx, "message 0") == "big.mbox#1.eml"
        assert idx.update().unchanged == 121


def test_an_archive_is_embedded_while_its_reader_reads_it(tmp_path, settings, monkeypatch):
    """An archive's members are spooled as they are read, and the run takes them as they come: the
    first are embedded while the reader has not read the rest (a zip of scans to OCR)."""
    embedded, waited = _reader_waits_at(30, tmp_path, monkeypatch), tmp_path / "waited"
    root = tmp_path / "docs"
    root.mkdir()
    with zipfile.ZipFile(root / "notes.zip", "w") as z:
        for n in range(60):
            z.writestr(f"notes/note{n}.md", f"# Note {n}\n\nThe harbour crane number {n} was inspected.\n")
    settings = settings.with_values(embed_batch=8, index_workers=2)
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=_telling(embedded)) as idx:
        report = idx.update()
        assert waited.read_text() == "embedded"
        assert report.added == 61 and report.skipped == []
        assert top(idx, "harbour crane number 59") == "notes.zip#notes/note59.md"
        assert idx.update().unchanged == 61


def test_a_mailbox_attached_to_a_followed_mailboxs_message_does_not_lead_the_run_astray(tmp_path, settings,
                                                                                       monkeypatch):
    """A message's attached mailbox spools its own messages in a folder below the mailbox's: the run
    follows the mailbox's spool, not the attachment's, and every message is indexed."""
    embedded = _reader_waits_at(30, tmp_path, monkeypatch)
    root = tmp_path / "mail"
    root.mkdir()
    badfiles.write(root, "big.mbox", badfiles.many_messages(60))
    forwarded = message("Old mail", "The old mailbox, attached.", "Tue, 03 Mar 2020 10:00:00 +0000")
    forwarded.add_attachment(badfiles.many_messages(3), maintype="application", subtype="mbox", filename="old.mbox")
    add_to_mbox(root / "big.mbox", forwarded)  # the newest: read first
    settings = settings.with_values(embed_batch=8, index_workers=2)
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=_telling(embedded)) as idx:
        report = idx.update()
        assert report.skipped == []
        paths = {p for p in idx.engine.catalog.file_states()}
        assert {f"big.mbox#{n}.eml" for n in range(1, 62)} <= paths and "big.mbox#61/old.mbox" in paths
        assert top(idx, "message 0") == "big.mbox#1.eml"


def test_the_places_kept_of_a_mailbox_leave_with_it(tmp_path, settings, fake_embedder, scent_home):
    """The messages' places kept in scent's cache (to open one message without reading the whole
    mailbox) are removed when the mailbox is deleted, renamed, or its index forgotten."""
    root = tmp_path / "mail"
    root.mkdir()
    for n, name in enumerate(("a.mbox", "b.mbox", "c.mbox")):
        badfiles.write(root, name, badfiles.many_messages(3 + n))
    kept = scent_home / "cache" / "mailboxes"
    with Index(root, index_dir=tmp_path / "ix", settings=settings, embedder=fake_embedder) as idx:
        idx.update()
        assert len(list(kept.iterdir())) == 3
        (root / "a.mbox").unlink()
        (root / "b.mbox").rename(root / "b2.mbox")
        report = idx.update()
        assert (report.deleted, report.renamed) == (4, 5)  # each mailbox and its messages
        assert len(list(kept.iterdir())) == 1  # c.mbox's: b2.mbox was not read again (renamed)
    Index.forget(index_dir=tmp_path / "ix", settings=settings)
    assert list(kept.iterdir()) == []
