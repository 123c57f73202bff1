"""Web pages saved whole by a browser: MHTML (.mhtml, .mht: Chrome's, Edge's and Internet
Explorer's "single file") and Safari's .webarchive. The page they hold is read as an .html file
is (kind `html`), titled by the page or else by what the archive calls it, dated when it was saved.

The pictures and style sheets saved beside the page are left out, as an .html file's are: they
are the page's furniture far more often than its subject.

MHTML is a MIME message (RFC 2557), read by Python's email package; a .webarchive is a binary
property list, read by plistlib. Both are held whole while read, so a file over 4x max_file_mb
(room for the pictures that make up most of a saved page) is refused."""
from __future__ import annotations

import email
import plistlib
from email.header import decode_header, make_header
from email.message import Message
from email.utils import parsedate_to_datetime

from scent.errors import ExtractError
from scent.units import Extracted
from . import html
from .base import Limits, held_whole, named, unreadable

EXTENSIONS = (".mhtml", ".mht", ".webarchive")
KIND = "html"
_PAGE_TYPES = ("text/html", "application/xhtml+xml")


def extract(path: str, limits: Limits) -> Extracted:
    held_whole(path, limits, "saved web page")
    read = _webarchive if path.lower().endswith(".webarchive") else _mhtml
    raw, charset, url, title, date = read(path)
    page, encoding = html.decode_page(raw, charset)
    got = html.read_page(path, page, {"encoding": encoding, **({"url": url} if url else {})})
    got.title, got.date = got.title or title, date
    return got


# What each reader returns: the page's bytes, their charset (None: unsaid), the page's address,
# the archive's title for it, when it was saved (None: unsaid).
Saved = tuple[bytes, str | None, str, str, float | None]


def _mhtml(path: str) -> Saved:
    # The compat32 policy's parser, which leaves headers as strings: the default policy's header
    # objects made a page saved with 100,000 pictures take 19 s instead of 1.7.
    with open(path, "rb") as f:
        message = email.message_from_binary_file(f)
    part = _root(message)
    if part is None:
        raise ExtractError(path, "not a saved web page (no HTML part in the MHTML file); "
                                 "rename it to its real type or add it to .scentignore")
    url = str(message.get("Snapshot-Content-Location") or part.get("Content-Location") or "")
    try:
        date = parsedate_to_datetime(str(message.get("Date") or "")).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        date = None
    try:
        title = str(make_header(decode_header(str(message.get("Subject") or ""))))
    except (LookupError, UnicodeError, ValueError):  # an encoded word in an unknown or wrong charset
        title = str(message.get("Subject") or "")
    return part.get_payload(decode=True) or b"", part.get_content_charset(), url, title, date


def _root(message: Message) -> Message | None:
    """The part that is the page: the one multipart/related's `start` names, else the first
    HTML part (browsers write it first and name no start)."""
    if not message.is_multipart():
        return message if message.get_content_type() in _PAGE_TYPES else None
    start = message.get_param("start")
    parts = [p for p in message.walk() if not p.is_multipart()]
    if isinstance(start, str):
        for p in parts:
            if str(p.get("Content-ID") or "").strip() == start.strip():
                return p
    return next((p for p in parts if p.get_content_type() in _PAGE_TYPES), None)


def _webarchive(path: str) -> Saved:
    try:
        with open(path, "rb") as f:
            archive = plistlib.load(f)
        main = archive["WebMainResource"]
        raw = main["WebResourceData"]
        kind = main.get("WebResourceMIMEType", "text/html")
    except (plistlib.InvalidFileException, KeyError, TypeError, ValueError, OverflowError, IndexError) as e:
        raise unreadable(path, "Safari web archive", named(e)) from None
    if not isinstance(raw, bytes) or kind not in _PAGE_TYPES:
        raise ExtractError(path, f"the web archive holds {kind!s:.40}, not a web page; "
                                 "open it in Safari and save the page again, or add it to .scentignore")
    url, charset = main.get("WebResourceURL"), main.get("WebResourceTextEncodingName")
    return raw, charset if isinstance(charset, str) else None, url if isinstance(url, str) else "", "", None
