"""Contacts (.vcf): one unit per card, numbered as its page, titled with the person's name. A card
says who (name, nickname, organisation and role), how to reach them ("phone (work) +44 1632
960123", email, address), their birthday in words, and the note, so "Ana's work number" or "who
works at Harbour Dental" finds it. Pictures in cards (PHOTO, LOGO) are left out: a face is no text.

Parsed by vobject (scent.extract.vtext); a structured value (a name, an address,
an organisation) is its parts joined in reading order."""
from __future__ import annotations

import datetime as dt
import re

from scent.dates import MONTHS, in_words
from scent.units import Extracted
from .base import Limits, read_text
from .vtext import components, numbered

EXTENSIONS = (".vcf", ".vcard")
VERSION = 2  # 2: a bare comma no longer ends a text (vtext._commas_escaped)
_REACH = {"tel": "phone", "email": "email", "adr": "address", "url": "web", "impp": "chat"}
_DAY = re.compile(r"^(\d{4}|--)-?(\d{2})-?(\d{2})")


def _parts(value: str) -> str:
    """A structured value's parts ("Costa;Ana;;;", ";;12 Quay Street;Northmere;;NM1 2AB;UK") as words."""
    return " ".join(p.strip() for p in re.split(r"(?<!\\);", value) if p.strip()).replace("\\;", ";")


def _reach(line) -> str:
    types = [t.lower() for t in line.params.get("TYPE", ()) for t in t.split(",")
             if t.lower() not in ("internet", "pref", "voice", "x400")]
    kind = _REACH[line.name.lower()] + (f" ({', '.join(types)})" if types else "")
    value = re.sub(r"(?i)^(tel|mailto):", "", _parts(str(line.value)))
    return f"{kind} {value}"


def _birthday(value: str) -> str:
    m = _DAY.match(value.strip())
    if not m:
        return value.strip()
    try:
        if m[1] == "--":  # a birthday without its year
            dt.date(2000, int(m[2]), int(m[3]))  # a real day of a leap year
            return f"{int(m[3])} {MONTHS[int(m[2]) - 1]}"
        return in_words(dt.date(int(m[1]), int(m[2]), int(m[3])))
    except ValueError:
        return value.strip()


def _text(card) -> str:
    def values(name: str) -> list[str]:
        return [_parts(str(line.value)) for line in card.contents.get(name, ()) if _parts(str(line.value))]

    name = " ".join(values("fn")) or " ".join(values("n"))
    work = ", ".join(values("title") + values("role") + values("org"))
    lines = [name or "(no name)", " ".join("also " + n for n in values("nickname")), work]
    lines += [_reach(line) for key in _REACH for line in card.contents.get(key, ()) if str(line.value).strip()]
    lines += ["birthday " + _birthday(v) for v in values("bday")]
    lines += values("categories") + values("note")
    return "\n".join(line for line in lines if line)


def extract(path: str, limits: Limits) -> Extracted:
    text, encoding = read_text(path, limits)
    cards, damaged = components(path, text, "VCARD", "a vCard file")
    meta: dict = {"encoding": encoding, **({"left_out": [damaged]} if damaged else {})}
    cards = [c for c in cards if c.name == "VCARD"]
    sections = numbered(cards, _text, "contacts", limits, "contacts", meta)
    return Extracted(kind="contacts", sections=sections, title=sections[0].title if len(sections) == 1 else "",
                     meta=meta)
