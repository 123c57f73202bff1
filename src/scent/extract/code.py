"""Source code and config files: a section per top-level definition where a line pattern finds it."""
from __future__ import annotations

import os
import re

from scent.units import Extracted
from .base import Limits, numbered_lines, read_text, split_at

_C_LIKE = (".java", ".c", ".h", ".cpp", ".hpp", ".cc", ".cxx", ".hh", ".cs", ".swift", ".kt",
           ".scala", ".m", ".css", ".scss", ".less")
# .env files are left out on purpose: they hold secrets, not something to search.
EXTENSIONS = (".py", ".pyi", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".vue", ".svelte",
              ".sql", ".sh", ".bash", ".zsh", ".fish", ".ps1", ".bat", ".go", ".rs", ".rb",
              ".php", ".lua", ".r", ".pl", ".pm", ".jl", ".dart", ".ex", ".exs", ".hs", ".clj",
              ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".properties", *_C_LIKE)
NAMES = ("makefile", "gnumakefile", "dockerfile", "containerfile", "justfile", "rakefile",
         "gemfile", "vagrantfile")

# Definitions that start in column 0: a cheap stand-in for a parser that still cuts
# most files where a person would. Group 1 is the name. Languages not listed stay whole.
_JS = (r"^(?:export\s+)?(?:default\s+)?(?:async\s+)?"
       r"(?:function\*?\s+|class\s+|(?:const|let|var)\s+(?=\w+\s*=\s*(?:async\s*)?(?:\(|function|\w+\s*=>)))"
       r"(\w+)")
_INI = r"^\[+\s*([^\]\n]+?)\s*\]+"
_DEFINITIONS = {
    ".py": r"^(?:async\s+def|def|class)\s+(\w+)",
    ".js": _JS, ".mjs": _JS, ".cjs": _JS, ".jsx": _JS, ".ts": _JS, ".tsx": _JS,
    ".go": r"^(?:func\s+(?:\([^)]*\)\s*)?|type\s+)(\w+)",
    ".rs": (r"^(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?"
            r"(?:fn|struct|enum|trait|mod|impl(?:<[^>]*>)?)\s+([\w:]+)"),
    ".rb": r"^(?:def|class|module)\s+([\w.:]+)",
    ".php": r"^(?:function|(?:abstract\s+|final\s+)?class|interface|trait)\s+(\w+)",
    ".lua": r"^(?:local\s+)?function\s+([\w.:]+)",
    ".sh": r"^(?:function\s+)?(\w+)\s*\(\)", ".bash": r"^(?:function\s+)?(\w+)\s*\(\)",
    ".sql": (r"(?i)^create\s+(?:or\s+replace\s+)?(?:table|view|function|procedure|index|trigger)\s+"
             r"(?:if\s+not\s+exists\s+)?([\w.\"]+)"),
    ".ini": _INI, ".cfg": _INI, ".toml": _INI, ".conf": _INI,
}
_PATTERNS = {ext: re.compile(p, re.MULTILINE) for ext, p in _DEFINITIONS.items()}
# Decorators and comments directly above a definition belong to it. Column 0 only (plus
# the " *" of block comments), so the indented comment ending the previous body stays there.
_LEAD_IN = ("@", "#", "//", "--", "/*", " *", "*/")


def _attach_lead_in(text: str, offset: int) -> int:
    """Move a definition's start up over the decorator/comment lines right above it."""
    while offset > 0:
        line_start = text.rfind("\n", 0, offset - 1) + 1
        line = text[line_start:offset - 1]
        if not line.startswith(_LEAD_IN) or line.startswith("#!"):
            break
        offset = line_start
    return offset


def extract(path: str, limits: Limits) -> Extracted:
    text, encoding = read_text(path, limits)
    name = os.path.basename(path)
    pattern = _PATTERNS.get(os.path.splitext(name)[1].lower())
    matches = pattern.finditer(text) if pattern else ()
    cuts = [(_attach_lead_in(text, m.start()), m.group(1).strip('"')) for m in matches]
    return Extracted(kind="code", sections=numbered_lines(text, split_at(text, cuts, "code", first_title=name)),
                     title=name, meta={"encoding": encoding})
