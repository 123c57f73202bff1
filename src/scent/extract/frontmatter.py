"""YAML front matter of a Markdown file (the `---` block Jekyll, Hugo and Obsidian write at the
top) as metadata: its title is the file's title, its date the file's date, its tags and aliases
(Obsidian's other names for a note) searchable.

Read with PyYAML's safe loader, not python-frontmatter: that one hands back the body stripped
of the block and of the blank lines after it, so sections could no longer say where in the file
they start. A block whose YAML is bad is reported (the caller indexes the file as plain text
with a warning); a leading `---` that is a Markdown rule over a paragraph (no `key:` line) is
not front matter at all.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from scent.dates import from_value

# --- at the very start, then the block, then --- or ... on a line of its own (or the end).
_BLOCK = re.compile(r"\A---[ \t]*\n(?:(.*?)\n)?(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_KEY_LINE = re.compile(r"^[\w-]+[ \t]*:(?:[ \t]|$)", re.M)  # what makes the block YAML rather than a paragraph
MAX_BYTES = 64 * 1024  # a larger block is not parsed: front matter is a few lines
MAX_TAGS = 100
DATE_KEYS = ("date", "created", "published")
TAG_KEYS = ("tags", "keywords")
ALIAS_KEYS = ("aliases", "alias")


@dataclass(frozen=True)
class FrontMatter:
    end: int  # where the body starts (offset in the decoded file)
    title: str = ""
    date: float | None = None
    tags: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    problem: str = ""  # why the block was not read (bad YAML, too large): then nothing else is set


def read(text: str) -> FrontMatter | None:
    """The front matter at the start of `text`, or None when it has none."""
    m = _BLOCK.match(text)
    if not m:
        return None
    block = m.group(1) or ""
    if block.strip() and not _KEY_LINE.search(block):
        return None  # a thematic break over a paragraph, closed by another: Markdown, not YAML
    if len(block.encode("utf-8", "replace")) > MAX_BYTES:
        return FrontMatter(m.end(), problem=f"its front matter is over {MAX_BYTES // 1024} KB, so it was not read "
                                            "as title, date and tags; it is indexed as text")
    import yaml

    try:
        data = yaml.load(block, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) if block.strip() else {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 2}" if mark is not None else ""  # +2: the opening --- is line 1
        what = getattr(e, "problem", None) or type(e).__name__
        return FrontMatter(m.end(), problem=f"its front matter is not valid YAML ({what}{where}): the file is "
                                            "indexed as plain text without its title, date and tags; fix the "
                                            "YAML between the --- lines")
    if not isinstance(data, dict):
        data = {}
    data = {str(k).lower(): v for k, v in data.items()}
    title = data.get("title")
    date = next((from_value(data[k]) for k in DATE_KEYS if data.get(k) is not None), None)
    return FrontMatter(m.end(), title=_scalar(title)[:500] if _scalar(title) else "", date=date,
                       tags=_tags(next((data[k] for k in TAG_KEYS if data.get(k)), None)),
                       aliases=_names(next((data[k] for k in ALIAS_KEYS if data.get(k)), None)))


def _scalar(value) -> str:
    # Only plain values: a list or mapping here (or an alias-built tree) is not a title or a tag.
    return str(value).strip() if isinstance(value, (str, int, float)) else ""


def _tags(value) -> tuple[str, ...]:
    """`[a, b]`, a YAML list, or one string of tags split at commas and spaces ("a, b" or "a b")."""
    items = value if isinstance(value, list) else re.split(r"[,\s]+", value) if isinstance(value, str) else []
    tags = [t.lstrip("#") for t in map(_scalar, items[:MAX_TAGS]) if t]
    return tuple(dict.fromkeys(t[:100] for t in tags if t))


def _names(value) -> tuple[str, ...]:
    """Aliases: a YAML list, or one string of them split at commas (a name has spaces: "veg patch")."""
    items = value if isinstance(value, list) else value.split(",") if isinstance(value, str) else []
    return tuple(dict.fromkeys(n[:200] for n in map(_scalar, items[:MAX_TAGS]) if n))


def tags_text(fm: FrontMatter) -> str:
    """The aliases and tags as the text of the file's first unit: "aliases: Bluebird, veg patch"
    and "tags: harbour budget-2025", a line each."""
    lines = [f"aliases: {', '.join(fm.aliases)}" if fm.aliases else "", "tags: " + " ".join(fm.tags) if fm.tags else ""]
    return "\n".join(line for line in lines if line)
