import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings as hypothesis_settings

# CI (.ci/run) fuzzes with inputs fixed per test: a random find there would fail a submission for a
# bug it did not bring. Other runs draw new inputs, which is how the fuzz finds bugs.
hypothesis_settings.register_profile("ci", derandomize=True)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SHARED_DATA = ROOT.parent / "shared" / "data"


def write_epub(path, book, chapters) -> Path:
    """Write the ebooklib `book` with `chapters` (EpubHtml) as its contents and reading order, as
    e-book makers do (navigation page first, NCX and nav documents), to `path`."""
    from ebooklib import epub

    for chapter in chapters:
        book.add_item(chapter)
    book.toc = list(chapters)
    book.spine = ["nav", *chapters]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    epub.write_epub(str(path), book)
    return Path(path)


def undo_migration(index_dir, name: str, column: str) -> None:
    """The SQLite index in `index_dir` as a scent before migration `name` left it: that migration
    not run and the column it added to `units` gone (what it did to the rows stays)."""
    import sqlite3

    db = sqlite3.connect(Path(index_dir) / "index.db", isolation_level=None)
    try:
        db.execute("DELETE FROM migrations WHERE name = ?", (name,))
        db.execute(f"ALTER TABLE units DROP COLUMN {column}")
    finally:
        db.close()


class FakeEmbedder:
    """Deterministic bag-of-hashed-words vectors: for tests of plumbing only, never of quality."""

    model_id = "fake/hashed-words"
    dim = 64

    def __init__(self):
        self.passages_seen = 0

    def _vec(self, text):
        v = np.zeros(self.dim, np.float32)
        for w in re.findall(r"\w+", text.lower()):
            v[int(hashlib.md5(w.encode()).hexdigest(), 16) % self.dim] += 1
        n = np.linalg.norm(v)
        return v / n if n else v

    def embed_queries(self, texts):
        return np.stack([self._vec(t) for t in texts])

    def embed_passages(self, texts):
        self.passages_seen += len(texts)
        return np.stack([self._vec(t) for t in texts]) if texts else np.zeros((0, self.dim), np.float32)


@pytest.fixture(autouse=True)
def scent_home(tmp_path, monkeypatch):
    """Every test gets its own SCENT_HOME, so no test sees a user's indexes or another test's."""
    home = tmp_path / "scent-home"
    monkeypatch.setenv("SCENT_HOME", str(home))
    monkeypatch.delenv("SCENT_CONFIG", raising=False)
    return home


@pytest.fixture
def fake_embedder():
    return FakeEmbedder()


@pytest.fixture
def notes(tmp_path):
    """A tiny folder of real files for plumbing tests."""
    root = tmp_path / "notes"
    root.mkdir()
    (root / "lease.md").write_text("# Lease\n\nThe deposit refund is due within 30 days. Ticket LD-2026-0417.\n")
    (root / "recipe.txt").write_text("Tomato soup: simmer tomatoes with garlic and basil for twenty minutes.\n")
    (root / "code").mkdir()
    (root / "code" / "http.py").write_text("def parseHttpHeader(line):\n    return line.split(':', 1)\n\n"
                                          "def read_file(path):\n    return open(path).read()\n")
    return root


@pytest.fixture(scope="session")
def examples_copy(tmp_path_factory):
    """A private copy of examples/ with the generator's file dates."""
    if not EXAMPLES.is_dir():
        pytest.skip("examples/ is missing")
    dest = tmp_path_factory.mktemp("ex") / "examples"
    shutil.copytree(EXAMPLES, dest)
    # git does not keep file dates; the date-filter queries need the generator's fixed ones
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_examples.py"), "--mtimes-only", str(dest)], check=True)
    return dest
