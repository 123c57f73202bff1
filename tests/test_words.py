"""scent.words: the word lists, memory-mapped from $SCENT_HOME/cache and searched in place."""
import gzip
import os

import pytest

from scent import words
from scent.settings import scent_home


@pytest.fixture()
def listed(tmp_path, monkeypatch):
    """A word list of scent's data in a folder of the test's own."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "few.txt.gz").write_bytes(gzip.compress("zebra\napple\nmañana\nab\nabc\napple\n".encode()))
    monkeypatch.setattr(words, "DATA", data)
    words.load.cache_clear()
    yield data
    words.load.cache_clear()


def test_a_word_is_in_the_list_as_written(listed):
    few = words.load("few.txt.gz", "test list")
    assert len(few) == 5  # apple once
    assert all(w in few for w in ("zebra", "apple", "mañana", "ab", "abc"))
    # a prefix, a word between two, past the last, longer than any, empty, not a string
    assert not any(w in few for w in ("a", "abd", "zebras", "mañanas-y-mañanas", "", None))


def test_the_list_is_written_once_and_mapped_after(listed):
    words.load("few.txt.gz", "test list")
    assert len(list((scent_home() / "cache").glob("words-few-*.npy"))) == 1
    words.load.cache_clear()
    assert "zebra" in words.load("few.txt.gz", "test list")  # from the cache
    # A changed list is read again, not taken from the cache of the old one.
    words.load.cache_clear()
    (listed / "few.txt.gz").write_bytes(b"not gzip")
    with pytest.raises(words.ScentError, match="test list cannot be read"):
        words.load("few.txt.gz", "test list")


def test_a_read_only_home_keeps_the_list_in_memory(listed, tmp_path, monkeypatch):
    home = tmp_path / "read-only"
    home.mkdir()
    home.chmod(0o500)
    monkeypatch.setenv("SCENT_HOME", str(home))
    try:
        few = words.load("few.txt.gz", "test list")
        assert "mañana" in few and "apples" not in few
        assert not (home / "cache").exists() or os.geteuid() == 0
    finally:
        home.chmod(0o700)


def test_a_missing_list_is_one_line_saying_what_to_do(listed):
    with pytest.raises(words.ScentError, match="test list is missing .*reinstall scent"):
        words.load("none.txt.gz", "test list")
