"""Files like a file (scent.similar) through every surface: the library, the CLI, the HTTP API and
MCP. The fake embedder hashes words, so files that share words are near: the two boiler notes are
each other's nearest, the soup recipe far from both, and a copy of the seed is never its own match."""
from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from conftest import FakeEmbedder
from scent import Filters, Index
from scent.errors import NotIndexed, UsageError
from scent.settings import Settings

BOILER = "# Boiler service\n\nThe gas boiler was serviced and the pressure valve replaced.\n"


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "house"
    (root / "old").mkdir(parents=True)
    (root / "boiler.md").write_text(BOILER)
    (root / "old" / "boiler copy.md").write_text(BOILER)  # the same bytes: a copy of the seed
    (root / "heating.md").write_text("# Heating\n\nThe boiler pressure dropped again; the valve leaks, the gas "
                                     "engineer comes Monday.\n")
    (root / "soup.md").write_text("# Soup\n\nSimmer tomatoes with garlic and basil for twenty minutes.\n")
    (root / "plan.md").write_text("# Plan\n\n## Garden\n\nPlant basil and tomatoes by the wall.\n\n"
                                  "## Boiler\n\nReplace the boiler valve before winter; ask the gas engineer.\n")
    return root


@pytest.fixture
def idx(folder, tmp_path):
    with Index(folder, index_dir=tmp_path / "ix", embedder=FakeEmbedder()) as index:
        index.update()
        yield index


def test_the_nearest_files_come_first_the_seed_and_its_copies_never(idx):
    got = idx.similar("boiler.md")
    assert {r.path for r in got[:2]} == {"heating.md", "plan.md"} and got[2].path == "soup.md"  # plan by its boiler part
    assert not {"boiler.md", "old/boiler copy.md"} & {r.path for r in got}
    assert next(r for r in got if r.path == "plan.md").snippet.startswith("Boiler")  # the answering section
    assert got[0].score > got[-1].score and [r.rank for r in got] == list(range(1, len(got) + 1))
    assert [r.path for r in idx.similar("boiler.md", k=1)] == [got[0].path]
    # The filters of a search hold: only paths under old/ may answer, and only the seed's copy is there.
    assert idx.similar("boiler.md", filters=Filters.build((), "old/", None, None, None)) == []


def test_a_seed_not_in_the_index_or_a_page_it_has_not_is_one_line(idx):
    with pytest.raises(NotIndexed, match="missing.md is not in this index"):
        idx.similar("missing.md")
    root = Path(idx.root)
    (root / "blob.dat").write_bytes(b"\x00\x01")
    idx.update()
    (root / "later.md").write_text("written after the run")
    with pytest.raises(NotIndexed, match=r"^blob.dat is not indexed: scent does not index .dat files"):
        idx.similar("blob.dat")  # why, as `scent status --skipped` says it
    with pytest.raises(NotIndexed, match=r"^later.md is not indexed: it is new since the last run"):
        idx.similar("later.md")
    with pytest.raises(UsageError, match="has no page 4"):
        idx.similar("boiler.md", page=4)
    with pytest.raises(UsageError, match="k must be at least 1"):
        idx.similar("boiler.md", k=0)


def test_a_file_with_nothing_read_from_it_is_one_line(folder, tmp_path):
    from scent.errors import ScentError

    (folder / "empty.txt").write_text("")
    with Index(folder, index_dir=tmp_path / "ix2", embedder=FakeEmbedder()) as idx:
        idx.update()
        assert idx.file_units("empty.txt") == []
        with pytest.raises(ScentError, match="empty.txt has nothing to compare"):
            idx.similar("empty.txt")


def test_cli_takes_the_file_on_disk_and_finds_its_index(folder, idx, monkeypatch, capsys, tmp_path):
    from test_skipped import _scent

    monkeypatch.setenv("SCENT_HOME", str(tmp_path / "home"))
    code, _, err = _scent(monkeypatch, capsys, "index", str(folder), "-q")
    assert code == 0, err
    monkeypatch.chdir(tmp_path)  # elsewhere: the index is found from the file's own folder
    code, out, err = _scent(monkeypatch, capsys, "similar", str(folder / "boiler.md"), "--json", "-k", "2")
    assert code == 0, err
    assert {json.loads(line)["path"] for line in out.splitlines()} == {"heating.md", "plan.md"}
    code, out, err = _scent(monkeypatch, capsys, "similar", "boiler.md", "--folder", str(folder), "-k", "1")
    assert code == 0 and out.startswith((" 1. heating.md:1  [text]", " 1. plan.md:7  [text]"))  # the passage's line
    code, _, err = _scent(monkeypatch, capsys, "similar", "nowhere.md", "--folder", str(folder))
    assert code == 1 and "nowhere.md is not in this index" in err


def test_http_api_and_mcp(idx):
    pytest.importorskip("fastapi")
    pytest.importorskip("mcp")
    from fastapi.testclient import TestClient

    from scent.serve.app import create_app
    from scent.serve.mcp_server import build_server

    with TestClient(create_app(idx)) as client:
        r = client.get("/api/similar", params={"file": "boiler.md", "k": 2})
        assert r.status_code == 200
        assert {x["path"] for x in r.json()["results"]} == {"heating.md", "plan.md"}
        r = client.get("/api/similar", params={"file": "boiler.md", "path": "soup"})  # a filter, as in a search
        assert [x["path"] for x in r.json()["results"]] == ["soup.md"]
        r = client.get("/api/similar", params={"file": "missing.md"})
        assert (r.status_code, r.json()["error"].startswith("missing.md is not in this index")) == (404, True)
    server = build_server(idx)
    seed = idx.search("gas boiler serviced", k=1)[0]
    loop = asyncio.new_event_loop()
    try:
        out = loop.run_until_complete(server.call_tool("similar", {"id": str(seed.unit_id), "k": 2}))
    finally:
        loop.close()
    structured = out.structured_content if hasattr(out, "structured_content") else out.structuredContent
    assert {h["path"] for h in structured["results"]} == {"heating.md", "plan.md"}


def test_the_files_inside_the_seed_and_the_file_it_is_inside_are_parts_not_like_it(tmp_path):
    import zipfile

    folder = tmp_path / "mail"
    folder.mkdir()
    with zipfile.ZipFile(folder / "boiler papers.zip", "w") as z:
        z.writestr("boiler.md", BOILER)
        z.writestr("heating.md", "# Heating\n\nThe boiler pressure dropped; the gas engineer replaced the valve.\n")
    (folder / "valve.md").write_text("# Valve\n\nThe boiler pressure valve was replaced by the gas engineer.\n")
    with Index(folder, index_dir=tmp_path / "ix", embedder=FakeEmbedder()) as idx:
        idx.update()
        like_member = {r.path for r in idx.similar("boiler papers.zip#boiler.md")}
        assert "boiler papers.zip" not in like_member  # the archive it is inside
        assert {"boiler papers.zip#heating.md", "valve.md"} <= like_member  # a file beside it inside is another file
        like_archive = {r.path for r in idx.similar("boiler papers.zip")}
        assert not any(p.startswith("boiler papers.zip#") for p in like_archive) and "valve.md" in like_archive


def test_the_telling_words_are_the_seeds_most_frequent(idx):
    """By hand: boiler.md is "# Boiler service / The gas boiler was serviced and the pressure valve
    replaced." boiler and service ("service", "serviced": one word to the index) are said twice,
    the rest once, in this order; "the", "was", "and" are stop words."""
    from scent.similar import telling_words

    seed = idx.engine.catalog.file_units("boiler.md")
    assert telling_words(seed) == ["boiler", "service", "gas", "pressure", "valve", "replaced"]


@pytest.mark.parametrize("backend", ["sqlite", "qdrant"])
def test_a_file_that_shares_the_seeds_rare_words_is_found_by_them(tmp_path, backend):
    """Meaning and words fused: a long log that names the seed's rarest word (kestrel) once among
    many others is far by meaning (the fake embedder hashes a text's words), behind twenty notes
    that share the seed's common words; the keyword list, where kestrel outweighs them, brings it
    into the first ten."""
    from scent.similar import _by_meaning

    root = tmp_path / "f"
    root.mkdir()
    (root / "seed.md").write_text("Kestrel nest box on the barn gable.\n")
    (root / "log.md").write_text("Ring counts, weather, moth trap totals, hedge cutting dates, fence repairs, a kestrel "
                                 "hunting, owl pellets, rain gauge, mower service, gate hinges, ditch clearing.\n")
    for n in range(20):
        (root / f"note{n}.md").write_text(f"A box on the barn gable, number {n}.\n")
    if backend == "qdrant":
        pytest.importorskip("qdrant_client")
    with Index(root, index_dir=tmp_path / "ix", embedder=FakeEmbedder(), settings=Settings(backend=backend)) as idx:
        idx.update()
        seed = idx.engine.catalog.file_units("seed.md")
        meaning = [u.path for u in _by_meaning(idx.engine, idx.settings, seed, Filters(), 50) if u.path != "seed.md"]
        got = [r.path for r in idx.similar("seed.md", k=10)]
    assert meaning.index("log.md") >= 20  # by meaning alone, behind every note
    assert "log.md" in got


def test_a_seed_another_user_may_not_read_is_as_unknown_as_one_that_is_not_there(tmp_path):
    """Told to another user (a server's remote one), "new since the last run" said which names
    exist in a folder they may not read, and anywhere on the machine."""
    root = tmp_path / "f"
    (root / "hr").mkdir(parents=True)
    (root / "hr" / "salaries.md").write_text("Salaries of the team for 2025.\n")
    (root / "notes.md").write_text("Boiler service notes.\n")
    (root / ".scent-access").write_text("hr/**  u:alice\n")
    with Index(root, index_dir=tmp_path / "ix", embedder=FakeEmbedder()) as idx:
        idx.update()
        (root / "hr" / "layoffs.md").write_text("written after the run\n")
        for path in ("hr/salaries.md", "hr/layoffs.md", "hr/nothing.md", "/etc/passwd", "../../../etc/passwd"):
            with pytest.raises(NotIndexed) as told:
                idx.similar(path, as_user="bob")
            assert str(told.value).startswith(f"{path} is not in this index;"), path
        with pytest.raises(NotIndexed, match=r"^/etc/passwd is not in this index;"):
            idx.similar("/etc/passwd")  # the user running scent: nothing outside the folder either
        with pytest.raises(NotIndexed, match=r"^hr/layoffs.md is not indexed: it is new since the last run"):
            idx.similar("hr/layoffs.md")  # ... who may look in the folder
        assert idx.similar("./hr/../notes.md") == idx.similar("notes.md") == idx.similar(str(root / "notes.md"))


def test_a_photo_is_like_the_photos_of_the_same_thing_not_of_the_same_phone(tmp_path):
    """A picture's name unit (file name, folder, day, camera) says nothing of what it shows: the
    seed stands by its other units (here the text read in it), and the photo of the same
    notice from another phone comes before the two of other things from the seed's phone."""
    import shutil

    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed (scripts/setup.sh installs it)")
    from test_ocr import draw

    root = tmp_path / "photos"
    root.mkdir()

    def photo(name: str, lines: list[str], model: str) -> None:
        picture = draw(lines)
        exif = picture.getexif()
        exif[0x010F], exif[0x0110] = model.split()[0], model  # Make, Model
        picture.save(root / name, exif=exif)

    photo("IMG_0001.jpg", ["Boiler valve leaking"], "Canon EOS 80D")
    photo("IMG_0002.jpg", ["Garden basil tomatoes"], "Canon EOS 80D")
    photo("IMG_0003.jpg", ["Farmers market Saturday"], "Canon EOS 80D")
    photo("PXL_0004.jpg", ["Boiler valve fixed"], "Google Pixel 8")
    with Index(root, index_dir=tmp_path / "ix", embedder=FakeEmbedder(), settings=Settings(describe=False)) as idx:
        idx.update()
        assert [r.path for r in idx.similar("IMG_0001.jpg", k=1)] == ["PXL_0004.jpg"]
