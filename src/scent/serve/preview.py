"""What the web UI's preview pane shows of one indexed file: its text as blocks (headings,
paragraphs, list items, code, table rows, a PDF's pages), each with the spans that match the query.

Blocks are data, never markup: the page builds them with createElement and textContent, so
nothing a file holds can run (markdown's raw HTML is dropped, not rendered). A text file is read
from disk (the whole file, not the chunks, which overlap); every other kind is shown as its
extracted units, overlaps removed (scent.passages).
"""
from __future__ import annotations

from pathlib import Path

from .. import passages
from ..extract import frontmatter
from ..extract.base import decode
from ..kinds import PLACE_NAMES
from ..query import parse
from ..snippet import beside_ids, matches, without_obsidian
from ..storage import StoredUnit

# Enough for any note; a longer file is cut with a line saying so (the file itself is one click away).
MAX_CHARS = 200_000
READ_FROM_DISK = ("text", "code", "csv", "json")
MARKDOWN = (".md", ".markdown", ".mdown", ".mkd")
HEADINGS = {f"h{i}" for i in range(1, 7)}


def preview(root: str, path: str, units: list[StoredUnit], query: str, real: Path, data: bytes | None = None) -> dict:
    """`{"path", "kind", "blocks": [{"tag", "text", "highlights", "page"?}], "hits", "cut"}` for the
    indexed file `path` (its units, in reading order, and its real location `real`). `data` holds
    the bytes of a file inside another (an archive member: `real` is the archive), read by the caller."""
    kind = units[0].file_kind if units else "text"
    raw = (data if data is not None else real.read_bytes()[:MAX_CHARS * 4]) if kind in READ_FROM_DISK else b""
    text = decode(raw[:MAX_CHARS * 4])[0]  # as indexing read it: a cp1252 note is not mojibake here
    if kind in READ_FROM_DISK and not (units and _read_as_a_note(path, text, data is None)):
        size = len(raw) if data is not None else real.stat().st_size
        cut = len(text) > MAX_CHARS or size > MAX_CHARS * 4
        text = text[:MAX_CHARS]
        suffix = Path(path).suffix.lower() if data is not None else real.suffix.lower()
        if suffix in MARKDOWN:
            blocks = markdown_blocks(_body(text))
        elif kind in ("code", "csv"):  # a table's rows, a line each (as one paragraph they ran together)
            blocks = [{"tag": "pre", "text": text}]
        else:
            blocks = paragraphs(text)
    else:
        blocks, cut = unit_blocks(units)
    keywords = parse(query) if query.strip() else None
    words = beside_ids([b["text"] for b in blocks], keywords.words, keywords.ids) if keywords else []
    hits = 0
    for block in blocks:
        spans = matches(block["text"], words, keywords.ids) if keywords else []
        block["highlights"] = [list(s) for s in spans]
        hits += len(spans)
    return {"path": path, "kind": kind, "blocks": blocks, "hits": hits, "cut": cut}


def _read_as_a_note(path: str, text: str, on_disk: bool) -> bool:
    """Whether the file's text (`text`, its head) is not what a person reads in it, but its units
    are: an Obsidian canvas (JSON of cards), a Google Keep note on disk (Takeout's JSON). Shown raw,
    both were a page of JSON."""
    suffix = Path(path).suffix.lower()
    if suffix == ".canvas":
        return True
    if suffix != ".json" or not on_disk:
        return False
    import json

    from ..extract import keep

    try:  # a head cut short is no JSON: a note is a few lines
        return keep.is_note(json.loads(text))
    except ValueError:
        return False


def _body(text: str) -> str:
    """A Markdown file without its YAML front matter: metadata (its title, date and tags are the
    result's), which shown as Markdown was a rule and a heading of `key: value` lines; and with
    Obsidian's markup read as Obsidian shows it."""
    fm = frontmatter.read(text)
    return without_obsidian(text[fm.end:] if fm is not None and not fm.problem else text)


def paragraphs(text: str) -> list[dict]:
    return [{"tag": "p", "text": part.strip("\n")} for part in text.split("\n\n") if part.strip()]


def unit_blocks(units: list[StoredUnit]) -> tuple[list[dict], bool]:
    """One block per passage (overlapping chunks merged, see scent.passages), pages marked."""
    blocks: list[dict] = []
    total, last_page = 0, None
    place = PLACE_NAMES.get(units[0].file_kind, "page").capitalize() if units else "Page"
    for p in passages.merge(units):
        if not p.text.strip():
            continue
        if p.page is not None and p.page != last_page:
            blocks.append({"tag": "h3", "text": f"{place} {p.page}", "page": p.page})
            last_page = p.page
        blocks.append({"tag": "p", "text": p.text, **({"page": p.page} if p.page else {})})
        total += len(p.text)
        if total > MAX_CHARS:
            return blocks, True
    return blocks, False


def markdown_blocks(text: str) -> list[dict]:
    """Markdown as blocks of plain text: structure kept (headings, list items with their list's
    kind (ordered or not); code, quotes, table rows), inline markup reduced to its words, raw HTML left out."""
    from markdown_it import MarkdownIt

    # HTML is parsed only to be recognised and skipped: its tags are neither shown nor rendered.
    tokens = MarkdownIt("commonmark", {"html": True}).enable("table").parse(text)
    blocks: list[dict] = []
    tag, quote, cells, lists = "p", 0, None, []
    for tok in tokens:
        if tok.type == "heading_open":
            tag = tok.tag
        elif tok.type in ("bullet_list_open", "ordered_list_open"):
            lists.append("ol" if tok.type == "ordered_list_open" else "ul")
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif tok.type == "list_item_open":
            tag = "li"
        elif tok.type == "blockquote_open":
            quote += 1
        elif tok.type == "blockquote_close":
            quote -= 1
        elif tok.type == "tr_open":
            cells = []
        elif tok.type == "tr_close":
            blocks.append({"tag": "tr", "text": " · ".join(cells or [])})
            cells = None
        elif tok.type in ("fence", "code_block"):
            blocks.append({"tag": "pre", "text": tok.content.rstrip("\n")})
        elif tok.type == "hr":
            blocks.append({"tag": "hr", "text": ""})
        elif tok.type == "inline":
            words = _inline_text(tok)
            if cells is not None:
                cells.append(words)
            elif words.strip() and tag == "li":
                blocks.append({"tag": "li", "text": words, "ordered": bool(lists) and lists[-1] == "ol"})
            elif words.strip():
                blocks.append({"tag": "blockquote" if quote and tag == "p" else tag, "text": words})
        elif tok.type in ("heading_close", "paragraph_close") and tag in HEADINGS:
            tag = "p"
        elif tok.type == "list_item_close":
            tag = "p"
    return blocks


def _inline_text(tok) -> str:
    out = []
    for child in tok.children or []:
        if child.type in ("text", "code_inline"):
            out.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append("\n" if child.type == "hardbreak" else " ")
        elif child.type == "image":
            out.append(child.content or "")  # its alt text
    return "".join(out)
