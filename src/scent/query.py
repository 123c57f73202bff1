"""Turn what a person typed into safe FTS5 match expressions, and text into extra index tokens.

Nothing a user types reaches MATCH unquoted: every term is a double-quoted FTS5 string built
from letters, digits and marks only, so no input can raise an FTS syntax error.
"""
from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, replace

from .marks import mark_ranges
from .stopwords import STOPWORDS

MAX_TERMS = 32
LONGEST_ID = 64  # characters; a SHA-256 in hex is 64
# Longest query searched: what a person types, or pastes from a paragraph. The model reads 512
# tokens at most anyway, and a 20,000-character query took up to 51 s.
MAX_QUERY_CHARS = 1000
# Zero-width joiners and the BOM split or glue Indic words at random in OCR and typed text.
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))
# Combining marks (Indic vowel signs and viramas, Thai and Arabic marks ...) are part of words,
# though neither Python's \w nor FTS5's unicode61 counts them as word characters.
# (scent/marks.py says which they are.)
MARKS = "".join(chr(c) for a, b in mark_ranges() for c in range(a, b + 1))
# The marks as the inside of a regex character class.
MARK_CLASS = "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in mark_ranges())
WORD = "[\\w" + MARK_CLASS + "]+"
# Letters the text index keeps as they are (unicode61 removes only diacritics that decompose): a
# word written with them is also stored and asked in the spelling without them (Straße / Strasse,
# the way Swiss German and an English keyboard write it; København / Kobenhavn; Łódź / Lodz).
LETTERS_APART = str.maketrans({"ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ł": "l", "ı": "i", "þ": "th"})
_APART = re.compile("[" + "".join(chr(c) for c in LETTERS_APART) + "ẞØÆŒĐŁÞ]")


def spelled_apart(word: str) -> str | None:
    """`word` in lower case with LETTERS_APART spelled out, where it holds any; else None."""
    if word.isascii() or not _APART.search(word):
        return None
    return word.lower().translate(LETTERS_APART)
_CAMEL_BUMP = re.compile(r"[a-z][A-Z]")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


@dataclass(frozen=True)
class Term:
    """One element of a query: a word, an identifier, or an ID made of several tokens."""
    text: str            # as typed
    fts: str             # a safe FTS5 expression matching it
    is_id: bool = False
    is_stopword: bool = False
    # Other texts any of which matches the term instead (`invoice OR receipt` in the query
    # language is one term); `fts` matches them all.
    also: tuple[str, ...] = ()

    @property
    def texts(self) -> tuple[str, ...]:
        return (self.text, *self.also)


@dataclass(frozen=True)
class KeywordQuery:
    """A query as the keyword lists read it: its terms and its ID-like tokens."""

    terms: tuple[Term, ...]
    ids: tuple[str, ...]  # normalised ID-like tokens (upper case, separators removed)

    @property
    def words(self) -> list[str]:
        """Plain lowercase words, for highlighting. A letter split off a longer word is left out
        (the "s" of "Ana's", the "t" of "don't", the "e" of "e-mail"): marked on its own, it lit up
        every lone "s" of a snippet. A letter typed as a word ("vitamin c") is kept."""
        return [p for t in self.terms for x in t.texts for parts in [_parts(x.lower())] for p in parts
                if len(p) > 1 or len(parts) == 1]


# Lone surrogates: what Python makes of bytes that are not UTF-8 (a command line, a file name),
# or what a JSON string may hold; they cannot be encoded, so no model or database takes them.
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def valid_text(text: str) -> str:
    """`text` with every lone surrogate replaced by U+FFFD, so it can be encoded as UTF-8."""
    return _SURROGATE.sub("\ufffd", text)


def clean(text: str) -> str:
    return unicodedata.normalize("NFC", text).translate(_INVISIBLE)


def _is_sep(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat[0] in "PSZC" and ch != "_"


def _chunks(text: str) -> list[str]:
    """Whitespace-separated pieces with punctuation stripped from both ends."""
    return [chunk for _, chunk in _pieces(text)]


def _pieces(text: str) -> list[tuple[str, str]]:
    """(piece, chunk) for each whitespace-separated piece that holds a chunk (see _chunks)."""
    out = []
    for piece in _grouped(clean(text).split()):
        if piece.isalnum():  # most words: no letter or digit is a separator, and nothing to strip
            out.append((piece, piece))
            continue
        start, end = 0, len(piece)
        while start < end and _is_sep(piece[start]):
            start += 1
        while end > start and _is_sep(piece[end - 1]):
            end -= 1
        if start < end:
            out.append((piece, piece[start:end]))
    return out


def _grouped(pieces: list[str]) -> list[str]:
    """`pieces` with each IBAN written in groups ("GB33 BUKB 2020 1555 5555 55", as paper shows it) made
    one piece, an ID like the same IBAN written whole (as a bank's app shows it): each form finds
    the other. Only a run whose check digits hold is joined (ISO 13616: the number mod 97 is 1)."""
    if not any(_IBAN_HEAD.match(p) for p in pieces):
        return pieces
    out, i = [], 0
    while i < len(pieces):
        end = _iban_end(pieces, i)
        out.append(" ".join(pieces[i:end]))
        i = end
    return out


_IBAN_HEAD = re.compile(r"[^\w]*([A-Za-z]{2})\d{2}[A-Za-z0-9]{0,30}$")
_IBAN_GROUP = re.compile(r"[A-Za-z0-9]{1,4}")
# An IBAN's length in each country that has them (ISO 13616's registry): a run of groups is joined
# only at its country's length, so a longer number's first groups are never one by chance.
_IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29, "BY": 28,
    "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18,
    "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22,
    "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20,
    "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15,
    "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24, "SC": 31, "SE": 24, "SI": 19,
    "SK": 24, "SM": 27, "ST": 25, "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20}


def _iban_end(pieces: list[str], start: int) -> int:
    """Where an IBAN written in groups from pieces[start] ends (exclusive); start + 1 when none does."""
    head = _IBAN_HEAD.match(pieces[start])
    length = _IBAN_LENGTHS.get(head.group(1).upper(), 0) if head else 0
    if not length:
        return start + 1
    joined = pieces[start][head.start(1):]
    for n in range(start + 1, min(len(pieces), start + 9)):
        group = pieces[n].rstrip(".,;:)")
        if not _IBAN_GROUP.fullmatch(group) or len(joined) + len(group) > length:
            break
        joined += group
        if len(joined) == length:
            return n + 1 if _is_iban(joined) else start + 1
        if group != pieces[n]:  # punctuation after it ends the number
            break
    return start + 1


def _is_iban(text: str) -> bool:
    """Whether `text`'s check digits hold: moved to the end, letters as numbers (A = 10), mod 97 is 1."""
    text = text.upper()
    if not text.isascii() or not text.isalnum():
        return False
    return int("".join(str(int(ch, 36)) for ch in text[4:] + text[:4])) % 97 == 1


# Names whose symbols are part of them (C++, C#, F#, Notepad++): the tokenizer keeps the letters
# alone, so "C++" was the letter c, which every C, C# and Objective-C note holds. Each is also
# kept as one word ("cplusplus", extra_tokens), and the query's "C++" matches it as well as c.
_SYMBOL_NAME = re.compile(r"(?<![\w+#])([^\W\d_]{1,16})(\+\+|#)(?![\w+#])")


def symbol_names(text: str) -> list[str]:
    """The names with symbols in `text`, as one word each: "C++ and C#" -> cplusplus, csharp."""
    if "+" not in text and "#" not in text:
        return []
    return [letters.lower() + ("plusplus" if symbol == "++" else "sharp")
            for letters, symbol in _SYMBOL_NAME.findall(text)]


def _parts(chunk: str) -> list[str]:
    """Split on punctuation and symbols (not on '_', which joins identifiers)."""
    if chunk.isalnum():
        return [chunk]
    parts, cur = [], []
    for ch in chunk:
        if _is_sep(ch):
            if cur:
                parts.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        parts.append("".join(cur))
    return parts


# Names of standards and platforms written with digits: words of technical prose, in every log and
# README, not codes of one thing. As IDs they voted for every file that holds them ("HTTP/1.1
# connection state machine" put nginx logs above the state machine the meaning list had first).
NOT_IDS = frozenset({
    "HTTP10", "HTTP11", "HTTP2", "HTTP20", "HTTP3", "UTF8", "UTF16", "UTF32", "SHA1", "SHA224", "SHA256", "SHA384",
    "SHA512", "SHA3", "MD5", "BASE32", "BASE64", "IPV4", "IPV6", "MP3", "MP4", "H264", "H265", "X86", "X64", "X8664",
    "ARM64", "AARCH64", "AMD64", "WIN32", "WIN64", "I18N", "L10N", "K8S", "OAUTH2", "HTML5", "CSS3", "ES2015", "ES6",
    "TLS12", "TLS13", "PYTHON2", "PYTHON3", "1080P", "720P", "USB3", "ISO8601", "RFC3339",
})


def is_id_like(chunk: str) -> bool:
    """LD-2026-0417, 58-QX-2210, 8f3a21, INV-00042, 100234: codes people search for exactly.
    A longer run (base64, a minified line) is no code anyone types, and as an ID it filled the
    trigram index with thousands of trigrams a unit."""
    if len(chunk) > LONGEST_ID or chunk.isalpha():  # a word: no digit
        return False
    letters = sum(ch.isalpha() for ch in chunk)
    digits = sum(ch.isdigit() for ch in chunk)
    if digits == 0 or letters + digits < 4:
        return False
    # The names of standards last: normalising costs more than counting, and most chunks fail above.
    return (letters > 0 or digits >= 5 or len(_parts(chunk)) > 1) and normalise_id(chunk) not in NOT_IDS


def normalise_id(chunk: str) -> str:
    return "".join(_parts(chunk)).replace("_", "").upper()


def quote_fts(token: str) -> str:
    """`token` as an FTS5 string: nothing in it is read as an operator."""
    return '"' + token.replace('"', '""') + '"'


def parse(text: str, stopwords: bool = True, alternatives: tuple[tuple[str, ...], ...] = ()) -> KeywordQuery:
    """`text`'s terms, then one term for each group of `alternatives` (what the query language's
    OR joined: any member matches it, a member of several words as a phrase)."""
    terms: list[Term] = []
    ids: list[str] = []
    for piece, chunk in _pieces(text)[:MAX_TERMS]:
        parts = _parts(chunk)
        if not parts:
            continue
        named = _SYMBOL_NAME.search(piece) if "+" in piece or "#" in piece else None
        if named and named.group(1) == chunk:  # C++: the name as one word, or its letters in an older index
            joined = symbol_names(named.group(0))[0]
            terms.append(Term(named.group(0), f"({quote_fts(chunk)} OR {quote_fts(joined)})", also=(joined,)))
            continue
        if is_id_like(chunk):
            norm = normalise_id(chunk)
            ids.append(norm)
            # The text index splits "LD-2026-0417" into ld, 2026, 0417: match them as a phrase,
            # or the joined form that `extra_tokens` stores ("LD20260417" typed without dashes).
            phrase = quote_fts(" ".join(parts))
            fts = phrase if len(parts) == 1 and norm.lower() == parts[0].lower() else f"({phrase} OR {quote_fts(norm)})"
            terms.append(Term(chunk, fts, is_id=True))
        elif len(parts) == 1:
            word = parts[0]
            pieces = identifier_parts(word)
            # An identifier also as its parts (extra_tokens): parseHttpHeader finds parse_http_header;
            # Straße also as Strasse, the way the Swiss write it (and extra_tokens stores).
            others = [" ".join(pieces)] if len(pieces) > 1 else []
            others += [apart] if (apart := spelled_apart(word)) else []
            fts = " OR ".join(map(quote_fts, [word, *others]))
            fts = f"({fts})" if others else fts
            terms.append(Term(chunk, fts, is_stopword=word.lower() in STOPWORDS))
        elif is_dotted_name(chunk):
            # Retry.DEFAULT_BACKOFF_MAX, urllib3.util.retry.Retry: written so in the code that uses
            # it, not where it is defined (DEFAULT_BACKOFF_MAX = 120 in class Retry): its parts anywhere.
            phrase, every = quote_fts(" ".join(parts)), " AND ".join(quote_fts(p) for p in parts)
            terms.append(Term(chunk, f"({phrase} OR ({every}))"))
        else:  # e-mail, state-of-the-art: adjacent words
            terms.append(Term(chunk, quote_fts(" ".join(parts))))
    if stopwords and any(not t.is_stopword for t in terms):
        terms = [t for t in terms if not t.is_stopword]
    for group in alternatives:
        members = [m for m in (_member(member, ids) for member in group) if m is not None]
        if len(members) == 1:
            terms.append(members[0])
        elif members:
            terms.append(any_of(members[0], members[1:]))
    seen: set[str] = set()
    unique = [t for t in terms if not (t.fts.lower() in seen or seen.add(t.fts.lower()))]
    return KeywordQuery(tuple(unique), tuple(dict.fromkeys(ids)))


_DOTTED_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]+(?:\.[A-Za-z_][A-Za-z0-9_]+)+")


def is_dotted_name(chunk: str) -> bool:
    """A name of code reached through others (os.path.join, Retry.DEFAULT_BACKOFF_MAX); a file name
    (notes.md) reads as one too, harmlessly: its parts anywhere still hold the phrase's matches."""
    return _DOTTED_NAME.fullmatch(chunk) is not None


def any_of(term: Term, others: list[Term]) -> Term:
    """`term` widened: it matches when it or any of `others` does (an OR group, a translation)."""
    return replace(term, fts=f"({' OR '.join(t.fts for t in (term, *others))})",
                   also=term.also + tuple(t.text for t in others))


def _member(text: str, ids: list[str]) -> Term | None:
    """One OR alternative as one term: a word or ID as `parse` reads it, several words as a phrase
    (a stop word too: whoever wrote `the OR a` meant them). Its IDs are added to `ids`."""
    found = parse(text, stopwords=False)
    ids.extend(found.ids)
    if len(found.terms) == 1:
        return replace(found.terms[0], is_stopword=False)
    parts = [p for chunk in _chunks(text) for p in _parts(chunk)]
    return Term(text, quote_fts(" ".join(parts))) if parts else None


def match_expression(query: KeywordQuery, mode: str) -> str | None:
    """The MATCH string for `and` or `or`; None when the query has no searchable term."""
    if not query.terms:
        return None
    joiner = " AND " if mode == "and" else " OR "
    return joiner.join(t.fts for t in query.terms)


def identifier_parts(word: str) -> list[str]:
    """An identifier's parts (read_file, parseHttpHeader: split_identifier); [word] for any other word."""
    if "_" in word.strip("_") or _CAMEL_BUMP.search(word):
        return split_identifier(word)
    return [word]


def split_identifier(token: str) -> list[str]:
    """parseHttpHeader -> parse, http, header; read_file -> read, file; XMLHttpRequest -> xml, http, request."""
    pieces = []
    for part in token.split("_"):
        pieces.extend(_CAMEL.findall(part) or ([part] if part else []))
    return [p.lower() for p in pieces]


# An amount written with thousands separators (2,162.00; 2.162,00; 12'500): its whole number is stored
# as one token too, so a search for 2162 finds it (the text index holds "2", "162", "00").
_GROUPED = re.compile(r"(\d{1,3}(?:([,.'\u2019])\d{3})(?:\2\d{3})*)(?:[.,]\d{1,2})?")


def extra_tokens(text: str) -> str:
    """Tokens stored beside a unit's text so code parts, joined IDs and words spelled without the
    letters the text index keeps (spelled_apart) match too."""
    out: list[str] = []
    for chunk in _chunks(text):
        parts = _parts(chunk)
        for part in parts:
            pieces = identifier_parts(part)
            if len(pieces) > 1:
                out.extend(pieces)
        if len(parts) > 1 and is_id_like(chunk):
            out.append(normalise_id(chunk).lower())
        if amount := _GROUPED.fullmatch(chunk):
            out.append(re.sub(r"\D", "", amount.group(1)))
        out.extend(apart for part in parts if (apart := spelled_apart(part)))
    out.extend(symbol_names(text))
    return " ".join(out)


_PATH_SEPARATORS = re.compile(r"[/=?&#:]+")


def id_tokens(text: str) -> str:
    """The normalised ID-like tokens of a text, for the trigram index behind fuzzy ID search; an ID
    inside a path or an address also alone (/api/v2/invoices/INV-2024-00917 was one token,
    APIV2INVOICESINV202400917, that no ID one character off is ever near)."""
    out = []
    for chunk in _chunks(text):
        if is_id_like(chunk):
            out.append(normalise_id(chunk))
        if _PATH_SEPARATORS.search(chunk):
            out.extend(normalise_id(p) for p in _PATH_SEPARATORS.split(chunk) if is_id_like(p))
    return " ".join(dict.fromkeys(out))


def required_terms(n: int, spec: str) -> int:
    """How many of `n` query terms a unit must hold, by an Elasticsearch-style minimum_should_match
    spec: "60%" (a share, rounded down, at least 1), "2" (a count), or "3<30%" (all terms when
    the query has at most 3, else the share): short queries are precise, long ones need slack.
    """
    spec = spec.strip()
    if "<" in spec:
        upto, _, rest = spec.partition("<")
        return n if n <= int(upto) else required_terms(n, rest)
    if spec.endswith("%"):
        number, scale = float(spec[:-1]), 100
    elif "." in spec:
        number, scale = float(spec), 1
    else:
        return max(1, min(n, int(spec)))
    if not math.isfinite(number):
        raise ValueError(f"a share must be a finite number, got {spec!r}")
    # Clamped before int(): a share of 1e300 asks for every term (and n x 1e307 overflows to inf).
    return int(max(1.0, min(float(n), n * number / scale)))
