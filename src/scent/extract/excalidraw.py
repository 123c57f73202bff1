"""Excalidraw drawings (.excalidraw): a drawing (kind `image`) whose words are known exactly, as a
draw.io diagram's are. The file is JSON: its text elements (as typed, before the editor wrapped
them) and its frames' names, in the order they were drawn, once each, become one section of kind
`ocr`; deleted elements are left out. The pictures pasted into a drawing are not read, and there
are no pixels to describe: Excalidraw's renderer is JavaScript (an exported .excalidraw.png or
.excalidraw.svg is read as the picture it is). Obsidian's .excalidraw.md files are Markdown and
list their text elements in plain words: they are read as text."""
from __future__ import annotations

import json
import os

from scent.units import Extracted, Section
from .base import SECTION_SEPARATOR, Limits, load_json, read_text, unreadable
from .image import name_unit

EXTENSIONS = (".excalidraw",)
KIND = "image"


def extract(path: str, limits: Limits) -> Extracted:
    text, _ = read_text(path, limits)
    try:
        drawing = load_json(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise unreadable(path, "Excalidraw drawing", f"its JSON does not parse: {e}") from None
    elements = drawing.get("elements") if isinstance(drawing, dict) else None
    if not isinstance(elements, list):
        raise unreadable(path, "Excalidraw drawing", "it has no list of elements")
    seen: dict[str, None] = {}
    for element in elements:
        if not isinstance(element, dict) or element.get("isDeleted"):
            continue
        said = (element.get("originalText") or element.get("text")) if element.get("type") == "text" else element.get("name")
        if isinstance(said, str) and said.strip():
            seen.setdefault("\n".join(" ".join(line.split()) for line in said.strip().splitlines() if line.strip()))
    name = "\n".join((name_unit(path, None, None, "", limits.root), "Excalidraw drawing"))
    sections = [Section(text=name, kind=KIND)]
    if seen:
        sections.append(Section(text="\n".join(seen), kind="ocr", start=len(name) + len(SECTION_SEPARATOR)))
    return Extracted(kind=KIND, sections=sections, title=os.path.basename(path))
