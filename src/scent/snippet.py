"""A short piece of a unit's text around the query words, with the matched words marked."""
from __future__ import annotations

import math
import re
import unicodedata
from functools import lru_cache

import snowballstemmer

from .query import _CAMEL_BUMP, LETTERS_APART, MARK_CLASS, WORD, normalise_id

_TOKEN = re.compile(rf"{WORD}(?:[-./]{WORD})*")
_STEM = snowballstemmer.stemmer("english")


# A person's files hold tens of thousands of distinct words; the Python stemmer is the slow part of
# a snippet, so its answers are kept for many of them (a few MB).
@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """`word`'s English stem, accents aside: "Muller" and "Strasse" are typed for Müller and Straße."""
    return _STEM.stemWord(fold(word))


def fold(word: str) -> str:
    """`word` in lower case without Latin accents (the vowel signs of other scripts stay)."""
    word = word.lower()
    if word.isascii():
        return word
    return "".join(c for c in unicodedata.normalize("NFKD", word.translate(LETTERS_APART)) if not "\u0300" <= c <= "\u036f")


def snippet(text: str, words: list[str], ids: tuple[str, ...] = (), width: int = 220,
            weights: dict[str, float] | None = None) -> tuple[str, list[tuple[int, int]]]:
    """Return (snippet, highlights): character spans within the snippet of the matched words.

    Words match by English stem ("leases" ~ "lease"), IDs by their normalised form
    ("LD-2026-0417" ~ "ld20260417"). The window shown holds the most of the query's different
    words, each counted by its weight in `weights` (by stem; 1 when absent: snippet_weights).
    """
    spans = matches(text, words, ids)
    start = _best_window(spans, len(text), width, [_key(text[a:b]) for a, b in spans], weights or {})
    end = min(len(text), start + width)
    # Do not cut words in half at either edge.
    if start > 0:
        space = text.find(" ", start, start + 30)
        start = space + 1 if space != -1 else start
    if end < len(text):
        space = text.rfind(" ", end - 30, end)
        end = space if space > start else end
    piece = text[start:end]
    marks = [(a - start, b - start) for a, b in spans if a >= start and b <= end]
    lead = "…" if start > 0 else ""
    tail = "…" if end < len(text) else ""
    flat = lead + " ".join(piece.split()) + tail
    return flat, _remap(piece, lead, marks)


# Markdown's markup, which a snippet shows as the words it marks up (a person reads "Deposit", not
# "## **Deposit**"). Applied to text files only: code keeps every character.
# Obsidian's markup: hidden comments, embeds (a picture, another note), wikilinks by what they
# show, highlights, a callout's type, block ids.
_OBSIDIAN = [
    (re.compile(r"%%.*?%%", re.S), ""),
    (re.compile(r"!\[\[[^\]\n]*\]\]"), ""),
    (re.compile(r"\[\[(?:[^\]|\n]*\|)?([^\]|\n]+)\]\]"), r"\1"),
    (re.compile(r"==(?=\S)([^=\n]+?)(?<=\S)=="), r"\1"),
    (re.compile(r"^(\s{0,3}>\s?)\[![\w-]+\][+-]?[ \t]*", re.M), r"\1"),
    (re.compile(r"[ \t]+\^[\w-]+$", re.M), ""),
]
_MARKUP = _OBSIDIAN + [  # Obsidian's first: a wikilink's | is no table cell
    (re.compile(r"^\s*(```|~~~).*$", re.M), ""),                # code fences
    (re.compile(r"!?\[([^\]\n]*)\]\([^)\n]*\)"), r"\1"),          # links and images: their text
    (re.compile(r"^\s{0,3}#{1,6}\s+", re.M), ""),                # headings
    (re.compile(r"^\s{0,3}>\s?", re.M), ""),                     # quotes
    (re.compile(r"^\s*[-*+]\s+\[[xX]\]\s+", re.M), "☑ "),       # a task done, and one to do, as a box
    (re.compile(r"^\s*[-*+]\s+\[ \]\s+", re.M), "☐ "),
    (re.compile(r"^\s*[-*+]\s+", re.M), ""),                      # list items (numbered: _numbered)
    (re.compile(r"^\s*\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$", re.M), ""),  # table rules
    (re.compile(r"^[ \t]*\|[ \t]*|[ \t]*\|[ \t]*$", re.M), ""),    # a table row's outer bars
    (re.compile(r"[ \t]*\|[ \t]*"), " · "),                        # between its cells
    (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), r"\2"),        # bold
    (re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])"), r"\1"),  # italics (not a*b*c)
    (re.compile(r"`([^`\n]+)`"), r"\1"),                          # inline code
    (re.compile(r"([=\-_*~#+])\1{3,}"), ""),                        # rules and underlines: ====, ----
]


_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+")
_NUMBERED = re.compile(r"[ \t]*(\d{1,9})[.)][ \t]+(?:\[[ xX]\][ \t]+)?")


def _numbered(text: str) -> str:
    """`text` without the numbers that mark list items: only where CommonMark starts or goes on with a
    list (after a blank line, another item or an item's indented line; "1." anywhere), so that a
    paragraph wrapped before a number ("... ist der\n31. Juli") keeps it."""
    lines = text.split("\n")
    out = list(lines)
    for i, line in enumerate(lines):
        if (found := _NUMBERED.match(line)) and (
                i == 0 or not lines[i - 1].strip() or _ITEM.match(lines[i - 1]) or lines[i - 1][:1] in " \t"
                or found[1] == "1"):
            out[i] = line[found.end():]
    return "\n".join(out)


def without_obsidian(text: str) -> str:
    """`text` with Obsidian's markup read as the app shows it ([[note|alias]] as alias, no hidden
    %% comments %%): for a Markdown parser, which knows none of it."""
    for pattern, repl in _OBSIDIAN:
        text = pattern.sub(repl, text)
    return text


def readable(text: str) -> str:
    """`text` without markdown markup, for showing."""
    text = _numbered(text)
    for pattern, repl in _MARKUP:
        text = pattern.sub(repl, text)
    return text


_IDENTIFIER = re.compile(r"\b\w*(?:[^\W_]_[^\W_]|[a-z][A-Z])\w*")  # snake_case, camelCase, PascalCase
# The runs of letters and digits a token is stemmed in (snake_case, a-b), a letter's marks with it
# (Python's \w leaves out the vowel signs of Devanagari and Tamil: हल्दी was four runs).
SUBWORD = re.compile(rf"[^\W_](?:[^\W_]|[{MARK_CLASS}])*")


def _id_spans(text: str, ids: tuple[str, ...]) -> list[tuple[int, int]]:
    if not ids:
        return []
    wanted = set(ids)
    return [m.span() for m in _TOKEN.finditer(text)
            if any(ch.isdigit() for ch in m.group()) and normalise_id(m.group()) in wanted]


def beside_ids(texts: list[str], words: list[str], ids: tuple[str, ...]) -> list[str]:
    """`words` without the parts of a query ID that one of `texts` holds whole: there the ID is
    marked, and its parts (sku, 88231 of SKU-88231-B) are no words of their own. Marked, they lit
    up the next row's SKU-88231-A, and the snippet's window went there."""
    return _parts_dropped(words, [(text, span) for text in texts for span in _id_spans(text, ids)])


def _parts_dropped(words: list[str], found: list[tuple[str, tuple[int, int]]]) -> list[str]:
    held = {normalise_id(text[a:b]).lower() for text, (a, b) in found}
    return [w for w in words if not any(w.lower() in i for i in held)] if held else words


def matches(text: str, words: list[str], ids: tuple[str, ...] = ()) -> list[tuple[int, int]]:
    """Character spans of `text` that match the query's words (by English stem) or IDs (by their
    normalised form), in order. A token that matches an ID is one span, its parts not again."""
    taken = _id_spans(text, ids)
    words = _parts_dropped(words, [(text, span) for span in taken])  # the IDs found once, not again
    stems = {stem(w) for w in words if w}
    # An identifier is marked whole, written in any style: ERR_CONN_RESET, and parse_http_header for
    # parseHttpHeader (its runs alone are the words "err", "conn", "reset", which no query word is).
    joined = {w.lower().replace("_", "") for w in words if len(w) > 3}
    if joined and ("_" in text or _CAMEL_BUMP.search(text)):
        named = [m.span() for m in _IDENTIFIER.finditer(text) if m.group().replace("_", "").lower() in joined]
        # An identifier with a digit (FEATURE_PRORATION_V2) may be marked as an ID already: once.
        taken = sorted(taken + [(a, b) for a, b in named if not any(x < b and a < y for x, y in taken)])
    # Snowball changes a word's ending, never its first letter: a run starting otherwise is not
    # stemmed at all (the loop over every run of a unit's text is most of a warm query's snippets).
    firsts = {s[0] for s in stems if s}
    found = [m.span() for m in SUBWORD.finditer(text)
             if _first(m.group()[0]) in firsts and stem(m.group()) in stems]
    if not taken:
        return found
    inside, at = [], 0
    for a, b in found:  # both lists in text order: drop the runs inside a token taken as an ID
        while at < len(taken) and taken[at][1] <= a:
            at += 1
        if not (at < len(taken) and taken[at][0] <= a):
            inside.append((a, b))
    return sorted(taken + inside)


@lru_cache(maxsize=1 << 12)
def _first(letter: str) -> str:
    return fold(letter)[:1]


def snippet_weights(words: list[str], texts: list[str]) -> dict[str, float]:
    """How much each query word (by stem) says where it is found, from the texts about to be
    shown: 1 + ln((n + 1) / (holders + 1)) of n texts. A word every result holds is the topic
    ("contrastive", "loss" in a thesis's every page), one few hold the detail asked for
    ("temperature"): the window shown is the one around the detail, where the answer is."""
    stems = {stem(w) for w in words if w}
    if not stems or not texts:
        return {}
    held = [{stem(m.group()) for m in SUBWORD.finditer(t)} & stems for t in texts]
    return {s: 1.0 + math.log((len(texts) + 1) / (sum(s in h for h in held) + 1)) for s in stems}


def table_snippet(text: str, words: list[str], ids: tuple[str, ...] = (), width: int = 220,
                  weights: dict[str, float] | None = None) -> tuple[str, list[tuple[int, int]]]:
    """A table unit's snippet (a sheet's or a CSV's rows under their header line): the header, then
    the row holding the query's words of the most weight and the rows after it. A window over the
    rows as text showed the header's matches and cut the row that answers ("travel budget for
    marketing": Travel (EUR) in the header, the Marketing row after the window). As `snippet` when
    no row holds a word."""
    header, _, body = text.partition("\n")
    rows = body.split("\n")
    words = beside_ids([text], words, ids)  # a row holding SKU-88231-B, not the next one's SKU and 88231
    scores = [_row_weight(row, words, ids, weights or {}) for row in rows]
    if not body or max(scores) == 0:
        return snippet(text, words, ids, width, weights)
    best = scores.index(max(scores))
    if len(header) + len(rows[best]) > 2 * width:  # a table too wide to show whole: a window over its row
        return snippet("\n".join([header, *rows[best:]]), words, ids, width, weights)
    kept = [header, rows[best]]
    for row in rows[best + 1:]:  # the rows after it, as many as fit
        if sum(map(len, kept)) + len(kept) + len(row) > width:
            break
        kept.append(row)
    shown = "\n".join(kept)
    flat, marks = snippet(shown, words, ids, len(shown), weights)  # the whole of it: the header first
    more = best + len(kept) - 1 < len(rows)
    return flat + ("…" if more else ""), marks


def _row_weight(row: str, words: list[str], ids: tuple[str, ...], weights: dict[str, float]) -> float:
    return sum(weights.get(k, 1.0) for k in {_key(row[a:b]) for a, b in matches(row, words, ids)})


def _key(matched: str) -> str:
    return stem(matched) if matched.isalpha() else normalise_id(matched)


def first_shown(text: str, words: list[str], ids: tuple[str, ...] = (), width: int = 220,
                weights: dict[str, float] | None = None) -> int | None:
    """Where in `text` the first match that `snippet` would show begins; None when nothing matches."""
    spans = matches(text, words, ids)
    if not spans:
        return None
    start = _best_window(spans, len(text), width, [_key(text[a:b]) for a, b in spans], weights or {})
    return next((a for a, _ in spans if a >= start), spans[0][0])


def _best_window(spans: list[tuple[int, int]], length: int, width: int, keys: list[str],
                 weights: dict[str, float]) -> int:
    """Start of the window of `width` characters holding the query's different words of the most
    weight, then the most matches (0 when none match). It begins a little before its first match:
    the answer to a question mostly follows the question's words ("temperature τ = 0.07")."""
    if not spans or length <= width:
        return 0
    best, last, best_score = 0, 0, (0.0, 0)
    j = 0
    for i, (a, _) in enumerate(spans):
        while j < len(spans) and spans[j][1] <= a + width:
            j += 1
        score = (round(sum(weights.get(k, 1.0) for k in set(keys[i:j])), 6), j - i)
        if score > best_score:
            best, last, best_score = a, spans[j - 1][1], score
    # its last match whole, with a few words after it, where its first allows
    start = min(best, max(best - width // 8, last + 40 - width))
    return max(0, min(start, length - width))


def _remap(piece: str, lead: str, marks: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Map spans in `piece` to spans in the whitespace-collapsed text shown to the user."""
    mapping, out_pos, in_space = {}, len(lead), False
    stripped = piece.lstrip()
    offset = len(piece) - len(stripped)
    for i, ch in enumerate(stripped, start=offset):
        if ch.isspace():
            if not in_space:
                out_pos += 1
            in_space = True
            continue
        in_space = False
        mapping[i] = out_pos
        out_pos += 1
    out = []
    for a, b in marks:
        if a in mapping and (b - 1) in mapping:
            out.append((mapping[a], mapping[b - 1] + 1))
    return out
