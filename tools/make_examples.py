"""Write the bundled sample folder `examples/` from scratch, deterministically.

    .venv/bin/python tools/make_examples.py            # rewrites <repo>/examples/
    .venv/bin/python tools/make_examples.py --out DIR  # writes somewhere else (e.g. to diff two runs)

Everything in the folder is invented for this project: the people, companies, addresses,
phone numbers (UK drama range 0161 496 0xxx), e-mail addresses (example.com / example.org),
amounts and IDs are fictional; the two photos are drawn here with Pillow. No network, no
clock: content, EXIF dates, PDF/DOCX metadata, zip entry times and file mtimes are all fixed,
and the only randomness (film grain, water ripples in the drawings) uses fixed seeds, so two
runs produce byte-identical files (same library versions assumed: fpdf2, python-docx, Pillow,
numpy). The labelled queries over this folder live in tests/examples_queries.jsonl.

Files (path relative to examples/, mtime set with os.utime, what the file is for):

  notes/work/2025-03-12-atlas-migration-meeting.md   2025-03-12  meeting note, project Atlas: moving the
        orders database from MySQL to PostgreSQL, cutover weekend 5-6 April 2025. Deliberately similar to:
  notes/work/2025-09-02-heron-redesign-meeting.md    2025-09-02  meeting note, project Heron: website
        redesign (palette, WCAG 2.2 AA, content migration off the old CMS, launch 14 November 2025).
  notes/work/helpdesk-ticket.txt                     2026-02-10  support ticket LD-2026-0417: external
        monitor flickers through the DK-900 USB-C dock (exact-ID queries).
  notes/work/bisect-calendar-sync.md                 2024-11-05  debugging log: calendar sync shifted
        events by one hour after daylight saving; bad commit 8f3a21c, fix in 4b9e0d2 (hex-id queries).
  notes/personal/recipe-red-lentil-soup.md           2024-02-18  recipe: smoky red lentil soup, 35 min.
  notes/personal/porto-travel-journal.md             2025-04-27  travel journal, four days in Porto and
        the Douro valley (train along the river, port lodge, tiles, rain).
  notes/personal/car-maintenance-log.txt             2026-01-20  car log for plate 58-QX-2210 (oil,
        winter tyres, inspection, brake pads).
  notes/personal/notas-huerto.md                     2025-05-03  SPANISH: vegetable garden notes
        (tomatoes after the last frost, watering every two days, aphids, courgettes, compost).
  notes/personal/pain-au-levain.md                   2024-09-14  FRENCH: sourdough bread notes
        (feeding the starter 1:1:1, folds, baking at 240 C in a cast-iron pot).
  code/http_utils.py                                 2025-06-30  Python: parse_http_header,
        parse_content_type, readConfigFile, class RetryPolicy (exponential backoff), UploadClient.
  code/backup_photos.sh                              2024-12-01  shell: rsync ~/Pictures to a NAS.
  web/repair-cafe.html                               2025-10-11  HTML article about the Riverside
        Repair Cafe at the library. Words that occur ONLY in the parts that must not be indexed:
        "quokkaTracker" (script), "wombatgrey" (a CSS comment in style), "Horoscopes" (nav). A
        search for any of them must not return this file. (The <title> and the footer line are
        ordinary visible text.)
  data/expenses.csv                                  2025-12-31  42 rows of personal expenses
        2024-08 .. 2025-12 (date, merchant, category, amount_eur, payment, note): rent, groceries,
        the security deposit, vet, car service, Porto and Crozon trips.
  data/contacts.json                                 2025-08-19  address book: landlord, plumber,
        vet, mechanic, dentist, IT helpdesk, neighbour.
  docs/apartment-lease.pdf                           2024-08-01  5-page lease for 14 Marlow Street,
        Apt 3B, one topic per page: p1 parties and premises, p2 rent and payments, p3 pets, smoking
        and noise, p4 security deposit and refund (EUR 1,850.00, ref DEP-4471), p5 repairs, notice
        and ending the lease.
  docs/solar-proposal.docx                           2026-03-02  Word proposal: rooftop solar panels
        for the building, headings, paragraphs and one cost table (panels, inverter, ...).
  photos/2025-07-brittany/IMG_4120.jpg               2025-07-14  drawn photo: lighthouse at sunset.
        EXIF: FUJIFILM X-T30, DateTimeOriginal 2025:07:14 21:42:10.
  photos/2024-05-amsterdam/IMG_0381.jpg              2024-05-09  drawn photo: red bicycle by a canal.
        EXIF: Google Pixel 7, DateTimeOriginal 2024:05:09 16:05:33.

Dates are spread over 2024-2026 so that date filters are testable; each mtime is 12:00 UTC on
the given day. git does not keep mtimes: after a clone, run `make_examples.py --mtimes-only DIR`
(or call apply_mtimes) on a copy of the folder before testing date filters. Topic words are kept apart on purpose: "Brittany" and "Amsterdam" occur only in
the photo folder names, "Porto" only in the journal and the CSV, DEP-4471 only on lease page 4.
"""
from __future__ import annotations

import argparse
import io
import json
import math
import os
import shutil
import zipfile
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUT = REPO / "examples"


def _ts(day: str) -> float:
    """'2025-03-12' -> POSIX timestamp of 12:00 UTC that day."""
    y, m, d = (int(x) for x in day.split("-"))
    return datetime(y, m, d, 12, 0, 0, tzinfo=timezone.utc).timestamp()


def _write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text.lstrip("\n"))


# --------------------------------------------------------------------------------------------
# Notes
# --------------------------------------------------------------------------------------------

ATLAS_MEETING = """
# Project Atlas - weekly sync, 12 March 2025

Attendees: Priya Raman (lead), Jonas Berg, Aiko Tanaka, me (notes)
Location: room 4.12 and video call

## Status of the database migration

We are moving the orders database from MySQL 5.7 to PostgreSQL 16. The second dry run on the
staging copy finished on Monday: the full copy with pgloader took 3 hours 40 minutes, and the row
counts matched on all 212 tables. Two stored procedures (`recalc_invoice_totals` and
`archive_old_carts`) still have to be rewritten by hand because they use MySQL-only syntax.

Jonas found that the `orders.created_at` column was stored without a time zone. We agreed to
convert it to `timestamptz` during the copy and to treat all old values as UTC.

## Cutover plan

- Cutover weekend: Saturday 5 April to Sunday 6 April 2025.
- Write freeze starts Friday 4 April at 18:00; the shop shows a maintenance banner.
- Rollback: keep the MySQL primary read-only for one week, so we can switch the connection
  string back within 15 minutes if something is badly wrong.
- Success criteria: checkout p95 latency under 400 ms and zero failed payments in the first hour.

## Decisions

1. No schema changes to the orders service until the migration is done (schema freeze).
2. Reporting dashboards move to the new read replica only after the cutover.
3. Aiko owns the runbook; every step gets a named person and a time box.

## Action items

- [ ] Jonas: rewrite the two stored procedures in PL/pgSQL by 21 March.
- [ ] Aiko: finish the cutover runbook and share it by 26 March.
- [ ] Priya: tell customer support about the maintenance window.
- [ ] Me: book the third dry run for 28 March and collect timings.
"""

HERON_MEETING = """
# Project Heron - website redesign kickoff, 2 September 2025

Attendees: Lena Fischer (design), Marco Silva (front end), Priya Raman, me (notes)

## Goals

The public website has not changed since 2019. Visitors find it cluttered and slow on phones.
Heron replaces it with a lighter site built from a static site generator.

- Pages must meet WCAG 2.2 level AA: colour contrast, keyboard navigation, visible focus,
  alt text on every image.
- Largest page under 1 MB, first paint under 1.5 seconds on a mid-range phone.
- Launch date: Friday 14 November 2025.

## Colour palette and typography

Lena showed three palettes. We picked the "harbour" palette: deep teal, sand and off-white, with a
coral accent for buttons only. The dark-grey body text passes contrast on all backgrounds. One
typeface family for everything, two weights.

## Content migration

About 340 pages live in the old CMS. Marco will export them to Markdown with a script; anything
older than 2021 that nobody has visited this year gets archived instead of migrated. Redirects
from the old URLs are a must so that search engines and bookmarks keep working.

## Decisions

1. Harbour palette approved; no more palette rounds.
2. The blog keeps its URLs; product pages get new, shorter URLs with redirects.
3. Weekly design review on Thursdays at 10:00.

## Action items

- [ ] Lena: component library (buttons, cards, forms) in the design tool by 19 September.
- [ ] Marco: export script for the CMS content and a list of pages to archive.
- [ ] Priya: sign off the launch date with marketing.
- [ ] Me: accessibility checklist and an audit of the current site.
"""

HELPDESK_TICKET = """
LANTERNDESK SUPPORT TICKET
==========================

Ticket:     LD-2026-0417
Opened:     2026-02-03 09:14
Requester:  Daniel Okafor (finance team, desk 3.07)
Assignee:   Ruth Adeyemi, IT helpdesk
Priority:   Normal
Status:     Waiting for parts

Summary
-------
External monitor flickers and goes black for a second every few minutes when the laptop is
connected through the USB-C docking station (model DK-900). Connected directly with an HDMI
cable the monitor is stable.

Steps already tried
-------------------
1. Swapped the DisplayPort cable between the dock and the monitor: no change.
2. Updated the dock firmware from 2.11 to 2.14: flicker less frequent, still there.
3. Lowered the refresh rate from 75 Hz to 60 Hz: flicker stops, but text looks blurry.
4. Tried a second DK-900 from the spare shelf: same problem, so probably not a faulty unit.

Notes
-----
The laptop's graphics driver is two versions behind; updating it needs an admin session.
Other DK-900 users on the third floor report the same with 4K monitors only.

Next steps
----------
- Install the new graphics driver remotely (booked for Thursday 12:30).
- If that does not help, replace the dock with a DK-1200, which supports 4K at 60 Hz over
  DisplayPort 1.4. Part ordered, expected delivery 2026-02-12.
"""

BISECT_NOTE = """
# Bisect log: calendar sync shifts events by one hour

## Symptom

Since the end of October every event that the sync tool copies from the shared team calendar
shows up one hour early on phones. Events created before 27 October are fine. The sync runs
every 10 minutes from the small server in the cupboard.

## Bisect

Good: tag `v1.8.0` (September). Bad: `main` as of 4 November 2024.

```
git bisect start
git bisect bad main
git bisect good v1.8.0
# 7 steps, tested each build against the "dentist 09:00" test event
```

Result: the first bad commit is **8f3a21c** ("refactor: use naive datetimes in the ics
writer"). That commit dropped the `TZID` parameter from `DTSTART` and wrote local wall-clock
time without a zone, so clients interpret it as UTC. It only shows after the clocks go back,
which is why nobody noticed in September.

## Fix

- Reverted the zone handling part of 8f3a21c and kept the rest of the refactor.
- Added a test with an event on both sides of the daylight saving change.
- Fix merged as commit 4b9e0d2; released as v1.8.3 on 5 November 2024.
"""

RECIPE = """
# Recipe: smoky red lentil soup

Serves 4. Ready in about 35 minutes. Vegetarian, and vegan without the yoghurt.

## Ingredients

- 250 g red lentils, rinsed
- 1 onion and 2 carrots, finely chopped
- 3 cloves garlic, sliced
- 2 tablespoons olive oil
- 2 teaspoons smoked paprika
- 1 teaspoon ground cumin
- 1 tin (400 g) chopped tomatoes
- 1.2 litres vegetable stock
- juice of half a lemon, salt, pepper
- to serve: a spoon of yoghurt and chopped parsley

## Method

1. Warm the oil in a large pot and soften the onion and carrots for 8 minutes.
2. Add the garlic, paprika and cumin and stir for one minute until fragrant.
3. Tip in the lentils, tomatoes and stock. Bring to the boil, then simmer for 20 minutes,
   stirring now and then, until the lentils have fallen apart.
4. Blend half of the soup and stir it back in, so it is creamy but still has some texture.
5. Season with salt, pepper and the lemon juice.

## Notes

Keeps for three days in the fridge and freezes well. Thickens when cold: add a splash of water
when reheating. Good with flatbread.
"""

PORTO_JOURNAL = """
# Travel journal: four days in Porto and the Douro valley

## Day 1 - Thursday 17 April 2025

Landed just after noon. The guesthouse is in Miragaia, a steep lane above the river, with a
window full of orange roofs. Walked down to the Ribeira quarter and along the quay in the
evening; grilled sardines and a glass of vinho verde at a table outside.

## Day 2 - Friday

Crossed the Dom Luis I bridge on the upper deck, which is a little scary with the trams passing.
On the other side, in Vila Nova de Gaia, we did a tasting at one of the old port lodges: white,
ruby and a twenty-year tawny that tasted of walnuts and caramel. Bought one bottle for home.

## Day 3 - Saturday

Took the early train up the Douro valley to Pinhao. The line follows the river the whole way,
with terraced vineyards on both banks. Lunch at a small wine farm, then rain for the rest of the
afternoon, so we sat in the station cafe and watched the river until the train back.

## Day 4 - Sunday

Last morning spent looking at the blue and white tiles (azulejos) on the Sao Bento station and
the churches around it. Custard tarts at the airport. Would go back in autumn for the harvest.
"""

CAR_LOG = """
CAR MAINTENANCE LOG
Vehicle: Veloria Corsa 1.4, petrol, 2019
Registration plate: 58-QX-2210
Garage: Garage Duval, 12 Quay Road, Eastbridge

2024-03-02  41,880 km  Oil and oil filter changed, wiper blades replaced.
2024-10-28  47,310 km  Winter tyres fitted (stored summer set at the garage, rack 14).
2025-03-21  50,050 km  Summer tyres back on. Tread on the winter set: 5 mm, fine for one more season.
2025-05-16  51,200 km  Annual inspection passed. Advisory: front brake pads at 30 percent.
2025-09-09  54,930 km  Annual service, front brake pads and discs replaced.
2025-11-04  56,020 km  Winter tyres fitted again. Small chip in the windscreen noted.
2026-01-20  57,400 km  Windscreen chip repaired (insurance covered it, no excess).

Next: oil change at 60,000 km or March 2026, whichever comes first.
"""

HUERTO_ES = """
# Notas del huerto - primavera 2025

## Tomates

Este año sembré tres variedades: corazón de buey, cherry amarillo y pera. Los semilleros
estuvieron en la ventana de la cocina desde marzo. No los pasé al huerto hasta mediados de mayo,
cuando ya no había peligro de heladas por la noche. Entutorar cada planta con una caña y quitar
los chupones una vez por semana.

## Riego

Regar cada dos días, temprano por la mañana y siempre al pie de la planta, nunca sobre las hojas,
para evitar hongos. En julio, con el calor, riego todos los días. El riego por goteo del bancal
largo funciona con un temporizador: veinte minutos a las siete.

## Plagas

A finales de abril aparecieron pulgones en las habas. Los quité con agua a presión y después
pulvericé jabón potásico diluido cada tres días durante una semana. Las mariquitas hicieron el
resto. Plantar albahaca y caléndulas entre los tomates ayuda a alejar los insectos.

## Otras cosas

- Calabacines: dos plantas son más que suficientes para una familia.
- El compost del año pasado ya está listo; lo eché en los bancales antes de plantar.
- Apuntar para el año que viene: sembrar las lechugas en tandas, cada tres semanas.
"""

LEVAIN_FR = """
# Pain au levain - mes notes

## Nourrir le levain

Je garde le levain au réfrigérateur dans un bocal en verre. La veille de faire du pain, je le
sors et je le nourris à parts égales : 50 g de levain, 50 g de farine et 50 g d'eau tiède
(proportion 1:1:1). Il doit doubler de volume en quatre à six heures à environ 24 degrés. S'il
sent l'acétone, c'est qu'il a faim : le nourrir deux fois par jour pendant deux jours.

## Ma recette de base

- 500 g de farine de blé T65 (ou 450 g de T65 et 50 g de farine complète)
- 350 g d'eau
- 100 g de levain actif
- 10 g de sel

Mélanger la farine et l'eau et laisser reposer 45 minutes (autolyse). Ajouter le levain et le
sel. Pendant les deux premières heures, faire une série de rabats toutes les 30 minutes. Laisser
pousser encore deux ou trois heures, façonner, puis mettre au frigo dans un banneton toute la nuit.

## Cuisson

Préchauffer le four à 240 degrés avec la cocotte en fonte dedans pendant 45 minutes. Cuire
20 minutes avec le couvercle, puis 25 minutes sans couvercle, jusqu'à ce que la croûte soit bien
dorée. Attendre au moins une heure avant de couper le pain.
"""

# --------------------------------------------------------------------------------------------
# Code
# --------------------------------------------------------------------------------------------

HTTP_UTILS = '''
"""Small HTTP and configuration helpers for the photo upload daemon.

Nothing here talks to the network by itself; the functions turn raw bytes and files into
plain Python values so they are easy to test.
"""
from __future__ import annotations

import configparser
import random
import time
from pathlib import Path

DEFAULT_TIMEOUT = 12.5
MAX_HEADER_LENGTH = 8192


class HeaderParseError(ValueError):
    """Raised when a header line is not of the form `Name: value`."""


def parse_http_header(line: str) -> tuple[str, str]:
    """Split one raw HTTP header line into a lower-cased name and its value.

    >>> parse_http_header("Content-Type: text/html; charset=utf-8")
    ('content-type', 'text/html; charset=utf-8')

    Leading and trailing whitespace around the value is removed. Obsolete line folding
    (a continuation line starting with a space) must be joined by the caller.
    """
    if len(line) > MAX_HEADER_LENGTH:
        raise HeaderParseError("header line too long")
    name, sep, value = line.partition(":")
    if not sep or not name or name != name.strip():
        raise HeaderParseError(f"not a header line: {line!r}")
    return name.lower(), value.strip()


def parse_content_type(value: str) -> tuple[str, dict[str, str]]:
    """Return the media type and its parameters, e.g. ('text/html', {'charset': 'utf-8'})."""
    media_type, *params = [p.strip() for p in value.split(";")]
    out: dict[str, str] = {}
    for param in params:
        key, _, val = param.partition("=")
        out[key.strip().lower()] = val.strip().strip('"')
    return media_type.lower(), out


def readConfigFile(path: str | Path) -> dict[str, str]:
    """Read the INI-style config file of the daemon and return the [upload] section as a dict.

    Missing keys fall back to defaults: server=localhost, port=8443, timeout=DEFAULT_TIMEOUT.
    Kept in camelCase because the old Java client calls it by this name over RPC.
    """
    parser = configparser.ConfigParser()
    parser.read_dict({"upload": {"server": "localhost", "port": "8443",
                                 "timeout": str(DEFAULT_TIMEOUT)}})
    parser.read(Path(path).expanduser(), encoding="utf-8")
    return dict(parser["upload"])


class RetryPolicy:
    """Exponential backoff with jitter for flaky uploads.

    The delay before attempt n (starting at 1) is a random value between 0 and
    min(cap, base_delay * 2 ** (n - 1)) seconds ("full jitter").
    """

    def __init__(self, max_attempts: int = 5, base_delay: float = 0.5, cap: float = 30.0):
        self.max_attempts = max_attempts
        self.base_delay = base_delay
        self.cap = cap

    def delay_for(self, attempt: int) -> float:
        return random.uniform(0, min(self.cap, self.base_delay * 2 ** (attempt - 1)))

    def run(self, func, *args, **kwargs):
        """Call func until it succeeds or the attempts are used up; re-raise the last error."""
        for attempt in range(1, self.max_attempts + 1):
            try:
                return func(*args, **kwargs)
            except OSError:
                if attempt == self.max_attempts:
                    raise
                time.sleep(self.delay_for(attempt))


class UploadClient:
    """Uploads one file at a time to the home server, retrying with a RetryPolicy."""

    def __init__(self, config_path: str = "~/.config/photo-daemon/daemon.ini"):
        self.config = readConfigFile(config_path)
        self.retry = RetryPolicy()

    def build_headers(self, filename: str, size: int) -> dict[str, str]:
        return {
            "Content-Type": "application/octet-stream",
            "Content-Length": str(size),
            "X-Filename": filename,
        }
'''

BACKUP_SH = """
#!/usr/bin/env bash
# Nightly backup of the picture library to the NAS in the hallway cupboard.
# Run from cron at 02:30:  30 2 * * * $HOME/bin/backup_photos.sh
set -euo pipefail

SRC="$HOME/Pictures/"
NAS_HOST="nas.home.arpa"
DEST="backup@${NAS_HOST}:/volume1/pictures/"
LOG="$HOME/.local/state/backup_photos.log"
KEEP_DAYS=30

if ! ping -c 1 -W 2 "$NAS_HOST" >/dev/null 2>&1; then
    echo "$(date -Is) NAS not reachable, skipping" >>"$LOG"
    exit 0
fi

# Mirror the library; deleted files go to a dated folder instead of disappearing.
rsync -a --delete \\
    --backup --backup-dir="../pictures-deleted/$(date +%F)" \\
    --exclude '.thumbnails/' --exclude '*.tmp' \\
    "$SRC" "$DEST" >>"$LOG" 2>&1

# Prune deleted-file folders older than KEEP_DAYS days on the NAS.
ssh "backup@${NAS_HOST}" \\
    "find /volume1/pictures-deleted -mindepth 1 -maxdepth 1 -mtime +${KEEP_DAYS} -exec rm -rf {} +"

echo "$(date -Is) backup finished" >>"$LOG"
"""

# --------------------------------------------------------------------------------------------
# Web page
# --------------------------------------------------------------------------------------------

REPAIR_HTML = """
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Riverside Repair Cafe opens at the library - Eastbridge Courier</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  /* house colours: wombatgrey for the masthead */
  body { font-family: Georgia, serif; margin: 0; color: #222; }
  .masthead { background: #5b5f63; color: #fff; padding: 0.6em 1em; }
  nav a { color: #fff; margin-right: 1em; text-decoration: none; }
  article { max-width: 42em; margin: 2em auto; line-height: 1.55; }
  .byline { color: #666; font-size: 0.9em; }
</style>
<script>
  window.quokkaTracker = window.quokkaTracker || [];
  function quokkaTrack(evt) { window.quokkaTracker.push({evt: evt, t: Date.now()}); }
  quokkaTrack("pageview");
</script>
</head>
<body>
<header class="masthead">
  <nav>
    <a href="/">Home</a>
    <a href="/news">News</a>
    <a href="/sport">Sport</a>
    <a href="/horoscopes">Horoscopes</a>
    <a href="/subscribe">Subscribe</a>
  </nav>
</header>
<main>
<article>
  <h1>Riverside Repair Cafe opens at the library</h1>
  <p class="byline">By Tom Hallett, 11 October 2025</p>

  <p>Broken toaster? Lamp that flickers? Trousers with a torn seam? From this month, people in
  Eastbridge can bring them to the Riverside Repair Cafe, which meets in the community room of
  Riverside Library on the second Saturday of every month, from 10:00 to 14:00. Repairs are free;
  visitors pay only for spare parts, and there is a jar for donations.</p>

  <h2>Volunteers with screwdrivers and sewing machines</h2>
  <p>About twenty volunteers take part: retired electricians, a bicycle mechanic, two tailors
  and a few teenagers who are very good with phones. "Most things are thrown away because one
  small part failed," says coordinator Hana Kowalczyk. "We open them up together, so people learn
  how their things work and how to look after them."</p>

  <h2>A busy first morning</h2>
  <p>On the first Saturday, 62 items came through the door, from coffee machines and vacuum
  cleaners to a 1970s record player. 44 of them, about 71 percent, went home working again. The
  rest were either beyond repair or waiting for a part that volunteers will order.</p>

  <h2>How to take part</h2>
  <p>No booking is needed: bring the item, a charger or cable if it has one, and some patience,
  because you will be asked to help. Electrical items are safety-tested before they go home.
  Anyone who wants to volunteer can leave their name at the library desk.</p>
</article>
</main>
<footer>
  <p>Eastbridge Courier. Cookie settings. Advertise with us.</p>
</footer>
</body>
</html>
"""

# --------------------------------------------------------------------------------------------
# Data: CSV and JSON
# --------------------------------------------------------------------------------------------

EXPENSES = [
    # date, merchant, category, amount_eur, payment, note
    ("2024-08-20", "Holloway Properties Ltd", "housing", "1850.00", "bank transfer",
     "security deposit for the Marlow Street apartment"),
    ("2024-08-29", "Eastbridge Removals", "housing", "420.00", "card", "moving van and two movers"),
    ("2024-09-03", "Holloway Properties Ltd", "housing", "1240.00", "bank transfer", "rent September"),
    ("2024-09-07", "FreshFields Market", "groceries", "86.45", "card", ""),
    ("2024-09-15", "Lumiere Home", "household", "239.90", "card", "curtains and a floor lamp"),
    ("2024-10-03", "Holloway Properties Ltd", "housing", "1240.00", "bank transfer", "rent October"),
    ("2024-10-12", "FreshFields Market", "groceries", "102.10", "card", ""),
    ("2024-10-28", "Garage Duval", "car", "64.00", "card", "winter tyres fitted, storage of summer set"),
    ("2024-11-18", "Pawsworth Vet Clinic", "pets", "72.50", "card", "cat: yearly vaccination and check-up"),
    ("2024-12-05", "Kestrel Books", "gifts", "58.20", "card", "Christmas presents"),
    ("2024-12-19", "FreshFields Market", "groceries", "143.75", "card", "Christmas food shop"),
    ("2025-01-03", "Holloway Properties Ltd", "housing", "1240.00", "bank transfer", "rent January"),
    ("2025-01-14", "Eastbridge Energy", "utilities", "118.30", "direct debit", "electricity Q4 2024"),
    ("2025-01-25", "FreshFields Market", "groceries", "91.80", "card", ""),
    ("2025-02-08", "Northwind Fibre", "utilities", "39.99", "direct debit", "internet"),
    ("2025-02-22", "Cinema Rialto", "leisure", "24.00", "card", "two tickets"),
    ("2025-03-21", "Garage Duval", "car", "48.00", "card", "summer tyres back on"),
    ("2025-03-29", "FreshFields Market", "groceries", "77.35", "card", ""),
    ("2025-04-02", "Atlantic Air", "travel", "286.40", "card", "return flights to Porto, two people"),
    ("2025-04-17", "Casa do Rio guesthouse", "travel", "348.00", "card", "Porto, 3 nights"),
    ("2025-04-18", "Caves Velhas port lodge", "travel", "46.00", "card", "Porto, tasting and one bottle"),
    ("2025-04-19", "CP Comboios", "travel", "39.60", "card", "Porto, train to Pinhao and back"),
    ("2025-04-20", "Taberna da Ribeira", "eating out", "52.30", "card", "Porto, last dinner"),
    ("2025-05-06", "Verde Garden Centre", "garden", "61.15", "card", "tomato plants, compost, canes"),
    ("2025-05-16", "Garage Duval", "car", "55.00", "card", "annual inspection"),
    ("2025-06-03", "Holloway Properties Ltd", "housing", "1240.00", "bank transfer", "rent June"),
    ("2025-06-14", "FreshFields Market", "groceries", "98.60", "card", ""),
    ("2025-06-27", "Eastbridge Dental", "health", "85.00", "card", "check-up and cleaning"),
    ("2025-07-11", "Ouest Rail", "travel", "132.80", "card", "train to Quimper"),
    ("2025-07-12", "Hotel Ker Avel", "travel", "612.00", "card", "Crozon, 6 nights, sea view"),
    ("2025-07-14", "Creperie du Phare", "eating out", "38.50", "card", "Camaret, galettes and cider"),
    ("2025-07-16", "Velo Crozon", "travel", "45.00", "card", "bike hire, two days"),
    ("2025-08-09", "FreshFields Market", "groceries", "88.25", "card", ""),
    ("2025-08-23", "Wrobel Plumbing", "household", "145.00", "bank transfer", "leaking kitchen tap and trap"),
    ("2025-09-09", "Garage Duval", "car", "312.40", "card", "annual service, front brake pads and discs"),
    ("2025-09-30", "Pawsworth Vet Clinic", "pets", "118.00", "card", "cat: dental treatment"),
    ("2025-10-11", "Riverside Library", "leisure", "12.00", "cash", "book sale"),
    ("2025-10-18", "FreshFields Market", "groceries", "109.90", "card", ""),
    ("2025-11-04", "Garage Duval", "car", "64.00", "card", "winter tyres fitted"),
    ("2025-11-21", "Kestrel Books", "gifts", "34.50", "card", "birthday present for Ana"),
    ("2025-12-03", "Holloway Properties Ltd", "housing", "1273.00", "bank transfer",
     "rent December (after yearly indexation)"),
    ("2025-12-20", "FreshFields Market", "groceries", "156.40", "card", "Christmas food shop"),
]

CONTACTS = {
    "owner": "Daniel Okafor",
    "updated": "2025-08-19",
    "contacts": [
        {"name": "Marguerite Holloway", "role": "landlord", "company": "Holloway Properties Ltd",
         "phone": "0161 496 0231", "email": "m.holloway@example.com",
         "address": "2 Orchard Row, Eastbridge",
         "notes": "Prefers e-mail. Rent is due on the 3rd of the month."},
        {"name": "Tomasz Wrobel", "role": "plumber", "company": "Wrobel Plumbing",
         "phone": "0161 496 0588", "email": "tomasz@wrobel-plumbing.example.com",
         "notes": "Fixed the leaking kitchen tap in August 2025. Emergency call-outs at night."},
        {"name": "Dr. Ines Varga", "role": "veterinarian", "company": "Pawsworth Vet Clinic",
         "phone": "0161 496 0712", "email": "clinic@pawsworth.example.org",
         "notes": "The cat, Miso, is registered here."},
        {"name": "Luc Duval", "role": "car mechanic", "company": "Garage Duval",
         "phone": "0161 496 0145", "address": "12 Quay Road, Eastbridge",
         "notes": "Keeps the spare set of tyres."},
        {"name": "Dr. Sunita Rao", "role": "dentist", "company": "Eastbridge Dental",
         "phone": "0161 496 0903", "email": "reception@eastbridge-dental.example.org"},
        {"name": "Ruth Adeyemi", "role": "IT helpdesk", "company": "work",
         "phone": "0161 496 0377", "email": "helpdesk@example.com"},
        {"name": "Ana Moreira", "role": "neighbour", "address": "14 Marlow Street, Apt 3A",
         "phone": "0161 496 0460", "notes": "Has a spare key. Waters the plants in summer."},
    ],
}

# --------------------------------------------------------------------------------------------
# PDF: apartment lease, one topic per page
# --------------------------------------------------------------------------------------------

LEASE_PAGES = [
    ("1. Parties and premises", [
        "This residential lease agreement (reference ML-2024-0831) is made on 1 August 2024 "
        "between the following parties.",
        "Landlord: Marguerite Holloway, acting for Holloway Properties Ltd, 2 Orchard Row, "
        "Eastbridge.",
        "Tenant: Daniel Okafor, born 3 May 1991, currently living at 9 Fenwick Close, Eastbridge.",
        "Premises: the apartment at 14 Marlow Street, Apartment 3B, Eastbridge, on the second "
        "floor: two bedrooms, a living room with an open kitchen, one bathroom and a small "
        "balcony facing the courtyard, about 74 square metres in total. The tenant also has the "
        "use of storage cellar number 7 and the shared bicycle room on the ground floor.",
        "Term: the lease starts on 1 September 2024 and runs for a fixed term of two years, "
        "until 31 August 2026. After that it continues for an indefinite period unless one of "
        "the parties ends it as described in section 5.",
        "The apartment is let unfurnished, except for the kitchen appliances (fridge, "
        "dishwasher, oven and hob) listed in the move-in inspection report signed by both "
        "parties.",
    ]),
    ("2. Rent and payments", [
        "The monthly rent is EUR 1,240.00. It is payable in advance and must reach the "
        "landlord's account no later than the 3rd day of each month.",
        "Payment is made by bank transfer to Holloway Properties Ltd, account EB12 4410 0072 "
        "3391 05, quoting the lease reference ML-2024-0831. Cash is not accepted.",
        "Late payment: if the rent has not been received seven days after the due date, the "
        "landlord may charge a late fee of EUR 35.00 plus statutory interest on the amount "
        "outstanding.",
        "Service charges: cold water, heating of the common areas, cleaning of the stairwell and "
        "the lift maintenance are included in the rent. Electricity, gas for the individual "
        "boiler, internet and the municipal waste charge are paid by the tenant directly to the "
        "suppliers.",
        "Indexation: the rent may be adjusted once a year on 1 December in line with the "
        "consumer price index, by no more than 3 percent per year. The landlord gives written "
        "notice of the new amount at least one month in advance.",
    ]),
    ("3. Pets, smoking and noise", [
        "Pets: the tenant may keep one cat, or one dog weighing less than 15 kg, with the "
        "landlord's prior written consent. Consent for the tenant's cat is given with this "
        "agreement. Other animals such as rabbits, birds or fish in a small aquarium are allowed; "
        "reptiles and any animal that requires a special permit are not.",
        "A one-off pet fee of EUR 150.00 is payable at the start of the lease. It is not "
        "refundable and is separate from the security deposit.",
        "The tenant is responsible for any damage caused by the animal, including scratches to "
        "doors and floors, and must have the apartment professionally treated against fleas "
        "before moving out. Dogs must be kept on a lead in the stairwell, courtyard and garden.",
        "Smoking: smoking and vaping are not allowed anywhere inside the apartment or in the "
        "common areas of the building. Smoking is allowed on the balcony with the door closed.",
        "Noise: quiet hours are from 22:00 to 07:00 on weekdays and from 22:00 to 09:00 at "
        "weekends. Parties need to be announced to the neighbours on the same floor in advance.",
    ]),
    ("4. Security deposit and refund", [
        "Amount: the tenant pays a security deposit of EUR 1,850.00 before receiving the keys. "
        "The landlord keeps it in a separate escrow account under deposit reference DEP-4471, "
        "and any interest it earns belongs to the tenant.",
        "Refund: the deposit is refunded within 30 days after the tenant has returned all keys "
        "and the final inspection has taken place. The refund is paid to the account from "
        "which the rent was last paid.",
        "Deductions: the landlord may deduct only (a) unpaid rent or service charges, (b) the "
        "cost of repairing damage beyond normal wear and tear, (c) cleaning, if the apartment is "
        "not left clean, and (d) the cost of replacing lost keys. Each deduction must be listed "
        "in writing with receipts or a quote.",
        "Final inspection: the landlord and the tenant walk through the apartment together on "
        "the last day of the lease and compare it with the move-in inspection report. Both sign "
        "the outgoing report.",
        "Disputes: if the parties disagree about a deduction, the undisputed part of the "
        "deposit must still be refunded within the 30 days, and either party may refer the rest "
        "to the regional rental tribunal.",
    ]),
    ("5. Repairs, notice and ending the lease", [
        "Repairs: the tenant reports any defect or leak to the landlord within 48 hours. The "
        "landlord is responsible for major repairs (roof, boiler, windows, pipes and wiring); "
        "the tenant for small day-to-day maintenance such as replacing light bulbs, unblocking "
        "drains and bleeding radiators. The boiler is serviced every year at the landlord's cost.",
        "Alterations: the tenant may not make structural changes, paint in dark colours or "
        "replace the flooring without written permission.",
        "Notice: after the fixed term, the tenant may end the lease at any time with two full "
        "calendar months' notice, given in writing or by e-mail. The landlord may end it only on "
        "the grounds allowed by law, with three months' notice.",
        "Early termination: if the tenant wants to leave before 31 August 2026, the lease ends "
        "once a suitable new tenant approved by the landlord has signed, and the tenant pays a "
        "re-letting fee of half a month's rent.",
        "Signatures: Marguerite Holloway (landlord) and Daniel Okafor (tenant), Eastbridge, "
        "1 August 2024.",
    ]),
]


def write_lease_pdf(path: Path) -> None:
    from fpdf import FPDF

    class LeasePDF(FPDF):
        def header(self):
            self.set_font("Helvetica", "I", 9)
            self.set_text_color(90, 90, 90)
            self.cell(0, 6, "Residential lease - 14 Marlow Street, Apartment 3B, Eastbridge",
                      new_x="LMARGIN", new_y="NEXT", align="L")
            self.ln(4)
            self.set_text_color(0, 0, 0)

        def footer(self):
            self.set_y(-15)
            self.set_font("Helvetica", "I", 9)
            self.set_text_color(90, 90, 90)
            self.cell(0, 10, f"Page {self.page_no()} of {len(LEASE_PAGES)}", align="C")

    pdf = LeasePDF(format="A4")
    pdf.set_creation_date(datetime(2024, 8, 1, 10, 0, 0, tzinfo=timezone.utc))
    pdf.set_title("Residential lease agreement - 14 Marlow Street, Apartment 3B")
    pdf.set_author("Holloway Properties Ltd")
    pdf.set_subject("Lease ML-2024-0831")
    pdf.set_creator("scent tools/make_examples.py")
    pdf.set_auto_page_break(auto=True, margin=20)
    pdf.set_margins(22, 18, 22)
    for i, (heading, paras) in enumerate(LEASE_PAGES):
        pdf.add_page()
        if i == 0:
            pdf.set_font("Helvetica", "B", 17)
            pdf.cell(0, 10, "Residential Lease Agreement", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        pdf.set_font("Helvetica", "B", 13)
        pdf.cell(0, 9, heading, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
        pdf.set_font("Helvetica", "", 11)
        for para in paras:
            pdf.multi_cell(0, 5.6, para, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
        assert pdf.page_no() == i + 1, f"lease section {heading!r} overflowed its page"
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))


# --------------------------------------------------------------------------------------------
# DOCX: solar proposal with a table
# --------------------------------------------------------------------------------------------

SOLAR_COSTS = [
    ("Solar panels, 430 W, monocrystalline", "24", "215", "5,160"),
    ("Inverter, 10 kW hybrid, three-phase", "1", "2,350", "2,350"),
    ("Mounting rails and roof hooks", "1 set", "1,480", "1,480"),
    ("Cabling, isolators and meter upgrade", "1 set", "920", "920"),
    ("Scaffolding (one week)", "1", "1,100", "1,100"),
    ("Installation labour", "4 days", "1,250", "5,000"),
    ("Grid connection fee", "1", "450", "450"),
    ("Contingency (10 percent)", "", "", "1,646"),
    ("Total", "", "", "18,106"),
]


def write_solar_docx(path: Path) -> None:
    import docx
    from docx.shared import Pt

    doc = docx.Document()
    doc.add_heading("Proposal: rooftop solar panels for 14 Marlow Street", level=0)
    doc.add_paragraph("Prepared for the residents' meeting of 12 March 2026 by the building's "
                      "energy working group (Ana Moreira, Daniel Okafor, Kofi Mensah).")

    doc.add_heading("Summary", level=1)
    doc.add_paragraph(
        "We propose to install 24 solar panels on the flat roof of the building and to share the "
        "electricity between the common areas and the six apartments. The system would produce "
        "about 9,800 kWh a year, roughly a third of the building's total use, and pay for itself "
        "in about eight and a half years.")

    doc.add_heading("Background", level=1)
    doc.add_paragraph(
        "Electricity for the lift, the stairwell lights and the bicycle room cost the building "
        "EUR 2,140 last year, and prices are expected to rise. The roof was renewed in 2023, "
        "faces south-south-west and has no shading from neighbouring buildings. The landlord has "
        "agreed in principle, provided the residents' association pays for the installation and "
        "the roof warranty is respected.")

    doc.add_heading("Proposed system", level=1)
    doc.add_paragraph(
        "Two rows of twelve 430 W panels on ballasted frames, tilted at 15 degrees, with a 10 kW "
        "hybrid inverter in the cellar next to the main meter. The inverter can take a battery "
        "later. Monitoring is through a web page that every resident can see.")

    doc.add_heading("Costs and funding", level=1)
    doc.add_paragraph("Quote from Sunfield Installations, valid until 30 April 2026 "
                      "(amounts in EUR, including VAT):")
    table = doc.add_table(rows=1, cols=4)
    table.style = "Table Grid"
    for cell, text in zip(table.rows[0].cells, ("Item", "Quantity", "Unit cost", "Total")):
        cell.text = text
        cell.paragraphs[0].runs[0].bold = True
    for row in SOLAR_COSTS:
        cells = table.add_row().cells
        for cell, text in zip(cells, row):
            cell.text = text
        if row[0] == "Total":
            for cell in cells:
                for run in cell.paragraphs[0].runs:
                    run.bold = True
    doc.add_paragraph(
        "Funding: a municipal green-building grant covers 25 percent (about EUR 4,500). The rest "
        "would come from the association's reserve fund (EUR 9,000) and a one-off contribution "
        "of EUR 770 per apartment. Savings of about EUR 2,100 a year go back to the reserve fund.")

    doc.add_heading("Timeline", level=1)
    for step in ("March 2026: vote at the residents' meeting.",
                 "April 2026: grant application and final quote.",
                 "May 2026: structural check of the roof by an engineer.",
                 "June 2026: installation (one week of scaffolding), grid connection in July."):
        doc.add_paragraph(step, style="List Bullet")

    doc.add_heading("Risks", level=1)
    doc.add_paragraph(
        "The main risks are a delay of the grid connection, the roof load (to be confirmed by "
        "the engineer) and a change in the feed-in tariff. The contingency line in the budget "
        "covers small surprises; a larger one would come back to the residents for a decision.")

    for style_name in ("Normal",):
        doc.styles[style_name].font.size = Pt(11)

    cp = doc.core_properties
    fixed = datetime(2026, 3, 2, 9, 30, 0)
    cp.author = "Ana Moreira"
    cp.last_modified_by = "Ana Moreira"
    cp.title = "Proposal: rooftop solar panels for 14 Marlow Street"
    cp.subject = "Rooftop solar"
    cp.keywords = "solar, roof, residents"
    cp.comments = ""
    cp.category = ""
    cp.created = fixed
    cp.modified = fixed
    cp.last_printed = fixed
    cp.revision = 1

    buf = io.BytesIO()
    doc.save(buf)
    # python-docx stamps each zip entry with the current time; rewrite the zip with fixed times.
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as src, \
            zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            zi = zipfile.ZipInfo(info.filename, date_time=(2026, 3, 2, 9, 30, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            dst.writestr(zi, src.read(info.filename))


# --------------------------------------------------------------------------------------------
# Photos (drawn)
# --------------------------------------------------------------------------------------------

def _vgrad(h: int, w: int, stops: list[tuple[float, tuple[int, int, int]]]) -> np.ndarray:
    """Vertical colour gradient through (position 0..1, rgb) stops -> float array (h, w, 3)."""
    ys = np.linspace(0.0, 1.0, h)
    pos = [p for p, _ in stops]
    cols = np.array([c for _, c in stops], dtype=np.float64)
    col = np.stack([np.interp(ys, pos, cols[:, k]) for k in range(3)], axis=1)
    return np.repeat(col[:, None, :], w, axis=1)


def _finish(img: Image.Image, seed: int, grain: float = 4.0) -> Image.Image:
    img = img.filter(ImageFilter.GaussianBlur(0.7))
    a = np.asarray(img).astype(np.float64)
    rng = np.random.default_rng(seed)
    a += rng.normal(0.0, grain, size=a.shape[:2])[:, :, None]
    # gentle vignette
    h, w = a.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    d = np.sqrt(((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2)
    a *= (1.0 - 0.18 * np.clip(d - 0.55, 0, None))[:, :, None]
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8), "RGB")


def _exif(make: str, model: str, when: str) -> Image.Exif:
    exif = Image.Exif()
    exif[0x010F] = make          # Make
    exif[0x0110] = model         # Model
    exif[0x0132] = when          # DateTime
    exif[0x0131] = "scent make_examples"  # Software
    ifd = exif.get_ifd(0x8769)   # Exif IFD
    ifd[0x9003] = when           # DateTimeOriginal
    ifd[0x9004] = when           # DateTimeDigitized
    return exif


def draw_lighthouse(w: int = 1200, h: int = 800) -> Image.Image:
    rng = np.random.default_rng(4120)
    horizon = int(h * 0.6)
    sun = (820, horizon - 18)
    sky = _vgrad(horizon, w, [(0.0, (38, 36, 92)), (0.35, (120, 64, 120)),
                              (0.7, (236, 120, 72)), (1.0, (255, 196, 112))])
    yy, xx = np.mgrid[0:horizon, 0:w]
    d2 = (xx - sun[0]) ** 2 + (yy - sun[1]) ** 2
    sky += np.exp(-d2 / (2 * 170.0 ** 2))[:, :, None] * np.array([60, 45, 10])
    sky += np.exp(-d2 / (2 * 40.0 ** 2))[:, :, None] * np.array([40, 40, 30])
    sea = _vgrad(h - horizon, w, [(0.0, (178, 104, 96)), (0.25, (92, 60, 96)),
                                  (1.0, (22, 26, 52))])
    img = Image.fromarray(np.clip(np.vstack([sky, sea]), 0, 255).astype(np.uint8), "RGB")
    draw = ImageDraw.Draw(img)

    # the sun, half sunk
    draw.ellipse([sun[0] - 44, sun[1] - 44, sun[0] + 44, sun[1] + 44], fill=(255, 228, 160))
    draw.rectangle([0, horizon, w, horizon + 1], fill=(150, 88, 90))

    # clouds on a blurred layer
    clouds = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    cd = ImageDraw.Draw(clouds)
    for cx, cy, rx, ry, col in [(180, 120, 170, 22, (196, 110, 140, 170)),
                                (330, 100, 120, 16, (210, 120, 140, 150)),
                                (640, 210, 220, 18, (240, 150, 120, 160)),
                                (980, 150, 190, 20, (200, 110, 130, 150)),
                                (1080, 260, 140, 12, (250, 170, 110, 170)),
                                (520, 300, 160, 10, (255, 180, 110, 150))]:
        for k in range(6):
            ox = int(rng.integers(-rx // 2, rx // 2))
            oy = int(rng.integers(-ry // 2, ry // 2))
            cd.ellipse([cx + ox - rx // 2, cy + oy - ry, cx + ox + rx // 2, cy + oy + ry], fill=col)
    clouds = clouds.filter(ImageFilter.GaussianBlur(7))
    img.paste(clouds, (0, 0), clouds)
    draw = ImageDraw.Draw(img)

    # sun glitter on the water
    for y in range(horizon + 3, h, 3):
        t = (y - horizon) / (h - horizon)
        half = 30 + 150 * t
        for _ in range(3):
            x0 = sun[0] + rng.normal(0, half * 0.5)
            ln = rng.uniform(8, 30) * (0.4 + t)
            b = int(220 - 120 * t)
            draw.line([(x0 - ln / 2, y), (x0 + ln / 2, y)], fill=(255, b, 120 - int(60 * t)), width=2)
    # waves
    for _ in range(260):
        y = int(rng.uniform(horizon + 5, h))
        t = (y - horizon) / (h - horizon)
        x0 = rng.uniform(0, w)
        ln = rng.uniform(10, 60) * (0.3 + t)
        shade = (30 + int(20 * (1 - t)), 30, 60 + int(30 * (1 - t)))
        draw.line([(x0, y), (x0 + ln, y)], fill=shade, width=1 + int(2 * t))

    for x0, x1 in [(520, 900), (600, 980), (700, 1050)]:  # surf, partly hidden by the cliff
        yb = 560 + (x0 - 520) // 2
        draw.arc([x0, yb, x1, yb + 60], 190, 330, fill=(230, 190, 180), width=2)
    # headland with rocks
    land = [(0, 440), (90, 420), (200, 410), (330, 418), (420, 432), (480, 455), (530, 490),
            (600, 530), (640, 560), (700, 600), (760, 640), (820, 700), (860, h), (0, h)]
    draw.polygon(land, fill=(44, 34, 44))
    draw.polygon([(0, 440), (90, 420), (200, 410), (330, 418), (420, 432), (400, 448),
                  (250, 440), (100, 452), (0, 462)], fill=(58, 66, 44))  # grass on top
    land_x = [p[0] for p in land[3:13]]
    land_y = [p[1] for p in land[3:13]]
    for _ in range(40):
        y = rng.uniform(470, h - 10)
        s = rng.uniform(8, 30)
        edge = float(np.interp(y, land_y, land_x))  # right edge of the headland at height y
        x = rng.uniform(0, max(10.0, edge - 2.4 * s))
        c = int(rng.integers(30, 70))
        draw.polygon([(x, y), (x + s, y - s * 0.6), (x + 2 * s, y), (x + s * 1.2, y + s * 0.4)],
                     fill=(c, c - 8, c + 4))

    # lighthouse tower
    base_y, top_y, cx = 430, 215, 300
    bw, tw = 40, 25

    def half_width(y):
        return tw + (bw - tw) * (y - top_y) / (base_y - top_y)

    for y in range(top_y, base_y):
        hw = half_width(y)
        band = ((y - top_y) // 54) % 2 == 0
        for x in range(int(cx - hw), int(cx + hw)):
            f = (x - (cx - hw)) / (2 * hw)  # 0 left .. 1 right, lit from the right
            light = 0.55 + 0.45 * f
            base = (196, 46, 40) if band else (238, 226, 214)
            warm = (light * base[0] + 12, light * base[1] * 0.95, light * base[2] * 0.85)
            draw.point((x, y), fill=tuple(int(min(255, v)) for v in warm))
    # gallery, lantern, cap
    draw.rectangle([cx - 36, top_y - 8, cx + 36, top_y], fill=(30, 28, 34))
    for x in range(cx - 34, cx + 35, 6):
        draw.line([(x, top_y - 22), (x, top_y - 8)], fill=(30, 28, 34), width=1)
    draw.line([(cx - 36, top_y - 22), (cx + 36, top_y - 22)], fill=(30, 28, 34), width=2)
    draw.rectangle([cx - 20, top_y - 52, cx + 20, top_y - 8], fill=(60, 52, 40))
    draw.rectangle([cx - 15, top_y - 48, cx + 15, top_y - 12], fill=(255, 236, 150))
    draw.pieslice([cx - 24, top_y - 78, cx + 24, top_y - 30], 180, 360, fill=(150, 30, 30))
    draw.line([(cx, top_y - 78), (cx, top_y - 92)], fill=(30, 28, 34), width=3)
    # door and windows
    draw.rectangle([cx - 8, base_y - 34, cx + 8, base_y], fill=(50, 36, 30))
    for wy in (290, 350):
        draw.rectangle([cx - 4, wy, cx + 4, wy + 14], fill=(40, 40, 60))

    # beam of light
    beam = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(beam).polygon([(cx - 10, top_y - 30), (0, top_y - 110), (0, top_y + 40)],
                                 fill=(255, 240, 180, 70))
    beam = beam.filter(ImageFilter.GaussianBlur(10))
    img.paste(beam, (0, 0), beam)
    draw = ImageDraw.Draw(img)

    # keeper's cottage
    draw.rectangle([350, 395, 450, 432], fill=(214, 200, 188))
    draw.polygon([(342, 396), (400, 368), (458, 396)], fill=(70, 60, 70))
    for wx in (365, 420):
        draw.rectangle([wx, 405, wx + 14, 418], fill=(255, 210, 120))
    draw.rectangle([395, 410, 407, 432], fill=(80, 60, 50))

    # birds
    for bx, by, s in [(560, 160, 10), (590, 150, 8), (610, 172, 7), (700, 120, 9), (520, 190, 6)]:
        draw.arc([bx - s, by - s // 2, bx, by + s // 2], 200, 340, fill=(40, 30, 50), width=2)
        draw.arc([bx, by - s // 2, bx + s, by + s // 2], 200, 340, fill=(40, 30, 50), width=2)

    return _finish(img, seed=4121)


def draw_bicycle(w: int = 1200, h: int = 800) -> Image.Image:
    rng = np.random.default_rng(381)
    quay_top, water_top = 440, 640
    sky = _vgrad(h, w, [(0.0, (112, 160, 214)), (quay_top / h, (206, 224, 238)), (1.0, (206, 224, 238))])
    img = Image.fromarray(sky.astype(np.uint8), "RGB")
    draw = ImageDraw.Draw(img)

    clouds = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    cd = ImageDraw.Draw(clouds)
    for cx, cy in [(150, 60), (420, 40), (760, 80), (1050, 50)]:
        for _ in range(7):
            r = int(rng.integers(25, 55))
            ox, oy = int(rng.integers(-70, 70)), int(rng.integers(-15, 15))
            cd.ellipse([cx + ox - r, cy + oy - r, cx + ox + r, cy + oy + r], fill=(255, 255, 255, 200))
    clouds = clouds.filter(ImageFilter.GaussianBlur(8))
    img.paste(clouds, (0, 0), clouds)
    draw = ImageDraw.Draw(img)

    # canal houses
    palette = [(122, 52, 40), (88, 40, 34), (214, 196, 160), (46, 70, 60), (140, 70, 50),
               (60, 60, 66), (170, 96, 60), (228, 220, 200), (98, 58, 44)]
    x = -20
    i = 0
    while x < w:
        hw = int(rng.integers(105, 165))
        top = int(rng.integers(70, 150))
        col = palette[i % len(palette)]
        draw.rectangle([x, top, x + hw, quay_top], fill=col)
        gable = i % 3
        if gable == 0:  # step gable
            steps = 4
            for s in range(steps):
                inset = (s + 1) * hw // (2 * steps + 2)
                draw.rectangle([x + inset, top - (s + 1) * 14, x + hw - inset, top], fill=col)
        elif gable == 1:  # bell gable
            draw.pieslice([x + hw * 0.2, top - 50, x + hw * 0.8, top + 40], 180, 360, fill=col)
            draw.ellipse([x + hw * 0.45, top - 32, x + hw * 0.55, top - 20], fill=(240, 240, 240))
        else:  # simple spout gable
            draw.polygon([(x + hw * 0.25, top), (x + hw * 0.5, top - 45), (x + hw * 0.75, top)], fill=col)
        # hoist beam
        draw.line([(x + hw // 2, top - 4), (x + hw // 2, top + 10)], fill=(30, 30, 30), width=4)
        # windows
        ncols = 3 if hw > 130 else 2
        wy = top + 22
        while wy < quay_top - 80:
            for c in range(ncols):
                wx = x + 14 + c * (hw - 28) // ncols
                ww = (hw - 28) // ncols - 12
                draw.rectangle([wx, wy, wx + ww, wy + 38], fill=(245, 242, 236))
                glass = (40 + int(rng.integers(0, 30)), 56, 70 + int(rng.integers(0, 40)))
                draw.rectangle([wx + 3, wy + 3, wx + ww - 3, wy + 35], fill=glass)
                draw.line([(wx + ww // 2, wy + 3), (wx + ww // 2, wy + 35)], fill=(245, 242, 236), width=2)
                draw.line([(wx + 3, wy + 19), (wx + ww - 3, wy + 19)], fill=(245, 242, 236), width=2)
                draw.line([(wx + 5, wy + 6), (wx + ww // 2 - 3, wy + 14)], fill=(150, 170, 190), width=1)
            wy += 56
        # door with steps
        draw.rectangle([x + hw // 2 - 14, quay_top - 62, x + hw // 2 + 14, quay_top - 6], fill=(30, 40, 34))
        draw.rectangle([x + hw // 2 - 22, quay_top - 6, x + hw // 2 + 22, quay_top], fill=(120, 116, 110))
        draw.line([(x + hw, top - 30), (x + hw, quay_top)], fill=(40, 30, 30), width=2)
        x += hw
        i += 1

    # trees along the canal
    for tx in (90, 470, 980):
        draw.rectangle([tx - 7, 250, tx + 7, quay_top + 10], fill=(60, 46, 36))
        for _ in range(28):
            ox, oy = rng.normal(0, 55), rng.normal(0, 40)
            r = rng.uniform(22, 40)
            g = int(rng.integers(90, 150))
            draw.ellipse([tx + ox - r, 200 + oy - r, tx + ox + r, 200 + oy + r],
                         fill=(40 + g // 5, g, 40))

    # cobbled quay
    draw.rectangle([0, quay_top, w, water_top], fill=(120, 112, 104))
    for row, y in enumerate(range(quay_top, water_top, 14)):
        off = (row % 2) * 14
        for bx in range(-28 + off, w, 28):
            c = int(rng.integers(100, 150))
            draw.rounded_rectangle([bx + 1, y + 1, bx + 26, y + 12], radius=3, fill=(c, c - 6, c - 14))
    draw.rectangle([0, water_top - 10, w, water_top], fill=(84, 80, 76))  # quay edge
    for bx in range(60, w, 150):  # bollards
        draw.rectangle([bx - 6, water_top - 60, bx + 6, water_top - 10], fill=(60, 24, 20))
        draw.ellipse([bx - 8, water_top - 66, bx + 8, water_top - 54], fill=(60, 24, 20))

    # canal water with rippled reflection of the houses
    arr = np.asarray(img).astype(np.float64)
    # mirror the facades about the foot of the houses, soften, and ripple a little
    src = Image.fromarray(arr[quay_top - (h - water_top):quay_top][::-1].astype(np.uint8), "RGB")
    refl = np.asarray(src.filter(ImageFilter.GaussianBlur(2.5))).astype(np.float64).copy()
    for r in range(refl.shape[0]):
        shift = int(round((1 + r / 40) * math.sin(r * 0.9) + 1.5 * math.sin(r * 0.23)))
        refl[r] = np.roll(refl[r], shift, axis=0)
    tint = np.array([28, 58, 58], dtype=np.float64)
    fade = np.linspace(0.5, 0.3, refl.shape[0])[:, None, None]
    arr[water_top:] = fade * refl + (1 - fade) * tint
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "RGB")
    draw = ImageDraw.Draw(img)
    for _ in range(180):
        y = rng.uniform(water_top + 4, h)
        x0 = rng.uniform(0, w)
        draw.line([(x0, y), (x0 + rng.uniform(10, 50), y)], fill=(150, 180, 176), width=1)

    # the red bicycle, leaning on the quay in the foreground
    rear, front, rad = (450, 560), (730, 560), 86
    bb = (585, 575)
    seat_top = (548, 430)
    head_top, head_bot = (690, 438), (702, 475)
    red, dark_red = (206, 30, 36), (150, 18, 24)
    draw.ellipse([rear[0] - 120, 628, front[0] + 120, 656], fill=(80, 74, 70))  # shadow
    for c in (rear, front):
        draw.ellipse([c[0] - rad, c[1] - rad, c[0] + rad, c[1] + rad], outline=(24, 24, 24), width=10)
        draw.ellipse([c[0] - rad + 9, c[1] - rad + 9, c[0] + rad - 9, c[1] + rad - 9],
                     outline=(190, 190, 196), width=3)
        for k in range(18):
            a = 2 * math.pi * k / 18
            draw.line([c, (c[0] + (rad - 10) * math.cos(a), c[1] + (rad - 10) * math.sin(a))],
                      fill=(200, 200, 206), width=1)
        draw.ellipse([c[0] - 7, c[1] - 7, c[0] + 7, c[1] + 7], fill=(170, 170, 176))
        # mudguard
        draw.arc([c[0] - rad - 8, c[1] - rad - 8, c[0] + rad + 8, c[1] + rad + 8], 190, 350,
                 fill=red, width=6)
    # frame
    draw.line([bb, seat_top], fill=red, width=12)            # seat tube
    draw.line([(seat_top[0] + 6, seat_top[1] + 14), head_top], fill=red, width=11)  # top tube
    draw.line([bb, head_bot], fill=red, width=13)            # down tube
    draw.line([bb, rear], fill=dark_red, width=9)            # chain stay
    draw.line([(seat_top[0] + 4, seat_top[1] + 18), rear], fill=dark_red, width=8)  # seat stay
    draw.line([head_top, head_bot], fill=dark_red, width=14)  # head tube
    draw.line([head_bot, front], fill=red, width=9)          # fork
    # chain ring and chain
    draw.ellipse([bb[0] - 22, bb[1] - 22, bb[0] + 22, bb[1] + 22], outline=(60, 60, 64), width=5)
    draw.line([(bb[0], bb[1] - 22), (rear[0], rear[1] - 9)], fill=(70, 70, 74), width=3)
    draw.line([(bb[0], bb[1] + 22), (rear[0], rear[1] + 9)], fill=(70, 70, 74), width=3)
    draw.line([bb, (bb[0] + 26, bb[1] + 34)], fill=(40, 40, 40), width=6)  # crank
    draw.rectangle([bb[0] + 16, bb[1] + 32, bb[0] + 40, bb[1] + 40], fill=(30, 30, 30))  # pedal
    # saddle and seat post
    draw.line([seat_top, (seat_top[0] - 6, seat_top[1] - 26)], fill=(170, 170, 176), width=6)
    draw.polygon([(seat_top[0] - 40, seat_top[1] - 30), (seat_top[0] + 24, seat_top[1] - 34),
                  (seat_top[0] + 18, seat_top[1] - 22), (seat_top[0] - 36, seat_top[1] - 18)],
                 fill=(92, 56, 34))
    # handlebars (swept back, Dutch style) and grips
    stem = (head_top[0] - 4, head_top[1] - 30)
    draw.line([head_top, stem], fill=(170, 170, 176), width=6)
    draw.line([stem, (stem[0] - 50, stem[1] - 6), (stem[0] - 78, stem[1] + 6)], fill=(170, 170, 176), width=6)
    draw.line([(stem[0] - 78, stem[1] + 6), (stem[0] - 98, stem[1] + 10)], fill=(40, 30, 26), width=9)
    # front basket
    bx0, by0 = head_top[0] + 10, head_top[1] - 28
    draw.rectangle([bx0, by0, bx0 + 90, by0 + 58], fill=(150, 110, 60), outline=(100, 70, 36), width=3)
    for k in range(1, 6):
        draw.line([(bx0 + k * 15, by0), (bx0 + k * 15, by0 + 58)], fill=(110, 78, 40), width=2)
    for k in range(1, 4):
        draw.line([(bx0, by0 + k * 14), (bx0 + 90, by0 + k * 14)], fill=(110, 78, 40), width=2)
    # a bunch of tulips in the basket
    for k, col in enumerate([(230, 40, 60), (250, 200, 40), (240, 110, 150), (230, 40, 60)]):
        sx = bx0 + 18 + k * 18
        draw.line([(sx, by0 + 4), (sx + 2, by0 - 28)], fill=(60, 130, 50), width=3)
        draw.ellipse([sx - 7, by0 - 42, sx + 9, by0 - 22], fill=col)
    # rear rack
    draw.line([(rear[0] - 30, 462), (seat_top[0] + 2, 462)], fill=(40, 40, 40), width=5)
    draw.line([(rear[0] - 20, 462), rear], fill=(40, 40, 40), width=3)

    return _finish(img, seed=382)


def write_photo(path: Path, img: Image.Image, exif: Image.Exif) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path, "JPEG", quality=84, optimize=True, exif=exif.tobytes())


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------

# relative path -> mtime day (12:00 UTC)
MTIMES = {
    "notes/work/2025-03-12-atlas-migration-meeting.md": "2025-03-12",
    "notes/work/2025-09-02-heron-redesign-meeting.md": "2025-09-02",
    "notes/work/helpdesk-ticket.txt": "2026-02-10",
    "notes/work/bisect-calendar-sync.md": "2024-11-05",
    "notes/personal/recipe-red-lentil-soup.md": "2024-02-18",
    "notes/personal/porto-travel-journal.md": "2025-04-27",
    "notes/personal/car-maintenance-log.txt": "2026-01-20",
    "notes/personal/notas-huerto.md": "2025-05-03",
    "notes/personal/pain-au-levain.md": "2024-09-14",
    "code/http_utils.py": "2025-06-30",
    "code/backup_photos.sh": "2024-12-01",
    "web/repair-cafe.html": "2025-10-11",
    "data/expenses.csv": "2025-12-31",
    "data/contacts.json": "2025-08-19",
    "docs/apartment-lease.pdf": "2024-08-01",
    "docs/solar-proposal.docx": "2026-03-02",
    "photos/2025-07-brittany/IMG_4120.jpg": "2025-07-14",
    "photos/2024-05-amsterdam/IMG_0381.jpg": "2024-05-09",
}


def build(out: Path) -> list[Path]:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)

    texts = {
        "notes/work/2025-03-12-atlas-migration-meeting.md": ATLAS_MEETING,
        "notes/work/2025-09-02-heron-redesign-meeting.md": HERON_MEETING,
        "notes/work/helpdesk-ticket.txt": HELPDESK_TICKET,
        "notes/work/bisect-calendar-sync.md": BISECT_NOTE,
        "notes/personal/recipe-red-lentil-soup.md": RECIPE,
        "notes/personal/porto-travel-journal.md": PORTO_JOURNAL,
        "notes/personal/car-maintenance-log.txt": CAR_LOG,
        "notes/personal/notas-huerto.md": HUERTO_ES,
        "notes/personal/pain-au-levain.md": LEVAIN_FR,
        "code/http_utils.py": HTTP_UTILS,
        "code/backup_photos.sh": BACKUP_SH,
        "web/repair-cafe.html": REPAIR_HTML,
    }
    for rel, text in texts.items():
        _write_text(out / rel, text)
    os.chmod(out / "code/backup_photos.sh", 0o755)

    csv_lines = ["date,merchant,category,amount_eur,payment,note"]
    for row in EXPENSES:
        csv_lines.append(",".join(f'"{c}"' if "," in c else c for c in row))
    _write_text(out / "data/expenses.csv", "\n".join(csv_lines) + "\n")
    _write_text(out / "data/contacts.json", json.dumps(CONTACTS, indent=2, ensure_ascii=False) + "\n")

    write_lease_pdf(out / "docs/apartment-lease.pdf")
    write_solar_docx(out / "docs/solar-proposal.docx")
    write_photo(out / "photos/2025-07-brittany/IMG_4120.jpg", draw_lighthouse(),
                _exif("FUJIFILM", "X-T30", "2025:07:14 21:42:10"))
    write_photo(out / "photos/2024-05-amsterdam/IMG_0381.jpg", draw_bicycle(),
                _exif("Google", "Pixel 7", "2024:05:09 16:05:33"))

    written = sorted(p for p in out.rglob("*") if p.is_file())
    rels = {p.relative_to(out).as_posix() for p in written}
    assert rels == set(MTIMES), f"mtime table out of sync: {rels ^ set(MTIMES)}"
    apply_mtimes(out)
    return written


def apply_mtimes(folder: Path) -> None:
    """Set the fixed mtimes on an existing copy of the folder.

    git does not keep mtimes, so a fresh clone has checkout times on every file; a test that
    filters by date should copy examples/ somewhere and call this (or run this script with
    --mtimes-only DIR) first.
    """
    for rel, day in MTIMES.items():
        t = _ts(day)
        os.utime(Path(folder) / rel, (t, t))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder to (re)write")
    ap.add_argument("--mtimes-only", type=Path, metavar="DIR",
                    help="only set the fixed mtimes on an existing copy of examples/ in DIR")
    args = ap.parse_args(argv)
    if args.mtimes_only:
        apply_mtimes(args.mtimes_only)
        return 0
    written = build(args.out)
    total = 0
    for p in written:
        size = p.stat().st_size
        total += size
        print(f"{size:>9,}  {p.relative_to(args.out).as_posix()}")
    print(f"{total:>9,}  total, {len(written)} files in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
