"""The preview pane's blocks and the snippets' readable text, computed by hand."""
from scent.serve.preview import markdown_blocks, unit_blocks
from scent.snippet import readable
from scent.storage import StoredUnit


def test_markdown_keeps_structure_and_drops_markup_and_raw_html():
    text = ("# Title *here*\n\nA [link](http://x.y) and `code` and <b>bold</b>.\n\n- one\n- two **2**\n\n"
            "1. first\n\n> quoted\n\n```\nx = 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert markdown_blocks(text) == [
        {"tag": "h1", "text": "Title here"},
        {"tag": "p", "text": "A link and code and bold."},
        {"tag": "li", "text": "one", "ordered": False},
        {"tag": "li", "text": "two 2", "ordered": False},
        {"tag": "li", "text": "first", "ordered": True},
        {"tag": "blockquote", "text": "quoted"},
        {"tag": "pre", "text": "x = 1"},
        {"tag": "tr", "text": "a · b"},
        {"tag": "tr", "text": "1 · 2"},
    ]


def _unit(text, start, end, page=None):
    return StoredUnit(id=start, path="a.pdf", file_kind="pdf", kind="pdf_page", page=page, start=start, end=end,
                      title="", lang="en", text=text, date=0.0)


def test_overlapping_chunks_are_shown_once_and_pages_marked():
    units = [_unit("one two three four", 0, 18, 1), _unit("three four five six", 8, 27, 1),
             _unit("page two", 0, 8, 2)]
    blocks, cut = unit_blocks(units)
    assert not cut
    assert blocks == [{"tag": "h3", "text": "Page 1", "page": 1},
                      {"tag": "p", "text": "one two three four five six", "page": 1},
                      {"tag": "h3", "text": "Page 2", "page": 2},
                      {"tag": "p", "text": "page two", "page": 2}]


def test_readable_snippet_text():
    assert readable("## **Deposit** return") == "Deposit return"
    assert readable("- [x] call the [landlord](http://x.y) about `LD-2026`") == "☑ call the landlord about LD-2026"
    assert readable("- [ ] weed the veg patch\n- seeds") == "☐ weed the veg patch\nseeds"  # to do, done: as boxes
    # Obsidian's: a wikilink by what it shows (its | no table cell), no embed, no hidden comment
    assert readable("> [!warning] Mind the gap\nRead [[Thinking in Systems|Meadows book]] and [[Habits]] "
                    "![[tunnel.jpg|300]]now ^abc1\n==key== %% secret %%bit") == (
        "Mind the gap\nRead Meadows book and Habits now\nkey bit")
    # a number starts a list item after a blank line, an item or its indented line, or as 1; not a wrapped line
    assert readable("Steps:\n\n3. Open\n4. Close\n   it\n5. Lock") == "Steps:\n\nOpen\nClose\n   it\nLock"
    assert readable("Steps:\n1. Open\n2. [ ] Close") == "Steps:\nOpen\nClose"
    assert readable("Die Abgabefrist ist der\n31. Juli 2025.") == "Die Abgabefrist ist der\n31. Juli 2025."
    assert readable("| a | b |\n|---|---|\n| 1 | 2 |") == "a · b\n\n1 · 2"
    # what is not markup stays: identifiers, arithmetic
    assert readable("TICKET\n======\nOpened") == "TICKET\n\nOpened"
    assert readable("snake_case_name and a*b*c and 2 * 3 * 4") == "snake_case_name and a*b*c and 2 * 3 * 4"


def test_a_notebooks_text_and_code_keep_their_order_and_entries_are_named():
    def unit(uid, kind, start, text, file_kind="notebook", page=None):
        return StoredUnit(id=uid, path="n.ipynb", file_kind=file_kind, kind=kind, page=page, start=start,
                          end=start + len(text), title="", lang="en", text=text, date=0.0)

    blocks, _ = unit_blocks([unit(3, "text", 40, "## Results"), unit(2, "code", 20, "plot(beds)"),
                             unit(1, "text", 0, "# Beds")])
    assert [b["text"] for b in blocks] == ["# Beds", "plot(beds)", "## Results"]
    blocks, _ = unit_blocks([unit(1, "calendar", 0, "Dentist", "calendar", 1)])
    assert blocks[0] == {"tag": "h3", "text": "Entry 1", "page": 1}


def test_a_text_file_is_shown_in_the_encoding_it_was_read_in(tmp_path):
    from pathlib import Path

    from scent.serve.preview import preview

    note = tmp_path / "notes.txt"
    note.write_bytes("Réunion: le café coûte 2 €, chez Müller Straße.".encode("cp1252"))
    unit = StoredUnit(id=1, path="notes.txt", file_kind="text", kind="text", page=None, start=0, end=10, title="",
                      lang="fr", text="", date=0.0)
    shown = preview(str(tmp_path), "notes.txt", [unit], "café", Path(note))
    assert shown["blocks"] == [{"tag": "p", "text": "Réunion: le café coûte 2 €, chez Müller Straße.",
                                "highlights": [[12, 16]]}]
    assert shown["hits"] == 1


def test_a_notes_front_matter_is_metadata_not_shown_as_text(tmp_path):
    from pathlib import Path

    from scent.serve.preview import preview

    note = tmp_path / "boiler.md"
    note.write_text("---\ntitle: Boiler service log\ndate: 2025-03-01\ntags: [home]\n---\n\n# Service\n\n"
                    "Valve replaced.%% ask for a discount %%\n")
    unit = StoredUnit(id=1, path="boiler.md", file_kind="text", kind="text", page=None, start=0, end=10, title="",
                      lang="en", text="", date=0.0)
    shown = preview(str(tmp_path), "boiler.md", [unit], "valve", Path(note))
    assert [(b["tag"], b["text"]) for b in shown["blocks"]] == [("h1", "Service"), ("p", "Valve replaced.")]
    note.write_text("---\ntitle: [unclosed\n---\nBody.\n")  # bad YAML: indexed as plain text, shown so too
    assert "title: [unclosed" in " ".join(b["text"] for b in preview(str(tmp_path), "boiler.md", [unit], "", Path(note))["blocks"])


def test_a_canvas_and_a_keep_note_are_shown_as_read_and_a_table_a_row_a_line(tmp_path):
    import json
    from pathlib import Path

    from scent.serve.preview import preview

    def unit(path, kind, text):
        return StoredUnit(id=1, path=path, file_kind=kind, kind="text", page=None, start=0, end=len(text), title="",
                          lang="en", text=text, date=0.0)

    keep = tmp_path / "note.json"
    keep.write_text(json.dumps({"textContent": "Bike lock combination is 6-0-4-1.", "title": "",
                                "userEditedTimestampUsec": 1741513272512000, "isTrashed": False}))
    shown = preview(str(tmp_path), "note.json", [unit("note.json", "json", "Bike lock combination is 6-0-4-1.")],
                    "bike", Path(keep))
    assert [b["text"] for b in shown["blocks"]] == ["Bike lock combination is 6-0-4-1."]  # not Takeout's JSON
    plain = tmp_path / "settings.json"
    plain.write_text('{"theme": "dark"}')
    assert '"theme"' in preview(str(tmp_path), "settings.json", [unit("settings.json", "json", "theme: dark")], "",
                                Path(plain))["blocks"][0]["text"]  # any other JSON: as it is written
    canvas = tmp_path / "board.canvas"
    canvas.write_text(json.dumps({"nodes": [{"type": "text", "text": "Plan the garden"}], "edges": []}))
    shown = preview(str(tmp_path), "board.canvas", [unit("board.canvas", "text", "Plan the garden")], "", Path(canvas))
    assert [b["text"] for b in shown["blocks"]] == ["Plan the garden"]
    table = tmp_path / "items.csv"
    table.write_text("item,room\nDishwasher,Kitchen\nDrill,Shed\n")
    shown = preview(str(tmp_path), "items.csv", [unit("items.csv", "csv", "item room")], "", Path(table))
    assert shown["blocks"] == [{"tag": "pre", "text": "item,room\nDishwasher,Kitchen\nDrill,Shed\n", "highlights": []}]
