"""Outlines (.opml): what an outliner exports (OmniOutliner, Workflowy, Dynalist, Logseq) and the
list of subscriptions a podcast or feed reader exports. Indexed as text (kind `text`): each item's
words as a line, indented by its depth, its note below it and the address of a feed or link
beside it ("Hard Fork (feed: https://...)"); one section per top-level item, titled by it; the file
titled by the outline's own title. Parsed by lxml without entities or the network.
"""
from __future__ import annotations

import os

from lxml import etree

from scent.units import Extracted, Section
from .base import Limits, laid_out, one_line, read_bytes, unreadable
from .package import SAFE_XML

EXTENSIONS = (".opml",)
KIND = "text"
MAX_DEPTH = 64  # deeper items are read at this indent: a hostile file cannot make lines of megabytes of spaces


def extract(path: str, limits: Limits) -> Extracted:
    try:
        root = etree.fromstring(read_bytes(path, limits), SAFE_XML)
    except etree.XMLSyntaxError as e:
        raise unreadable(path, "OPML outline", f"its XML does not parse: {e}") from None
    if root is None or etree.QName(root).localname != "opml":
        what = etree.QName(root).localname if root is not None else "nothing"
        raise unreadable(path, "OPML outline", f"its XML is a <{what}>, not an <opml>")
    body = root.find("body")
    sections = []
    for top in (body if body is not None else ()):
        if not isinstance(top.tag, str) or top.tag != "outline":
            continue
        lines = []
        _lines(top, 0, lines)
        if lines:
            sections.append(Section(text="\n".join(lines), kind=KIND, title=_said(top)))
    title = one_line(root.findtext("head/title"))
    return Extracted(kind=KIND, sections=laid_out(sections), title=title or os.path.basename(path))


def _lines(outline, depth: int, lines: list[str]) -> None:
    """The item's line, its note's, then its children's, without recursion (outlines nest deep)."""
    stack = [(outline, depth)]
    while stack:
        item, depth = stack.pop()
        indent = "  " * min(depth, MAX_DEPTH)
        if said := _said(item):
            where = next((f" ({name}: {url})" for name, key in (("feed", "xmlUrl"), ("link", "url"), ("site", "htmlUrl"))
                          if (url := one_line(item.get(key)))), "")
            lines.append(f"{indent}{said}{where}")
        if note := one_line(item.get("_note")):
            lines.append(f"{indent}  {note}")
        stack += [(child, depth + 1) for child in reversed(item) if isinstance(child.tag, str) and child.tag == "outline"]


def _said(item) -> str:
    return one_line(item.get("text") or item.get("title"))
