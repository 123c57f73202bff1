"""XML files (.xml): an export, a feed, a data dump, a document of some tool's own: the words
in it, as "element: text" lines ("title: Quarterly budget", "invoice number: INV-2291") and
"element attribute: value" lines for attributes that hold words, in document order, each line
once. Indexed as code (kind `code`), as YAML and TOML are: structured text a person greps.

Parsed in one pass by lxml's iterparse (each element dropped once read, so a 50 MB export does
not become a tree of 500 MB), without entities or the network (scent.extract.package.SAFE_XML's
rules). A file that is not well-formed is read as far as it parses, with a note; one that does
not parse at all is one line.
"""
from __future__ import annotations

import io
import re

from lxml import etree

from scent.units import Extracted
from .base import Limits, joined, read_bytes, unreadable

EXTENSIONS = (".xml",)
KIND = "code"
LINES_PER_SECTION = 40
_WORDY = re.compile(r"[^\W\d_]{2}")  # an attribute value worth a line: one with a word in it
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|[_\-.]+")


def extract(path: str, limits: Limits) -> Extracted:
    raw = read_bytes(path, limits)
    lines: list[str] = []
    seen: set[str] = set()

    def add(line: str) -> None:
        if line not in seen:
            seen.add(line)
            lines.append(line)

    meta: dict = {}
    events = etree.iterparse(io.BytesIO(raw), events=("start", "end"), resolve_entities=False, no_network=True,
                             huge_tree=False, remove_comments=True, remove_pis=True)

    def tail(node) -> None:
        if text := " ".join((node.tail or "").split()):
            add(text)

    try:
        for event, element in events:
            if not isinstance(element.tag, str):
                continue
            name = _name(element.tag)
            if event == "start":  # attributes are whole at the start tag; text is not yet
                for key, value in element.attrib.items():
                    value = " ".join(value.split())
                    if _WORDY.search(value) and len(value) <= 300 and "://" not in value:
                        add(f"{name} {_name(key)}: {value}")
                continue
            if text := " ".join((element.text or "").split()):
                add(f"{name}: {text}")
            # A tail (the text after an end tag) is whole once what follows it is read: the
            # children left when their parent ends, an earlier sibling's when a later one ends.
            for child in element:
                tail(child)
            element.clear(keep_tail=True)
            parent = element.getparent()
            while element.getprevious() is not None:  # read: dropped, so the tree stays small
                tail(parent[0])
                del parent[0]
    except etree.XMLSyntaxError as e:
        if not lines:
            raise unreadable(path, "XML file", f"it does not parse: {e}") from None
        meta["left_out"] = [f"its XML breaks off ({e}): what came before is indexed"]
    name = path.rsplit("/", 1)[-1]
    parts = [(f"{name} lines {i + 1}-{i + len(group)}", "\n".join(group))
             for i in range(0, len(lines), LINES_PER_SECTION) for group in [lines[i:i + LINES_PER_SECTION]]]
    return Extracted(kind=KIND, sections=joined(parts or [(name, "")], "code"), title=name, meta=meta)


def _name(tag: str) -> str:
    """An element's or attribute's local name in words: "{ns}invoiceNumber" -> "invoice number"."""
    local = etree.QName(tag).localname if tag.startswith("{") else tag.split(":")[-1]
    return " ".join(_CAMEL.split(local)).lower()
