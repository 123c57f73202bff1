"""Write the scent benchmark folder: a fictional person's files, every kind scent indexes.

    .venv/bin/python bench/make_bench.py OUT_DIR        # (re)writes OUT_DIR (deleted first)
    .venv/bin/python bench/make_bench.py -q OUT_DIR     # only the summary line
    scent eval bench/queries.jsonl --folder OUT_DIR     # 159 labelled queries over it

The person is Lena Varga, platform engineer at "Brightwell Ledger" (payments) who runs a small
pottery shop ("Kiln & Crow") and lives at Flat 4, 27 Cobalt Lane, Northmere. Every person,
company, address, phone number (UK drama ranges 01632 960xxx / 0808 157 0xxx), e-mail
(example.com/.example), amount, ID and code is invented; the pictures are drawn with Pillow.

Deterministic: fixed seeds for every random choice, fixed PDF creation dates (fpdf2), fixed
.docx core properties and zip entry times, fixed EXIF, no clock, no network. Two runs give
byte-identical files; every file's mtime is set with os.utime to 12:00 UTC of its day (listed
by `make_bench.py OUT_DIR`), folders to 2026-01-15, so date filters are testable (scent dates
pictures by EXIF DateTimeOriginal, which is the same day as the mtime here). 137 files,
~4 MB, ~6 s. Needs fpdf2, python-docx, Pillow, numpy and the DejaVu fonts
(/usr/share/fonts/truetype/dejavu; PIL's default font otherwise). The lighthouse and red-bicycle
drawings are imported from tools/make_examples.py. Content lives in the sibling modules
_bench_notes.py, _bench_lang.py, _bench_code.py, _bench_filler.py (text), _bench_draw.py
(pictures), _bench_docs.py and _bench_handbook.py (PDF, Word).

Files by group, and the queries (bench/queries.jsonl ids) whose answer they are. "Distractor"
means a deliberately similar file that must NOT win; hard queries name theirs in "note".

notes/work/ (markdown/txt, 10)
  postmortem-2025-02-14.md  payments API latency spike (pool size typo, CHG-8812)  q001 q027
                            (distractor of q002 q101; removed by the date filter of q150)
  postmortem-2025-06-11.md  search cluster disk full (snapshots, INC-2025-0611)  q002 q026 q150
                            (distractor of q001 q102)
      the two postmortems share structure and vocabulary on purpose.
  2025-01-20-planning-q1.md q024 q156; 2025-04-03-monitoring-vendors.md q003; 2025-09-17-team-offsite.md q004;
  oncall-handover-2025-06-13.txt q028 q034; 1-1-priya.md q013; runbook-tls-renewal.md q011;
  interview-feedback-2025-03.md q012; kafka-reading-notes.md q025 (distractor of the whiteboard photo q092)
notes/recipes/ (6): chana-masala q006 vs chickpea-spinach-stew q005 (similar pair); banana-bread q007
  vs banana-oat-pancakes q008 (similar pair); mushroom-risotto; chocolate-birthday-cake (distractor of q090)
notes/travel/ (4): kyoto q009; iceland q010; cornwall (distractor of q084 q085 q125-q127);
  lake-district (distractor of q089 and of the French Annecy note q051)
notes/personal/ (11): biscuit-the-cat q014; home-network q015 (distractor of q099); bike-maintenance q016
  (distractor of q088 q136); kiln-and-crow-sales-2025 q017 (same numbers as the bar chart, distractor of q096);
  tax-return-notes q018; half-marathon-plan q021; car-insurance-renewal q022 q029; apartment-move-in q023;
  reading-list, gift-ideas (no query)
notes/hindi/ (4, Hindi): dadi-ki-dal q038; varanasi-yatra q039; papa-doctor-salah q040; ghar-ka-budget q041
notes/tamil/ (4, Tamil): sambar-seimurai q042 q153; madurai-payanam q043; amma-thottam q044;
  palli-nanbargal-sandhippu q045
notes/espanol/ (4, Spanish): tortilla-de-patatas q046 q152; camino-de-santiago q047; clases-de-guitarra q048;
  mudanza-piso q049
notes/francais/ (4, French): ratatouille q050; week-end-annecy q051; atelier-poterie q052;
  rendez-vous-veterinaire q053 q154
  (all multilingual queries are in English; category "multilingual")
code/ (11: py, ts, js, sql, sh, go): retry_client.py q054 q065; cartTotals.ts q055; pool_config.py q056;
  healthcheck/main.go q057; monthly_revenue.sql q058; snapshot_cleanup.sh q059 vs rotate_logs.sh q060
  (similar pair); debounce.js q061; 003_add_invoice_status.sql q062; dedupe_contacts.py q063;
  photo_rename.py q064
web/saved/ (HTML, 2): heat-pumps-explained.html q019 (script/style/nav present); sourdough-troubleshooting.html q020
data/expenses-2025.csv (48 rows; distractor of several receipt/scan queries), data/subscriptions.json (no query)
docs/*.docx (4, each with headings, a table and an embedded Pillow-drawn PNG):
  kitchen-renovation-elm-close.docx q066 q070 q071 (q071 targets the embedded layout picture);
  work/marlin-capacity-plan.docx q067 q072; book-club-2025.docx q068; travel/iceland-itinerary.docx q037 q069
photos/ (12 JPEG scenes with EXIF date and camera; neutral names IMG_nnnn.jpg in photos/2024/, photos/2025/;
  two in descriptive folders: 2024-12-ana-birthday/, 2025-08-lake-district/):
  IMG_1733 lighthouse at sunset q084 q151 | IMG_1740 sailboat at sunset (its distractor) q085 |
  IMG_2041 cat asleep on a sofa q086 | IMG_2966 grey cat at a window (its distractor) q087 |
  IMG_3012 red bicycle q088 | IMG_3390 bowl of fruit q091 | IMG_3655 whiteboard architecture diagram q083 q092 |
  IMG_4033 autumn forest path q095 | IMG_4118 city skyline at night q093 | IMG_4190 snowman q094 |
  2024-12-ana-birthday/IMG_2187 birthday cake q090 | 2025-08-lake-district/IMG_3902 mountain lake q089 q157
receipts/ (3 photographed till receipts with a returns code): IMG_3304 Greenleaf Market, code K7Q2ZP q073 |
  IMG_3518 Hobbs Hardware, code M4X9TB q074 q075 | IMG_3866 Crumb & Co bakery, code R2D8WN q076
screenshots/ (6 PNG): ..100355 dark dashboard, p99 latency spike q101 q158 | ..074120 disk usage climbing
  to 95% q102 (the two dashboards are each other's distractors) | ..162209 terminal, KeyError stack trace q077 |
  ..201530 flight booking confirmation QX7RLM q080 | ..184755 phone chat (spare key, alarm code) q078 q079 q104 |
  ..083000 calendar week view q081 q082 q103
exports/ (charts, PNG): figure_1 bar chart of monthly sales q096 | figure_2 line chart of electricity use q097
  (data/electricity-readings.csv is its distractor) | figure_3 pie chart of the budget q098
diagrams/ (PNG): drawing-01 home network diagram q099 | drawing-02 incident flowchart q100
docs/tenancy-agreement-cobalt-lane.pdf  7 pages, one topic each; p7 = vector floor plan (no text but
  header/footer): p2 q105, p3 q033 q159, p4 q109, p5 q036 q108, p6 q107, p7 q118
docs/community-garden-report-2025.pdf  5 pages: p3 = vector bar chart ONLY (no text layer) q116,
  p4 = embedded photo ONLY (greenhouse) q122; text p1 q113, p5 q114
docs/kiln-and-crow-2025-review.pdf  4 pages: p2 = vector line chart only q117, p3 = photo only (mugs) q123, p4 q115
docs/handbook/employee-handbook-2025.pdf  40 pages, one topic per page (p27 cycle-to-work, GBP 2,000; p28
  season-ticket loan is its twin); p3 = vector org chart q120; needle queries q136-q149 (pages 27 28 31 9 21
  22 35 18 15 10 16 5 12 11)
docs/manuals/aurelia-ac200-manual.pdf  6 pages: p1 cover photo q124, p2 vector parts diagram with numbered
  callouts q119 q121, p4 descaling q110, p5 troubleshooting q111, p6 warranty q112
docs/cornwall-2024-photobook.pdf  landscape, p1 title, p2-p4 photos only (harbour, beach umbrellas, cliffs) q125-q127
docs/invoices/ (5 text PDFs): cloudnest-2025-03 INV-2025-0193 q030 vs cloudnest-2025-04 INV-2025-0241 q031 q155
  (same vendor, same layout); sparkwise-2025-02 q035; lumen-2025-07 q032; oakhaven-2024-11 (no query)
scans/ (IMAGE-ONLY PDFs: one rotated, noisy greyscale JPEG per page, no text layer at all):
  scan_0001 lease addendum, 2 pages (cat allowed, rent 1,365 from March 2025; p2 bicycle store) q128 q129 q130
  (the text lease is the distractor) | scan_0002 gas safety record q133 | scan_0003 council parking-permit
  letter RP-48213 q131 q132 | scan_0004 laptop repair receipt FX-20931 q134 q135
misc/, logs/, config/, data/*.csv (31 distractors that answer nothing: shopping lists, diary entries, seeded
  logs, yaml/ini/conf configs, small CSVs; their words overlap the real topics: bananas, chickpeas, candles,
  lakes, bikes, disk usage, pool sizes, kWh)

Query categories (queries.jsonl): text-semantic 25, text-exact 12, multilingual 16, code 12, docx 7,
image-ocr 11, image-visual 21, pdf-text-page 11, pdf-visual-page 6, pdf-embedded-image 6, scanned 8,
needle 14, filter 10; 81 marked hard. Until scent reads pixels (OCR, picture descriptions, PDF page
images), image-ocr, image-visual, scanned, pdf-visual-page and pdf-embedded-image are expected to score
near zero: that gap is what this benchmark measures.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

sys.dont_write_bytecode = True  # importing the sibling modules and tools/ must leave no __pycache__
HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import _bench_code as code_mod  # noqa: E402
import _bench_docs as docs  # noqa: E402
import _bench_draw as draw  # noqa: E402
from _bench_filler import FILLER  # noqa: E402
from _bench_lang import LANG_NOTES  # noqa: E402
from _bench_notes import NOTES  # noqa: E402

FIXED_DIR_DAY = "2026-01-15"  # mtime given to every folder once all files are written


def _ts(day: str) -> float:
    y, m, d = (int(x) for x in day.split("-"))
    return datetime(y, m, d, 12, 0, 0, tzinfo=timezone.utc).timestamp()


# --------------------------------------------------------------------------------------------
# Picture tables: relative path, mtime day, drawing function, EXIF (make, model, when) or None
# --------------------------------------------------------------------------------------------

PHOTOS = [
    ("photos/2024/IMG_1733.jpg", "2024-07-19", draw.draw_lighthouse, ("Apple", "iPhone 13", "2024:07:19 21:08:44")),
    ("photos/2024/IMG_1740.jpg", "2024-07-20", draw.draw_sailboat_sunset, ("Apple", "iPhone 13", "2024:07:20 21:15:02")),
    ("photos/2024/IMG_2041.jpg", "2024-11-03", draw.draw_cat_on_sofa, ("Google", "Pixel 8", "2024:11:03 14:22:08")),
    ("photos/2024-12-ana-birthday/IMG_2187.jpg", "2024-12-08", draw.draw_birthday_cake,
     ("Google", "Pixel 8", "2024:12:08 19:41:30")),
    ("photos/2025/IMG_2966.jpg", "2025-02-09", draw.draw_cat_at_window, ("Google", "Pixel 8", "2025:02:09 10:05:51")),
    ("photos/2025/IMG_3012.jpg", "2025-03-22", draw.draw_red_bicycle, ("Google", "Pixel 8", "2025:03:22 16:40:12")),
    ("photos/2025/IMG_3390.jpg", "2025-04-06", draw.draw_fruit_bowl, ("Google", "Pixel 8", "2025:04:06 11:02:37")),
    ("photos/2025/IMG_3655.jpg", "2025-05-14", draw.draw_whiteboard, ("Google", "Pixel 8", "2025:05:14 15:47:03")),
    ("photos/2025-08-lake-district/IMG_3902.jpg", "2025-08-09", draw.draw_mountain_lake,
     ("FUJIFILM", "X-T30", "2025:08:09 08:12:55")),
    ("photos/2025/IMG_4033.jpg", "2025-10-26", draw.draw_autumn_path, ("Google", "Pixel 8", "2025:10:26 13:30:19")),
    ("photos/2025/IMG_4118.jpg", "2025-11-15", draw.draw_city_night, ("Google", "Pixel 8", "2025:11:15 22:18:41")),
    ("photos/2025/IMG_4190.jpg", "2025-12-20", draw.draw_snowman, ("Google", "Pixel 8", "2025:12:20 12:06:09")),
]

RECEIPTS = [
    ("receipts/IMG_3304.jpg", "2025-03-29", "2025:03:29 17:49:10", 3304, 2.5,
     ["GREENLEAF MARKET", "14 Vale Street, Northmere", "Tel 01632 960 118", "VAT No 418 2291 07"],
     "29/03/2025 17:42   TILL 3   OP 112",
     [("BANANAS LOOSE 0.86KG", "1.12"), ("OAT MILK 1L", "1.95"), ("OAT MILK 1L", "1.95"),
      ("CHICKPEAS 400G x3", "2.25"), ("BASMATI RICE 1KG", "2.80"), ("CHEDDAR MATURE 400G", "4.15"),
      ("SOURDOUGH LOAF", "3.40"), ("FREE RANGE EGGS 12", "4.25"), ("VINE TOMATOES 500G", "2.10"),
      ("BABY SPINACH 250G", "1.85"), ("COFFEE BEANS 1KG", "15.50"), ("CAT FOOD POUCHES 12PK", "6.53")],
     "DEBIT CARD ****4821", "K7Q2ZP",
     ["Returns within 28 days with this code", "Thank you for shopping at Greenleaf"]),
    ("receipts/IMG_3518.jpg", "2025-04-19", "2025:04:19 11:14:02", 3518, -3.0,
     ["HOBBS HARDWARE", "3 Mill Lane, Northmere", "Tel 01632 960 245"],
     "19/04/2025 11:05   TILL 1",
     [("MATT EMULSION 2.5L SAGE", "24.99"), ("PAINT ROLLER SET 9IN", "8.49"), ("BRUSH SET 3PC", "6.99"),
      ("MASKING TAPE 25MM x2", "5.18"), ("DUST SHEET", "4.50"), ("WOOD SCREWS 4X40 BOX", "3.75"),
      ("SANDPAPER ASSORTED", "4.30"), ("WALL PLUGS 100", "5.00")],
     "DEBIT CARD ****4821", "M4X9TB",
     ["Keep your receipt for refunds", "Open 7 days - hobbshardware.example"]),
    ("receipts/IMG_3866.jpg", "2025-07-26", "2025:07:26 15:31:48", 3866, 1.5,
     ["CRUMB & CO", "bakery - cafe", "22 Tanner Row, Northmere"],
     "26/07/2025 15:28   TABLE 6",
     [("LEMON DRIZZLE CAKE WHOLE", "18.00"), ("FLAT WHITE x2", "7.00"), ("CINNAMON BUN x2", "6.80"),
      ("SOURDOUGH LOAF", "4.50"), ("ELDERFLOWER PRESSE", "2.20")],
     "DEBIT CARD ****4821", "R2D8WN",
     ["Celebration cakes to order", "Thank you, see you soon!"]),
]

SCREENSHOTS = [
    ("screenshots/Screenshot_20250214-100355.png", "2025-02-14", draw.draw_dashboard_latency),
    ("screenshots/Screenshot_20250304-162209.png", "2025-03-04", draw.draw_terminal),
    ("screenshots/Screenshot_20250502-201530.png", "2025-05-02", draw.draw_booking),
    ("screenshots/Screenshot_20250611-074120.png", "2025-06-11", draw.draw_dashboard_disk),
    ("screenshots/Screenshot_20250702-184755.png", "2025-07-02", draw.draw_chat),
    ("screenshots/Screenshot_20250908-083000.png", "2025-09-08", draw.draw_calendar_week),
    ("exports/figure_1.png", "2025-12-30", draw.draw_bar_chart),
    ("exports/figure_2.png", "2026-01-04", draw.draw_line_chart),
    ("exports/figure_3.png", "2025-10-05", draw.draw_pie_chart),
    ("diagrams/drawing-01.png", "2025-01-05", draw.draw_network_diagram),
    ("diagrams/drawing-02.png", "2025-06-20", draw.draw_flowchart),
]

ACCOUNT_LINES = ["Kiln & Crow (Lena Varga)", "Flat 4, 27 Cobalt Lane", "Northmere NM3 8QT"]
CLOUDNEST = ["Cloudnest Hosting Ltd", "Unit 12, Quayside Works, Portwell PW2 9HX",
             "VAT GB 731 4420 18  |  billing@cloudnest.example"]

INVOICES = [
    ("docs/invoices/cloudnest-2025-03.pdf", datetime(2025, 4, 1, 8, 0), CLOUDNEST, "INV-2025-0193",
     ACCOUNT_LINES + ["Account CN-40318"],
     [("nest-2 virtual server (2 vCPU, 4 GB RAM), March", 2, 18.00), ("Daily backups, March", 1, 6.00)],
     ["Service period: 1 to 31 March 2025.", "Paid by card ending 7714 on 3 April 2025. Thank you."]),
    ("docs/invoices/cloudnest-2025-04.pdf", datetime(2025, 5, 1, 8, 0), CLOUDNEST, "INV-2025-0241",
     ACCOUNT_LINES + ["Account CN-40318"],
     [("nest-2 virtual server (2 vCPU, 4 GB RAM), April", 2, 18.00), ("Daily backups, April", 1, 6.00),
      ("Block storage volume 500 GB (added 9 April)", 1, 12.00)],
     ["Service period: 1 to 30 April 2025.", "Paid by card ending 7714 on 2 May 2025. Thank you."]),
    ("docs/invoices/sparkwise-2025-02.pdf", datetime(2025, 2, 7, 17, 0),
     ["Sparkwise Electrical", "41 Foundry Road, Northmere NM2 7LP", "Registered electrical contractor  |  VAT GB 602 9917 45"],
     "INV-SW-1187", ["Lena Varga", "Works at 14 Elm Close, Northmere NM4 6JE"],
     [("New 32A radial circuit for induction hob", 1, 340.00), ("Replace double sockets, kitchen", 4, 45.00),
      ("Testing and electrical installation certificate", 1, 120.00)],
     ["Payment by bank transfer within 14 days: Sparkwise Electrical, sort code 20-44-19, account 55013870.",
      "Certificate EIC-2025-0318 is attached to the email with this invoice."]),
    ("docs/invoices/lumen-2025-07.pdf", datetime(2025, 7, 19, 12, 0),
     ["Lumen Translations", "Studio 5, 9 Canal Yard, Northmere NM1 3RQ", "VAT GB 288 1046 90"],
     "INV-LT-0457", ACCOUNT_LINES,
     [("Translation English to French, shop pages (2,400 words)", 2400, 0.08),
      ("Proofreading by a second translator", 1, 24.00)],
     ["Delivered 18 July 2025: product pages, shipping and returns page, about page.",
      "Payment within 14 days by bank transfer."]),
    ("docs/invoices/oakhaven-2024-11.pdf", datetime(2024, 11, 9, 10, 0),
     ["Oakhaven Furniture", "Retail Park, Ringway, Northmere NM5 1TT", "VAT GB 519 7730 02"],
     "OH-55821", ["Lena Varga", "Flat 4, 27 Cobalt Lane", "Northmere NM3 8QT"],
     [("Harlow 3-seater sofa, sage green", 1, 690.00), ("Delivery to second floor", 1, 25.00),
      ("Removal of old sofa", 1, 35.00)],
     ["Paid in full in store on 9 November 2024. Delivery booked for 16 November, 08:00-12:00.",
      "Five-year frame guarantee; fabric guarantee one year."]),
]


# --------------------------------------------------------------------------------------------
# Build
# --------------------------------------------------------------------------------------------

def _write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def build(out: Path) -> dict[str, str]:
    """Write the whole folder; returns relative path -> mtime day."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    days: dict[str, str] = {}

    def add(rel: str, day: str) -> None:
        assert rel not in days, f"written twice: {rel}"
        days[rel] = day

    for table in (NOTES, LANG_NOTES, code_mod.CODE, FILLER):
        for rel, (day, text) in table.items():
            _write_text(out / rel, text)
            add(rel, day)
    for rel in days:
        if rel.endswith(".sh"):
            os.chmod(out / rel, 0o755)
    _write_text(out / "data/expenses-2025.csv", code_mod.expenses_csv())
    add("data/expenses-2025.csv", "2025-12-31")
    _write_text(out / "data/subscriptions.json", code_mod.subscriptions_json())
    add("data/subscriptions.json", "2025-11-20")

    for rel, day, fn, (make, model, when) in PHOTOS:
        p = out / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        fn().save(p, "JPEG", quality=82, optimize=True, exif=draw.exif_bytes(make, model, when))
        add(rel, day)
    for rel, day, when, seed, angle, shop, stamp, items, payment, code, footer in RECEIPTS:
        lines, _total = draw.receipt_lines(shop, stamp, items, payment, code, footer)
        p = out / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        draw.draw_receipt_photo(lines, seed, angle).save(p, "JPEG", quality=82, optimize=True,
                                                         exif=draw.exif_bytes("Google", "Pixel 8", when))
        add(rel, day)
    for rel, day, fn in SCREENSHOTS:
        p = out / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        fn().save(p, "PNG", optimize=True)
        add(rel, day)

    docs.write_lease(out / "docs/tenancy-agreement-cobalt-lane.pdf")
    add("docs/tenancy-agreement-cobalt-lane.pdf", "2024-08-30")
    docs.write_garden_report(out / "docs/community-garden-report-2025.pdf")
    add("docs/community-garden-report-2025.pdf", "2025-12-05")
    docs.write_shop_review(out / "docs/kiln-and-crow-2025-review.pdf")
    add("docs/kiln-and-crow-2025-review.pdf", "2026-01-10")
    docs.write_handbook(out / "docs/handbook/employee-handbook-2025.pdf")
    add("docs/handbook/employee-handbook-2025.pdf", "2024-12-16")
    docs.write_manual(out / "docs/manuals/aurelia-ac200-manual.pdf")
    add("docs/manuals/aurelia-ac200-manual.pdf", "2025-03-10")
    docs.write_photobook(out / "docs/cornwall-2024-photobook.pdf")
    add("docs/cornwall-2024-photobook.pdf", "2024-08-10")
    for rel, when, vendor, number, bill_to, lines, notes in INVOICES:
        docs.write_invoice(out / rel, when, vendor, number, bill_to, lines, notes)
        add(rel, f"{when:%Y-%m-%d}")
    for rel, day in docs.write_scans(out).items():
        add(rel, day)

    docs.write_kitchen_docx(out / "docs/kitchen-renovation-elm-close.docx")
    add("docs/kitchen-renovation-elm-close.docx", "2025-01-30")
    docs.write_capacity_docx(out / "docs/work/marlin-capacity-plan.docx")
    add("docs/work/marlin-capacity-plan.docx", "2025-02-25")
    docs.write_book_club_docx(out / "docs/book-club-2025.docx")
    add("docs/book-club-2025.docx", "2025-01-08")
    docs.write_iceland_docx(out / "docs/travel/iceland-itinerary.docx")
    add("docs/travel/iceland-itinerary.docx", "2025-04-28")

    on_disk = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert on_disk == set(days), f"file table out of sync: {sorted(on_disk ^ set(days))}"
    apply_mtimes(out, days)
    return days


def apply_mtimes(folder: Path, days: dict[str, str]) -> None:
    for rel, day in days.items():
        t = _ts(day)
        os.utime(folder / rel, (t, t))
    t = _ts(FIXED_DIR_DAY)
    for d in sorted((p for p in folder.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
        os.utime(d, (t, t))
    os.utime(folder, (t, t))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Write the scent benchmark folder (deterministic).")
    ap.add_argument("out", type=Path, help="folder to (re)write; it is deleted first")
    ap.add_argument("-q", "--quiet", action="store_true", help="print only the summary line")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    days = build(args.out)
    total = 0
    for rel in sorted(days):
        size = (args.out / rel).stat().st_size
        total += size
        if not args.quiet:
            print(f"{size:>9,}  {days[rel]}  {rel}")
    print(f"{total:>9,}  total, {len(days)} files in {args.out} ({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
