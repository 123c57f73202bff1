"""Mail (.eml, .emlx, .mbox, .msg, Thunderbird's mailboxes, Maildir messages): one `email` section per message: its From, To, Cc, Subject and Date lines
(and a Gmail Takeout message's labels), then its body (the plain-text part, or the HTML part read as a page is), then the names of its
attachments. The subject is the section's title; a message's date is its file's.

A mailbox (an .mbox, a Thunderbird folder) holds its messages as files of its own
(scent.extract.members): message 3 of `mail.mbox` is `mail.mbox#3.eml`, so each message is a
result of its own, dated, filtered and shown as a file is, and the mailbox itself is a line
naming how many messages it holds and when they were sent. Messages are numbered in the order
the mailbox keeps them; one Thunderbird deleted and has not yet compacted away is left out. All of
them are read, newest first, and handed to the indexer one at a time (members.Spool): a Gmail
"All mail" of 100,000 messages is indexed whole, its latest mail first.

Attachments are files inside the message, each indexed as a file of its own:
`note.eml#invoice.pdf` for an .eml, `mail.mbox#3/invoice.pdf` for message 3 of an mbox. A name
used twice in one message gets " (2)" before its extension; an attachment without a name is
`attachment-N` with its type's extension; an attached message is `.eml`. Each is dated by its
message.

An Outlook message saved as .msg (a compound file of MAPI properties, not MIME) is read by
aspose-email-foss (MIT, pure Python) as the MIME message it stands for, and from there as an
.eml is: the same lines, body and attachments. A message whose body Outlook kept only as
compressed RTF has that read as its body (compressed-rtf, then the .rtf reader)."""
from __future__ import annotations

import email
import hashlib
import io
import mailbox
import os
import re
import struct
import zlib
from email import policy
from email.errors import HeaderParseError
from email.header import decode_header, make_header
from email.message import EmailMessage
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import BinaryIO

import numpy as np

from scent import cache
from scent.errors import ExtractError
from scent.units import Extracted, Member, Section
from .base import Limits, _size, laid_out, named, unreadable
from .members import Dates, Entry, MemberReader, Spool, attach, attachment_name, bounded
from .html import _BREAK, _CUT, _normalise, _parse, _visible_pieces

EXTENSIONS = (".eml", ".emlx", ".mbox", ".msg")
VERSION = 2  # 2: a mailbox's messages are files of their own (mail.mbox#3.eml), not its pages
# Thunderbird keeps each mail folder as an mbox without an extension (Mail/Local Folders/Inbox,
# ImapMail/imap.example.org/INBOX), a subfolder's inside NAME.sbd/, each beside its .msf summary.
THUNDERBIRD_FOLDERS = frozenset({"inbox", "sent", "drafts", "trash", "junk", "archives", "templates", "outbox",
                                 "unsent messages", "sent mail", "all mail", "spam", "starred", "important"})
_THUNDERBIRD_ROOTS = ("Mail", "ImapMail")
_HEADERS = ("From", "To", "Cc", "Subject", "Date")


# A Maildir message (mutt, KMail, Evolution, mbsync and offlineimap backups): one file in cur/ or
# new/, named by when it arrived, a unique part and the host, and its flags after a colon.
_MAILDIR_NAME = re.compile(r"^\d{9,}\.[^/]+$")


def mail_file(path: str) -> bool:
    """Whether a file whose name says no kind is mail: a Thunderbird mailbox or a Maildir message."""
    return thunderbird_mailbox(path) or maildir_message(path)


def maildir_message(path: str) -> bool:
    parts = path.replace("\\", "/").split("/")
    return len(parts) > 1 and parts[-2] in ("cur", "new") and bool(_MAILDIR_NAME.match(parts[-1]))


def many_messages(path: str) -> bool:
    """Whether the mail file at `path` holds many messages (an mbox), not one."""
    return path.lower().endswith(".mbox") or thunderbird_mailbox(path)


def thunderbird_mailbox(path: str) -> bool:
    """Whether the file without an extension at `path` is one of Thunderbird's mailboxes: inside a
    subfolder's NAME.sbd/, inside Local Folders/, or inside an account's folder of a profile's Mail/
    or ImapMail/. A bare name (a path inside the indexed folder, which is the mail folder itself) is
    one when it is a name Thunderbird gives its folders (Inbox, Sent, Trash ...)."""
    parts = path.replace("\\", "/").split("/")
    name = parts[-1]
    if not name or "." in name:
        return False
    if len(parts) == 1:
        return name.lower() in THUNDERBIRD_FOLDERS
    parent = parts[-2]
    return parent.endswith(".sbd") or parent == "Local Folders" or (len(parts) > 2 and parts[-3] in _THUNDERBIRD_ROOTS)


def _header(message: EmailMessage, name: str) -> str:
    """The header's text, its encoded words (=?utf-8?b?...?=) decoded. Read from the raw header
    with email.header, not through policy.default's header objects: those parse every address and
    cost milliseconds a message (an mbox of 100,000 messages took minutes)."""
    wanted = name.lower()
    try:
        raw = next((v for k, v in message.raw_items() if k.lower() == wanted), None)
    except (AttributeError, TypeError):
        raw = None
    if raw is None:
        return ""
    if not isinstance(raw, str):  # a header object set by the library itself
        return " ".join(str(raw).split())
    try:
        value = str(make_header(decode_header(raw)))
    except (HeaderParseError, LookupError, ValueError, TypeError, UnicodeError):
        value = raw
    return " ".join(value.split())


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
    if labels := _labels(message):
        lines.append(f"Labels: {labels}")
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


# What Gmail says of every message it shows: states, not what the message is about.
_STATE_LABELS = frozenset({"opened", "unread", "archived"})


def _labels(message: EmailMessage) -> str:
    """A Gmail Takeout message's labels (X-Gmail-Labels: "Inbox,Important,Category Travel,Opened"),
    without the read states: the user's own labels and Gmail's categories are words to find it by."""
    raw = _header(message, "X-Gmail-Labels")
    return ", ".join(label for label in (part.strip() for part in raw.split(","))
                     if label and label.lower() not in _STATE_LABELS)


def attachments(message: EmailMessage) -> list[tuple[str, object]]:
    """(name, part) of each attachment, named as the index shows it inside the message."""
    try:
        parts = list(message.iter_attachments())
    except (KeyError, ValueError, AttributeError, TypeError):
        return []
    out, seen = [], set()
    for n, part in enumerate(parts, 1):
        try:
            raw = part.get_filename()
        except (ValueError, TypeError, AttributeError, IndexError):
            raw = None
        out.append((attachment_name(str(raw) if raw else "", n, part.get_content_type(), seen), part))
    return out


def _payload(part) -> bytes:
    """An attachment's bytes (an attached message as the message it is)."""
    if part.get_content_type() == "message/rfc822":
        inner = part.get_payload()
        inner = inner[0] if isinstance(inner, list) and inner else inner
        return inner.as_bytes() if hasattr(inner, "as_bytes") else b""
    data = part.get_payload(decode=True)
    return data if isinstance(data, bytes) else b""


_READ_PART_ERRORS = (KeyError, ValueError, AttributeError, TypeError, IndexError, LookupError, AssertionError)


def _add_attachments(reader: MemberReader, message: EmailMessage, prefix: str) -> bool:
    """Give the reader the message's attachments; False once it says to stop."""
    date = _date(message)
    for name, part in attachments(message):
        try:
            data = _payload(part)
        except _READ_PART_ERRORS:
            data = b""  # a part the parser cannot decode: read as empty, so its extractor says what it is
        if not reader.add(Entry(prefix + name, len(data), lambda data=data: data, date=date)):
            return False
    return True


def _date(message: EmailMessage) -> float | None:
    try:
        return parsedate_to_datetime(_header(message, "Date")).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


# What a damaged compound file can make the .msg reader raise besides its own errors.
_DAMAGED = (EOFError, KeyError, ValueError, TypeError, IndexError, AttributeError, LookupError, OverflowError,
            struct.error)


def _message(path: str) -> EmailMessage:
    """The one message of an .eml, .emlx or .msg file."""
    if path.lower().endswith(".emlx"):
        return _apple_mail(path)
    if not path.lower().endswith(".msg"):
        with open(path, "rb") as f:
            return email.message_from_binary_file(f, policy=policy.default)
    from aspose.email_foss import cfb, msg

    try:
        with msg.MapiMessage.from_file(path) as message:
            if not (message.body or message.body_html):
                message.body = _rtf_body(message)
            return message.to_email_message()
    except (cfb.CFBError, msg.MsgError, *_DAMAGED) as e:
        raise unreadable(path, "Outlook message", named(e)) from None


def _apple_mail(path: str) -> EmailMessage:
    """An Apple Mail message (.emlx): a line giving the message's length in bytes, the message, then
    Apple's property list (flags, when it arrived), which is not read. A .partial.emlx keeps its
    attachments in files beside it: its message is read as it is."""
    with open(path, "rb") as f:
        head = f.readline(32)
        try:
            length = int(head.strip())
        except ValueError:
            raise unreadable(path, "Apple Mail message", "it does not start with the message's length") from None
        return email.message_from_bytes(f.read(max(length, 0)), policy=policy.default)


_RTF_COMPRESSED, _BINARY = 0x1009, 0x0102  # PR_RTF_COMPRESSED, a binary property


def _rtf_body(message) -> str:
    """The text of a message Outlook kept only as compressed RTF ([MS-OXRTFCP]; a message written
    in Outlook's rich text format, or an old one), with no plain or HTML body; "" when it has none
    or it does not decompress."""
    import compressed_rtf

    from .rtf import text_of

    raw = message.get_property_value(_RTF_COMPRESSED, _BINARY)
    if not isinstance(raw, bytes):
        return ""
    try:
        rtf = compressed_rtf.decompress(raw)
    except Exception:  # compressed_rtf raises bare Exceptions (a bad CRC, an unknown type) and struct's errors
        return ""
    try:
        return text_of(rtf)[0].strip()
    except ValueError:
        return ""


def _looks_like_mail(message: EmailMessage) -> bool:
    return any(_header(message, name) for name in ("From", "To", "Subject", "Date", "Message-ID"))


def extract(path: str, limits: Limits) -> Extracted:
    size = os.stat(path).st_size
    mbox = many_messages(path)
    if not mbox and size > limits.max_text_bytes:
        raise ExtractError(path, f"message is {_size(size)}, over the {_size(limits.max_text_bytes)} limit; "
                                 "raise the max_file_mb setting (--max-file-mb) or add it to .scentignore")
    if not mbox:
        message = _message(path)
        if not _looks_like_mail(message):
            raise ExtractError(path, "not an e-mail message (no From, To, Subject, Date or Message-ID header); "
                                     "rename it to its real type or add it to .scentignore")
        text = _message_text(message)
        subject = _header(message, "Subject")
        got = Extracted(kind="email", sections=[Section(text=text, kind="email", title=subject)],
                        title=subject, date=_date(message))
        with MemberReader(path, limits, "message") as reader:
            _add_attachments(reader, message, "")
            return attach(got, reader)
    with open(path, "rb") as f:
        head = f.read(5)
    if head and head != b"From ":
        raise ExtractError(path, "not an mbox mailbox (it does not start with a \"From \" line); "
                                 "rename it to its real type or add it to .scentignore")
    return _mailbox_of(path, limits)


def _mailbox_of(path: str, limits: Limits) -> Extracted:
    """A mailbox: its messages as members `N.eml` (each read from its own bytes, so its hash says
    whether it changed), their attachments as members `N/NAME`, all of them, handed over in a spool
    (members.Spool) one message at a time. Read newest first (a mailbox keeps messages in the order
    they came): the latest mail is written first, and the attachments the limits leave out
    (max_archive_members, max_archive_mb) are the oldest ones."""
    if limits.member_depth <= 0:  # inside another file (a Takeout zip): files inside files are one level deep
        return _sectioned(path, limits)
    places = _message_places(path)
    more, dates = True, Dates()
    # A message the index holds as it is, and none of whose attachments it has (or skipped): only
    # parsing would name those again.
    indexed = dict(limits.indexed)
    with_parts = {name.partition("/")[0] for name in indexed if "/" in name}
    with MemberReader(path, limits, "mailbox", Spool(limits.spool)) as reader, open(path, "rb") as f:
        spool = reader.members
        spool.expect(len(places))
        for number in range(len(places), 0, -1):
            raw = _message_at(f, places[number - 1])
            digest = hashlib.sha1(raw).hexdigest()
            if digest == indexed.get(f"{number}.eml") and str(number) not in with_parts:  # parsing is most of reading
                date = _head_date(raw)
                spool.append(Member(f"{number}.eml", date=date, size=len(raw), hash=digest, unchanged=True))
                dates.add(date)
                continue
            message = email.message_from_bytes(raw, policy=policy.default)
            if _deleted(message):
                continue
            text = _message_text(message)[:limits.max_text_bytes]
            date = _date(message)
            if text:
                subject = _header(message, "Subject")
                got = Extracted(kind="email", sections=[Section(text=text, kind="email", title=subject)],
                                title=subject, date=date)
                spool.append(Member(f"{number}.eml", got, date=date, size=len(raw), hash=digest))
                dates.add(date)
            if more:
                given = reader.given
                more = _add_attachments(reader, message, f"{number}/")
                spool.expect(reader.given - given)  # counted as they come: nobody knows how many are left
        name = os.path.basename(path)
        line = dates.line(name, "mailbox", "message", "sent")
        got = Extracted(kind="email", sections=[Section(text=line, kind="email", title=name)], title=name)
        return attach(got, reader)


def _sectioned(path: str, limits: Limits) -> Extracted:
    """A mailbox inside another file: one file whose sections are its messages, newest first (so the
    units a file may have, max_units_per_file, are its latest mail's), each dated when it was sent;
    their attachments are not read (said, as another container's files inside a container are)."""
    with open(path, "rb") as f:
        places = _places_from(f, 0)
        sections, attached, size = [], 0, 0
        for start, stop in places[::-1]:
            f.seek(int(start))
            message = email.message_from_bytes(f.read(int(stop - start)), policy=policy.default)
            if _deleted(message):
                continue
            attached += sum(1 for _ in message.iter_attachments())
            text = _message_text(message)
            size += len(text)
            if size > limits.max_text_bytes:
                break
            if text:
                sections.append(Section(text=text, kind="email", title=_header(message, "Subject"),
                                        date=_date(message)))
    meta = {"unopened": attached} if attached else {}
    if size > limits.max_text_bytes:
        meta["left_out"] = [f"only its latest messages, {len(sections)}, were read (max_file_mb of text); unpack "
                            "the archive to index every message as a file of its own"]
    name = os.path.basename(path)
    return Extracted(kind="email", sections=laid_out(sections), title=name, meta=meta)


def _message_places(path: str) -> np.ndarray:
    """Where each message of the mbox at `path` starts and ends: (n, 2) byte offsets, kept in scent's
    cache by the mailbox's path, size and time. Why: mailbox.mbox finds its messages by reading the
    whole file, each time it is opened, so showing message 70,000 of a 10 GB "All mail" read 10 GB;
    with the places kept at indexing, it reads that message. A mailbox that grew (a mail program
    appends new mail) is read from its last message on (`_grown`)."""
    try:
        kept = cache.path_for(Path(path), _places_name(path))
    except OSError:
        kept = None
    if kept is not None and kept.is_file():
        try:
            return np.load(kept)
        except (OSError, ValueError):
            pass  # a kept file cut short: found again below
    places = _grown(path)
    if places is None:
        with open(path, "rb") as f:
            places = _places_from(f, 0)
    if kept is not None:
        cache.keep(kept, lambda f: np.save(f, places))
    return places


def _grown(path: str) -> np.ndarray | None:
    """The places of the mbox at `path`, from those kept for it before it changed, where every
    message kept still starts where it did (each at a "From " line's start, the file no shorter):
    the file read from the last of them on. None where it is not so (a compacted mailbox, another
    file): it is read whole. Thunderbird marks a message read by rewriting its status header in
    place, bytes for bytes, so its places hold; the message's bytes are compared by its hash."""
    for before in cache.kept(_places_name(path)):
        try:
            old = np.load(before)
        except (OSError, ValueError):
            continue
        if not len(old) or old.ndim != 2:
            return None
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if not size or size < old[-1, 1] or not _at_from_lines(f, old[:, 0]):
                return None
            return np.concatenate([old[:-1], _places_from(f, int(old[-1, 0]))])
    return None


FROM_LINE = b"From "
CHUNK = 16 << 20  # bytes of a mailbox looked at at once (_at_from_lines)


def _at_from_lines(f: BinaryIO, starts: np.ndarray) -> bool:
    """Whether each offset of `starts` (ascending) is the start of a "From " line of the file `f`,
    read a piece at a time (a map of the whole file would count in the process's memory)."""
    want = np.frombuffer(FROM_LINE, dtype=np.uint8)
    for begin in range(0, int(starts[-1]) + 1, CHUNK):
        here = starts[(starts >= begin) & (starts < begin + CHUNK)]
        if not len(here):
            continue
        first = max(0, begin - 1)  # the byte before: a line's start follows a newline
        f.seek(first)
        piece = np.frombuffer(f.read(begin + CHUNK + len(FROM_LINE) - first), dtype=np.uint8)
        at = here - first
        if int(at[-1]) + len(FROM_LINE) > len(piece):
            return False
        if not (np.stack([piece[at + k] for k in range(len(FROM_LINE))], axis=1) == want).all():
            return False
        if not (piece[at[here > 0] - 1] == ord("\n")).all():
            return False
    return True


def _places_from(f: BinaryIO, start: int) -> np.ndarray:
    """Where each message starts and ends, read from offset `start` (0, or a message's "From " line)
    as mailbox.mbox reads a whole file (its _generate_toc: a message ends before the blank line
    that comes before the next "From " line)."""
    starts, stops = [], []
    last_was_empty = False
    f.seek(start)
    while True:
        at = f.tell()
        line = f.readline()
        if line.startswith(FROM_LINE):
            if len(stops) < len(starts):
                stops.append(at - len(mailbox.linesep) if last_was_empty else at)
            starts.append(at)
            last_was_empty = False
        elif not line:
            stops.append(at - len(mailbox.linesep) if last_was_empty else at)
            break
        else:
            last_was_empty = line == mailbox.linesep
    return np.array(list(zip(starts, stops)), dtype=np.int64).reshape(-1, 2)


def _places_name(path: str) -> str:
    return f"mailboxes/{zlib.crc32(os.path.abspath(path).encode()):08x}.npy"


def forget(path: str) -> None:
    """Remove the places kept of the mailbox at `path` (`_message_places`): it left the index."""
    if many_messages(path):
        cache.forget(_places_name(path))


_DATE_LINE = re.compile(rb"^Date:[ \t]*(.*(?:\r?\n[ \t].*)*)", re.I | re.M)


def _head_date(raw: bytes) -> float | None:
    """A message's Date, found in its header without parsing it (as _date gives it)."""
    head = raw.split(b"\n\n", 1)[0]
    found = _DATE_LINE.search(head)
    if not found:
        return None
    try:
        return parsedate_to_datetime(" ".join(found.group(1).decode("latin-1").split())).timestamp()
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _message_at(f, place) -> bytes:
    """A message's bytes as mailbox.mbox.get_bytes gives them: without its "From " line."""
    start, stop = (int(n) for n in place)
    f.seek(start)
    f.readline()
    return f.read(stop - f.tell()).replace(os.linesep.encode(), b"\n")


_EXPUNGED = 0x0008  # Thunderbird's nsMsgMessageFlags::Expunged


def _deleted(message: EmailMessage) -> bool:
    """Whether Thunderbird deleted this message and has not yet compacted its folder: it stays in the
    mbox, flagged in X-Mozilla-Status, and Thunderbird no longer shows it."""
    try:
        return bool(int(_header(message, "X-Mozilla-Status") or "0", 16) & _EXPUNGED)
    except ValueError:
        return False


_MESSAGE_NAME = re.compile(r"(\d+)(?:/(.+)|\.eml)\Z", re.S)


def read_member(path: str, name: str, max_bytes: int) -> bytes:
    """The bytes of member `name`: an attachment (`N/file` in an mbox), or a mailbox's message `N.eml`;
    bounded; ExtractError when it is not there."""
    missing = ExtractError(path, f"the mail holds no attachment {name} (any more); re-index the folder")
    if many_messages(path):
        m = _MESSAGE_NAME.match(name)
        if not m:
            raise missing
        number, name = int(m.group(1)), m.group(2)
        places = _message_places(path)
        if not 1 <= number <= len(places):
            raise missing
        with open(path, "rb") as f:
            raw = _message_at(f, places[number - 1])
        if name is None:
            return bounded(io.BytesIO(raw), path, f"message {number}", len(raw), max_bytes)
        message = email.message_from_bytes(raw, policy=policy.default)
    else:
        message = _message(path)
    for found, part in attachments(message):
        if found == name:
            data = _payload(part)
            return bounded(io.BytesIO(data), path, name, len(data), max_bytes)
    raise missing
