"""Calendars (.ics) and contacts (.vcf): scent.extract.ical, vcard and vtext, on files written here
as calendar and phone apps write them (folded lines, escapes, parameters, CRLF)."""
import datetime as dt

import pytest

from scent import Index
from scent.errors import ExtractError
from scent.extract import extract, file_kind
from scent.filters import Filters

CALENDAR = "\r\n".join([
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "X-WR-CALNAME:Lena personal",
    "BEGIN:VTIMEZONE", "TZID:Europe/London", "END:VTIMEZONE",
    "BEGIN:VEVENT", "DTSTART:20250314T093000Z", "DTEND:20250314T100000Z", "SUMMARY:Dentist check-up",
    "LOCATION:Harbour Dental\\, 12 Quay Street\\, Northmere",
    "DESCRIPTION:Bring the referral letter.\\nParking behind the bui", " lding.",  # a folded line
    "ORGANIZER;CN=Lena Varga:mailto:lena@example.org",
    'ATTENDEE;CN="Dr. Ana Costa";ROLE=REQ-PARTICIPANT:mailto:ana@harbourdental.example',
    "RRULE:FREQ=YEARLY", "END:VEVENT",
    "BEGIN:VEVENT", "DTSTART;VALUE=DATE:20250704", "DTEND;VALUE=DATE:20250707", "SUMMARY:Cornwall trip",
    "STATUS:TENTATIVE", "END:VEVENT",
    "BEGIN:VEVENT", "DTSTART;TZID=Europe/London:20251102T193000", "DTEND;TZID=Europe/London:20251102T220000",
    "SUMMARY:Quiz night", "END:VEVENT",
    "BEGIN:VTODO", "SUMMARY:Renew passport", "DUE;VALUE=DATE:20250901", "END:VTODO",
    "BEGIN:VEVENT", "DTSTART:2025-13-45", "SUMMARY:A date written wrong", "END:VEVENT",
    "END:VCALENDAR", ""])

CONTACTS = "\r\n".join([
    "BEGIN:VCARD", "VERSION:3.0", "FN:Ana Costa", "N:Costa;Ana;;;", "NICKNAME:Ani", "ORG:Harbour Dental",
    "TITLE:Dentist", "TEL;TYPE=WORK,VOICE:+44 1632 960123", "EMAIL;TYPE=INTERNET:ana@harbourdental.example",
    "ADR;TYPE=WORK:;;12 Quay Street;Northmere;;NM1 2AB;UK", "BDAY:1984-05-02",
    "NOTE:Prefers appointments before 10.", "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQ==", "END:VCARD",
    "BEGIN:VCARD", "VERSION:4.0", "FN:Kwame Mensah", "TEL;VALUE=uri:tel:+44-7700-900456", "BDAY:--1107",
    "END:VCARD", ""])


def test_each_entry_says_what_when_where_and_who(tmp_path):
    p = tmp_path / "lena.ics"
    p.write_text(CALENDAR, newline="")
    got = extract(str(p))
    assert file_kind(str(p)) == got.kind == "calendar" and got.title == "Lena personal"
    # Numbered in file order (vobject gives events first, then to-dos).
    assert [(s.kind, s.page, s.title) for s in got.sections] == [
        ("calendar", 1, "Dentist check-up"), ("calendar", 2, "Cornwall trip"), ("calendar", 3, "Quiz night"),
        ("calendar", 4, "to do: Renew passport"), ("calendar", 5, "A date written wrong")]
    dentist, trip, quiz, passport, wrong = (s.text for s in got.sections)
    assert dentist == ("Dentist check-up\nFriday 14 March 2025 (2025-03-14) 09:30-10:00 UTC, every year\n"
                       "Harbour Dental, 12 Quay Street, Northmere\nBring the referral letter.\nParking behind the "
                       "building.\norganizer: Lena Varga <lena@example.org>\n"
                       "attendees: Dr. Ana Costa <ana@harbourdental.example>")
    # A whole-day event's DTEND is the day after its last: 4 to 6 July.
    assert trip == "Cornwall trip\nFriday 4 July 2025 (2025-07-04), to Sunday 6 July 2025 (2025-07-06)\ntentative"
    assert quiz == "Quiz night\nSunday 2 November 2025 (2025-11-02) 19:30-22:00 Europe/London"
    assert passport == "to do: Renew passport\ndue Monday 1 September 2025 (2025-09-01)"
    assert wrong == "A date written wrong"  # the bad date costs only itself
    # Each entry is dated by when it happens (date filters and results use it): an instant in UTC
    # as it is, any other time and a whole day in this machine's time, as a filter's day is.
    local = [dt.datetime(2025, 7, 4).timestamp(), dt.datetime(2025, 11, 2, 19, 30).timestamp(),
             dt.datetime(2025, 9, 1).timestamp()]
    assert [s.date for s in got.sections] == [1741944600, *local, None]
    assert [s.start for s in got.sections][:2] == [0, len(dentist) + 2]


def test_each_card_says_who_and_how_to_reach_them(tmp_path):
    p = tmp_path / "contacts.vcf"
    p.write_text(CONTACTS, newline="")
    got = extract(str(p))
    assert file_kind(str(p)) == got.kind == "contacts"
    assert [(s.kind, s.page, s.title) for s in got.sections] == [("contacts", 1, "Ana Costa"),
                                                                 ("contacts", 2, "Kwame Mensah")]
    assert got.sections[0].text == ("Ana Costa\nalso Ani\nDentist, Harbour Dental\nphone (work) +44 1632 960123\n"
                                    "email ana@harbourdental.example\naddress (work) 12 Quay Street Northmere NM1 2AB UK\n"
                                    "birthday 2 May 1984 (1984-05-02)\nPrefers appointments before 10.")
    assert got.sections[1].text == "Kwame Mensah\nphone +44-7700-900456\nbirthday 7 November"


def test_bare_commas_in_text_are_kept_and_lists_still_part(tmp_path):
    """The standards want "\\," in text, but many writers leave commas bare; vobject kept the text
    before the first one. A rule's BYDAY=MO,WE is a list, and stays one."""
    calendar = "\r\n".join([
        "BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "DTSTART:20250704T150000Z", "SUMMARY:Parents evening, Year 5",
        'LOCATION;ALTREP="cid:a,b":Oakfield Primary, Hall B', "DESCRIPTION:Ask about reading group, swim",
        " ming lessons, and the trip\\, in May", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4", "END:VEVENT",
        "END:VCALENDAR", ""])
    (tmp_path / "school.ics").write_text(calendar, newline="")
    [event] = extract(str(tmp_path / "school.ics")).sections
    assert event.text == ("Parents evening, Year 5\nFriday 4 July 2025 (2025-07-04) 15:00 UTC, every week, 4 times\n"
                          "Oakfield Primary, Hall B\nAsk about reading group, swimming lessons, and the trip, in May")
    assert event.until == dt.datetime(2025, 7, 16, 15, tzinfo=dt.timezone.utc).timestamp()  # Mo/We from Fri 4 July: 7, 9, 14, 16
    card = "\r\n".join(["BEGIN:VCARD", "VERSION:3.0", "FN:Ana Costa", "N:Costa;Ana;;;", "TITLE:Head of sales, EMEA",
                         "NOTE:Met at the fair, likes jazz", "END:VCARD", ""])
    (tmp_path / "ana.vcf").write_text(card, newline="")
    [ana] = extract(str(tmp_path / "ana.vcf")).sections
    assert "Head of sales, EMEA" in ana.text and "Met at the fair, likes jazz" in ana.text


@pytest.mark.parametrize("name, content, kept", [
    ("cut.ics", CALENDAR[:CALENDAR.index("SUMMARY:Quiz night")], ["Dentist check-up", "Cornwall trip"]),
    ("cut.vcf", CONTACTS[:CONTACTS.index("TEL;VALUE=uri")], ["Ana Costa"]),
])
def test_a_file_cut_short_keeps_its_complete_entries_with_a_note(tmp_path, name, content, kept):
    p = tmp_path / name
    p.write_text(content, newline="")
    got = extract(str(p))
    assert [s.title for s in got.sections] == kept
    assert got.meta["left_out"][0].startswith("the file is damaged or cut short after line ")


@pytest.mark.parametrize("name, content, reason", [
    ("photo.ics", b"\x89PNG\r\n\x1a\n....", "not an iCalendar file (it does not begin with BEGIN:VCALENDAR)"),
    ("list.vcf", b"Ana, 0161 496 0000\n", "not a vCard file (it does not begin with BEGIN:VCARD)"),
    ("open.ics", b"BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:never closed\n", "not readable as an iCalendar file"),
])
def test_what_is_not_a_calendar_or_card_is_refused_with_its_reason(tmp_path, name, content, reason):
    p = tmp_path / name
    p.write_bytes(content)
    with pytest.raises(ExtractError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        extract(str(p))


def test_calendars_and_contacts_are_found_by_their_words_and_kind(tmp_path, fake_embedder):
    (tmp_path / "lena.ics").write_text(CALENDAR, newline="")
    (tmp_path / "contacts.vcf").write_text(CONTACTS, newline="")
    with Index(tmp_path, embedder=fake_embedder) as idx:
        assert idx.update().added == 2
        hit = idx.search("quiz night November", k=1, strategy="keyword")[0]
        assert (hit.path, hit.page, hit.unit_kind) == ("lena.ics", 3, "calendar")
        hit = idx.search("Harbour Dental phone", k=1, strategy="keyword", filters=Filters.build(["contacts"]))[0]
        assert (hit.path, hit.page) == ("contacts.vcf", 1)


def test_a_date_filter_keeps_the_entries_of_those_days(tmp_path, fake_embedder):
    (tmp_path / "lena.ics").write_text(CALENDAR, newline="")
    with Index(tmp_path, embedder=fake_embedder) as idx:
        idx.update()
        def found(words, after, before=None):
            return [h.page for h in idx.search(words, k=10, strategy="keyword",
                                               filters=Filters.build(after=after, before=before))]

        assert found("dentist", "2025-03", "2025-03") == [1]
        assert found("dentist", None, "2025-03-13") == []  # not yet begun
        assert found("cornwall trip", "2025-07", "2025-08") == [2]
        assert found("cornwall trip", "2025-07-06", "2025-07-06") == [2]  # its last day
        assert found("cornwall trip", "2025-07-07") == []  # over
        assert found("passport", "2025-09-01", "2025-09-01") == [4]  # due that day
        assert found("quiz night", "2025-10", "2025-12") == [3]
        assert found("quiz night", "2025-11-03") == []
        assert found("2025", "2025-04", "2025-06") == [1]  # of all five, only the yearly dentist runs then
        # Every year, without end: a filter says when a series runs, not on which day it falls.
        assert found("dentist", "2026") == [1]
        assert found("dentist", "2031-06", "2031-06") == [1]


SERIES = "\r\n".join([
    "BEGIN:VCALENDAR", "VERSION:2.0",
    "BEGIN:VEVENT", "DTSTART:20250106T100000Z", "DTEND:20250106T110000Z", "RRULE:FREQ=WEEKLY;COUNT=3",
    "SUMMARY:Pottery class", "END:VEVENT",
    "BEGIN:VEVENT", "DTSTART;VALUE=DATE:20250105", "RRULE:FREQ=DAILY;UNTIL=20250110", "SUMMARY:Dog sitting",
    "END:VEVENT",
    "BEGIN:VEVENT", "DTSTART:20250101T090000Z", "RRULE:FREQ=MONTHLY;UNTIL=20250601T000000Z", "SUMMARY:Rent review",
    "END:VEVENT",
    "BEGIN:VEVENT", "DTSTART:20250101T090000Z", "RRULE:FREQ=SECONDLY;COUNT=1001", "SUMMARY:Too many to count",
    "END:VEVENT",
    "BEGIN:VEVENT", "DTSTART:20250101T090000Z", "DTEND:20250101T093000Z", "SUMMARY:Once", "END:VEVENT",
    "END:VCALENDAR", ""])


def test_a_series_lasts_until_its_last_occurrence_ends(tmp_path):
    from scent.kinds import UNTIL_OPEN

    p = tmp_path / "series.ics"
    p.write_text(SERIES, newline="")
    pottery, dogs, rent, many, once = extract(str(p)).sections
    # Three Mondays from 6 January 10:00 UTC: the last, 20 January, ends at 11:00 (its last second 10:59:59).
    assert pottery.until == dt.datetime(2025, 1, 20, 10, 59, 59, tzinfo=dt.timezone.utc).timestamp() == 1737370799
    assert pottery.text.split("\n")[1] == "Monday 6 January 2025 (2025-01-06) 10:00-11:00 UTC, every week, 3 times"
    # Whole days until the 10th: that day included, in this machine's time as the start is.
    assert dogs.until == dt.datetime(2025, 1, 10, 23, 59, 59).timestamp()
    assert dogs.text.split("\n")[1] == "Sunday 5 January 2025 (2025-01-05), every day until Friday 10 January 2025 (2025-01-10)"
    assert rent.until == 1748736000  # UNTIL 2025-06-01 00:00 UTC
    assert many.until == UNTIL_OPEN  # more than are counted out: taken as without end
    assert once.until == 1735723799  # 09:00-09:30 on 1 January 2025 UTC
    assert [s.date for s in (pottery, rent, many, once)] == [1736157600, 1735722000, 1735722000, 1735722000]


def test_an_entry_is_text_of_its_own_not_a_picture():
    from scent.passages import file_text
    from scent.storage import StoredUnit

    entries = [StoredUnit(n, "lena.ics", "calendar", "calendar", n, 0, 9, "", "en", f"entry {n}", 0.0) for n in (2, 1)]
    assert file_text(entries)[0] == "entry 1\n\nentry 2"  # no "[picture]" head; in their order


def test_a_result_names_its_place_as_the_file_numbers_it():
    from scent.kinds import place

    assert [place("calendar", 3), place("contacts", 1), place("email", 2), place("slides", 4), place("pdf", 5)] == [
        "entry 3", "contact 1", "message 2", "slide 4", "p.5"]


def test_an_index_from_before_spans_reads_its_calendars_again(tmp_path, fake_embedder, monkeypatch):
    from conftest import undo_migration
    from scent.engines.sqlite import vectors

    monkeypatch.setattr(vectors, "FIRST_SNAPSHOT_ROWS", 1)  # a snapshot as an older scent wrote it, below
    root = tmp_path / "cal"
    root.mkdir()
    (root / "lena.ics").write_text(CALENDAR, newline="")
    (root / "note.md").write_text("# Dentist\n\nThe dentist moved to Quay Street.\n")
    with Index(root, index_dir=tmp_path / "ix", embedder=fake_embedder) as idx:
        idx.update()
    snapshots = list((tmp_path / "ix" / "vectors").glob("*/until.npy"))
    assert snapshots
    for made in snapshots:
        made.unlink()
    undo_migration(tmp_path / "ix", "m015_unit_spans", "until")
    with Index(root, index_dir=tmp_path / "ix", embedder=fake_embedder) as idx:
        after = Filters.build(after="2026")
        for strategy in ("keyword", "dense"):  # the old snapshot's rows read as lasting no longer than their date
            got = {(h.path, h.page) for h in idx.search("dentist", k=5, strategy=strategy, filters=after)}
            assert ("note.md", None) in got and ("lena.ics", 1) not in got, strategy
        report = idx.update()
        assert (report.updated, report.unchanged) == (1, 1)  # the calendar, not the note
        for strategy in ("keyword", "dense", "hybrid"):
            got = {(h.path, h.page) for h in idx.search("dentist", k=5, strategy=strategy, filters=after)}
            assert got == {("note.md", None), ("lena.ics", 1)}, strategy  # the yearly check-up runs on
