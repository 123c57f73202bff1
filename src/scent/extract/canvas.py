"""Obsidian canvases (.canvas, JSON Canvas 1.0): the cards a person laid out on a board. Indexed
as text (kind `text`), in reading order (top to bottom, then left to right): each group's label,
each text card's Markdown, each file card's path ("note: Projects/Harbour.md"), each link card's
address, and what each labelled arrow says ("Budget -> Timeline: blocks"). Read whole, to at most
max_file_mb.
"""
from __future__ import annotations

import json
import os

from scent.units import Extracted, Section
from .base import Limits, laid_out, load_json, one_line, read_text, unreadable

EXTENSIONS = (".canvas",)
KIND = "text"


def extract(path: str, limits: Limits) -> Extracted:
    text, encoding = read_text(path, limits)
    try:
        board = load_json(text) if text.strip() else {}
    except (json.JSONDecodeError, RecursionError) as e:
        raise unreadable(path, "Obsidian canvas", f"its JSON does not parse: {e}") from None
    nodes = board.get("nodes") if isinstance(board, dict) else None
    if not isinstance(nodes, list):
        raise unreadable(path, "Obsidian canvas", "it holds no list of nodes")
    cards = [n for n in nodes if isinstance(n, dict)]
    said = {n.get("id"): _short(n) for n in cards}
    lines = [line for n in sorted(cards, key=_place) if (line := _card(n))]
    for edge in board.get("edges") or ():
        if isinstance(edge, dict) and (label := one_line(edge.get("label"))):
            lines.append(f"{said.get(edge.get('fromNode')) or '?'} -> {said.get(edge.get('toNode')) or '?'}: {label}")
    sections = [Section(text="\n".join(lines), kind=KIND)] if lines else []
    return Extracted(kind=KIND, sections=laid_out(sections), title=os.path.splitext(os.path.basename(path))[0],
                     meta={"encoding": encoding})


def _place(node: dict) -> tuple[float, float]:
    try:
        return float(node.get("y", 0)), float(node.get("x", 0))
    except (TypeError, ValueError):
        return 0.0, 0.0


def _card(node: dict) -> str:
    kind = node.get("type")
    if kind == "text":
        return (node.get("text") or "").strip() if isinstance(node.get("text"), str) else ""
    if kind == "file" and (file := one_line(node.get("file"))):
        return f"note: {file}{one_line(node.get('subpath'))}"
    if kind == "link" and (url := one_line(node.get("url"))):
        return f"link: {url}"
    if kind == "group" and (label := one_line(node.get("label"))):
        return label
    return ""


def _short(node: dict) -> str:
    """A card as an arrow's end names it: its first line."""
    return _card(node).split("\n", 1)[0][:60]
