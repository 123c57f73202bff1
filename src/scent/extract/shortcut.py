"""Links saved as files (.url, .webloc, .desktop): a web page dragged to a desktop or a folder by
Windows (an Internet Shortcut), macOS (a plist), or Linux (a freedesktop entry). Indexed as text
(kind `text`): its name's words, what it points to, and the words of the address ("github com
scent issues"), so the link is found by what the page is about as its name says it, and by its
site. A .desktop file that starts a program is read as well: its name and comment.
"""
from __future__ import annotations

import configparser
import os
import plistlib
import re
from urllib.parse import unquote, urlsplit

from scent.units import Extracted, Section
from .base import Limits, name_words, read_bytes, unreadable

EXTENSIONS = (".url", ".webloc", ".desktop")
KIND = "text"
_PIECES = re.compile(r"[\W_]+")


def extract(path: str, limits: Limits) -> Extracted:
    raw = read_bytes(path, limits) if not path.lower().endswith(".webloc") else _plist_bytes(path, limits)
    ext = os.path.splitext(path)[1].lower()
    lines = [name_words(os.path.splitext(os.path.basename(path))[0])]
    if ext == ".webloc":
        try:
            target = str(plistlib.loads(raw).get("URL") or "")
        except (plistlib.InvalidFileException, ValueError, AttributeError, TypeError) as e:
            raise unreadable(path, "macOS web link", f"its plist does not parse ({e or type(e).__name__})") from None
    else:
        entry = "InternetShortcut" if ext == ".url" else "Desktop Entry"
        ini = configparser.ConfigParser(interpolation=None, strict=False)
        try:
            ini.read_string(raw.decode("utf-8", errors="replace"))
            section = ini[entry]
        except (configparser.Error, KeyError) as e:
            raise unreadable(path, "link file", f"no [{entry}] section ({type(e).__name__})") from None
        target = section.get("URL", "")
        lines += [section.get(key, "") for key in ("Name", "GenericName", "Comment")]
        if not target and section.get("Exec"):
            lines.append(f"runs {section['Exec']}")
    if target:
        lines += [f"link to {target}", _address_words(target)]
    text = "\n".join(dict.fromkeys(" ".join(line.split()) for line in lines if line.strip()))
    return Extracted(kind=KIND, sections=[Section(text=text, kind=KIND)], title=os.path.basename(path))


def _plist_bytes(path: str, limits: Limits) -> bytes:
    """A .webloc's bytes: a binary plist has NUL bytes, which read_bytes refuses in a text file."""
    if os.stat(path).st_size > limits.max_text_bytes:
        return read_bytes(path, limits)  # its one line for a file too big
    with open(path, "rb") as f:
        return f.read()


def _address_words(url: str) -> str:
    """"https://www.github.com/ana/scent-notes/issues?q=1" -> "github com ana scent notes issues"."""
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1].split(":")[0].removeprefix("www.")
    return " ".join(w for w in _PIECES.split(f"{host} {unquote(parts.path)}") if w)
