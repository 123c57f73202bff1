"""The query language for people who want one, parsed into what search already takes:

    "exact phrase"   the words, in this order, next to each other
    -word -"a phrase"  leave out files that contain it
    a OR b           either (one keyword term: `invoice OR receipt march` needs march too)
    ext:pdf  dir:notes  kind:image  lang:es  after:2024  before:"last week"
    from:alice  to:"bob smith"  subject:invoice   (mail: the message's header holds the words;
                     a field alone ranks by its words)

A query without any of these is returned as typed, so plain searches behave exactly as before.
One of fields and exclusions alone (`ext:pdf after:2025-03`) has no text: it lists the files the
fields keep (scent.search.newest).
The words left (phrases' words included) are the query the lists rank by; the phrases and
exclusions are checked on the candidates' text (scent.search.constrain), the fields become
Filters. A malformed expression is one UsageError line saying what is wrong and how to write it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from .errors import UsageError
from .filters import Filters
from .query import _chunks, _parts

# Mail headers a message unit starts with (scent.extract.mail), and the lines each field reads.
HEADERS = {"from": ("from",), "to": ("to", "cc"), "subject": ("subject",)}
_HEADER_LINES = 5  # From, To, Cc, Subject, Date: the most a message unit starts with
FIELDS = ("ext", "dir", "kind", "lang", "after", "before", *HEADERS)
_FIELD = re.compile(rf"^({'|'.join(FIELDS)}):(.*)$", re.I | re.S)
_EXT = re.compile(r"^\.?[\w.+-]{1,16}$")
_STARTS_WITH_LETTER = re.compile(r'^-(?:"|(?=[^\W\d_]))')  # -word, -"phrase"; not -5
_GLOB_CHARS = re.compile(r"([*?\[])")


@dataclass(frozen=True)
class Constraints:
    """What every result's unit must satisfy beyond ranking: each group of `required` names
    phrases of which the unit holds one (in its text or title); a file holding any `excluded`
    phrase anywhere is left out. Phrases are tuples of lowercase words."""
    required: tuple[tuple[tuple[str, ...], ...], ...] = ()
    excluded: tuple[tuple[str, ...], ...] = ()
    headers: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (HEADERS field, phrase): from:alice

    def __bool__(self) -> bool:
        return bool(self.required or self.excluded or self.headers)


@dataclass(frozen=True)
class Parsed:
    """A query in the query language, split into the text to rank by, its filters and constraints."""

    text: str                     # what the lists rank by
    filters: Filters = field(default_factory=Filters)
    constraints: Constraints = field(default_factory=Constraints)
    # The words and phrases OR joined, a group each: the keyword list reads a group as one term
    # that any member matches. `single` holds the words outside them (None: all of `text`).
    alternatives: tuple[tuple[str, ...], ...] = ()
    single: str | None = None

    @property
    def keyword_text(self) -> str:
        """The words the keyword list reads one by one (the OR groups' are `alternatives`)."""
        return self.text if self.single is None else self.single


def words(text: str) -> tuple[str, ...]:
    """Lowercase words as the keyword index sees them (punctuation splits, '_' joins)."""
    return tuple(p.lower() for chunk in _chunks(text) for p in _parts(chunk))


def contains(haystack: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return any(haystack[i:i + n] == phrase for i in range(len(haystack) - n + 1))


def has_syntax(text: str) -> bool:
    return '"' in text or any(t == "OR" or _FIELD.match(t) or _STARTS_WITH_LETTER.match(t) for t in text.split())


def _tokens(text: str) -> list[tuple[str, str]]:
    """(kind, value): phrase, word, or, not-phrase, not-word, field (value "name:value")."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        negated = text[i] == "-" and bool(_STARTS_WITH_LETTER.match(text[i:i + 2]))
        start = i + negated
        m = _FIELD.match(text[start:].split(None, 1)[0]) if not negated and text[start] != '"' else None
        if m and m.group(2).startswith('"'):  # dir:"My Notes"
            close = text.find('"', start + len(m.group(1)) + 2)
            if close < 0:
                raise UsageError(f'{m.group(1).lower()}: has a " that is not closed; write {m.group(1).lower()}:"two words"')
            out.append(("field", f"{m.group(1).lower()}:{text[start + len(m.group(1)) + 2:close]}"))
            i = close + 1
            continue
        if text[start] == '"':
            close = text.find('"', start + 1)
            if close < 0:
                raise UsageError('the query has a " that is not closed; close the phrase ("like this") '
                                 "or leave the quote out")
            phrase = text[start + 1:close]
            if not words(phrase):
                raise UsageError('the query has an empty phrase ""; put words between the quotes')
            out.append(("not-phrase" if negated else "phrase", phrase))
            i = close + 1
            continue
        end = start
        while end < n and not text[end].isspace() and text[end] != '"':
            end += 1
        token = text[start:end]
        i = end
        if negated:
            out.append(("not-word", token))
        elif token == "OR":
            out.append(("or", token))
        elif m := _FIELD.match(token):
            out.append(("field", f"{m.group(1).lower()}:{m.group(2)}"))
        else:
            out.append(("word", token))
    return out


def parse(text: str) -> Parsed:
    """`text` split into the words to rank by, filters and constraints (see the module's doc)."""
    if not has_syntax(text):
        return Parsed(text)
    tokens = _tokens(text)
    ranked: list[str] = []
    required: list[tuple[tuple[str, ...], ...]] = []
    excluded: list[tuple[str, ...]] = []
    headers: list[tuple[str, tuple[str, ...]]] = []
    values: dict[str, list[str]] = {}
    # Group the positive terms joined by OR: [[a], [b, c]] for `a b OR c`.
    groups: list[list[tuple[str, str]]] = []
    joining = False
    for pos, (kind, value) in enumerate(tokens):
        if kind == "or":
            before = tokens[pos - 1][0] if pos else None
            after = tokens[pos + 1][0] if pos + 1 < len(tokens) else None
            if before not in ("word", "phrase") or after not in ("word", "phrase"):
                raise UsageError("OR needs a word or a \"phrase\" on each side, like: invoice OR receipt "
                                 "(-words and field:values cannot be ORed)")
            joining = True
            continue
        if kind in ("word", "phrase"):
            if joining:
                groups[-1].append((kind, value))
            else:
                groups.append([(kind, value)])
            ranked.append(value)
        elif kind in ("not-word", "not-phrase"):
            excluded_words = words(value)
            if not excluded_words:
                raise UsageError(f"-{value} leaves out nothing; write -word or -\"a phrase\"")
            excluded.append(excluded_words)
        else:
            name, _, v = value.partition(":")
            if not v.strip():
                raise UsageError(f"{name}: needs a value, like {_EXAMPLES[name]}")
            if name in HEADERS:
                if not words(v):
                    raise UsageError(f"{name}:{v} has no word to look for; write {_EXAMPLES[name]}")
                headers.append((name, words(v)))
            else:
                values.setdefault(name, []).append(v.strip())
        joining = False
    for group in groups:
        if any(kind == "phrase" for kind, _ in group):
            # A phrase is required; ORed with others, one of them is (a word ORed counts as one).
            required.append(tuple(words(v) for _, v in group))
    if not ranked and headers:
        # A field alone asks for the mail it names (from:ann: Ann's messages): its words are ranked by
        for value in (" ".join(phrase) for _, phrase in headers):
            ranked.append(value)
            groups.append([("word", value)])
    if headers:  # only messages have them: the lists need not rank anything else
        kinds = [k for v in values.get("kind", []) for k in v.split(",")]
        if kinds and "email" not in kinds:
            raise UsageError(f"{headers[0][0]}: finds mail, and kind:{','.join(kinds)} leaves out mail; "
                             "keep one of them")
        values["kind"] = ["email"]
    alternatives = tuple(tuple(v for _, v in g) for g in groups if len(g) > 1)
    single = " ".join(v for g in groups if len(g) == 1 for _, v in g)
    return Parsed(" ".join(ranked), _filters(values), Constraints(tuple(required), tuple(excluded), tuple(headers)),
                  alternatives, single)


def header_holds(text: str, field: str, phrase: tuple[str, ...]) -> bool:
    """Whether a header line that `field` reads (HEADERS) at the top of `text` holds `phrase`."""
    for line in text.split("\n", _HEADER_LINES)[:_HEADER_LINES]:
        name, sep, value = line.partition(":")
        if sep and name.strip().lower() in HEADERS[field] and contains(words(value), phrase):
            return True
    return False


_EXAMPLES = {"ext": "ext:pdf", "dir": "dir:notes", "kind": "kind:image", "lang": "lang:es",
             "after": "after:2024-03", "before": 'before:"last week"', "from": "from:alice",
             "to": 'to:"bob smith"', "subject": "subject:invoice"}


def _one(values: dict[str, list[str]], name: str) -> str | None:
    given = values.get(name, [])
    if len(given) > 1:
        raise UsageError(f"{name}: is given {len(given)} times ({', '.join(name + ':' + v for v in given)}); "
                         "give it once")
    return given[0] if given else None


def _filters(values: dict[str, list[str]]) -> Filters:
    kinds = [k for v in values.get("kind", []) for k in v.split(",")]
    ext, folder = _one(values, "ext"), _one(values, "dir")
    if ext is not None and not _EXT.match(ext):
        raise UsageError(f"ext: wants a file extension like ext:pdf or ext:md, got ext:{ext}")
    folder = folder.replace("\\", "/").strip("/") + "/" if folder is not None else None
    path = folder  # a prefix; with an extension, a glob (its folder part taken literally)
    if ext is not None:
        path = _literal(folder or "") + "*" + _any_case("." + ext.lstrip(".").lower())
    return Filters.build(kinds, path, _one(values, "after"), _one(values, "before"), _one(values, "lang"),
                         spell=lambda n: n + ":")


def _literal(text: str) -> str:
    """`text` as a glob that matches only itself (GLOB and fnmatch both read [*] as a star)."""
    return _GLOB_CHARS.sub(r"[\1]", text)


def _any_case(ext: str) -> str:
    """".pdf" -> ".[pP][dD][fF]": a glob is case-sensitive, extensions are not (.JPG, .PDF)."""
    return "".join(f"[{c}{c.upper()}]" if c.isalpha() and c.upper() != c else _literal(c) for c in ext)


def combine(given: Filters, parsed: Filters) -> Filters:
    """The caller's filters and the query's together: both must hold. Raises UsageError when they
    cannot (two languages, two paths, kinds or dates that leave nothing). The caller's filters are
    named by what they do: each view spells its parameters its own way."""
    if parsed.empty:
        return given
    if given.empty:
        return replace(parsed, exclude=given.exclude)
    kinds = given.kinds or parsed.kinds
    if given.kinds and parsed.kinds:
        kinds = tuple(k for k in given.kinds if k in parsed.kinds)
        if not kinds:
            raise UsageError(f"kind:{','.join(parsed.kinds)} in the query and the kind filter "
                             f"({','.join(given.kinds)}) leave no kind to match; keep one of them")
    if given.lang and parsed.lang and given.lang != parsed.lang:
        raise UsageError(f"lang:{parsed.lang} in the query and the language filter ({given.lang}) ask for two "
                         "languages; keep one of them")
    path = given.path or parsed.path
    if given.path and parsed.path:
        if given.is_glob() or not parsed.path.startswith("*"):
            raise UsageError(f"dir:/ext: in the query and the path filter ({given.path}) both choose paths; "
                             "keep one of them")
        path = _literal(given.path) + parsed.path  # a folder from the caller, an extension from the query
    after = max((d for d in (given.after, parsed.after) if d is not None), default=None)
    before = min((d for d in (given.before, parsed.before) if d is not None), default=None)
    if after is not None and before is not None and after >= before:
        raise UsageError("after:/before: in the query and the date filter leave no day to match; "
                         "widen one of them")
    return Filters(kinds, path, after, before, given.lang or parsed.lang, given.exclude)

