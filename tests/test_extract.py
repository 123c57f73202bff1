"""The extraction stage on small real files made here: every kind, and the bad files people have."""
from __future__ import annotations

import json
import os
import zipfile
import zlib
from datetime import datetime, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from badfiles import pdf_of
from scent.errors import ExtractError
from scent.extract import EXTRACTORS, Limits, extract, file_kind
from scent.extract.base import SECTION_SEPARATOR, name_words
from scent.kinds import FILE_KINDS, UNIT_KINDS


def write(path, content) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8", newline="")
    else:
        path.write_bytes(content)
    return str(path)


def joined_text(extracted) -> str:
    return SECTION_SEPARATOR.join(s.text for s in extracted.sections)


def assert_starts_map_back(full: str, extracted) -> None:
    for section in extracted.sections:
        assert full[section.start:section.start + len(section.text)] == section.text


# ---------------------------------------------------------------- fixtures that build real files

@pytest.fixture
def three_page_pdf(tmp_path):
    from fpdf import FPDF
    pdf = FPDF()
    pdf.set_title("Field Notes")
    for text in ("Alpha lighthouse keeper", "Bravo harbour tides", "Charlie storm warning"):
        pdf.add_page()
        pdf.set_font("helvetica", size=14)
        pdf.cell(text=text)
    path = tmp_path / "notes.pdf"
    pdf.output(str(path))
    return str(path)


@pytest.fixture
def encrypted_pdf(tmp_path):
    from fpdf import FPDF
    pdf = FPDF()
    pdf.set_encryption(owner_password="owner", user_password="user")
    pdf.add_page()
    pdf.set_font("helvetica", size=14)
    pdf.cell(text="secret plans")
    path = tmp_path / "locked.pdf"
    pdf.output(str(path))
    return str(path)


@pytest.fixture
def word_file(tmp_path):
    import docx
    document = docx.Document()
    document.add_paragraph("Prepared for the harbour board.")
    document.add_heading("Budget 2025", level=1)
    document.add_paragraph("Spending rose because of the storm.")
    table = document.add_table(rows=2, cols=3)
    for row, values in zip(table.rows, [("Item", "Cost", "Owner"), ("Lamp", "120", "Ann")]):
        for cell, value in zip(row.cells, values):
            cell.text = value
    document.add_paragraph("After the table.")
    document.add_heading("Staff", level=2)
    document.add_paragraph("Two keepers on rotation.")
    path = tmp_path / "report.docx"
    document.save(str(path))
    return str(path)


def make_jpeg(path, size=(64, 48), date="2025:07:14 19:32:00", offset=None) -> str:
    from PIL import Image
    path.parent.mkdir(parents=True, exist_ok=True)
    img = Image.new("RGB", size, "navy")
    exif = Image.Exif()
    exif[0x010F] = "Acme"
    exif[0x0110] = "X100"
    exif.get_ifd(0x8769)[0x9003] = date
    if offset:
        exif.get_ifd(0x8769)[0x9011] = offset
    img.save(path, exif=exif)
    return str(path)


# ---------------------------------------------------------------- registry and dispatch

def test_registry_covers_every_file_kind_and_only_unit_kinds_come_out():
    assert sorted(EXTRACTORS) == sorted(FILE_KINDS)
    # A PDF's units are pages, a deck's slides, a notebook's text, code and pictures.
    assert set(FILE_KINDS) - {"pdf", "slides", "notebook"} <= set(UNIT_KINDS) and {"pdf_page", "slide"} <= set(UNIT_KINDS)


@pytest.mark.parametrize("name, kind", [
    ("notes.txt", "text"), ("README.md", "text"), ("a/b/guide.RST", "text"), ("journal.org", "text"),
    ("README", "text"), ("main.py", "code"), ("app.tsx", "code"), ("Makefile", "code"),
    ("docker/Dockerfile", "code"), ("config.yaml", "code"), ("setup.cfg", "code"),
    ("page.html", "html"), ("page.HTM", "html"), ("data.csv", "csv"), ("data.tsv", "csv"),
    ("x.json", "json"), ("log.jsonl", "json"), ("map.geojson", "json"), ("r.docx", "docx"),
    ("paper.pdf", "pdf"), ("IMG_4120.JPG", "image"), ("shot.png", "image"), ("a.webp", "image"), ("IMG_1.HEIC", "image"), ("b.avif", "image"),
    ("archive.tar.gz", "archive"), ("backup.gz", None), ("old.doc", "docx"), ("old.ppt", "slides"), (".env", None), ("secrets.env", None),
    ("noext", None), ("setup.exe", None),
])
def test_file_kind_by_name(name, kind):
    assert file_kind(name) == kind


def test_a_script_without_an_extension_is_code_by_its_first_line(tmp_path):
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "backup_db").write_text("#!/bin/sh\npg_dump -Fc pay > /backups/pay.dump\n")
    (tmp_path / "bin" / "notes").write_text("pg_dump nightly\n")
    assert file_kind(str(tmp_path / "bin" / "backup_db")) == "code"
    assert file_kind(str(tmp_path / "bin" / "notes")) is None  # no name scent knows, no #!
    got = extract(str(tmp_path / "bin" / "backup_db"))
    assert got.kind == "code" and "pg_dump -Fc pay" in got.sections[0].text


def test_a_note_and_code_know_the_line_each_section_begins_at(tmp_path):
    code = extract(write(tmp_path / "app.py", "import os\n\n\ndef parse(raw):\n    return raw\n\n\nclass Client:\n    pass\n"))
    assert [(s.title, s.line) for s in code.sections] == [("app.py", 1), ("parse", 4), ("Client", 8)]
    note = extract(write(tmp_path / "n.md", "---\ntitle: Boiler\ntags: [home]\n---\n# Boiler\n\nServiced.\n\n"
                                            "## Parts\n\nA valve.\n"))
    assert [(s.text.split("\n")[0], s.line) for s in note.sections] == [("tags: home", None), ("# Boiler", 5), ("## Parts", 9)]
    assert all(s.line is None for s in extract(write(tmp_path / "a.csv", "a,b\n1,2\n")).sections)


def test_limits_defaults_and_frozen():
    limits = Limits()
    assert (limits.max_text_bytes, limits.max_pdf_pages, limits.max_image_pixels) == (
        50 * 1024 * 1024, 2000, 100_000_000)
    with pytest.raises(AttributeError):
        limits.max_pdf_pages = 1


@pytest.mark.parametrize("name, words", [
    ("IMG_4120", "IMG 4120"), ("lighthouse-sunset", "lighthouse sunset"),
    ("BeachDay2", "Beach Day 2"), ("été 2024", "été 2024"), ("DSC01234", "DSC 01234"),
])
def test_name_words(name, words):
    assert name_words(name) == words


# ---------------------------------------------------------------- text

def test_plain_text_is_one_section(tmp_path):
    path = write(tmp_path / "notes.txt", "\n\nFirst line.\nSecond line.\n\n")
    result = extract(path)
    assert result.kind == "text"
    assert [(s.kind, s.text, s.start) for s in result.sections] == [("text", "First line.\nSecond line.", 2)]


def test_markdown_sections_per_heading(tmp_path):
    source = ("---\ntitle: x\n---\nIntro words.\n\n# Lighthouses\nTall towers.\n\n"
              "```\n# not a heading\n```\n\nSetext Title\n============\nBody two.\n\n## Tides ##\nTwice a day.\n")
    path = write(tmp_path / "guide.md", source)
    result = extract(path)
    assert [s.title for s in result.sections] == ["", "Lighthouses", "Setext Title", "Tides"]
    assert result.title == "x"  # the front matter's title; without one, the first heading
    assert result.sections[0].text == "Intro words."  # the block is metadata, not body text
    lighthouses = result.sections[1]
    assert lighthouses.text.startswith("# Lighthouses\nTall towers.")
    assert "# not a heading" in lighthouses.text  # fenced code stays in its section
    assert result.sections[3].text == "## Tides ##\nTwice a day."
    assert_starts_map_back(source, result)


def test_a_heading_with_nothing_under_it_opens_the_next_section(tmp_path):
    source = "# Reading list\n\n## Read in 2025\nThe Salt Path.\n\n## Want to read\nA history of tea.\n\n## Later\n"
    result = extract(write(tmp_path / "reading.md", source))
    assert result.title == "Reading list"
    # The bare H1 joins the first H2's section (its words kept, its offset where the H1 starts);
    # the last heading has nothing after it to join, so it stays.
    assert [(s.title, s.text, s.start) for s in result.sections] == [
        ("Read in 2025", "# Reading list\n\n## Read in 2025\nThe Salt Path.", 0),
        ("Want to read", "## Want to read\nA history of tea.", source.index("## Want")),
        ("Later", "## Later", source.index("## Later"))]
    assert_starts_map_back(source, result)


NOON_UTC_2024_05_01 = datetime(2024, 5, 1, 12, tzinfo=timezone.utc).timestamp()


def test_markdown_front_matter_is_title_date_and_tags(tmp_path):
    source = ('---\ntitle: "Harbour budget"\ndate: 2024-05-01\ntags: [harbour, budget-2025, "#finance"]\n'
              "author: Ann\n---\nIntro line about costs.\n\n# Costs\nRope and oil.\n")
    got = extract(write(tmp_path / "budget.md", source))
    assert (got.title, got.date, got.meta["tags"]) == ("Harbour budget", NOON_UTC_2024_05_01,
                                                       ["harbour", "budget-2025", "finance"])
    # The tags are the first unit's text, its span inside the block (0 to 33 of its 102 characters:
    # 4 + 24 + 17 + 41 + 12 + 4 by line); the block itself is not body text.
    assert [(s.start, s.title, s.text) for s in got.sections] == [
        (0, "", "tags: harbour budget-2025 finance"),
        (102, "", "Intro line about costs."),
        (127, "Costs", "# Costs\nRope and oil.")]
    assert "author" not in joined_text(got) and "title:" not in joined_text(got)


def test_an_untitled_note_is_titled_by_its_file_name(tmp_path):
    """As Obsidian, Logseq and Notion name notes; not a .txt (BEIR's are named by ids), nor a name
    without a word (a journal's date)."""
    assert extract(write(tmp_path / "Lumen Labs.md", "- type:: company\n- met Priya\n")).title == "Lumen Labs"
    assert extract(write(tmp_path / "Reading list 0123456789abcdef0123456789abcdef.md", "Books.\n")).title == "Reading list"
    assert extract(write(tmp_path / "2025_03_19.md", "- walked\n")).title == ""
    assert extract(write(tmp_path / "4711.txt", "A plain text.\n")).title == ""
    assert extract(write(tmp_path / "Garden.md", "# Plans\nRoses.\n")).title == "Plans"  # a heading first


def test_front_matter_aliases_are_searchable_beside_the_tags(tmp_path):
    got = extract(write(tmp_path / "n.md", "---\naliases: [Bluebird, veg patch]\ntags: [home]\n---\nBody.\n"))
    assert got.sections[0].text == "aliases: Bluebird, veg patch\ntags: home"
    one = extract(write(tmp_path / "m.md", "---\nalias: Bluebird, Blue bird\n---\nBody.\n"))
    assert one.sections[0].text == "aliases: Bluebird, Blue bird"


@pytest.mark.parametrize("block, title, date, tags", [
    ("title: Plain\ndate: 2024-05-01 10:30:00\n", "Plain", datetime(2024, 5, 1, 10, 30, tzinfo=timezone.utc).timestamp(), ()),
    ("created: '2024-05-01T23:00'\ntags: harbour, tide\n", "", NOON_UTC_2024_05_01, ("harbour", "tide")),
    ("Title: 2024\npublished: 1850-01-01\nkeywords: harbour tide\n", "2024", None, ("harbour", "tide")),
    ("date: soon\ntags:\n  - harbour\n  - [nested, list]\n", "", None, ("harbour",)),
    ("a: &x [1, 1]\nb: &y [*x, *x]\ntitle: [*y, *y]\ntags: *y\n", "", None, ()),  # aliases: no title, no tags
    ("", "", None, ()),
])
def test_front_matter_values(tmp_path, block, title, date, tags):
    got = extract(write(tmp_path / "n.md", f"---\n{block}---\nBody.\n"))
    assert (got.title, got.date, tuple(got.meta.get("tags", ()))) == (title, date, tags)
    assert got.sections[-1].text == "Body." and "left_out" not in got.meta


def test_bad_front_matter_is_plain_text_with_a_warning(tmp_path):
    source = "---\ntitle: [unclosed\ndate: 2024-05-01\n---\n# Heading\nbody words\n"
    got = extract(write(tmp_path / "bad.md", source))
    assert got.meta["left_out"] == [
        "its front matter is not valid YAML (did not find expected ',' or ']' at line 3): the file is indexed "
        "as plain text without its title, date and tags; fix the YAML between the --- lines"]
    assert (got.title, got.date) == ("Heading", None)
    assert [s.text for s in got.sections] == ["---\ntitle: [unclosed\ndate: 2024-05-01\n---", "# Heading\nbody words"]
    assert_starts_map_back(source, got)
    # A rule over a paragraph, closed by another, is Markdown: no front matter and no warning.
    rule = extract(write(tmp_path / "rule.md", "---\nJust a paragraph.\n\n---\nMore.\n"))
    assert "left_out" not in rule.meta and rule.sections[0].text.startswith("---\nJust a paragraph.")


def test_front_matter_tags_are_found_and_its_date_filters(tmp_path):
    from scent import Index
    from scent.filters import Filters
    from conftest import FakeEmbedder

    folder = tmp_path / "f"
    write(folder / "budget.md", "---\ntitle: Harbour budget\ndate: 2024-05-01\ntags: [quayside]\n---\nRope and oil.\n")
    write(folder / "bad.md", "---\ntitle: [unclosed\n---\nThe quayside crane.\n")
    write(folder / "other.md", "Nothing about it.\n")
    with Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        report = idx.update()
        assert report.added == 3 and report.skipped == []
        assert [path for path, _ in report.warnings] == ["bad.md"]
        _, lists = idx.search_with_lists("quayside", explain=True)
        assert set(lists["keyword"]) == {"budget.md", "bad.md"}  # by its tag; bad.md by its text
        found = idx.search("quayside", filters=Filters.build(after="2024-05-01", before="2024-05-01"))
        assert [(r.path, r.title) for r in found] == [("budget.md", "Harbour budget")]


def test_org_headings(tmp_path):
    path = write(tmp_path / "journal.org", "* Monday\nrain\n** Evening\nclear sky\n")
    assert [s.title for s in extract(path).sections] == ["Monday", "Evening"]


def test_latex_sections_and_title(tmp_path):
    source = ("\\documentclass{report}\n\\title{Reading Whole Papers}\n\\begin{document}\n"
              "\\chapter{Efficient Attention}\n\\label{ch:eff}\n\n"
              "\\section{Motivation}\nArticles are long \\cite{cohan2018}.\n\n"
              "\\section*{Routed \\emph{attention}}\n\\label{sec:routed}\nTwo of 32 clusters.\n"
              "\\subsection[short]{Results}\nROUGE-L 41.9.\n")
    result = extract(write(tmp_path / "chapter3.tex", source))
    assert result.title == "Reading Whole Papers"  # \title, not the first heading
    # The preamble; the bare chapter heading (its \label is markup too) joins the first section.
    assert [s.title for s in result.sections] == ["", "Motivation", "Routed attention", "Results"]
    assert result.sections[1].text.startswith("\\chapter{Efficient Attention}\n\\label{ch:eff}")
    assert result.sections[2].text == "\\section*{Routed \\emph{attention}}\n\\label{sec:routed}\nTwo of 32 clusters."
    assert_starts_map_back(source, result)
    untitled = extract(write(tmp_path / "notes_on_tides.tex", "\\section{Neap}\nSmall range.\n"))
    assert untitled.title == "Neap"  # its first heading; a .tex is not titled by its file name


def test_a_reference_list_is_one_section_an_entry_titled_by_its_key(tmp_path):
    source = ("% my references\n@comment{jabref-meta: x}\n"
              "@inproceedings{smith2021attention,\n  title = {Sparse Routed Attention},\n  year = 2021\n}\n\n"
              "@Book{ bishop2006pattern ,\n  title = {Pattern Recognition}\n}\n")
    result = extract(write(tmp_path / "references.bib", source))
    assert [s.title for s in result.sections] == ["", "smith2021attention", "bishop2006pattern"]
    assert result.sections[2].text.startswith("@Book{ bishop2006pattern")
    assert result.title == ""  # an entry's key is no title of the list
    assert_starts_map_back(source, result)


def test_restructuredtext_and_asciidoc_headings(tmp_path):
    rst = "=====\nGuide\n=====\n\nIntro.\n\nInstall\n-------\npip install.\n\nToo short\n---\nx\n"
    assert [s.title for s in extract(write(tmp_path / "guide.rst", rst)).sections] == ["Guide", "Install"]
    adoc = "= Handbook\n\n== Leave\n25 days.\n\n=== Carry over\nFive days.\n"
    result = extract(write(tmp_path / "handbook.adoc", adoc))
    assert [s.title for s in result.sections] == ["Leave", "Carry over"]
    assert result.title == "Handbook"


def test_text_decoding_bom_crlf_and_cp1252(tmp_path):
    bom = extract(write(tmp_path / "bom.txt", b"\xef\xbb\xbfcaf\xc3\xa9\r\nnext\r\n"))
    assert bom.sections[0].text == "café\nnext"
    assert bom.meta["encoding"] == "utf-8"
    legacy = extract(write(tmp_path / "legacy.txt", "naïve café – “quoted”".encode("cp1252")))
    assert legacy.sections[0].text == "naïve café – “quoted”"
    assert legacy.meta["encoding"] == "cp1252"
    utf16 = extract(write(tmp_path / "wide.txt", "wide text".encode("utf-16")))
    assert utf16.sections[0].text == "wide text"


def test_a_stray_byte_leaves_the_rest_of_a_utf8_file_utf8(tmp_path):
    raw = "crème brûlée\n".encode() + b"price \xff 5, " + "café\n".encode() + b"last line \x80\n"
    got = extract(write(tmp_path / "menu.txt", raw))
    # \xff and \x80 are not UTF-8: each alone is read as cp1252 (y with diaeresis, the euro sign).
    assert got.sections[0].text == "crème brûlée\nprice ÿ 5, café\nlast line €"
    assert got.meta["encoding"] == "utf-8"


def test_empty_text_file_has_no_sections(tmp_path):
    assert extract(write(tmp_path / "empty.txt", "")).sections == []


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["# Head", "## Sub two", "text here", "", "```", "===", "---",
                                 "  indented", "Plain"]), max_size=30))
def test_markdown_sections_always_map_back(tmp_path, lines):
    source = "\n".join(lines)
    result = extract(write(tmp_path / "prop.md", source))
    assert_starts_map_back(source, result)
    starts = [s.start for s in result.sections]
    assert starts == sorted(starts)


# ---------------------------------------------------------------- code

def test_python_split_at_top_level_definitions(tmp_path):
    source = ('"""Module doc."""\nimport os\n\n\n@cache\ndef load(path):\n    # indented comment\n'
              "    return path\n\n\n# Where things live.\nclass Store:\n    def put(self):\n        pass\n\n\n"
              "async def main():\n    pass\n")
    path = write(tmp_path / "store.py", source)
    result = extract(path)
    assert result.kind == "code" and result.title == "store.py"
    assert [s.title for s in result.sections] == ["store.py", "load", "Store", "main"]
    assert result.sections[1].text.startswith("@cache\ndef load(path):")
    assert result.sections[2].text.startswith("# Where things live.\nclass Store:")
    assert all(s.kind == "code" for s in result.sections)
    assert_starts_map_back(source, result)


def test_javascript_and_config_sections(tmp_path):
    js = "import x from 'y';\n\nexport function render(a) {\n  return a;\n}\n\nconst add = (a, b) => a + b;\n"
    assert [s.title for s in extract(write(tmp_path / "ui.js", js)).sections] == ["ui.js", "render", "add"]
    toml = '[project]\nname = "scent"\n\n[tool.pytest.ini_options]\nmarkers = []\n'
    assert [s.title for s in extract(write(tmp_path / "pyproject.toml", toml)).sections] == [
        "project", "tool.pytest.ini_options"]
    yaml = "name: ci\non: push\n"
    assert [(s.title, s.text) for s in extract(write(tmp_path / "ci.yaml", yaml)).sections] == [
        ("ci.yaml", "name: ci\non: push")]
    make = extract(write(tmp_path / "Makefile", "all:\n\tpytest\n"))
    assert make.kind == "code" and make.sections[0].title == "Makefile"


@pytest.mark.parametrize("name, source, titles", [
    ("main.go", "package main\n\n// Serve answers.\nfunc (s *S) Serve() {}\n\ntype Config struct{}\n",
     ["main.go", "Serve", "Config"]),
    ("lib.rs", "use std::io;\n\n#[derive(Debug)]\npub struct Page;\n\nimpl<T> Page {}\nfn main() {}\n",
     ["lib.rs", "Page", "Page", "main"]),
    ("schema.sql", "-- pages\nCREATE TABLE IF NOT EXISTS pages (id int);\ncreate view v as select 1;\n",
     ["pages", "v"]),
    ("deploy.sh", "#!/bin/sh\nset -e\n\nbuild() {\n  make\n}\n", ["deploy.sh", "build"]),
])
def test_other_languages_split_at_definitions(tmp_path, name, source, titles):
    result = extract(write(tmp_path / name, source))
    assert [s.title for s in result.sections] == titles
    assert_starts_map_back(source, result)


# ---------------------------------------------------------------- html

HTML = """<!doctype html><html><head><title>  Harbour   Guide </title>
<style>.x { color: red }</style><script>var secretScript = 1;</script></head>
<body><nav><a href="/">Home</a> <a href="/menu">MenuLink</a></nav>
<p>Welcome   to the
harbour.</p><!-- hidden comment -->
<h1>Lighthouses</h1><p>Tall <b>white</b> towers.</p><div hidden>not shown</div>
<noscript>enable js</noscript>
<h2>Tides</h2><table><tr><th>Time</th><th>Height</th></tr><tr><td>06:00</td><td>3.2 m</td></tr></table>
<template><p>template text</p></template><svg><text>svg words</text></svg>
<script>console.log("late script")</script></body></html>"""


def test_html_visible_text_in_sections(tmp_path):
    result = extract(write(tmp_path / "guide.html", HTML))
    assert result.kind == "html" and result.title == "Harbour Guide"
    assert [(s.title, s.text) for s in result.sections] == [
        ("", "Welcome to the harbour."),
        ("Lighthouses", "Lighthouses\nTall white towers."),
        ("Tides", "Tides\nTime | Height\n06:00 | 3.2 m"),
    ]
    everything = joined_text(result)
    for invisible in ("secretScript", "color: red", "MenuLink", "hidden comment", "not shown",
                      "enable js", "template text", "svg words", "late script"):
        assert invisible not in everything
    assert_starts_map_back(everything, result)


def test_html_svg_title_nested_hiding_and_deep_nesting(tmp_path):
    page = ("<html><body><svg><title>icon</title></svg><nav><svg><script>x()</script></svg></nav>"
            "<div hidden><p hidden>gone</p></div><h3>Only</h3>" + "<div>" * 5000 + "deep words"
            + "</div>" * 5000 + "</body></html>")
    result = extract(write(tmp_path / "odd.html", page))
    assert result.title == ""
    assert [(s.title, s.text) for s in result.sections] == [("Only", "Only\ndeep words")]


def test_a_page_that_opens_with_its_heading_keeps_its_sites_name(tmp_path):
    page = ("<html><head><title>Why is my sourdough flat? - Crumb Notes</title></head><body>"
            "<h1>Why is my sourdough flat?</h1><p>Feed the starter.</p><h2>Steam</h2><p>Use a pot.</p></body></html>")
    result = extract(write(tmp_path / "flat.html", page))
    assert [(s.title, s.text) for s in result.sections] == [
        ("Why is my sourdough flat? - Crumb Notes", "Why is my sourdough flat?\nFeed the starter."),
        ("Steam", "Steam\nUse a pot.")]
    other = page.replace("<h1>Why is my sourdough flat?</h1>", "<h1>Flat loaves</h1>")  # a heading of its own
    assert [(s.title, s.text) for s in extract(write(tmp_path / "other.html", other)).sections][0] == (
        "Why is my sourdough flat? - Crumb Notes", "Flat loaves\nFeed the starter.")


def test_a_pages_pictures_alt_text_and_its_summary_are_its_words(tmp_path):
    page = ('<html><head><title>Crumb Notes</title><meta name="description" content="How to keep a  starter alive">'
            '</head><body><h1>Feeding</h1><p>Feed it daily.</p><img src="a.jpg" alt="Golden-brown loaf on a rack">'
            '<p>Then <img src="x.png" alt=""> bake <img src="y.png" alt="(a timer)"> at 230.</p></body></html>')
    result = extract(write(tmp_path / "starter.html", page))
    assert [(s.title, s.text) for s in result.sections] == [
        ("Crumb Notes", "How to keep a starter alive"),
        ("Crumb Notes", "Feeding\nFeed it daily.\nGolden-brown loaf on a rack\nThen bake (a timer) at 230.")]
    assert_starts_map_back(joined_text(result), result)
    # Open Graph's summary where there is no other; one the page says already is not said twice
    shared = page.replace('name="description"', 'property="og:description"').replace("Feed it daily.",
                                                                                       "How to keep a starter alive.")
    assert [s.text for s in extract(write(tmp_path / "shared.html", shared)).sections][0].startswith("Feeding")


def test_html_declared_charset(tmp_path):
    page = '<html><head><meta charset="windows-1252"></head><body><p>café</p></body></html>'
    result = extract(write(tmp_path / "old.htm", page.encode("cp1252")))
    assert result.sections[0].text == "café"


# ---------------------------------------------------------------- csv

def test_csv_groups_of_25_rows_each_led_by_the_header(tmp_path):
    lines = ["name,city,age"] + [f"person{i},Brest,{20 + i}" for i in range(1, 61)]
    result = extract(write(tmp_path / "people.csv", "\n".join(lines) + "\n"))
    assert result.kind == "csv"
    assert [s.title for s in result.sections] == [
        "people.csv rows 1-25", "people.csv rows 26-50", "people.csv rows 51-60"]
    for section in result.sections:
        assert section.text.split("\n")[0] == "name | city | age"
    assert result.sections[0].text.split("\n")[1] == "person1 | Brest | 21"
    assert result.sections[2].text.split("\n")[-1] == "person60 | Brest | 80"
    assert len(result.sections[1].text.split("\n")) == 26
    assert_starts_map_back(joined_text(result), result)


def test_csv_sniffs_semicolons_and_reads_tsv(tmp_path):
    semi = extract(write(tmp_path / "euro.csv", 'item;price\n"lamp, brass";3,50\noil;1,20\n'))
    assert semi.meta["delimiter"] == ";"
    assert semi.sections[0].text == "item | price\nlamp, brass | 3,50\noil | 1,20"
    tsv = extract(write(tmp_path / "t.tsv", "a\tb\n1\t2\n"))
    assert tsv.sections[0].text == "a | b\n1 | 2"


# ---------------------------------------------------------------- json

def test_json_flattened_to_key_paths(tmp_path):
    data = {"name": "scent", "owner": {"login": "ann", "active": True}, "tags": ["search", "local"],
            "releases": [{"v": 1}, {"v": 2, "notes": None}], "empty": {}}
    result = extract(write(tmp_path / "repo.json", json.dumps(data)))
    assert result.kind == "json"
    assert result.sections[0].text.split("\n") == [
        "name: scent", "owner.login: ann", "owner.active: true", "tags: search, local",
        "releases[0].v: 1", "releases[1].v: 2", "releases[1].notes: null", "empty: {}"]


def test_json_top_level_list_grouped_and_jsonl_one_line_per_record(tmp_path):
    items = [{"id": i, "name": f"n{i}"} for i in range(30)]
    listed = extract(write(tmp_path / "items.json", json.dumps(items)))
    assert [s.title for s in listed.sections] == ["items.json items 1-25", "items.json items 26-30"]
    assert listed.sections[1].text.startswith("[25].id: 25\n[25].name: n25")
    records = "\n".join(json.dumps({"id": i, "msg": "line\nbreak", "tags": ["a"]}) for i in range(3))
    lines = extract(write(tmp_path / "events.jsonl", records + "\n\n"))
    assert lines.sections[0].text.split("\n") == [
        f"id: {i}; msg: line break; tags: a" for i in range(3)]


def test_geojson_skips_coordinates(tmp_path):
    feature = {"type": "Feature", "properties": {"name": "Phare du Petit Minou"},
               "geometry": {"type": "Point", "coordinates": [-4.615, 48.337]}}
    text = extract(write(tmp_path / "place.geojson", json.dumps(feature))).sections[0].text
    assert "properties.name: Phare du Petit Minou" in text
    assert "48.337" not in text


# ---------------------------------------------------------------- docx

def test_docx_order_headings_and_tables(word_file):
    result = extract(word_file)
    assert result.kind == "docx" and result.title == "Budget 2025"
    assert [s.title for s in result.sections] == ["", "Budget 2025", "Staff"]
    assert result.sections[1].text.split("\n") == [
        "Budget 2025", "Spending rose because of the storm.", "Item | Cost | Owner", "Lamp | 120 | Ann",
        "After the table."]
    assert result.sections[2].text == "Staff\nTwo keepers on rotation."
    assert all(s.kind == "docx" for s in result.sections)
    assert_starts_map_back(joined_text(result), result)


def test_docx_merged_cells_once(tmp_path):
    import docx
    document = docx.Document()
    table = document.add_table(rows=2, cols=3)
    table.cell(0, 0).merge(table.cell(0, 2)).text = "Quarter"
    for cell, value in zip(table.rows[1].cells, ("Q1", "Q2", "Q3")):
        cell.text = value
    path = tmp_path / "merged.docx"
    document.save(str(path))
    assert extract(str(path)).sections[0].text == "Quarter\nQ1 | Q2 | Q3"


WORD_NS = ('xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
           'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
           'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
           'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
           'xmlns:v="urn:schemas-microsoft-com:vml"')


def _w(xml: str):
    from docx.oxml import parse_xml

    return parse_xml(xml.replace(" NS", " " + WORD_NS, 1))  # NS: the namespaces Word declares


def test_docx_reads_all_that_word_shows(tmp_path):
    """Tracked insertions (not deletions), content controls in a paragraph and around paragraphs,
    a text box (once, though Word writes it twice), comments and footnotes: the XML as Word writes it."""
    import docx
    from docx.opc.constants import CONTENT_TYPE, RELATIONSHIP_TYPE
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part

    document = docx.Document()
    document.add_heading("Tenancy notes", 1)
    rent = document.add_paragraph("The rent is due on the first.")
    document.add_comment(rent.runs, text="Check this with the landlord", author="Ana Souza", initials="AS")
    deposit = document.add_paragraph("Deposit: ")
    deposit._p.append(_w('<w:ins NS w:id="1" w:author="Ben"><w:r><w:t>1,200 pounds</w:t></w:r></w:ins>'))
    deposit._p.append(_w('<w:del NS w:id="2" w:author="Ben"><w:r><w:delText>900 pounds</w:delText></w:r></w:del>'))
    tenant = document.add_paragraph("Tenant: ")
    tenant._p.append(_w('<w:sdt NS><w:sdtContent><w:r><w:t>Lena Hart</w:t></w:r></w:sdtContent></w:sdt>'))
    tenant._p.append(_w(
        '<w:r NS><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><a:graphic><a:graphicData><wps:wsp>'
        '<wps:txbx><w:txbxContent><w:p><w:r><w:t>Keys: two sets</w:t></w:r></w:p></w:txbxContent></wps:txbx>'
        '</wps:wsp></a:graphicData></a:graphic></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox>'
        '<w:txbxContent><w:p><w:r><w:t>Keys: two sets</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape>'
        '</w:pict></mc:Fallback></mc:AlternateContent></w:r>'))
    tenant._p.append(_w('<w:r NS><w:footnoteReference w:id="1"/></w:r>'))
    body = document.element.body
    body.insert(len(body) - 1, _w('<w:sdt NS><w:sdtContent><w:p><w:r><w:t>Inventory signed by both</w:t></w:r></w:p>'
                                 '</w:sdtContent></w:sdt>'))
    notes = ('<w:footnotes NS><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
             '<w:footnote w:id="1"><w:p><w:r><w:t>As agreed on 3 May 2025.</w:t></w:r></w:p></w:footnote></w:footnotes>')
    part = Part(PackURI("/word/footnotes.xml"), CONTENT_TYPE.WML_FOOTNOTES,
                notes.replace(" NS", " " + WORD_NS, 1).encode(), document.part.package)
    document.part.relate_to(part, RELATIONSHIP_TYPE.FOOTNOTES)
    document.save(tmp_path / "tenancy.docx")
    got = extract(str(tmp_path / "tenancy.docx"), Limits(describe=False))
    assert [(s.title, s.text) for s in got.sections] == [
        ("Tenancy notes", "Tenancy notes\nThe rent is due on the first.\nDeposit: 1,200 pounds\nTenant: Lena Hart\n"
                          "Keys: two sets\nInventory signed by both"),
        ("comments", "comment by Ana Souza: Check this with the landlord"),
        ("footnotes", "As agreed on 3 May 2025.")]


def test_docx_page_headers_and_footers_are_a_section_each_line_once(tmp_path):
    """A letterhead on the first page and the others (one line, said once), a footer's reference,
    and a footer line of page numbers alone (left out)."""
    import docx

    document = docx.Document()
    document.add_paragraph("Your deposit is protected.")
    section = document.sections[0]
    section.different_first_page_header_footer = True
    section.header.paragraphs[0].text = "Harbour Lettings Ltd, 12 Quay Street"
    section.first_page_header.paragraphs[0].text = "Harbour  Lettings Ltd, 12 Quay Street"
    section.footer.paragraphs[0].text = "Ref. HL-2291/B"
    section.footer.add_paragraph("2 / 7")
    document.save(tmp_path / "letter.docx")
    got = extract(str(tmp_path / "letter.docx"), Limits(describe=False))
    assert [(s.title, s.text) for s in got.sections] == [
        ("", "Your deposit is protected."),
        ("headers and footers", "Harbour Lettings Ltd, 12 Quay Street\nRef. HL-2291/B")]


def test_docx_charts_words_are_a_section(tmp_path):
    """A chart as Word keeps it (its part beside the document, each name cached from its workbook):
    its title, series, categories (a number each) and an axis title."""
    import docx
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part

    c, a = "http://schemas.openxmlformats.org/drawingml/2006/chart", "http://schemas.openxmlformats.org/drawingml/2006/main"

    def cached(tag: str, *values) -> str:
        points = "".join(f'<c:pt idx="{i}"><c:v>{v}</c:v></c:pt>' for i, v in enumerate(values))
        return f"<c:{tag}><c:f>Sheet1!A1</c:f><c:{tag.replace('Ref', 'Cache')}>{points}</c:{tag.replace('Ref', 'Cache')}></c:{tag}>"

    def series(name: str) -> str:
        return f"<c:ser><c:tx>{cached('strRef', name)}</c:tx><c:cat>{cached('numRef', 2023, 2024)}</c:cat></c:ser>"

    xml = (f'<c:chartSpace xmlns:c="{c}" xmlns:a="{a}"><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Energy use</a:t>'
           f'</a:r><a:r><a:t> per year</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:lineChart>'
           f'{series("Gas")}{series("Electricity")}</c:lineChart><c:valAx><c:title><c:tx><c:rich><a:p><a:r><a:t>kWh'
           '</a:t></a:r></a:p></c:rich></c:tx></c:title></c:valAx></c:plotArea></c:chart></c:chartSpace>')
    document = docx.Document()
    document.add_paragraph("Our bills.")
    part = Part(PackURI("/word/charts/chart1.xml"), "application/vnd.openxmlformats-officedocument.drawingml.chart+xml",
                xml.encode(), document.part.package)
    document.part.relate_to(part, RELATIONSHIP_TYPE.CHART)
    document.save(tmp_path / "bills.docx")
    got = extract(str(tmp_path / "bills.docx"), Limits(describe=False))
    assert [(s.title, s.text) for s in got.sections] == [
        ("", "Our bills."),
        ("charts", "chart: Energy use per year\nseries: Gas, Electricity\ncategories: 2023, 2024\naxis: kWh")]


def test_docx_title_from_core_properties(tmp_path):
    import docx
    document = docx.Document()
    document.core_properties.title = "Harbour Report"
    document.add_paragraph("No headings here.")
    path = tmp_path / "titled.docx"
    document.save(str(path))
    result = extract(str(path))
    assert result.title == "Harbour Report"
    assert [(s.title, s.text) for s in result.sections] == [("", "No headings here.")]


# ---------------------------------------------------------------- pdf

def test_pdf_one_section_per_page(three_page_pdf):
    result = extract(three_page_pdf)
    assert result.kind == "pdf" and result.title == "Field Notes"
    assert [(s.kind, s.page, s.start, s.text) for s in result.sections] == [
        ("pdf_page", 1, 0, "Alpha lighthouse keeper"),
        ("pdf_page", 2, 0, "Bravo harbour tides"),
        ("pdf_page", 3, 0, "Charlie storm warning"),
    ]
    assert result.meta["page_count"] == 3 and result.meta["truncated"] is False


def test_an_illustrator_file_saved_pdf_compatible_is_read_as_its_pdf(three_page_pdf, tmp_path):
    art = tmp_path / "logo.ai"
    art.write_bytes(open(three_page_pdf, "rb").read())
    got = extract(str(art))
    assert file_kind(str(art)) == got.kind == "pdf"
    assert [s.text for s in got.sections] == ["Alpha lighthouse keeper", "Bravo harbour tides", "Charlie storm warning"]
    art.write_bytes(b"%!PS-Adobe-3.0\n%%Creator: Adobe Illustrator(R) 8.0\n%%EndComments\n")
    with pytest.raises(ExtractError, match="without PDF compatibility"):
        extract(str(art))


def test_pdf_page_limit_truncates(three_page_pdf):
    result = extract(three_page_pdf, Limits(max_pdf_pages=2))
    assert [s.page for s in result.sections] == [1, 2]
    assert result.meta == {"page_count": 3, "truncated": True}


def _with_attachments(path, files: dict[str, bytes]):
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(text="Invoice 2291 for the kitchen")
    for name, data in files.items():
        pdf.embed_file(bytes=data, basename=name, modification_date=datetime(2025, 3, 2, 10, 0, tzinfo=timezone.utc))
    pdf.output(str(path))
    return str(path)


def test_a_pdfs_outline_heads_the_pages_it_points_to(tmp_path):
    """A handbook whose bookmarks name its chapters and a nested section: each title heads the
    page it points to, unless the page says it already ("Welcome" is in page 1's text)."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("helvetica", size=12)
    for title, level, body in (("Welcome", 0, "Welcome to the company."), ("Leave", 0, "Days off are agreed early."),
                               ("Parental leave", 1, "Sixteen weeks at full pay.")):
        pdf.add_page()
        pdf.start_section(title, level=level)
        pdf.multi_cell(0, 10, body)
    pdf.output(str(tmp_path / "handbook.pdf"))
    got = extract(str(tmp_path / "handbook.pdf"))
    assert [(s.page, s.text) for s in got.sections] == [
        (1, "Welcome to the company."), (2, "Leave\nDays off are agreed early."),
        (3, "Parental leave\nSixteen weeks at full pay.")]


def test_a_pdfs_attached_files_are_files_of_their_own(tmp_path):
    """A text file and a table attached to an invoice are read as files of their own (dated by the
    attachment); a program is named, not read; the PDF's own page is as before."""
    path = _with_attachments(tmp_path / "invoice.pdf", {"notes.txt": b"Worktop in oak, fitted on Friday.\n",
                                                        "items.csv": b"item,cost\nworktop,400\n",
                                                        "tool.exe": b"MZ\x90\x00"})
    got = extract(path)
    assert [(s.page, s.text) for s in got.sections] == [(1, "Invoice 2291 for the kitchen")]
    members = {m.name: m for m in got.members}
    assert set(members) == {"notes.txt", "items.csv"}
    assert [s.text for s in members["notes.txt"].got.sections] == ["Worktop in oak, fitted on Friday."]
    assert members["items.csv"].got.kind == "csv"
    assert members["notes.txt"].date == datetime(2025, 3, 2, 10, 0, tzinfo=timezone.utc).timestamp()
    assert got.meta["members_not_read"] == 1
    from scent.extract.members import read_member
    assert read_member(path, "notes.txt") == b"Worktop in oak, fitted on Friday.\n"
    with pytest.raises(ExtractError):
        read_member(path, "gone.txt")


def test_a_pdf_whose_attached_file_would_inflate_too_far_keeps_its_pages(tmp_path):
    """PDFium would inflate the 64 MiB whole (and more: 1 GiB took it 4 GB of memory); it is counted
    a piece at a time first, and refused as an archive's bomb member is (over 200x and 8 MB)."""
    from badfiles import pdf_attaching

    (tmp_path / "bomb.pdf").write_bytes(pdf_attaching("big.txt", 64 << 20))
    got = extract(str(tmp_path / "bomb.pdf"))
    assert got.members == [] and [s.page for s in got.sections] == [1]
    assert got.meta["left_out"][0].startswith("its attached files were not read: one would inflate ")
    (tmp_path / "small.pdf").write_bytes(pdf_attaching("zeros.txt", 1 << 20))  # 1 MiB: under 8 MB, read
    assert [m.name for m in extract(str(tmp_path / "small.pdf")).members] == ["zeros.txt"]


def test_a_pdf_whose_page_would_inflate_too_far_is_one_line(tmp_path, monkeypatch):
    """A page's stream inflating past MAX_STREAM_BYTES (here made 8 MiB, the stream 16 MiB) is
    refused before PDFium inflates it whole; one of 4 MiB is read."""
    from badfiles import pdf_inflating_page
    from scent.extract import pdfstreams

    monkeypatch.setattr(pdfstreams, "MAX_STREAM_BYTES", 8 << 20)
    (tmp_path / "bomb.pdf").write_bytes(pdf_inflating_page(16 << 20))
    assert reason_of(tmp_path / "bomb.pdf").startswith("a stream in it would inflate ")
    (tmp_path / "fine.pdf").write_bytes(pdf_inflating_page(4 << 20))
    assert [s.page for s in extract(str(tmp_path / "fine.pdf")).sections] == [1]


def test_lzw_is_decoded_as_the_pdf_reference_says():
    """The PDF Reference's own example (1.7, 3.3.3): "-----A---B" is 256 45 258 258 65 259 66 257,
    9 bits each: 45 "-", 258 "--" (added after 45 -), 258 "--", 65 "A", 259 "---", 66 "B"."""
    from badfiles import lzw_codes
    from scent.extract.pdfstreams import decode

    data = lzw_codes([(c, 9) for c in (256, 45, 258, 258, 65, 259, 66, 257)])
    assert len(data) == 9 and b"".join(decode([data], ["lzw"])) == b"-----A---B"
    assert b"".join(decode([data[:4], data[4:]], ["lzw"])) == b"-----A---B"  # a code across two pieces
    # 258 before the table holds it, and a code never added: the output stops there, as PDFium's does
    assert b"".join(decode([lzw_codes([(256, 9), (258, 9), (45, 9)])], ["lzw"])) == b""
    assert b"".join(decode([lzw_codes([(256, 9), (45, 9), (300, 9), (45, 9)])], ["lzw"])) == b"-"


def test_each_pdf_filter_decodes_a_piece_at_a_time():
    """Each filter's output, fed its input one byte at a time (a group, a digit pair or a run split
    between pieces), is what the whole input decodes to: ASCII85 87cUR D]i," Ebo7 is "Hell", "o Wo",
    "rld" (z four zero bytes between groups), hex pairs with an odd last digit 7 read as 70, run
    length 02 "abc", FD (257 - 253 = 4) "z" four times, 80 the end."""
    import base64

    from scent.extract.pdfstreams import decode

    def one_at_a_time(data):
        return [data[i:i + 1] for i in range(len(data))]

    text = b"Hello World, " * 50
    cases = [(["a85"], b'87cUR z D]i,"\nEbo7~>', b"Hell\0\0\0\0o World"),
             (["hex"], b"48 65 6c6C\n6f7>ff", b"Hello\x70"),
             (["rl"], b"\x02abc\xfdz\x80\x00q", b"abczzzz"),
             (["flate"], zlib.compress(text), text),
             (["a85", "flate"], base64.a85encode(zlib.compress(text)) + b"~>", text),
             (["flate", "flate"], zlib.compress(zlib.compress(text)), text)]
    for filters, data, expected in cases:
        assert b"".join(decode([data], filters)) == expected, filters
        assert b"".join(decode(one_at_a_time(data), filters)) == expected, filters
    assert b"".join(decode([b"not deflated"], ["flate"])) == b""


def test_a_streams_filters_are_read_up_to_one_not_decoded_here():
    from scent.extract.pdfstreams import filters_of

    assert filters_of(b"<< /Length 5 /Filter/FlateDecode/DecodeParms << >> >>") == ["flate"]
    assert filters_of(b"<< /Filter [ /A85 /Fl /DCTDecode ] >>") == ["a85", "flate"]
    assert filters_of(b"<< /Filter [/DCTDecode /FlateDecode] >>") == []
    assert filters_of(b"<< /Length 5 >>") == []


def test_a_pdf_page_encoded_twice_or_by_short_names_is_counted_through_its_filters(tmp_path, monkeypatch):
    """A stream deflated twice (2 KB to 1 GiB; PDFium took 2.1 GB of memory for it, and 3.2 GB for
    3.4 KB to 2 GiB), wrapped in ASCII85 or hex, or named /Fl, got past a guard that looked for
    "/FlateDecode" and inflated once: each is decoded through its filters and counted."""
    import base64

    from badfiles import deflated_zeros, pdf_of_page_stream
    from scent.extract import pdfstreams

    monkeypatch.setattr(pdfstreams, "MAX_STREAM_BYTES", 8 << 20)
    once = deflated_zeros(16 << 20)
    bombs = {"twice.pdf": pdf_of_page_stream(zlib.compress(once, 9), b"[/FlateDecode /FlateDecode]"),
             "short.pdf": pdf_of_page_stream(once, b"/Fl"),
             "a85.pdf": pdf_of_page_stream(base64.a85encode(once) + b"~>", b"[/ASCII85Decode /FlateDecode]"),
             "hex.pdf": pdf_of_page_stream(once.hex().encode() + b">", b"[/AHx /Fl]")}
    for name, data in bombs.items():
        (tmp_path / name).write_bytes(data)
        assert reason_of(tmp_path / name).startswith("a stream in it would inflate "), name
    assert len(bombs["twice.pdf"]) < 2000
    (tmp_path / "fine.pdf").write_bytes(pdf_of_page_stream(zlib.compress(deflated_zeros(4 << 20)), b"[/Fl /Fl]"))
    assert [s.page for s in extract(str(tmp_path / "fine.pdf")).sections] == [1]


def test_a_pdf_whose_lzw_page_would_decode_too_far_is_one_line(tmp_path, monkeypatch):
    """LZW reaches ~1,360:1 on a run (PDFium decoded a 463 KB page to 600 MiB in 1.4 GB of memory, and
    aborted on 2 GiB): counted from its codes first, refused as a deflated page is; its attached file
    too. One of 4 MiB is read."""
    from badfiles import pdf_attaching, pdf_inflating_page
    from scent.extract import pdfstreams

    (tmp_path / "attached.pdf").write_bytes(pdf_attaching("big.txt", 64 << 20, lzw=True))
    got = extract(str(tmp_path / "attached.pdf"))
    assert got.members == [] and got.meta["left_out"][0].startswith("its attached files were not read: one would inflate ")
    (tmp_path / "small.pdf").write_bytes(pdf_attaching("spaces.txt", 1 << 20, lzw=True))
    assert [(m.name, m.size) for m in extract(str(tmp_path / "small.pdf")).members] == [("spaces.txt", 1 << 20)]
    monkeypatch.setattr(pdfstreams, "MAX_STREAM_BYTES", 8 << 20)
    (tmp_path / "bomb.pdf").write_bytes(pdf_inflating_page(16 << 20, lzw=True))
    assert len((tmp_path / "bomb.pdf").read_bytes()) < 16_000
    assert reason_of(tmp_path / "bomb.pdf").startswith("a stream in it would inflate ")
    (tmp_path / "fine.pdf").write_bytes(pdf_inflating_page(4 << 20, lzw=True))
    assert [s.page for s in extract(str(tmp_path / "fine.pdf")).sections] == [1]


def test_a_pdf_attached_file_is_found_and_goes_with_its_pdf(tmp_path):
    from conftest import FakeEmbedder
    from scent import Index

    folder = tmp_path / "docs"
    folder.mkdir()
    _with_attachments(folder / "invoice.pdf", {"notes.txt": b"Worktop in oak, fitted on Friday.\n"})
    with Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        assert idx.update().added == 2
        assert [r.path for r in idx.search("worktop oak fitted", strategy="keyword")] == ["invoice.pdf#notes.txt"]
        (folder / "invoice.pdf").unlink()
        idx.update()
        assert idx.search("worktop oak fitted", strategy="keyword") == []


def test_pdf_blank_page_keeps_its_section(tmp_path):
    from fpdf import FPDF
    pdf = FPDF()
    pdf.add_page()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(text="second page")
    path = tmp_path / "scan.pdf"
    pdf.output(str(path))
    result = extract(str(path))
    assert [(s.page, s.text) for s in result.sections] == [(1, ""), (2, "second page")]


# ---------------------------------------------------------------- images

def test_jpeg_exif_words_and_date(tmp_path):
    path = make_jpeg(tmp_path / "Holidays 2025" / "brittany_coast" / "lighthouse-sunset.jpg")
    result = extract(path)
    assert result.kind == "image" and result.title == "lighthouse-sunset.jpg"
    [section] = result.sections
    assert section.kind == "image" and section.start == 0
    lines = section.text.split("\n")
    assert lines[0] == "lighthouse sunset"
    assert lines[1].endswith("Holidays 2025 brittany coast")
    assert "taken 14 July 2025 (2025-07-14)" in lines
    assert "camera Acme X100" in lines
    assert "64x48" in lines
    assert result.date == datetime(2025, 7, 14, 19, 32, tzinfo=timezone.utc).timestamp()
    assert result.meta["width"] == 64 and result.meta["too_large"] is False


def test_jpeg_exif_offset_is_honoured(tmp_path):
    result = extract(make_jpeg(tmp_path / "IMG_4120.jpeg", offset="+02:00"))
    assert result.sections[0].text.startswith("IMG 4120\n")
    assert result.date == datetime(2025, 7, 14, 17, 32, tzinfo=timezone.utc).timestamp()


def test_jpeg_with_trailing_data_is_still_read(tmp_path):
    path = make_jpeg(tmp_path / "motion.jpg")
    with open(path, "ab") as f:
        f.write(b"ftypmp42" + bytes(3000))  # phones append a video after the picture
    assert extract(path).date is not None


def test_image_without_exif_and_too_large(tmp_path):
    from PIL import Image
    path = tmp_path / "diagram.png"
    Image.new("RGB", (40, 30), "white").save(path)
    plain = extract(str(path))
    assert plain.date is None and "40x30" in plain.sections[0].text
    big = extract(str(path), Limits(max_image_pixels=100))
    assert big.meta["too_large"] is True
    assert big.sections[0].text.startswith("diagram")


# ---------------------------------------------------------------- bad input: always ExtractError

def reason_of(path, limits=Limits()) -> str:
    with pytest.raises(ExtractError) as caught:
        extract(path, limits)
    assert caught.value.path == str(path)
    assert "\n" not in caught.value.reason
    return caught.value.reason


def handmade_pdf(page_text: str, annotations: list[bytes], fields: int = 0) -> bytes:
    """A one-page PDF written by hand: `page_text` printed, `annotations` (dictionaries) on the
    page, the first `fields` of them the fields of its AcroForm (a form as Acrobat fills it in)."""
    content = b"BT /F1 14 Tf 72 720 Td (%s) Tj ET" % page_text.encode("latin-1")
    first = 6  # the annotations' object numbers
    refs = [b"%d 0 R" % (first + i) for i in range(len(annotations))]
    form = b" /AcroForm << /Fields [%s] >>" % b" ".join(refs[:fields]) if fields else b""
    objects = [b"<< /Type /Catalog /Pages 2 0 R%s >>" % form, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
               b"/Resources << /Font << /F1 5 0 R >> >> /Annots [%s] >>" % b" ".join(refs),
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
               *(b"<< /Type /Annot /P 3 0 R /Rect [72 600 300 620] %s >>" % a for a in annotations)]
    return pdf_of(objects)


def test_a_pdfs_filled_in_fields_and_comments_are_its_pages_words(tmp_path):
    (tmp_path / "card.pdf").write_bytes(handmade_pdf("Library card application, reader number LC-2231. Student? Yes", [
        b"/Subtype /Widget /FT /Tx /T (surname) /TU (Your surname) /V (Okafor-Lindqvist)",
        b"/Subtype /Widget /FT /Tx /T (form1[0].Page1[0].phone[0]) /V (0161 496 0732)",  # no label: its name's last part
        b"/Subtype /Widget /FT /Btn /T (student) /TU (I am a student) /V /Yes /AS /Yes",
        b"/Subtype /Widget /FT /Btn /T (retired) /TU (I am retired) /V /Off /AS /Off",  # not ticked: nothing
        b"/Subtype /Widget /FT /Tx /T (number) /TU (Reader number) /V (LC-2231)",  # printed already: once
        b"/Subtype /Widget /FT /Tx /T (children) /TU (Children) /V (2)",  # too short to be taken as printed
        b"/Subtype /Text /T (Ben) /Contents (Check the postcode with Ana)",
        b"/Subtype /FreeText /Contents (Signed 3 May 2025) /DA (/Helv 10 Tf 0 g)",
        b"/Subtype /Link /Contents (not a note)",
    ], fields=6))
    got = extract(str(tmp_path / "card.pdf"))
    assert [(s.kind, s.page, s.text) for s in got.sections] == [("pdf_page", 1, "\n".join([
        "Library card application, reader number LC-2231. Student? Yes", "Your surname: Okafor-Lindqvist",
        "phone: 0161 496 0732", "I am a student: yes", "Children: 2", "comment by Ben: Check the postcode with Ana",
        "Signed 3 May 2025"]))]
    # A PDF without a form: its notes only, the same way
    (tmp_path / "notes.pdf").write_bytes(handmade_pdf("Minutes", [b"/Subtype /Highlight /Contents (wrong date)"]))
    assert [s.text for s in extract(str(tmp_path / "notes.pdf")).sections] == ["Minutes\ncomment: wrong date"]


def test_corrupt_pdf(tmp_path):
    reason = reason_of(write(tmp_path / "bad.pdf", b"%PDF-1.4\n" + b"garbage " * 200))
    assert reason.startswith("unreadable PDF (its structure is damaged)")


def test_truncated_pdf(tmp_path, three_page_pdf):
    data = open(three_page_pdf, "rb").read()
    reason = reason_of(write(tmp_path / "cut.pdf", data[:len(data) // 2]))
    assert reason.startswith("unreadable PDF (") and "cut short" in reason


def test_encrypted_pdf(encrypted_pdf):
    assert reason_of(encrypted_pdf) == ("encrypted PDF: scent cannot read it without the password; "
                                        "decrypt it or add it to .scentignore")


def test_a_refused_pdf_after_an_encrypted_one_is_not_called_encrypted(encrypted_pdf, tmp_path):
    """PDFium's error code is a last-error state: a file it refuses without setting one (an empty page
    tree) came out "encrypted" when an encrypted PDF had been refused just before (seen in CI)."""
    from badfiles import zero_page_pdf

    empty = write(tmp_path / "zero-pages.pdf", zero_page_pdf())
    alone = reason_of(empty)
    assert reason_of(encrypted_pdf).startswith("encrypted PDF")
    assert reason_of(empty) == alone and not alone.startswith("encrypted")


def test_binary_file_named_txt(tmp_path):
    reason = reason_of(write(tmp_path / "photo.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(100)))
    assert reason.startswith("binary data in a text file")


def test_text_over_the_size_limit(tmp_path):
    path = write(tmp_path / "huge.log", "x" * 2048)
    reason = reason_of(path, Limits(max_text_bytes=1024))
    assert reason.startswith("text file is 2.0 KB, over the 1.0 KB limit")
    assert extract(path, Limits(max_text_bytes=2048)).sections[0].text == "x" * 2048
    # just over: the sizes in bytes, where rounded they were the same ("50.0 MB, over the 50.0 MB limit")
    assert reason_of(path, Limits(max_text_bytes=2040)).startswith("text file is 2,048 bytes, over the 2,040-byte "
                                                                   "(2.0 KB) limit")


@pytest.mark.parametrize("name", ["gone.txt", "gone.pdf", "gone.docx", "gone.jpg", "gone.csv"])
def test_missing_file(tmp_path, name):
    assert reason_of(str(tmp_path / name)).startswith("file vanished or unreadable (No such file or directory)")


def test_directory_with_a_file_name(tmp_path):
    (tmp_path / "folder.txt").mkdir()
    assert reason_of(str(tmp_path / "folder.txt")).startswith("not a regular file")


def test_zip_renamed_docx(tmp_path):
    path = tmp_path / "fake.docx"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("hello.txt", "not word")
    assert reason_of(str(path)).startswith("not a readable Word .docx file (KeyError")
    assert reason_of(write(tmp_path / "plain.docx", b"just text")).startswith(
        "not a readable Word .docx file (BadZipFile")


def test_invalid_json(tmp_path):
    assert reason_of(write(tmp_path / "broken.json", '{"a": 1,,}')).startswith(
        "invalid JSON: Expecting property name enclosed in double quotes at line 1 column 9")
    assert reason_of(write(tmp_path / "broken.jsonl", '{"a": 1}\n{oops}\n')).startswith(
        "invalid JSON on line 2:")


def test_json_nested_too_deeply(tmp_path):
    assert reason_of(write(tmp_path / "deep.json", "[" * 100_000 + "]" * 100_000)).startswith(
        "JSON nested too deeply")


def test_truncated_jpeg(tmp_path):
    data = open(make_jpeg(tmp_path / "whole.jpg", size=(256, 256)), "rb").read()
    # Its header whole: read by its name and size, its pixels said not to decode.
    got = extract(write(tmp_path / "cut-half.jpg", data[: len(data) // 2]), Limits(ocr=object(), describe=True))
    assert [s.kind for s in got.sections] == ["image"] and got.sections[0].text.endswith("256x256")
    assert got.meta["picture_error"].startswith("its pixels did not decode (it was cut short: ")
    # Cut inside its header: nothing to read.
    assert reason_of(write(tmp_path / "cut200.jpg", data[:200])).startswith("unreadable image (")
    assert reason_of(write(tmp_path / "empty.jpg", b"")).startswith("empty file (0 bytes)")


def test_a_readers_own_failure_skips_the_file_with_one_line(tmp_path, monkeypatch):
    # A library's own error on hostile bytes (json's on a 5,001-digit number, before it was read as its
    # digits) ended the whole run.
    from scent.extract import jsondata

    def refuses(text):
        raise ValueError("Exceeds the limit (4300 digits) for integer string conversion")

    monkeypatch.setattr(jsondata, "load_json", refuses)
    reason = reason_of(write(tmp_path / "n.json", '{"n": 1}'))
    assert reason.startswith("its reader failed (ValueError: Exceeds the limit (4300 digits)")
    assert reason.endswith("; it may be damaged or unusual; add it to .scentignore to stop seeing this")


def test_a_reason_is_one_line_whatever_the_library_said():
    from scent.errors import ExtractError

    assert ExtractError("a.pptx", "not a readable deck (Char 0x0 out of allowed range\n, line 2)").reason == \
        "not a readable deck (Char 0x0 out of allowed range , line 2)"


def test_not_an_image(tmp_path):
    assert reason_of(write(tmp_path / "fake.png", b"hello, not a png")).startswith(
        "unreadable image (cannot identify image file")


def test_unknown_kind(tmp_path):
    assert reason_of(write(tmp_path / "setup.exe", b"\x00")) == (
        f"scent does not index .exe files, only {', '.join(sorted(FILE_KINDS))}; "
        "add it to .scentignore to stop seeing this")


EXTENSIONS = [".txt", ".md", ".py", ".html", ".csv", ".json", ".jsonl", ".docx", ".pdf", ".jpg",
              ".png", ".gif", ".xlsx", ".xls", ".ods", ".pptx", ".odp", ".odt", ".rtf", ".epub", ".heic", ".eml",
              ".mbox", ".doc", ".ppt", ".srt", ".vtt", ".svg", ".msg", ".emlx", ".pages", ".key", ".numbers", ".dng",
              ".nef", ".gpx", ".kml", ".kmz", ".djvu",
              ".mobi", ".azw3", ".xml", ".url", ".webloc", ".desktop"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ext=st.sampled_from(EXTENSIONS), data=st.binary(max_size=600), prefix=st.sampled_from(
    [b"", b"%PDF-1.7\n", b"PK\x03\x04", b"\xff\xd8\xff\xe0", b"\x89PNG\r\n\x1a\n", b"GIF89a", b"{\"a\":",
     b"<svg xmlns='http://www.w3.org/2000/svg'>", b"II*\x00",  # a TIFF, as most camera raws are
     b"<gpx><trk><trkseg><trkpt lat='1' lon='2'>", b"AT&TFORM\x00\x00\x04\x00DJVM",
     b"\x00" * 60 + b"BOOKMOBI\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x58",  # a Palm database of 2 records
     b"[InternetShortcut]\nURL=", b"bplist00",
     b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"]))  # the last: an OLE file (.xls, .doc, encrypted Office)
def test_any_bytes_give_a_result_or_extract_error(tmp_path, ext, data, prefix):
    path = write(tmp_path / f"fuzz{ext}", prefix + data)
    try:
        result = extract(path)
    except ExtractError as e:
        assert e.reason and "\n" not in e.reason
    else:
        # a .doc that is really RTF or a web page is read as what it is (README, docx row)
        assert result.kind == file_kind(path) or (ext == ".doc" and result.kind in ("rtf", "html"))
        assert all(s.kind in UNIT_KINDS for s in result.sections)


def test_truncated_variants_of_real_files(tmp_path, three_page_pdf, word_file):
    """Every prefix length class of real files is either read or refused with ExtractError."""
    sources = [three_page_pdf, word_file, make_jpeg(tmp_path / "src.jpg", size=(128, 96))]
    for source in sources:
        data = open(source, "rb").read()
        for fraction in (0.05, 0.25, 0.5, 0.75, 0.95, 0.99):
            path = write(tmp_path / f"cut{os.path.splitext(source)[1]}", data[:int(len(data) * fraction)])
            try:
                extract(path)
            except ExtractError:
                pass


def test_a_phone_photo_is_read_upright(tmp_path, monkeypatch):
    """A portrait photo stored on its side with EXIF orientation 6 (turn 90 degrees clockwise to show):
    OCR, the describers and an image-text model get it standing, as a viewer shows it."""
    from PIL import Image
    from scent.extract import image as image_module

    stored = Image.new("RGB", (300, 120), "white")
    exif = Image.Exif()
    exif[0x0112] = 6
    stored.save(tmp_path / "portrait.jpg", exif=exif)
    Image.new("RGB", (300, 120), "white").save(tmp_path / "plain.jpg")
    seen = {}
    monkeypatch.setattr(image_module.ocr, "read_text", lambda img, *a: seen.setdefault("ocr", img.size) and "")
    monkeypatch.setattr(image_module, "describe", lambda img, **kw: seen.setdefault("describe", img.size) and "")
    extract(str(tmp_path / "portrait.jpg"), Limits(ocr=object(), describe=True))
    assert seen == {"ocr": (120, 300), "describe": (120, 300)}
    assert image_module.load_picture(str(tmp_path / "portrait.jpg"), 1000).size == (120, 300)
    assert image_module.load_picture(str(tmp_path / "plain.jpg"), 1000).size == (300, 120)
    with Image.open(tmp_path / "plain.jpg") as img:
        assert image_module.upright(img) is img  # nothing to turn: not copied


def test_a_note_found_by_its_name_shows_its_body_not_its_tags(tmp_path):
    from scent import Index
    from conftest import FakeEmbedder

    folder = tmp_path / "vault"
    write(folder / "Priya Raman.md", "---\ntags: [people, work]\naliases: [PR]\n---\nLeads the data team; "
                                     "prefers mornings for reviews.\n")
    write(folder / "other.md", "# Lunch\nPasta again.\n")
    with Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        found = idx.search("Priya Raman", k=1)[0]
        assert (found.path, found.title) == ("Priya Raman.md", "Priya Raman")
        assert found.snippet.startswith("Leads the data team")  # was "tags: people work"
        assert idx.search("people", k=1)[0].snippet.startswith("aliases: PR tags: people")  # its words: shown
