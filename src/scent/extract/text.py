"""Plain text and light markup: one section, or one per heading for Markdown and Org."""
from __future__ import annotations

import os
import re

from scent.dates import from_front_matter
from scent.units import Extracted
from .base import Limits, read_text, split_at

EXTENSIONS = (".txt", ".text", ".md", ".markdown", ".mdown", ".mkd", ".rst", ".log",
              ".org", ".adoc", ".asciidoc", ".tex", ".nfo")
NAMES = ("readme", "license", "licence", "copying", "authors", "changelog", "todo")

_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_ATX = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$")
_SETEXT_RULE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_ORG = re.compile(r"^\*+[ \t]+(.+?)[ \t]*$", re.MULTILINE)


def _markdown_headings(text: str) -> list[tuple[int, str]]:
    """(offset of the heading line, heading text) for ATX and setext headings outside code fences."""
    cuts, fenced, prev = [], False, None  # prev: (offset, line) of a possible setext title
    offset = _front_matter_end(text)
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


def _front_matter_end(text: str) -> int:
    """Where YAML front matter ends, so its closing --- is not read as a heading underline."""
    if text.startswith("---\n"):
        close = text.find("\n---\n", 3)
        if close != -1:
            return close + 5
    return 0


def _org_headings(text: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group(1)) for m in _ORG.finditer(text)]


_HEADINGS = {".md": _markdown_headings, ".markdown": _markdown_headings,
             ".mdown": _markdown_headings, ".mkd": _markdown_headings, ".org": _org_headings}


def extract(path: str, limits: Limits) -> Extracted:
    text, encoding = read_text(path, limits)
    find = _HEADINGS.get(os.path.splitext(path)[1].lower())
    cuts = find(text) if find else []
    sections = split_at(text, cuts, "text")
    title = cuts[0][1] if cuts else ""
    return Extracted(kind="text", sections=sections, title=title, date=from_front_matter(text),
                     meta={"encoding": encoding})

