"""HTML pages: the text a reader sees, in a section per h1/h2/h3."""
from __future__ import annotations

import re
import warnings

from bs4 import BeautifulSoup, Comment, MarkupResemblesLocatorWarning, XMLParsedAsHTMLWarning
from bs4.builder import ParserRejectedMarkup

from scent.errors import ExtractError
from scent.units import Extracted
from .base import Limits, joined, read_bytes

EXTENSIONS = (".html", ".htm", ".xhtml")

# Never shown to a reader, or (nav) shown on every page of a site, so it would make
# all pages look alike to search.
_INVISIBLE = ["script", "style", "noscript", "nav", "head", "svg", "template", "iframe",
              "object", "canvas", "button", "select"]
_BLOCKS = ["address", "article", "aside", "blockquote", "br", "dd", "details", "div", "dl",
           "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
           "h5", "h6", "header", "hr", "li", "main", "ol", "p", "pre", "section", "summary",
           "table", "tr", "ul", "caption"]
_HEADINGS = ["h1", "h2", "h3"]
_CUT = "\x1e"  # marks where a heading starts; removed from the source first so it is ours alone
_SPACES = re.compile(r"[^\S\n]+")


def _normalise(text: str) -> str:
    lines = (_SPACES.sub(" ", line).strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def _words(element) -> str:
    return " ".join(element.get_text(" ").split())


def _parse(path: str, raw: bytes) -> BeautifulSoup:
    # html.parser is the standard library's: no extra dependency, and forgiving enough.
    # Given bytes, BeautifulSoup honours the page's declared charset.
    with warnings.catch_warnings():
        # Its hints (a page that looks like a file name, XHTML) are for programmers, not users.
        warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        try:
            return BeautifulSoup(raw, "html.parser")
        except (ParserRejectedMarkup, RecursionError) as e:
            raise ExtractError(path, f"HTML the parser cannot read ({e}); "
                                     "fix the page or add it to .scentignore") from e


def extract(path: str, limits: Limits) -> Extracted:
    soup = _parse(path, read_bytes(path, limits).replace(_CUT.encode(), b""))
    title = _words(soup.title) if soup.title else ""
    for element in soup.find_all(_INVISIBLE):
        element.decompose()
    for element in soup.find_all(hidden=True):
        element.decompose()
    for comment in soup.find_all(string=lambda s: isinstance(s, Comment)):
        comment.extract()
    for row in soup.find_all("tr"):
        for cell in row.find_all(["td", "th"], recursive=False)[1:]:
            cell.insert_before(" | ")
    for block in soup.find_all(_BLOCKS):
        block.insert_before("\n")
        block.insert_after("\n")
    headings = [_words(h) for h in soup.find_all(_HEADINGS)]
    for heading in soup.find_all(_HEADINGS):
        heading.insert_before(_CUT)
    before, *parts = soup.get_text().split(_CUT)
    sections = joined([("", _normalise(before)), *zip(headings, map(_normalise, parts))], "html")
    return Extracted(kind="html", sections=sections, title=title,
                     meta={"encoding": soup.original_encoding or "utf-8"})
