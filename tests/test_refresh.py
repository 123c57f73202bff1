"""Index.refresh(paths): only the given paths are brought in line (what a watcher saw change)."""
from __future__ import annotations

import os

import pytest

from scent import Index
from scent.errors import ScentError


@pytest.fixture
def idx(notes, fake_embedder, tmp_path):
    index = Index(notes, index_dir=tmp_path / "ix", embedder=fake_embedder)
    index.update()
    yield index
    index.close()


def paths(idx, query: str) -> list[str]:
    """The files holding every word of `query`."""
    return [r.path for r in idx.search(query, strategy="keyword", match="and")]


def test_new_changed_and_gone_paths(idx, notes):
    (notes / "new.md").write_text("A note about the heron at the pond.\n")
    (notes / "recipe.txt").write_text("Lentil soup: simmer lentils with cumin.\n")
    (notes / "lease.md").unlink()
    (notes / "untouched.md").write_text("The kestrel hovered over the field.\n")  # not named: not read
    report = idx.refresh(["new.md", str(notes / "recipe.txt"), "lease.md"])
    assert (report.added, report.updated, report.deleted) == (1, 1, 1)
    assert paths(idx, "heron") == ["new.md"]
    assert paths(idx, "lentils") == ["recipe.txt"] and paths(idx, "tomato") == []
    assert paths(idx, "deposit") == [] and paths(idx, "kestrel") == []
    assert idx.update().added == 1  # the full walk still finds what refresh was not told about


def test_a_folder_stands_for_its_files(idx, notes):
    (notes / "code" / "more.py").write_text("def fetch_weather(city):\n    return city\n")
    os.remove(notes / "code" / "http.py")
    report = idx.refresh(["code"])
    assert (report.added, report.deleted) == (1, 1)
    assert paths(idx, "fetch_weather") == ["code/more.py"] and paths(idx, "parseHttpHeader") == []
    assert paths(idx, "deposit") == ["lease.md"]  # outside the folder: left alone


def test_ignored_and_outside_paths(idx, notes, tmp_path):
    (notes / ".scentignore").write_text("secret/\n")
    (notes / "secret").mkdir()
    (notes / "secret" / "pin.txt").write_text("The safe code is 4711.\n")
    assert idx.refresh(["secret/pin.txt"]).added == 0
    assert paths(idx, "safe code") == []
    with pytest.raises(ScentError, match="outside the indexed folder"):
        idx.refresh([str(tmp_path / "elsewhere.txt")])


def test_unit_ids_stay_with_a_renamed_file(idx, notes):
    before = idx.search("deposit refund", k=1)[0]
    (notes / "lease.md").rename(notes / "lease-2024.md")
    idx.update()
    after = idx.search("deposit refund", k=1)[0]
    assert (after.path, after.unit_id) == ("lease-2024.md", before.unit_id)


def test_a_named_file_rewritten_under_its_old_mtime_is_read(idx, notes):
    """What a watcher saw written is read even when its size and mtime are the old ones (cp -p,
    rsync -a, tar x, an edit of the same length and touch -r): the walk of `update` trusts them."""
    lease = notes / "lease.md"
    before = lease.stat()
    text = lease.read_text()
    lease.write_text(text.replace("deposit", "dragons"))  # same length
    os.utime(lease, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert lease.stat().st_size == before.st_size
    assert idx.update().updated == 0  # a walk does not open it
    report = idx.refresh(["lease.md"])
    assert report.updated == 1
    assert paths(idx, "dragons") == ["lease.md"] and paths(idx, "deposit") == []
    assert idx.refresh(["lease.md"]).updated == 0  # named again, the same bytes: only looked at


def test_a_skipped_file_that_is_gone_leaves_the_errors(idx, notes):
    (notes / "broken.pdf").write_bytes(b"%PDF-1.4 cut short")
    (notes / "other.pdf").write_bytes(b"%PDF-1.4 cut short too")
    idx.refresh(["broken.pdf", "other.pdf"])
    assert {e["path"] for e in idx.status()["errors"]} == {"broken.pdf", "other.pdf"}
    (notes / "broken.pdf").unlink()
    idx.refresh(["broken.pdf"])
    assert {e["path"] for e in idx.status()["errors"]} == {"other.pdf"}  # a path not named is left as it was
