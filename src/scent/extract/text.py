"""Plain text and light markup: one section, or one per heading for Markdown and Org. A
Markdown file's YAML front matter is metadata, not body text (see frontmatter.py): its title is
the file's title, its date the file's date, and its tags the text of a first unit of their own
("tags: harbour budget"), so they are found by keyword and by meaning as the file's."""
from __future__ import annotations

import os
import re

from scent.dates import from_front_matter
from scent.units import Extracted, Section
from . import frontmatter
from .base import Limits, numbered_lines, read_text, split_at

# .rmd, .qmd: R Markdown and Quarto (Markdown with code cells); .mdx: Markdown with components;
# .bib, .ris: reference lists; .diff, .patch: changes to code, mailed or saved.
# 2: an untitled Markdown note is titled by its file name; front matter's aliases are searchable.
# 3: LaTeX, reStructuredText and AsciiDoc cut at their headings, BibTeX at its entries.
VERSION = 3
_MARKDOWN = (".md", ".markdown", ".mdown", ".mkd", ".mdx", ".rmd", ".qmd")
EXTENSIONS = (".txt", ".text", *_MARKDOWN, ".rst", ".log", ".org", ".adoc", ".asciidoc", ".tex", ".nfo", ".bib",
              ".ris", ".diff", ".patch")
NAMES = ("readme", "license", "licence", "copying", "authors", "changelog", "todo")

_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_ATX = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$")
_SETEXT_RULE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_ORG = re.compile(r"^\*+[ \t]+(.+?)[ \t]*$", re.MULTILINE)


def markdown_headings(text: str, offset: int = 0) -> list[tuple[int, str]]:
    """(offset of the heading line, heading text) for ATX and setext headings outside code fences,
    from `offset` on (the end of the front matter: its closing --- is no heading underline)."""
    cuts, fenced, prev = [], False, None  # prev: (offset, line) of a possible setext title
    for line in text[offset:].split("\n"):
        if _FENCE.match(line):
            fenced, prev = not fenced, None
        elif not fenced:
            if m := _ATX.match(line):
                cuts.append((offset, m.group(1)))
                prev = None
            elif prev and _SETEXT_RULE.match(line):
                cuts.append((prev[0], prev[1].strip()))
                prev = None
            else:
                indented = line.startswith(("    ", "\t"))
                prev = (offset, line) if line.strip() and not indented else None
        offset += len(line) + 1
    return cuts


def _org_headings(text: str, offset: int = 0) -> list[tuple[int, str]]:
    return [(m.start(), m.group(1)) for m in _ORG.finditer(text, offset)]


# A thesis chapter was one unit of raw LaTeX: its sections' words diluted one vector, and a search
# showed the chapter's first lines. \section*{...} too; a title may hold one level of braces.
_LATEX = re.compile(r"^[ \t]*\\(?:part|chapter|section|subsection|subsubsection)\*?[ \t]*(?:\[[^\]\n]*\])?"
                    r"\{((?:[^{}\n]|\{[^{}\n]*\})+)\}", re.MULTILINE)
_LATEX_MARKUP = re.compile(r"\\[A-Za-z]+\*?\s*|[{}~]")


def _latex_headings(text: str, offset: int = 0) -> list[tuple[int, str]]:
    return [(m.start(), _latex_words(m.group(1))) for m in _LATEX.finditer(text, offset)]


def _latex_words(title: str) -> str:
    return " ".join(_LATEX_MARKUP.sub(" ", title).split())


_LATEX_TITLE = re.compile(r"^[ \t]*\\title[ \t]*(?:\[[^\]\n]*\])?\{((?:[^{}\n]|\{[^{}\n]*\})+)\}", re.MULTILINE)


def _latex_title(text: str, find) -> str:
    """A LaTeX document's \\title{...}; "" for other formats."""
    m = _LATEX_TITLE.search(text) if find is _latex_headings else None
    return _latex_words(m.group(1)) if m else ""


# One entry of a reference list a unit, titled by its key: "smith2021attention" shows that entry.
_BIBTEX = re.compile(r"^[ \t]*@(?!comment|preamble|string)[A-Za-z]+[ \t]*[{(][ \t]*([^,\s{}()]+)[ \t]*,",
                     re.MULTILINE | re.IGNORECASE)


def _bibtex_entries(text: str, offset: int = 0) -> list[tuple[int, str]]:
    return [(m.start(), m.group(1)) for m in _BIBTEX.finditer(text, offset)]


# reStructuredText: a title is a line of text over a line of one punctuation character at least as
# long (an overline above it is allowed); AsciiDoc: "== Section" (one = is the document's title).
_RST = re.compile(r"^(?:([=\-~^\"'`#*+:.])\1{2,}\n)?(\S[^\n]*?)[ \t]*\n([=\-~^\"'`#*+:.])\3{2,}[ \t]*$", re.MULTILINE)
_ASCIIDOC = re.compile(r"^={1,6}[ \t]+(\S.*?)[ \t]*$", re.MULTILINE)


def _rst_headings(text: str, offset: int = 0) -> list[tuple[int, str]]:
    return [(m.start(), m.group(2)) for m in _RST.finditer(text, offset)
            if len(m.group(0).split("\n")[-1].rstrip()) >= len(m.group(2))]


def _asciidoc_headings(text: str, offset: int = 0) -> list[tuple[int, str]]:
    return [(m.start(), m.group(1)) for m in _ASCIIDOC.finditer(text, offset)]


_HEADINGS = {**dict.fromkeys(_MARKDOWN, markdown_headings), ".org": _org_headings, ".tex": _latex_headings,
             ".bib": _bibtex_entries, ".rst": _rst_headings, ".adoc": _asciidoc_headings,
             ".asciidoc": _asciidoc_headings}


# Notion's export names a page "Title 1a2b...": 32 hex digits after its title.
_NOTION_ID = re.compile(r"\s+[0-9a-f]{32}$")
_WORD = re.compile(r"[^\W\d_]{2}")


def _name_title(path: str, find) -> str:
    """An untitled note's title from its file name, as Obsidian, Logseq and Notion name notes ("Lumen
    Labs.md" is the note Lumen Labs; without it, a search for its name ranked the notes that
    mention it first); Markdown and Org only (a .txt may be named by an id), and a name that holds
    a word: a journal's 2025_03_19 is its date, not its title."""
    if find not in (markdown_headings, _org_headings):
        return ""
    name = _NOTION_ID.sub("", os.path.splitext(os.path.basename(path))[0]).replace("_", " ").strip()
    return name if _WORD.search(name) else ""


def extract(path: str, limits: Limits) -> Extracted:
    text, encoding = read_text(path, limits)
    find = _HEADINGS.get(os.path.splitext(path)[1].lower())
    meta: dict = {"encoding": encoding}
    fm = frontmatter.read(text) if find is markdown_headings else None
    if fm is not None and fm.problem:
        meta["left_out"] = [fm.problem]
        # Plain text: the block is the file's text like the rest; only its closing --- is no underline.
        begin, fm = 0, frontmatter.FrontMatter(fm.end)
    else:
        begin = fm.end if fm is not None else 0
    cuts = find(text, fm.end if fm is not None else 0) if find else []
    sections = numbered_lines(text, split_at(text, cuts, "text", begin=begin))
    tags = frontmatter.tags_text(fm) if fm is not None else ""
    if tags and len(tags) <= fm.end:  # its span lies within the block, before any body text
        sections.insert(0, Section(text=tags, kind="text", start=0))
    headed = cuts and find is not _bibtex_entries  # an entry's key is no title of the list
    title = ((fm.title if fm is not None else "") or _latex_title(text, find) or (cuts[0][1] if headed else "")
             or _name_title(path, find))
    if fm is not None:
        if fm.tags:
            meta["tags"] = list(fm.tags)
        date = fm.date
    else:
        date = from_front_matter(text)  # .txt, .rst ...: a date: line at the top, as before
    return Extracted(kind="text", sections=sections, title=title, date=date, meta=meta)

