"""PDFs (fpdf2) and Word files (python-docx) of the benchmark folder, deterministic.

Fixed creation dates in PDF metadata, fixed core properties and zip entry times in .docx.
Image-only PDFs hold one JPEG per page and nothing else (no text layer at all).
"""
from __future__ import annotations

import io
import zipfile
from datetime import datetime, timezone
from pathlib import Path

from fpdf import FPDF
from PIL import Image

import _bench_draw as draw
from _bench_handbook import HANDBOOK


def _jpeg(img: Image.Image, quality: int = 80) -> io.BytesIO:
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality, optimize=True)
    buf.seek(0)
    return buf


def _png(img: Image.Image) -> io.BytesIO:
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    buf.seek(0)
    return buf


def _new_pdf(when: datetime, title: str = "", author: str = "", subject: str = "",
             creator: str = "", orientation: str = "P") -> FPDF:
    pdf = FPDF(orientation=orientation, format="A4")
    pdf.set_creation_date(when.replace(tzinfo=timezone.utc))
    if title:
        pdf.set_title(title)
    if author:
        pdf.set_author(author)
    if subject:
        pdf.set_subject(subject)
    pdf.set_creator(creator or "bench/make_bench.py")
    pdf.set_auto_page_break(auto=False)
    pdf.set_margins(22, 20, 22)
    return pdf


def _save_pdf(pdf: FPDF, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))


def _text_page(pdf: FPDF, heading: str, paras: list[str], header: str = "", footer: str = "",
               title: str = "", size: float = 11, lh: float = 5.8) -> None:
    pdf.add_page()
    if header:
        pdf.set_font("Helvetica", "I", 9)
        pdf.set_text_color(100, 100, 100)
        pdf.set_xy(22, 10)
        pdf.cell(0, 6, header)
    pdf.set_text_color(0, 0, 0)
    pdf.set_xy(22, 24)
    if title:
        pdf.set_font("Helvetica", "B", 18)
        pdf.multi_cell(0, 9, title, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)
    if heading:
        pdf.set_font("Helvetica", "B", 14)
        pdf.multi_cell(0, 8, heading, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    pdf.set_font("Helvetica", "", size)
    for para in paras:
        if para.startswith("- "):
            pdf.set_x(28)
            pdf.multi_cell(0, lh, "- " + para[2:], new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1)
        else:
            pdf.multi_cell(0, lh, para, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
    assert pdf.get_y() < 272, f"page overflow: {heading or title}"
    if footer:
        pdf.set_font("Helvetica", "I", 9)
        pdf.set_text_color(100, 100, 100)
        pdf.set_xy(22, 282)
        pdf.cell(0, 6, footer, align="C")
        pdf.set_text_color(0, 0, 0)


# ============================================================================================
# Lease (text pages + a vector floor plan)
# ============================================================================================

LEASE = [
    ("1. Parties, property and term", [
        "Agreement reference: MP-TA-2024-118.",
        "This assured shorthold tenancy agreement is made on 30 August 2024 between Gideon Marsh "
        "(the Landlord), acting through his agent Marsh & Pryce Lettings, 4 Ferry Street, Northmere "
        "NM1 4DS, and Lena Varga (the Tenant).",
        "The Landlord lets to the Tenant the property known as Flat 4, 27 Cobalt Lane, Northmere "
        "NM3 8QT: a one-bedroom flat on the second floor, with the use of the shared entrance, "
        "stairs and bin store, together with the furniture and fittings listed in the inventory.",
        "The tenancy is for a fixed term of twelve months starting on 1 September 2024. When the "
        "fixed term ends, the tenancy continues from month to month on the same terms until either "
        "party ends it as described in section 6.",
        "The Tenant will live in the property as their only or main home and will not let anyone "
        "else live there without the Landlord's written permission."]),
    ("2. Rent", [
        "The rent is GBP 1,325 per calendar month.",
        "The rent is payable in advance on the first day of each month by standing order to the "
        "agent's client account: Marsh & Pryce Lettings, sort code 40-11-62, account 71930452, "
        "using the agreement reference as the payment reference. The first payment is due on "
        "signing.",
        "If rent remains unpaid fourteen days after it is due, interest may be charged at 3 percent "
        "above the Bank of England base rate from the due date until payment.",
        "The Landlord may review the rent once a year, giving the Tenant at least two months' "
        "notice in writing of any increase. The rent does not include council tax, energy, water, "
        "broadband or a television licence, which the Tenant pays directly."]),
    ("3. Deposit", [
        "The Tenant pays a deposit of GBP 1,530, equal to five weeks' rent, on signing.",
        "The deposit is protected with the Safeguard Deposit Scheme within 30 days of receipt. The "
        "deposit protection certificate number is SDS-77310-4; the prescribed information has been "
        "given to the Tenant with this agreement.",
        "At the end of the tenancy the Landlord may deduct reasonable costs for damage beyond fair "
        "wear and tear, for cleaning needed to return the property to the condition recorded in the "
        "inventory, and for any unpaid rent or bills.",
        "The deposit, less any agreed deductions, will be returned within ten days of the parties "
        "agreeing the amount. Disputes may be referred to the scheme's free adjudication service."]),
    ("4. Use of the property", [
        "The Tenant will not keep any pets or other animals at the property without the Landlord's "
        "prior written consent, which will not be unreasonably withheld.",
        "No smoking or vaping inside the property or in the shared parts of the building.",
        "The Tenant will not cause a nuisance to neighbours; amplified music and other loud noise "
        "are not allowed between 23:00 and 07:00.",
        "The Tenant will not sublet or take in lodgers, run a business from the property that "
        "brings customers to the building, or keep bicycles, prams or other items in the shared "
        "hallway and stairs, which are a fire escape route.",
        "The Tenant will not redecorate, put up shelves or change the locks without written "
        "permission."]),
    ("5. Repairs and maintenance", [
        "The Landlord keeps in repair the structure and exterior of the building, the roof, the "
        "windows, the installations for water, gas, electricity and sanitation, and the boiler and "
        "radiators. The Landlord arranges an annual gas safety check by a registered engineer and "
        "gives the Tenant a copy of the record.",
        "The Tenant reports any repair needed promptly, in writing to the agent. For emergencies "
        "outside office hours - a gas smell, no heating in winter, a water leak, a broken entrance "
        "door - call the agent's emergency line on 01632 960 417.",
        "The Tenant replaces light bulbs and smoke alarm batteries, keeps drains clear, ventilates "
        "the flat to prevent condensation and mould, and gives access for repairs and inspections "
        "with at least 24 hours' notice, except in an emergency."]),
    ("6. Ending the tenancy", [
        "After the fixed term, the Tenant may end the tenancy by giving at least one month's notice "
        "in writing, ending on the last day of a rental period.",
        "The Landlord may end the tenancy only in accordance with the law, giving at least two "
        "months' notice in writing.",
        "Before leaving, the Tenant will clean the property to the standard recorded in the "
        "inventory, remove all belongings, give final meter readings to the suppliers and return "
        "all keys: three door keys and one fob for the bin store. A check-out inspection will be "
        "arranged with the Tenant, who may attend.",
        "Signed by Gideon Marsh, by his agent, and by Lena Varga on 30 August 2024."]),
]


def _floor_plan(pdf: FPDF) -> None:
    """Vector floor plan of the flat: walls, doors (arcs), bed, sofa, kitchen units. No text."""
    pdf.set_draw_color(30, 30, 30)
    pdf.set_line_width(1.6)
    x0, y0, w, h = 35, 60, 140, 170
    pdf.rect(x0, y0, w, h)
    pdf.set_line_width(1.0)
    pdf.line(x0, y0 + 80, x0 + 80, y0 + 80)          # bedroom | living
    pdf.line(x0 + 80, y0, x0 + 80, y0 + 60)          # bedroom | bathroom wall
    pdf.line(x0 + 80, y0 + 60, x0 + 140, y0 + 60)
    pdf.line(x0 + 95, y0 + 60, x0 + 95, y0 + 110)    # hall
    pdf.line(x0 + 95, y0 + 110, x0 + 140, y0 + 110)
    pdf.set_line_width(0.4)
    # door swings
    for (cx, cy, a0, a1) in [(x0 + 60, y0 + 80, 180, 270), (x0 + 95, y0 + 75, 270, 360),
                             (x0 + 140, y0 + 80, 90, 180), (x0 + 80, y0 + 30, 0, 90)]:
        pdf.arc(cx - 14, cy - 14, 28, a0, a1)
    # bed with pillows
    pdf.set_fill_color(225, 225, 235)
    pdf.rect(x0 + 10, y0 + 10, 40, 52, style="DF")
    pdf.rect(x0 + 14, y0 + 13, 14, 9, style="D")
    pdf.rect(x0 + 32, y0 + 13, 14, 9, style="D")
    # bathroom: bath, basin, toilet
    pdf.rect(x0 + 110, y0 + 6, 26, 50, style="D")
    pdf.ellipse(x0 + 86, y0 + 8, 14, 10, style="D")
    pdf.ellipse(x0 + 88, y0 + 40, 10, 14, style="D")
    # living room: sofa, table, kitchen run along the bottom wall
    pdf.rect(x0 + 8, y0 + 100, 14, 45, style="DF")
    pdf.ellipse(x0 + 35, y0 + 110, 26, 20, style="D")
    pdf.set_fill_color(240, 230, 210)
    pdf.rect(x0 + 40, y0 + 150, 95, 16, style="DF")
    for k in range(4):
        pdf.circle(x0 + 95 + k * 10, y0 + 158, 6, style="D")
    # window marks
    pdf.set_line_width(2.2)
    pdf.set_draw_color(120, 160, 210)
    pdf.line(x0 + 15, y0, x0 + 55, y0)
    pdf.line(x0, y0 + 100, x0, y0 + 140)
    pdf.set_draw_color(0, 0, 0)


def write_lease(path: Path) -> None:
    pdf = _new_pdf(datetime(2024, 8, 30, 15, 0), "Assured shorthold tenancy agreement",
                   "Marsh & Pryce Lettings", "Flat 4, 27 Cobalt Lane")
    header = "Tenancy agreement - Flat 4, 27 Cobalt Lane, Northmere NM3 8QT"
    n = len(LEASE) + 1
    for i, (heading, paras) in enumerate(LEASE):
        _text_page(pdf, heading, paras, header=header, footer=f"Page {i + 1} of {n}",
                   title="Assured Shorthold Tenancy Agreement" if i == 0 else "")
    pdf.add_page()
    pdf.set_font("Helvetica", "I", 9)
    pdf.set_text_color(100, 100, 100)
    pdf.set_xy(22, 10)
    pdf.cell(0, 6, header)
    pdf.set_xy(22, 282)
    pdf.cell(0, 6, f"Page {n} of {n}", align="C")
    _floor_plan(pdf)
    _save_pdf(pdf, path)


# ============================================================================================
# Community garden report: text, vector bar chart page, photo page, text
# ============================================================================================

def write_garden_report(path: Path) -> None:
    pdf = _new_pdf(datetime(2025, 12, 5, 10, 0), "Northmere Community Garden - Annual report 2025",
                   "Lena Varga", "Annual report")
    _text_page(pdf, "Summary", [
        "This year 46 volunteers looked after 23 allotment plots and the shared beds on the old "
        "railway land behind Vale Street. Together we harvested about 1,240 kg of fruit and "
        "vegetables. 410 kg of it went to the Northmere food bank, mostly potatoes, courgettes, "
        "apples and runner beans.",
        "New this year was the greenhouse, paid for by last winter's appeal. It let us start "
        "tomatoes, chillies and aubergines in March instead of May, and the school groups used it "
        "for their seedlings.",
        "Prepared for the annual general meeting on 12 December 2025 by Lena Varga, treasurer."],
        title="Northmere Community Garden - Annual Report 2025", footer="1")
    _text_page(pdf, "Volunteers and events", [
        "Work days took place every Saturday from 10:00 to 13:00, with a smaller group on Wednesday "
        "evenings in summer. Six school classes visited during the year.",
        "The seed swap in March brought about 120 visitors. At the apple day in October we pressed "
        "300 litres of juice from the old orchard trees and sold it in aid of the garden.",
        "The composting workshop in June is now a monthly drop-in on the first Sunday."], footer="2")
    # page 3: vector bar chart, no text at all
    pdf.add_page()
    harvest = [0, 5, 18, 42, 95, 160, 210, 250, 220, 150, 70, 20]
    x0, y0, cw, ch = 30, 60, 150, 150
    pdf.set_line_width(0.6)
    pdf.set_draw_color(40, 40, 40)
    pdf.line(x0, y0 + ch, x0 + cw, y0 + ch)
    pdf.line(x0, y0, x0, y0 + ch)
    pdf.set_line_width(0.2)
    pdf.set_draw_color(200, 200, 200)
    for k in range(1, 6):
        pdf.line(x0, y0 + ch - ch * k / 5, x0 + cw, y0 + ch - ch * k / 5)
    bw = cw / 12
    for i, v in enumerate(harvest):
        pdf.set_fill_color(70, 140, 70) if v < 240 else pdf.set_fill_color(220, 120, 40)
        bh = ch * v / 260
        pdf.rect(x0 + i * bw + bw * 0.15, y0 + ch - bh, bw * 0.7, bh, style="F")
    # page 4: a photo of the greenhouse, nothing else
    pdf.add_page()
    pdf.image(_jpeg(draw.draw_greenhouse(), 78), x=20, y=60, w=170)
    _text_page(pdf, "Finances and plans for 2026", [
        "Income: GBP 6,480 (plot fees 2,300; grant from the Northmere Trust 2,000; plant sale 1,180; "
        "donations 1,000). Spending: GBP 5,910 (last instalment for the greenhouse 2,400; tools 640; "
        "seeds and compost 1,150; water 720; insurance 1,000). We carry GBP 570 into next year.",
        "Plans for 2026: a 5,000 litre rainwater tank next to the greenhouse (quoted at GBP 1,150), "
        "two raised beds at wheelchair height, and a beehive looked after by the school's eco club.",
        "Plot fees stay at GBP 100 a year, half price for people on benefits."], footer="5")
    _save_pdf(pdf, path)


# ============================================================================================
# Pottery shop year review: text, vector line chart page, photo page, text
# ============================================================================================

def write_shop_review(path: Path) -> None:
    pdf = _new_pdf(datetime(2026, 1, 10, 11, 0), "Kiln & Crow - 2025 in review", "Lena Varga")
    _text_page(pdf, "", [
        "Thank you to everyone who bought a mug, a bowl or a vase this year. 2025 was the shop's "
        "third year, and the busiest so far: 612 orders from 14 countries, and a stall at the "
        "Christmas market for the second time.",
        "Everything is still made by hand in a shared studio, thrown on the wheel, glazed and fired "
        "in small batches, so no two pieces are quite the same.",
        "The next pages show how the year went and what is coming in 2026."],
        title="Kiln & Crow - 2025 in review")
    # page 2: vector line chart of orders per month, no text
    pdf.add_page()
    orders = [21, 24, 35, 44, 49, 53, 31, 28, 50, 74, 112, 91]
    x0, y0, cw, ch = 30, 70, 150, 120
    pdf.set_line_width(0.6)
    pdf.set_draw_color(40, 40, 40)
    pdf.line(x0, y0 + ch, x0 + cw, y0 + ch)
    pdf.line(x0, y0, x0, y0 + ch)
    pdf.set_draw_color(210, 210, 210)
    pdf.set_line_width(0.2)
    for k in range(1, 5):
        pdf.line(x0, y0 + ch - ch * k / 4, x0 + cw, y0 + ch - ch * k / 4)
    pts = [(x0 + 6 + i * (cw - 12) / 11, y0 + ch - ch * v / 120) for i, v in enumerate(orders)]
    pdf.set_draw_color(180, 80, 40)
    pdf.set_line_width(1.2)
    pdf.polyline(pts)
    pdf.set_fill_color(180, 80, 40)
    for x, y in pts:
        pdf.circle(x, y, 2.4, style="F")
    # page 3: photo of the mugs on the studio shelves, nothing else
    pdf.add_page()
    pdf.image(_jpeg(draw.draw_mugs_shelf(), 78), x=20, y=60, w=170)
    _text_page(pdf, "What's next in 2026", [
        "A new glaze line called Tidewater arrives in spring: a blue-green glaze that pools darker in "
        "the throwing lines.",
        "Open studio weekend on 16 and 17 May 2026 at Unit 3, Millrace Studios: come and throw a pot "
        "yourself, with tea and seconds at half price.",
        "Two cafes in town will serve their coffee in Kiln & Crow cups from March. Mug prices go up "
        "by GBP 2 on 1 March, the first increase since the shop opened."])
    _save_pdf(pdf, path)


# ============================================================================================
# Employee handbook, 40 pages, one topic per page; page 3 is a vector org chart
# ============================================================================================

def _org_chart(pdf: FPDF) -> None:
    def box(x, y, name, role):
        pdf.set_fill_color(232, 240, 250)
        pdf.set_draw_color(60, 80, 120)
        pdf.set_line_width(0.5)
        pdf.rect(x, y, 44, 18, style="DF")
        pdf.set_xy(x, y + 2.5)
        pdf.set_font("Helvetica", "B", 8.5)
        pdf.cell(44, 5, name, align="C")
        pdf.set_xy(x, y + 8.5)
        pdf.set_font("Helvetica", "", 7.5)
        pdf.cell(44, 5, role, align="C")

    box(83, 50, "Helen Achterberg", "Chief Executive")
    level2 = [(20, "Rafael Moreno", "CTO"), (83, "Grace Whitlow", "CFO"), (146, "Samira Haddad", "People Director")]
    level3 = [(8, "Priya Nair", "Head of Platform"), (56, "Dmitri Volkov", "Head of Payments"),
              (104, "Ines Carvalho", "Head of Risk")]
    pdf.set_draw_color(60, 80, 120)
    pdf.line(105, 68, 105, 80)
    pdf.line(42, 80, 168, 80)
    for x, name, role in level2:
        pdf.line(x + 22, 80, x + 22, 90)
        box(x, 90, name, role)
    pdf.line(42, 108, 42, 118)
    pdf.line(30, 118, 126, 118)
    for x, name, role in level3:
        pdf.line(x + 22, 118, x + 22, 128)
        box(x, 128, name, role)


def write_handbook(path: Path) -> None:
    pdf = _new_pdf(datetime(2024, 12, 16, 9, 0), "Brightwell Ledger - Employee handbook 2025",
                   "Brightwell Ledger People Team", "Employee handbook")
    n = len(HANDBOOK)
    for i, (heading, paras) in enumerate(HANDBOOK):
        page = i + 1
        header = "Brightwell Ledger - Employee handbook 2025"
        footer = f"Page {page} of {n}"
        if page == 3:
            _text_page(pdf, heading, [], header=header, footer=footer)
            _org_chart(pdf)
        else:
            _text_page(pdf, heading, paras, header=header, footer=footer)
        assert pdf.page_no() == page
    _save_pdf(pdf, path)


# ============================================================================================
# Espresso machine manual: cover photo, parts diagram, text pages
# ============================================================================================

PARTS = ["Cup warmer", "Water tank (1.8 L)", "Pressure gauge", "Buttons: power, 1 cup, 2 cups",
         "Group head", "Portafilter", "Steam wand", "Drip tray with float", "Steam knob", "Main switch"]


def _parts_diagram(pdf: FPDF) -> None:
    pdf.set_draw_color(30, 30, 30)
    pdf.set_line_width(0.8)
    bx, by = 60, 60
    pdf.rect(bx, by, 70, 95)                           # body
    pdf.rect(bx, by - 6, 70, 6)                        # 1 cup warmer
    pdf.rect(bx + 72, by + 5, 14, 80)                  # 2 tank (side)
    pdf.circle(bx + 35, by + 18, 9)                    # 3 gauge
    for k in range(3):
        pdf.circle(bx + 12 + k * 8, by + 38, 2.6)      # 4 buttons
    pdf.rect(bx + 25, by + 48, 20, 8)                  # 5 group head
    pdf.rect(bx + 15, by + 56, 40, 5)                  # 6 portafilter
    pdf.rect(bx + 55, by + 56, 30, 5)
    pdf.line(bx + 62, by + 40, bx + 66, by + 78)       # 7 steam wand
    pdf.rect(bx + 8, by + 84, 54, 9)                   # 8 drip tray
    pdf.circle(bx + 62, by + 30, 3.5)                  # 9 steam knob
    pdf.rect(bx + 4, by + 20, 6, 4)                    # 10 main switch
    callouts = [((bx + 35, by - 3), (45, 48)), ((bx + 79, by + 30), (160, 70)), ((bx + 35, by + 18), (150, 45)),
                ((bx + 20, by + 38), (30, 90)), ((bx + 35, by + 52), (30, 110)), ((bx + 30, by + 58), (30, 130)),
                ((bx + 65, by + 70), (160, 120)), ((bx + 35, by + 88), (60, 175)), ((bx + 62, by + 30), (160, 95)),
                ((bx + 7, by + 22), (30, 70))]
    pdf.set_line_width(0.3)
    pdf.set_font("Helvetica", "B", 10)
    for k, (p, q) in enumerate(callouts, 1):
        pdf.line(p[0], p[1], q[0], q[1])
        pdf.set_fill_color(255, 255, 255)
        pdf.circle(q[0], q[1], 3.4, style="DF")
        pdf.set_xy(q[0] - 3.4, q[1] - 2.5)
        pdf.cell(6.8, 5, str(k), align="C")
    pdf.set_font("Helvetica", "", 10)
    y = 200
    for k, name in enumerate(PARTS, 1):
        pdf.set_xy(30 + (k - 1) // 5 * 80, y + ((k - 1) % 5) * 7)
        pdf.cell(80, 6, f"{k}  {name}")


def write_manual(path: Path) -> None:
    pdf = _new_pdf(datetime(2025, 3, 10, 9, 0), "Aurelia AC-200 user manual", "Aurelia Home Appliances")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 22)
    pdf.set_xy(22, 26)
    pdf.cell(0, 10, "Aurelia AC-200")
    pdf.set_font("Helvetica", "", 14)
    pdf.set_xy(22, 38)
    pdf.cell(0, 8, "User manual")
    pdf.image(_jpeg(draw.draw_espresso_machine(), 80), x=45, y=60, w=120)
    pdf.set_font("Helvetica", "", 10)
    pdf.set_xy(22, 270)
    pdf.cell(0, 6, "Model AC-200  |  15 bar  |  1.8 litre tank  |  1350 W")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 14)
    pdf.set_xy(22, 24)
    pdf.cell(0, 8, "Parts of your machine")
    _parts_diagram(pdf)
    _text_page(pdf, "First use and making espresso", [
        "Rinse the water tank and fill it with fresh cold water up to the MAX line. Switch the "
        "machine on with the main switch at the back; the buttons blink while it heats up, about "
        "four minutes.",
        "Before the first coffee, run two tanks of water through the group head and the steam wand "
        "to flush the system.",
        "For a double espresso, fill the double basket with 18 g of finely ground coffee, level it "
        "and tamp firmly. Lock the portafilter into the group head and press the 2 cups button. A "
        "good shot takes 25 to 30 seconds and gives about 36 g of coffee.",
        "To froth milk, fill a cold jug one third full, purge the steam wand for two seconds, then "
        "hold the tip just under the surface and open the steam knob."], footer="3")
    _text_page(pdf, "Cleaning and descaling", [
        "Every day: knock out the coffee grounds, rinse the portafilter and basket, wipe the steam "
        "wand with a damp cloth straight after use and purge it. Empty the drip tray when the red "
        "float appears.",
        "Every week: backflush the group head with the blind basket and one cleaning tablet.",
        "Descale every three months, or every two months if your water is hard, and whenever the "
        "orange DESCALE light comes on. Dissolve one sachet of Aurelia DS-40 descaler in one litre "
        "of water, pour it into the empty tank, and hold the power and 1 cup buttons together for "
        "five seconds. The programme runs for about 25 minutes and pauses once for you to empty the "
        "drip tray. Rinse the tank and run one full tank of clean water afterwards.",
        "Damage caused by limescale is not covered by the warranty."], footer="4")
    _text_page(pdf, "Troubleshooting", [
        "- No water comes out and the pump is loud: the tank is empty or not seated properly. Refill "
        "it, push it down firmly and run water through the steam wand for ten seconds to prime the "
        "pump.",
        "- Coffee runs too fast and tastes sour: grind finer or use more coffee.",
        "- Coffee only drips out: grind coarser, tamp less hard, or descale the machine.",
        "- The steam wand sputters: purge it and clean the tip with the pin supplied.",
        "- All buttons flash red: the machine has overheated. Switch it off and let it cool for 30 "
        "minutes.",
        "- Water under the machine: the drip tray is full or not pushed in fully."], footer="5")
    _text_page(pdf, "Warranty and service", [
        "The AC-200 has a two-year warranty from the date of purchase. Register the machine within "
        "30 days at aurelia-home.example/register to extend the warranty to three years.",
        "The serial number is printed on the plate under the machine; keep it with your receipt.",
        "For repairs, contact Aurelia Service UK, Unit 7 Kestrel Park, Ashby, or call 01632 960 880 "
        "(Monday to Friday, 09:00 to 17:00). Do not open the housing yourself: there are no parts "
        "inside that you can service."], footer="6")
    _save_pdf(pdf, path)


# ============================================================================================
# Invoices
# ============================================================================================

def write_invoice(path: Path, when: datetime, vendor: list[str], number: str, bill_to: list[str],
                  lines: list[tuple[str, float, float]], notes: list[str], vat: float = 0.20,
                  due_days: int = 14) -> tuple[float, float, float]:
    pdf = _new_pdf(when, f"Invoice {number}", vendor[0], "Invoice")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 18)
    pdf.set_xy(22, 22)
    pdf.cell(0, 9, vendor[0])
    pdf.set_font("Helvetica", "", 9.5)
    for k, line in enumerate(vendor[1:]):
        pdf.set_xy(22, 33 + k * 5)
        pdf.cell(0, 5, line)
    pdf.set_font("Helvetica", "B", 24)
    pdf.set_xy(130, 22)
    pdf.cell(58, 10, "INVOICE", align="R")
    pdf.set_font("Helvetica", "", 10)
    due = datetime.fromordinal(when.toordinal() + due_days)
    for k, (lab, val) in enumerate([("Invoice no.", number), ("Date", f"{when:%d %B %Y}"),
                                    ("Due", f"{due:%d %B %Y}")]):
        pdf.set_xy(120, 36 + k * 6)
        pdf.cell(30, 6, lab)
        pdf.cell(38, 6, val, align="R")
    pdf.set_font("Helvetica", "B", 10)
    pdf.set_xy(22, 64)
    pdf.cell(0, 6, "Bill to")
    pdf.set_font("Helvetica", "", 10)
    for k, line in enumerate(bill_to):
        pdf.set_xy(22, 70 + k * 5.5)
        pdf.cell(0, 5.5, line)
    y = 104
    pdf.set_fill_color(235, 238, 242)
    pdf.set_font("Helvetica", "B", 10)
    pdf.set_xy(22, y)
    pdf.cell(96, 8, "Description", fill=True)
    pdf.cell(20, 8, "Qty", fill=True, align="R")
    pdf.cell(25, 8, "Unit GBP", fill=True, align="R")
    pdf.cell(25, 8, "Amount GBP", fill=True, align="R")
    pdf.set_font("Helvetica", "", 10)
    subtotal = 0.0
    for desc, qty, unit in lines:
        y += 9
        amount = round(qty * unit, 2)
        subtotal += amount
        pdf.set_xy(22, y)
        pdf.cell(96, 8, desc)
        pdf.cell(20, 8, f"{qty:g}", align="R")
        pdf.cell(25, 8, f"{unit:,.2f}", align="R")
        pdf.cell(25, 8, f"{amount:,.2f}", align="R")
    subtotal = round(subtotal, 2)
    tax = round(subtotal * vat, 2)
    total = round(subtotal + tax, 2)
    y += 14
    for lab, val, bold in (("Subtotal", subtotal, False), (f"VAT {vat * 100:.0f}%", tax, False),
                           ("Total due", total, True)):
        pdf.set_font("Helvetica", "B" if bold else "", 10.5)
        pdf.set_xy(118, y)
        pdf.cell(45, 7, lab)
        pdf.cell(25, 7, f"{val:,.2f}", align="R")
        y += 7
    pdf.set_font("Helvetica", "", 9.5)
    y += 12
    for note in notes:
        pdf.set_xy(22, y)
        pdf.multi_cell(166, 5, note)
        y = pdf.get_y() + 2
    _save_pdf(pdf, path)
    return subtotal, tax, total


# ============================================================================================
# Photo book (landscape; title page then one full-page photo per page, no captions)
# ============================================================================================

def write_photobook(path: Path) -> None:
    pdf = _new_pdf(datetime(2024, 8, 10, 18, 0), "Cornwall July 2024", "Lena Varga", orientation="L")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 30)
    pdf.set_xy(0, 80)
    pdf.cell(297, 14, "Cornwall", align="C")
    pdf.set_font("Helvetica", "", 16)
    pdf.set_xy(0, 100)
    pdf.cell(297, 10, "July 2024", align="C")
    for img in (draw.draw_harbour(), draw.draw_beach_umbrellas(), draw.draw_cliffs()):
        pdf.add_page()
        pdf.image(_jpeg(img, 76), x=28.5, y=15, w=240)
    _save_pdf(pdf, path)


# ============================================================================================
# Image-only scans
# ============================================================================================

def write_scan_pdf(path: Path, pages: list[Image.Image], when: datetime) -> None:
    pdf = _new_pdf(when, creator="NorthScan 2.1")
    for img in pages:
        pdf.add_page()
        pdf.image(_jpeg(img, 55), x=0, y=0, w=210, h=297)
    _save_pdf(pdf, path)


ADDENDUM_P1 = [
    ("title", "ADDENDUM No. 1 TO THE ASSURED SHORTHOLD TENANCY AGREEMENT"),
    ("gap", "10"),
    ("body", "Property: Flat 4, 27 Cobalt Lane, Northmere NM3 8QT"),
    ("body", "Landlord: Gideon Marsh, c/o Marsh & Pryce Lettings, 4 Ferry Street, Northmere"),
    ("body", "Tenant: Lena Varga"),
    ("body", "Date of this addendum: 21 February 2025"),
    ("gap", "10"),
    ("body", "This addendum changes the tenancy agreement dated 30 August 2024 as set out below. All "
             "other terms of the agreement remain in force."),
    ("gap", "16"),
    ("head", "1. Keeping a cat"),
    ("body", "The Landlord gives consent for the Tenant to keep one domestic cat, named Biscuit, at "
             "the Property. The consent applies to this cat only and not to any other animal. The "
             "Tenant will keep the cat's vaccinations and flea treatment up to date, will repair or "
             "pay for any damage the cat causes, and will have the carpets professionally cleaned at "
             "the end of the tenancy."),
    ("body", "An additional deposit of GBP 200 is payable on signing this addendum and will be "
             "protected in the same scheme as the main deposit."),
    ("gap", "16"),
    ("head", "2. Rent"),
    ("body", "From 1 March 2025 the rent increases from GBP 1,325 to GBP 1,365 per calendar month, "
             "payable on the first day of each month by standing order as before."),
    ("gap", "40"),
    ("small", "Page 1 of 2"),
]

ADDENDUM_P2 = [
    ("head", "3. Bicycles"),
    ("body", "The Tenant may keep up to two bicycles in the shared bicycle store on the ground floor, "
             "behind the bin store. The store is opened with the same fob as the bin store. Bicycles "
             "must not be left in the hallway or on the stairs."),
    ("gap", "16"),
    ("head", "4. Signatures"),
    ("body", "Signed on 21 February 2025 by G. Marsh for Marsh & Pryce Lettings (left) and by the "
             "Tenant, L. Varga (right)."),
]

GAS_SAFETY = [
    ("title", "LANDLORD GAS SAFETY RECORD"),
    ("body", "Kestrel Heating Services, 18 Millbrook Road, Northmere. Registered engineer ID KH-7719."),
    ("gap", "10"),
    ("body", "Installation address: Flat 4, 27 Cobalt Lane, Northmere NM3 8QT"),
    ("body", "Landlord: G. Marsh, c/o Marsh & Pryce Lettings"),
    ("body", "Date of inspection: 22 August 2024"),
    ("gap", "14"),
    ("monobold", "Appliance        Location          Flue type      Result"),
    ("mono", "Combi boiler     Kitchen cupboard  Room sealed    PASS\n"
             "Gas hob          Kitchen           Flueless       PASS\n"
             "Gas meter        Hallway           -              PASS"),
    ("gap", "14"),
    ("body", "Carbon monoxide alarm fitted in the kitchen and tested: working. Ventilation adequate. "
             "Gas tightness test: pass. No defects found."),
    ("gap", "10"),
    ("head", "Next inspection due by: 21 August 2025"),
    ("gap", "10"),
    ("body", "Engineer: M. Castellanos"),
    ("body", "Signature:"),
]

COUNCIL_LETTER = [
    ("title", "NORTHMERE BOROUGH COUNCIL"),
    ("small", "Parking Services, Civic Centre, Riverside Way, Northmere NM1 1AA"),
    ("gap", "30"),
    ("body", "Ms L. Varga\nFlat 4, 27 Cobalt Lane\nNorthmere NM3 8QT"),
    ("gap", "10"),
    ("right", "3 March 2025"),
    ("gap", "16"),
    ("body", "Dear Ms Varga,"),
    ("head", "Resident parking permit - Zone C"),
    ("body", "Thank you for your application. We have approved a resident parking permit for the "
             "vehicle registered NM19 KXT."),
    ("body", "Permit number: RP-48213\nZone: C (Cobalt Lane, Vale Street and Tanner Row)\n"
             "Valid from 1 April 2025 to 31 March 2026"),
    ("body", "The fee of GBP 85.00 has been paid. Your permit is virtual: you do not need to display "
             "anything in the windscreen, because civil enforcement officers check the registration "
             "number."),
    ("body", "You can buy up to 50 one-day visitor permits a year online, at GBP 2.50 each. If you "
             "change your vehicle or move house, please tell us within 14 days so that we can update "
             "the permit."),
    ("gap", "20"),
    ("body", "Yours sincerely,"),
    ("gap", "50"),
    ("body", "R. Okonedo\nParking Services Manager"),
]

REPAIR_RECEIPT = [
    ("monobold", "  FIXWELL PHONE & LAPTOP REPAIR"),
    ("mono", "   9 Station Parade, Northmere\n        Tel 01632 960 552"),
    ("gap", "20"),
    ("mono", "Job ref:  FX-20931\nDate:     12/09/2025 15:10\nCustomer: L. Varga\n"
             "Device:   14in laptop, cracked screen"),
    ("gap", "20"),
    ("mono", "Replacement LCD panel 14in   149.00\nLabour                        40.00\n"
             "--------------------------------------"),
    ("monobold", "TOTAL                     GBP 189.00"),
    ("mono", "Paid by card                 189.00"),
    ("gap", "24"),
    ("mono", "WARRANTY: 90 days on parts and\nlabour from the date of collection.\n"
             "Keep this receipt.\n\nYour data was not accessed during\nthe repair.\n\n"
             "      Thank you - Fixwell"),
]


def write_scans(out: Path) -> dict[str, str]:
    """The image-only PDFs; returns rel path -> day."""
    made = {}
    pages = [draw.render_scan_page(ADDENDUM_P1, 9001, 0.7),
             draw.render_scan_page(ADDENDUM_P2, 9002, -0.5, signature=True)]
    write_scan_pdf(out / "scans/scan_0001.pdf", pages, datetime(2025, 2, 24, 9, 12))
    made["scans/scan_0001.pdf"] = "2025-02-24"
    write_scan_pdf(out / "scans/scan_0002.pdf", [draw.render_scan_page(GAS_SAFETY, 9003, -0.9, signature=True)],
                   datetime(2024, 9, 3, 19, 40))
    made["scans/scan_0002.pdf"] = "2024-09-03"
    write_scan_pdf(out / "scans/scan_0003.pdf", [draw.render_scan_page(COUNCIL_LETTER, 9004, 1.1, signature=True)],
                   datetime(2025, 3, 6, 20, 5))
    made["scans/scan_0003.pdf"] = "2025-03-06"
    write_scan_pdf(out / "scans/scan_0004.pdf", [draw.render_scan_page(REPAIR_RECEIPT, 9005, 1.6, receipt=True)],
                   datetime(2025, 9, 12, 18, 30))
    made["scans/scan_0004.pdf"] = "2025-09-12"
    return made


# ============================================================================================
# Word files
# ============================================================================================

def _save_docx(doc, path: Path, when: datetime, author: str, title: str, subject: str = "") -> None:
    cp = doc.core_properties
    cp.author = author
    cp.last_modified_by = author
    cp.title = title
    cp.subject = subject
    cp.keywords = ""
    cp.comments = ""
    cp.category = ""
    cp.created = when
    cp.modified = when
    cp.last_printed = when
    cp.revision = 1
    buf = io.BytesIO()
    doc.save(buf)
    path.parent.mkdir(parents=True, exist_ok=True)
    stamp = (when.year, when.month, when.day, when.hour, when.minute, 0)
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as src, \
            zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            zi = zipfile.ZipInfo(info.filename, date_time=stamp)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            dst.writestr(zi, src.read(info.filename))


def _table(doc, header: list[str], rows: list[tuple], bold_last: bool = False) -> None:
    table = doc.add_table(rows=1, cols=len(header))
    table.style = "Table Grid"
    for cell, text in zip(table.rows[0].cells, header):
        cell.text = text
        cell.paragraphs[0].runs[0].bold = True
    for i, row in enumerate(rows):
        cells = table.add_row().cells
        for cell, text in zip(cells, row):
            cell.text = str(text)
            if bold_last and i == len(rows) - 1:
                for run in cell.paragraphs[0].runs:
                    run.bold = True


def write_kitchen_docx(path: Path) -> None:
    import docx
    from docx.shared import Cm
    doc = docx.Document()
    doc.add_heading("Kitchen renovation - 14 Elm Close", level=0)
    doc.add_paragraph("Plan for Mum and Dad's kitchen, agreed on 26 January 2025. I am coordinating "
                      "the trades; Dad pays the suppliers directly.")
    doc.add_heading("What changes", level=1)
    doc.add_paragraph(
        "The old units from 1994 come out. The new layout keeps the sink under the window, adds an "
        "L-shaped run of worktop along the left wall with the tall fridge at the end, and puts an "
        "island with four stools in the middle of the room. The gas cooker is replaced by an "
        "induction hob, which needs its own new circuit from the consumer unit.")
    doc.add_heading("Layout", level=1)
    doc.add_picture(_png(draw.draw_kitchen_plan()), width=Cm(14))
    doc.add_heading("Budget", level=1)
    _table(doc, ["Item", "Supplier", "Cost (GBP)"], [
        ("Base and wall cabinets, sage green", "Hartwell Kitchens", "3,850"),
        ("Solid oak worktop, 4.2 m plus island top", "Hartwell Kitchens", "1,240"),
        ("Induction hob, 4 zones", "Corran Electrical", "520"),
        ("Sink and mixer tap", "Corran Electrical", "310"),
        ("New hob circuit and sockets", "Sparkwise Electrical", "768"),
        ("Wall tiles and tiling", "T. Mbeki Tiling", "640"),
        ("Contingency", "", "700"),
        ("Total", "", "8,028"),
    ], bold_last=True)
    doc.add_heading("Timeline", level=1)
    for step in ("3 February: old kitchen removed, electrician on site 5-7 February.",
                 "10-14 February: cabinets and worktop fitted.",
                 "17-19 February: tiling, hob and sink connected.",
                 "21 February: final clean; Mum and Dad cook again."):
        doc.add_paragraph(step, style="List Bullet")
    _save_docx(doc, path, datetime(2025, 1, 30, 20, 15), "Lena Varga", "Kitchen renovation - 14 Elm Close")


def write_capacity_docx(path: Path) -> None:
    import docx
    from docx.shared import Cm
    doc = docx.Document()
    doc.add_heading("marlin search cluster - capacity plan 2025-2026", level=0)
    doc.add_paragraph("Author: Lena Varga, with numbers from Oluwaseun Adebayo. Status: for review by "
                      "the platform team, 25 February 2025.")
    doc.add_heading("Where we are", level=1)
    doc.add_paragraph(
        "The cluster has five data nodes with 2 TB of disk each. The product indices hold 4.3 TB "
        "including replicas and grow by about 18 percent per quarter as merchants add catalogue "
        "data and images metadata. We want to stay below 75 percent disk use on every node so that "
        "shard moves and reindexing always have room.")
    doc.add_heading("Projection", level=1)
    _table(doc, ["Quarter", "Projected data (TB)", "Usable disk (TB)", "Nodes needed"], [
        ("Q3 2025", "5.1", "10.0", "5"), ("Q4 2025", "6.0", "10.0", "5"), ("Q1 2026", "7.2", "10.0", "5"),
        ("Q2 2026", "8.6", "10.0", "5"), ("Q3 2026", "10.1", "10.0", "7"), ("Q4 2026", "11.9", "10.0", "7"),
    ])
    doc.add_picture(_png(draw.draw_capacity_chart()), width=Cm(15))
    doc.add_heading("Recommendation", level=1)
    doc.add_paragraph(
        "Move to five new nodes with 4 TB NVMe each in the Frankfurt data centre in April 2025 "
        "(usable 10 TB at 75 percent after replicas), then add two more nodes of the same type "
        "before the end of Q2 2026, because the projection crosses usable disk in Q3 2026. Each node "
        "costs about 640 per month; the two extra nodes add 15,360 per year.")
    _save_docx(doc, path, datetime(2025, 2, 25, 16, 40), "Lena Varga", "marlin capacity plan")


def write_book_club_docx(path: Path) -> None:
    import docx
    from docx.shared import Cm
    doc = docx.Document()
    doc.add_heading("Cobalt Lane book club - 2025", level=0)
    doc.add_paragraph("We meet on the last Thursday of the month at 19:30, at the host's place. "
                      "The host chooses the snacks; everyone brings something to drink.")
    doc.add_picture(_png(draw.draw_book_stack()), width=Cm(9))
    doc.add_heading("Schedule", level=1)
    _table(doc, ["Month", "Book", "Author", "Host"], [
        ("January", "The Winter Orchard", "Maren Holt", "Sofia"),
        ("February", "Seven Bridges to Kell", "Tobias Ward", "Kwame"),
        ("March", "A Small Weather", "Yuki Sato", "Ana"),
        ("April", "The Salt Ledger", "Idris Bello", "Marek"),
        ("May", "Nights at the Lantern Inn", "Clara Voss", "Sofia"),
        ("June", "The Cartographer's Silence", "Ottilie Brandt", "Lena"),
        ("July", "summer break", "", ""),
        ("September", "Everything the River Took", "Amal Haddad", "Kwame"),
        ("October", "Glasshouse Days", "Pieter Claes", "Ana"),
        ("November", "The Long Way to Wexmoor", "Rosa Linde", "Marek"),
        ("December", "Christmas party, no book", "", "Lena"),
    ])
    doc.add_heading("Rules", level=1)
    doc.add_paragraph("Finish the book or not, come anyway. No spoilers in the group chat before the "
                      "meeting. Suggestions for next year by the November meeting.")
    _save_docx(doc, path, datetime(2025, 1, 8, 21, 0), "Lena Varga", "Book club 2025")


def write_iceland_docx(path: Path) -> None:
    import docx
    from docx.shared import Cm
    doc = docx.Document()
    doc.add_heading("Iceland, 14-22 May 2025 - itinerary", level=0)
    doc.add_paragraph("Rental car pick-up at Keflavik airport on 14 May at 16:00 (booking AV-33817). "
                      "Ring road anticlockwise. All nights booked, breakfast included unless noted.")
    doc.add_picture(_png(draw.draw_iceland_map()), width=Cm(13))
    doc.add_heading("Day by day", level=1)
    _table(doc, ["Day", "Route", "Driving", "Overnight"], [
        ("1 (14 May)", "Keflavik - Reykjavik", "50 km", "Guesthouse Baldursgata"),
        ("2 (15 May)", "Reykjavik - Seljalandsfoss - Skogafoss - Vik", "190 km", "Vik farm cottage"),
        ("3 (16 May)", "Vik - Jokulsarlon glacier lagoon - Hofn", "272 km", "Hali country hotel"),
        ("4 (17 May)", "Hofn - east fjords - Egilsstadir", "250 km", "Lakeside cabins, no breakfast"),
        ("5 (18 May)", "Egilsstadir - Dettifoss - Myvatn", "180 km", "Myvatn guesthouse"),
        ("6 (19 May)", "Myvatn - Husavik whale watching - Akureyri", "140 km", "Akureyri apartment"),
        ("7 (20 May)", "Akureyri - Borgarnes", "310 km", "Borgarnes hostel, private room"),
        ("8 (21 May)", "Borgarnes - Reykjavik - Keflavik", "120 km", "Airport hotel"),
    ])
    doc.add_paragraph("Fuel: the car takes diesel. Keep the tank above half in the east; stations are "
                      "far apart.")
    _save_docx(doc, path, datetime(2025, 4, 28, 22, 5), "Lena Varga", "Iceland itinerary")
