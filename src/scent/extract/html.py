"""HTML pages: the text a reader sees, in a section per h1/h2/h3: what its pictures' alt text says
of them where they stand, and the summary its head gives (meta description) before the first
heading. Takeout's page of a Google Keep note is a part of the note's JSON (scent.extract.keep)."""
from __future__ import annotations

import os
import re
import warnings

from bs4 import BeautifulSoup, MarkupResemblesLocatorWarning, XMLParsedAsHTMLWarning
from bs4.builder import ParserRejectedMarkup
from bs4.element import PreformattedString, Tag

from scent.errors import ExtractError
from scent.units import Extracted, Section
from . import keep
from .base import Limits, decode, joined, laid_out, read_bytes

VERSION = 2  # 2: a Keep note's page is a part of its JSON
EXTENSIONS = (".html", ".htm", ".xhtml")

# Never shown to a reader, or (nav) shown on every page of a site, so it would make
# all pages look alike to search.
_INVISIBLE = {"script", "style", "noscript", "nav", "head", "svg", "template", "iframe",
              "object", "canvas", "button", "select"}
_BLOCKS = {"address", "article", "aside", "blockquote", "br", "dd", "details", "div", "dl",
           "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
           "h5", "h6", "header", "hr", "li", "main", "ol", "p", "pre", "section", "summary",
           "table", "tr", "ul", "caption"}
_HEADINGS = {"h1", "h2", "h3"}
_PICTURES = {"img", "area"}
_CELLS = {"td", "th"}
# Markers for a heading's start and a block's edge, removed from the source first so they
# are ours alone. Source newlines are just spaces in HTML; only block edges become newlines.
_CUT, _BREAK = "\x1e", "\x1f"
_SPACES = re.compile(r"[^\S\x1e\x1f]+")  # \s alone would also eat the markers


def _normalise(text: str) -> str:
    lines = (line.strip() for line in _SPACES.sub(" ", text).split(_BREAK))
    return "\n".join(line for line in lines if line)


_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([\w.:-]+)""", re.IGNORECASE)
# Browsers read these labels as windows-1252, and so do pages written for them.
_AS_CP1252 = {"iso-8859-1", "latin-1", "latin1", "ascii", "us-ascii"}


def decode_page(raw: bytes, charset: str | None = None) -> tuple[str, str]:
    """A page's text and encoding: `charset` (what a web archive says of the page) or else the
    charset the page declares, when it fits the bytes; else the usual text fallbacks. Done here
    rather than by BeautifulSoup, whose guessing logs to the root logger."""
    if charset is None:
        declared = _CHARSET.search(raw[:4096])
        charset = declared and declared.group(1).decode("ascii")
    if charset:
        charset = "cp1252" if charset.lower() in _AS_CP1252 else charset.lower()
        try:
            text = raw.decode(charset).lstrip("\ufeff")
            return text.replace("\r\n", "\n").replace("\r", "\n"), charset
        except (LookupError, UnicodeDecodeError):
            pass
    return decode(raw)


def _words(element) -> str:
    return " ".join(element.get_text(" ").split())


def _parse(path: str, page: str) -> BeautifulSoup:
    # html.parser is the standard library's: no extra dependency, and forgiving enough.
    with warnings.catch_warnings():
        # Its hints (a page that looks like a file name, XHTML) are for programmers, not users.
        warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        try:
            return BeautifulSoup(page, "html.parser")
        except (ParserRejectedMarkup, RecursionError) as e:
            raise ExtractError(path, f"HTML the parser cannot read ({e}); "
                                     "fix the page or add it to .scentignore") from e


def _visible_pieces(soup: BeautifulSoup) -> tuple[list[str], list[str]]:
    """The visible strings with _BREAK at block edges, _CUT before each h1-h3, " | " between
    table cells; and the heading titles in order. One pass over the tree without changing
    it (inserting into a page with 60,000 children is quadratic) and without recursion
    (pages nest deeper than Python's stack)."""
    pieces, titles = [], []
    stack = [[iter(soup.contents), "", 0]]  # [children, what ends this element, cells seen]
    while stack:
        frame = stack[-1]
        node = next(frame[0], None)
        if node is None:
            pieces.append(stack.pop()[1])
        elif isinstance(node, Tag):
            if node.name in _INVISIBLE or node.has_attr("hidden"):
                continue
            if node.name in _PICTURES and node.get("alt", "").strip():
                # What the page says its picture shows ("Golden-brown sourdough loaf on a rack"):
                # a screen reader reads it where the picture stands.
                pieces.append(f" {' '.join(node['alt'].split())} ")
            if node.name in _HEADINGS:
                pieces.append(_CUT)
                titles.append(_words(node))
            if node.name in _CELLS:
                pieces.append(" | " if frame[2] else "")
                frame[2] += 1
            block = node.name in _BLOCKS
            pieces.append(_BREAK if block else "")
            stack.append([iter(node.contents), _BREAK if block else "", 0])
        elif not isinstance(node, PreformattedString):  # comments, doctype, CDATA
            pieces.append(str(node))
    return pieces, titles


def _title(soup: BeautifulSoup) -> str:
    # An <svg> may hold a <title> of its own, before or instead of the page's.
    for title in soup.find_all("title"):
        if title.find_parent("svg") is None:
            return _words(title)
    return ""


def _description(soup: BeautifulSoup) -> str:
    """The summary a page gives of itself for search engines and link previews (<meta
    name="description">, or Open Graph's), which a saved article or recipe usually has."""
    for attrs in ({"name": "description"}, {"property": "og:description"}):
        meta = soup.find("meta", attrs=attrs)
        summary = " ".join(str(meta.get("content", "")).split()) if meta is not None else ""
        if summary:
            return summary
    return ""


def extract(path: str, limits: Limits) -> Extracted:
    page, encoding = decode_page(read_bytes(path, limits))
    if (note := keep.twin(path, limits.root)) is not None:
        # Takeout's page of a Keep note says what its JSON says: a part of the note, not a second result.
        return Extracted(kind="html", sections=[], title=os.path.basename(path), date=note[1],
                         meta={"encoding": encoding}, part_of=note[0])
    return read_page(path, page, {"encoding": encoding})


def read_page(path: str, page: str, meta: dict) -> Extracted:
    """The sections of a page's decoded markup (a file's, or one held in a web archive)."""
    soup = _parse(path, page.replace(_CUT, "").replace(_BREAK, ""))
    pieces, titles = _visible_pieces(soup)
    before, *parts = "".join(pieces).split(_CUT)
    sections = joined([("", _normalise(before)), *zip(titles, map(_normalise, parts))], "html")
    title = _title(soup)
    if sections and sections[0].title and title:
        # A page that opens with its heading ("Heading", titled "Heading - Site"): the heading's section
        # takes the page's title, so the title's words are searched too (its text starts with the heading;
        # a section without a heading has the page's title already)
        sections[0].title = title
    summary = _description(soup)
    if summary and not any(summary.casefold() in s.text.casefold() for s in sections):
        sections = laid_out([Section(text=summary, kind="html", title=title), *sections])
    return Extracted(kind="html", sections=sections, title=title, meta=meta)
