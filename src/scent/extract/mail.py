"""Mail (.eml, .mbox): one `email` section per message: its From, To, Cc, Subject and Date lines,
then its body (the plain-text part, or the HTML part read as a page is), then the names of its
attachments. The subject is the section's title; an .eml file's date is the message's. An .mbox
gives each message its number as the page. Attachments' contents are not read (yet)."""
from __future__ import annotations

import email
import mailbox
import os
from email import policy
from email.message import EmailMessage
from email.utils import parsedate_to_datetime

from scent.errors import ExtractError
from scent.units import Extracted, Section
from .base import SECTION_SEPARATOR, Limits, _size
from .html import _BREAK, _CUT, _normalise, _parse, _visible_pieces

EXTENSIONS = (".eml", ".mbox")
_HEADERS = ("From", "To", "Cc", "Subject", "Date")


def _header(message: EmailMessage, name: str) -> str:
    try:
        value = message.get(name)
    except (ValueError, TypeError, IndexError, AttributeError):  # a header the parser cannot model
        value = message.get_all(name, failobj=[None])[0] if hasattr(message, "get_all") else None
    return " ".join(str(value).split()) if value is not None else ""


def _text(part) -> str:
    try:
        content = part.get_content()
    except (LookupError, ValueError, KeyError, AttributeError, AssertionError):  # unknown charset, odd encoding
        payload = part.get_payload(decode=True) or b""
        content = payload.decode("utf-8", errors="replace")
    if not isinstance(content, str):
        return ""
    if part.get_content_subtype() == "html":
        soup = _parse("message", content.replace(_CUT, "").replace(_BREAK, ""))
        return _normalise(" ".join("".join(_visible_pieces(soup)[0]).split(_CUT)))
    lines = [" ".join(line.split()) for line in content.splitlines()]
    return "\n".join(line for line in lines if line)


def _message_text(message: EmailMessage) -> str:
    lines = [f"{name}: {value}" for name in _HEADERS if (value := _header(message, name))]
    try:
        body = message.get_body(preferencelist=("plain", "html"))
    except (KeyError, ValueError, AttributeError, TypeError):
        body = None
    text = _text(body) if body is not None else ""
    try:
        names = [part.get_filename() or part.get_content_type() for part in message.iter_attachments()]
    except (KeyError, ValueError, AttributeError, TypeError):
        names = []
    out = "\n".join(lines)
    if text:
        out += "\n\n" + text
    if names:
        out += "\n\nattachments: " + ", ".join(" ".join(str(n).split()) for n in names)
    return out.strip()


def _date(message: EmailMessage) -> float | None:
    try:
        return parsedate_to_datetime(_header(message, "Date")).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _looks_like_mail(message: EmailMessage) -> bool:
    return any(_header(message, name) for name in ("From", "To", "Subject", "Date", "Message-ID"))


def extract(path: str, limits: Limits) -> Extracted:
    size = os.stat(path).st_size
    mbox = path.lower().endswith(".mbox")
    if not mbox and size > limits.max_text_bytes:
        raise ExtractError(path, f"message is {_size(size)}, over the {_size(limits.max_text_bytes)} limit; "
                                 "raise the max_file_mb setting (--max-file-mb) or add it to .scentignore")
    if not mbox:
        with open(path, "rb") as f:
            message = email.message_from_binary_file(f, policy=policy.default)
        if not _looks_like_mail(message):
            raise ExtractError(path, "not an e-mail message (no From, To, Subject, Date or Message-ID header); "
                                     "rename it to its real type or add it to .scentignore")
        text = _message_text(message)
        subject = _header(message, "Subject")
        return Extracted(kind="email", sections=[Section(text=text, kind="email", title=subject)],
                         title=subject, date=_date(message))
    with open(path, "rb") as f:
        head = f.read(5)
    if head and head != b"From ":
        raise ExtractError(path, "not an mbox mailbox (it does not start with a \"From \" line); "
                                 "rename it to its real type or add it to .scentignore")
    box = mailbox.mbox(path, factory=lambda f: email.message_from_binary_file(f, policy=policy.default),
                       create=False)
    sections, meta, offset, read = [], {}, 0, 0
    try:
        for number, message in enumerate(box, 1):
            text = _message_text(message)
            read += len(text)
            if read > limits.max_text_bytes:
                meta["left_out"] = [f"only the first {number - 1} messages were indexed (max_file_mb); "
                                    "raise max_file_mb to read the rest"]
                break
            if text:
                sections.append(Section(text=text, kind="email", page=number, title=_header(message, "Subject"),
                                        start=offset))
                offset += len(text) + len(SECTION_SEPARATOR)
    finally:
        box.close()
    meta["messages"] = len(sections)
    return Extracted(kind="email", sections=sections, title=os.path.basename(path), meta=meta)
