"""Text from users' files (names, contents, reasons naming them) made safe to print.

A file name or a snippet may hold terminal escape sequences (ESC [ 2 J, OSC 52 to set the
clipboard, a C1 CSI) or bidi overrides that make a name read as another; printed raw they would
act on the user's terminal instead of being read. `visible` writes every control character as a
Python-style escape, so it shows and does nothing; `json_line` keeps JSON exact (a program gets
the true name back) but leaves no control character raw in the line either.
"""
from __future__ import annotations

import json

# C0, DEL and C1 controls; the bidi embeddings, overrides and isolates. Not ZWJ/ZWNJ: Indic
# scripts and emoji need them, and they move nothing.
_CONTROLS = [*range(0x20), *range(0x7F, 0xA0)]
_BIDI = [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_VISIBLE = {c: f"\\x{c:02x}" for c in _CONTROLS} | {c: f"\\u{c:04x}" for c in _BIDI}
# json.dumps escapes C0 itself; these it leaves raw with ensure_ascii=False.
_JSON = {c: f"\\u{c:04x}" for c in [*range(0x7F, 0xA0), *_BIDI]}


def visible(text: str) -> str:
    """`text` with each control character written out (ESC as \\x1b, a newline as \\x0a)."""
    return str(text).translate(_VISIBLE)


def visible_lines(text: str) -> str:
    """`visible` for text of several lines: the newlines stay, each line is made safe."""
    return "\n".join(visible(line) for line in str(text).split("\n"))


def json_line(obj) -> str:
    """One JSON object on one line, non-ASCII text as it is, no raw control character."""
    return json.dumps(obj, ensure_ascii=False).translate(_JSON)
