"""JSON, JSON Lines and GeoJSON, flattened to "key.path: value" lines; a Google Keep note (as
Takeout exports it) read as the note it is (scent.extract.keep), a Day One journal as its entries,
each a file inside it (scent.extract.dayone): so every JSON file may hold files."""
from __future__ import annotations

import json
import os
from collections.abc import Iterator

from scent.errors import ExtractError
from scent.units import Extracted
from . import dayone, keep
from .base import Limits, joined, load_json, read_text

VERSION = 4  # 2: Keep notes; 3: Day One journals; 4: a journal's entries are files of their own
EXTENSIONS = (".json", ".jsonl", ".ndjson", ".geojson")
ITEMS_PER_SECTION = 25
# Coordinates are numbers nobody searches for, and there are thousands of them.
_SKIP_KEYS = {".geojson": {"coordinates"}}


def _scalar(value) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return str(value)


def _flatten(value, path: str = "", skip: frozenset | set = frozenset()) -> Iterator[str]:
    """Lines "a.b[0].c: value". A list of plain values stays on one line ("tags: x, y")."""
    if isinstance(value, dict):
        if not value:
            yield f"{path}: {{}}" if path else "{}"
        for key, item in value.items():
            if key not in skip:
                yield from _flatten(item, f"{path}.{key}" if path else str(key), skip)
    elif isinstance(value, list):
        if all(not isinstance(item, (dict, list)) for item in value):
            inline = ", ".join(map(_scalar, value)) if value else "[]"
            yield f"{path}: {inline}" if path else inline
        else:
            for i, item in enumerate(value):
                yield from _flatten(item, f"{path}[{i}]", skip)
    else:
        yield f"{path}: {_scalar(value)}" if path else _scalar(value)


def _records(path: str, text: str) -> list:
    records = []
    for number, line in enumerate(text.split("\n"), 1):
        if line.strip():
            try:
                records.append(load_json(line))
            except json.JSONDecodeError as e:
                raise ExtractError(path, f"invalid JSON on line {number}: {e.msg} (column {e.colno}); "
                                         "fix the file or add it to .scentignore") from e
    return records


def _groups(name: str, lines: list[str], noun: str) -> list[tuple[str, str]]:
    parts = []
    for i in range(0, len(lines), ITEMS_PER_SECTION):
        group = lines[i:i + ITEMS_PER_SECTION]
        parts.append((f"{name} {noun} {i + 1}-{i + len(group)}", "\n".join(group)))
    return parts


def extract(path: str, limits: Limits) -> Extracted:
    text, encoding = read_text(path, limits)
    name = os.path.basename(path)
    ext = os.path.splitext(name)[1].lower()
    skip = _SKIP_KEYS.get(ext, set())
    try:
        if ext in (".jsonl", ".ndjson"):
            # One line per record, so a record's fields stay together when chunked.
            lines = [" ".join("; ".join(_flatten(record, skip=skip)).split())
                     for record in _records(path, text)]
            parts = _groups(name, lines, "records")
        else:
            try:
                data = load_json(text)
            except json.JSONDecodeError as e:
                raise ExtractError(path, f"invalid JSON: {e.msg} at line {e.lineno} column {e.colno}; "
                                         "fix the file or add it to .scentignore") from e
            if (got := keep.note(data, name) or dayone.journal(data, name, limits)) is not None:
                got.meta["encoding"] = encoding
                return got
            if isinstance(data, list) and any(isinstance(item, (dict, list)) for item in data):
                items = ["\n".join(_flatten(item, f"[{i}]", skip)) for i, item in enumerate(data)]
                parts = _groups(name, items, "items")
            else:
                parts = [(name, "\n".join(_flatten(data, skip=skip)))]
    except RecursionError as e:
        raise ExtractError(path, "JSON nested too deeply to read; add it to .scentignore") from e
    return Extracted(kind="json", sections=joined(parts, "json"), title=name,
                     meta={"encoding": encoding})


def read_member(path: str, name: str, max_bytes: int) -> bytes:
    """The bytes of member `name` (a Day One journal's entry `N.md`); ExtractError when it is not there."""
    text, _ = read_text(path, Limits())
    try:
        data = load_json(text)
    except (json.JSONDecodeError, RecursionError):
        raise ExtractError(path, f"it is no longer valid JSON, so it holds no {name}; re-index the folder") from None
    return dayone.read_entry(data, path, name, max_bytes)
