"""Links saved as files (scent.extract.shortcut): a Windows Internet Shortcut as Edge saves one
(with its property-store section first), a macOS .webloc as a binary plist, a freedesktop link
and a program's launcher."""
from __future__ import annotations

import plistlib

import pytest

from test_formats import reason_of
from scent import Index
from scent.extract import Limits, extract, file_kind

from conftest import FakeEmbedder

URL = ("[{000214A0-0000-0000-C000-000000000046}]\nProp3=19,11\n[InternetShortcut]\nIDList=\n"
       "URL=https://www.github.com/ana/scent-notes/issues?q=1\n")


def test_links_are_their_names_targets_and_the_addresses_words(tmp_path):
    (tmp_path / "Bug tracker.url").write_text(URL)
    (tmp_path / "Recipe - lentil soup.webloc").write_bytes(
        plistlib.dumps({"URL": "https://cooking.example.org/recipes/red-lentil-soup"}, fmt=plistlib.FMT_BINARY))
    (tmp_path / "portal.desktop").write_text("[Desktop Entry]\nType=Link\nName=Tax office portal\n"
                                             "Comment=File the VAT return here\nURL=https://tax.example.gov/vat\n")
    (tmp_path / "gimp.desktop").write_text("[Desktop Entry]\nType=Application\nName=GNU Image Manipulation\nExec=gimp %U\n")
    got = {p.name: extract(str(p), Limits()) for p in tmp_path.iterdir()}
    assert {file_kind(name) for name in got} == {g.kind for g in got.values()} == {"text"}
    assert {name: g.sections[0].text for name, g in got.items()} == {
        "Bug tracker.url": "Bug tracker\nlink to https://www.github.com/ana/scent-notes/issues?q=1\n"
                           "github com ana scent notes issues",
        "Recipe - lentil soup.webloc": "Recipe lentil soup\nlink to https://cooking.example.org/recipes/red-lentil-soup\n"
                                       "cooking example org recipes red lentil soup",
        "portal.desktop": "portal\nTax office portal\nFile the VAT return here\nlink to https://tax.example.gov/vat\n"
                          "tax example gov vat",
        "gimp.desktop": "gimp\nGNU Image Manipulation\nruns gimp %U"}
    idx = Index(tmp_path, embedder=FakeEmbedder())
    idx.update()
    assert idx.search("github scent issues", strategy="keyword")[0].path == "Bug tracker.url"


@pytest.mark.parametrize("name, data, says", [
    ("notes.url", b"just a note, no sections", "not a readable link file (no [InternetShortcut] section"),
    ("app.desktop", b"[Other]\nName=x\n", "not a readable link file (no [Desktop Entry] section"),
    ("broken.webloc", b"bplist00\x01\x02", "not a readable macOS web link (its plist does not parse"),
])
def test_a_link_that_does_not_parse_is_one_line(tmp_path, name, data, says):
    (tmp_path / name).write_bytes(data)
    assert reason_of(tmp_path / name).startswith(says)
