"""Pictures of the benchmark folder, drawn with Pillow (+ numpy), deterministic.

Photos (scenes), receipts, screenshots, charts, diagrams, the pictures that go inside the Word
files and PDFs, and the rendered pages of the image-only "scanned" PDFs. No randomness except
seeded numpy/random generators; no clock.
"""
from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

REPO = Path(__file__).resolve().parents[1]
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")

# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------

_FONT_CACHE: dict = {}


def font(size: int, style: str = "sans") -> ImageFont.FreeTypeFont:
    """style: sans, bold, oblique, mono, monobold, serif, serifbold, cond."""
    files = {"sans": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf", "oblique": "DejaVuSans-Oblique.ttf",
             "mono": "DejaVuSansMono.ttf", "monobold": "DejaVuSansMono-Bold.ttf",
             "serif": "DejaVuSerif.ttf", "serifbold": "DejaVuSerif-Bold.ttf",
             "cond": "DejaVuSansCondensed.ttf", "condbold": "DejaVuSansCondensed-Bold.ttf"}
    key = (size, style)
    if key not in _FONT_CACHE:
        path = FONT_DIR / files[style]
        if not path.exists():
            path = FONT_DIR / "DejaVuSans.ttf"
        try:
            _FONT_CACHE[key] = ImageFont.truetype(str(path), size)
        except OSError:
            _FONT_CACHE[key] = ImageFont.load_default(size=size)
    return _FONT_CACHE[key]


def _load_examples_module():
    """tools/make_examples.py, for its two finished scene drawings (lighthouse, red bicycle)."""
    path = REPO / "tools" / "make_examples.py"
    spec = importlib.util.spec_from_file_location("scent_make_examples", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def vgrad(h: int, w: int, stops) -> np.ndarray:
    ys = np.linspace(0.0, 1.0, h)
    pos = [p for p, _ in stops]
    cols = np.array([c for _, c in stops], dtype=np.float64)
    col = np.stack([np.interp(ys, pos, cols[:, k]) for k in range(3)], axis=1)
    return np.repeat(col[:, None, :], w, axis=1)


def grad_img(w: int, h: int, stops) -> Image.Image:
    return Image.fromarray(vgrad(h, w, stops).astype(np.uint8), "RGB")


def finish(img: Image.Image, seed: int, grain: float = 4.0, blur: float = 0.7, vignette: float = 0.18) -> Image.Image:
    """Soften, add film grain and a gentle vignette: makes a drawing look a little like a photo."""
    img = img.filter(ImageFilter.GaussianBlur(blur))
    a = np.asarray(img).astype(np.float64)
    rng = np.random.default_rng(seed)
    a += rng.normal(0.0, grain, size=a.shape[:2])[:, :, None]
    h, w = a.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    d = np.sqrt(((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2)
    a *= (1.0 - vignette * np.clip(d - 0.55, 0, None))[:, :, None]
    return Image.fromarray(np.clip(a, 0, 255).astype(np.uint8), "RGB")


def overlay(img: Image.Image, draw_fn, blur: float = 0.0) -> Image.Image:
    """Draw semi-transparent shapes on an RGBA layer (optionally blurred) and composite it."""
    layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
    draw_fn(ImageDraw.Draw(layer))
    if blur:
        layer = layer.filter(ImageFilter.GaussianBlur(blur))
    out = img.convert("RGBA")
    out.alpha_composite(layer)
    return out.convert("RGB")


def exif_bytes(make: str, model: str, when: str, software: str = "") -> bytes:
    exif = Image.Exif()
    exif[0x010F] = make
    exif[0x0110] = model
    exif[0x0132] = when
    if software:
        exif[0x0131] = software
    ifd = exif.get_ifd(0x8769)
    ifd[0x9003] = when
    ifd[0x9004] = when
    return exif.tobytes()


def shade(c, f: float):
    return tuple(max(0, min(255, int(v * f))) for v in c)


def arrow(draw: ImageDraw.ImageDraw, p0, p1, fill, width: int = 3, head: int = 14) -> None:
    draw.line([p0, p1], fill=fill, width=width)
    ang = math.atan2(p1[1] - p0[1], p1[0] - p0[0])
    left = (p1[0] - head * math.cos(ang - 0.4), p1[1] - head * math.sin(ang - 0.4))
    right = (p1[0] - head * math.cos(ang + 0.4), p1[1] - head * math.sin(ang + 0.4))
    draw.polygon([p1, left, right], fill=fill)


def centered_text(draw, box, text, fnt, fill, spacing: int = 4) -> None:
    x0, y0, x1, y1 = box
    bb = draw.multiline_textbbox((0, 0), text, font=fnt, spacing=spacing, align="center")
    tw, th = bb[2] - bb[0], bb[3] - bb[1]
    draw.multiline_text(((x0 + x1 - tw) / 2 - bb[0], (y0 + y1 - th) / 2 - bb[1]), text, font=fnt,
                        fill=fill, spacing=spacing, align="center")


# --------------------------------------------------------------------------------------------
# Photos (scenes)
# --------------------------------------------------------------------------------------------

def draw_lighthouse() -> Image.Image:
    return _load_examples_module().draw_lighthouse()


def draw_red_bicycle() -> Image.Image:
    return _load_examples_module().draw_bicycle()


def draw_sailboat_sunset(w: int = 1200, h: int = 800) -> Image.Image:
    """Sunset over open sea with a sailing boat; no lighthouse (distractor of the lighthouse)."""
    rng = np.random.default_rng(1740)
    horizon = int(h * 0.58)
    img = grad_img(w, h, [(0.0, (58, 40, 98)), (0.3, (170, 80, 120)), (0.55, (246, 140, 80)),
                          (horizon / h, (255, 204, 120)), (horizon / h + 0.001, (60, 50, 80)),
                          (1.0, (22, 24, 48))])
    sun = (360, horizon - 30)
    img = overlay(img, lambda d: d.ellipse([sun[0] - 110, sun[1] - 110, sun[0] + 110, sun[1] + 110],
                                           fill=(255, 220, 150, 90)), blur=30)
    d = ImageDraw.Draw(img)
    d.ellipse([sun[0] - 48, sun[1] - 48, sun[0] + 48, sun[1] + 48], fill=(255, 236, 180))
    d.rectangle([0, horizon, w, h], fill=None)
    # re-paint sea over the lower half of the sun
    sea = vgrad(h - horizon, w, [(0, (96, 70, 100)), (1, (22, 24, 48))])
    img.paste(Image.fromarray(sea.astype(np.uint8), "RGB"), (0, horizon))
    d = ImageDraw.Draw(img)
    # glittering path of the sun on the water
    for _ in range(420):
        y = rng.uniform(horizon + 2, h)
        spread = 30 + (y - horizon) * 0.45
        x = sun[0] + rng.normal(0, spread / 2)
        ln = rng.uniform(8, 40)
        c = int(rng.integers(200, 255))
        d.line([(x, y), (x + ln, y)], fill=(255, c, 140), width=2)
    # distant island silhouettes
    d.polygon([(700, horizon), (780, horizon - 28), (860, horizon - 40), (960, horizon - 22), (1040, horizon)],
              fill=(70, 44, 80))
    d.polygon([(1000, horizon), (1080, horizon - 16), (1200, horizon - 10), (1200, horizon)], fill=(84, 52, 88))
    # sailing boat
    bx, by = 760, horizon + 130
    d.polygon([(bx - 120, by), (bx + 130, by), (bx + 100, by + 34), (bx - 96, by + 34)], fill=(30, 24, 40))
    d.line([(bx, by), (bx, by - 250)], fill=(30, 24, 40), width=6)
    d.polygon([(bx + 6, by - 240), (bx + 6, by - 8), (bx + 120, by - 8)], fill=(250, 206, 170))
    d.polygon([(bx - 6, by - 200), (bx - 6, by - 8), (bx - 100, by - 8)], fill=(236, 180, 150))
    for k in range(14):
        x0 = bx - 130 + k * 20
        d.arc([x0, by + 30, x0 + 30, by + 46], 180, 360, fill=(140, 110, 130), width=2)
    # gulls
    for gx, gy, s in [(520, 150, 12), (560, 170, 9), (980, 120, 10)]:
        d.arc([gx - s, gy - s // 2, gx, gy + s // 2], 200, 340, fill=(40, 24, 50), width=3)
        d.arc([gx, gy - s // 2, gx + s, gy + s // 2], 200, 340, fill=(40, 24, 50), width=3)
    return finish(img, 1741)


def _cat_curled(d: ImageDraw.ImageDraw, cx: int, cy: int, s: float, fur, stripe) -> None:
    """A cat lying curled up asleep, seen from the side; (cx, cy) is the middle of the body."""
    # tail wrapped around the front
    d.arc([cx - 150 * s, cy - 10 * s, cx + 130 * s, cy + 80 * s], 10, 175, fill=fur, width=int(26 * s))
    d.ellipse([cx - 170 * s, cy - 80 * s, cx + 150 * s, cy + 70 * s], fill=fur)           # body
    d.ellipse([cx - 120 * s, cy - 95 * s, cx + 60 * s, cy + 10 * s], fill=shade(fur, 1.06))  # back
    for k in range(6):                                                                  # stripes
        x = cx - 110 * s + k * 36 * s
        d.arc([x - 30 * s, cy - 90 * s, x + 30 * s, cy + 10 * s], 200, 300, fill=stripe, width=int(9 * s))
    hx, hy = cx + 135 * s, cy + 5 * s                                                    # head
    d.ellipse([hx - 62 * s, hy - 50 * s, hx + 62 * s, hy + 48 * s], fill=fur)
    d.polygon([(hx - 52 * s, hy - 26 * s), (hx - 40 * s, hy - 84 * s), (hx - 8 * s, hy - 44 * s)], fill=fur)
    d.polygon([(hx + 8 * s, hy - 46 * s), (hx + 40 * s, hy - 86 * s), (hx + 54 * s, hy - 24 * s)], fill=fur)
    d.polygon([(hx - 42 * s, hy - 34 * s), (hx - 38 * s, hy - 70 * s), (hx - 18 * s, hy - 42 * s)],
              fill=(236, 170, 160))
    d.polygon([(hx + 18 * s, hy - 44 * s), (hx + 38 * s, hy - 72 * s), (hx + 44 * s, hy - 32 * s)],
              fill=(236, 170, 160))
    for k in range(3):
        d.line([(hx - 20 * s + k * 18 * s, hy - 46 * s), (hx - 16 * s + k * 16 * s, hy - 30 * s)],
               fill=stripe, width=int(5 * s))
    # closed eyes, nose, muzzle
    d.arc([hx - 38 * s, hy - 10 * s, hx - 10 * s, hy + 10 * s], 20, 160, fill=(50, 30, 20), width=int(4 * s))
    d.arc([hx + 10 * s, hy - 10 * s, hx + 38 * s, hy + 10 * s], 20, 160, fill=(50, 30, 20), width=int(4 * s))
    d.polygon([(hx - 7 * s, hy + 14 * s), (hx + 7 * s, hy + 14 * s), (hx, hy + 22 * s)], fill=(200, 110, 110))
    for k in (-1, 1):
        for j in range(3):
            d.line([(hx + k * 14 * s, hy + 22 * s + j * 4 * s), (hx + k * 70 * s, hy + 12 * s + j * 10 * s)],
                   fill=(250, 240, 230), width=2)
    # front paws tucked under the chin
    d.ellipse([hx - 70 * s, hy + 28 * s, hx - 20 * s, hy + 52 * s], fill=shade(fur, 1.1))
    d.ellipse([hx - 30 * s, hy + 32 * s, hx + 20 * s, hy + 56 * s], fill=shade(fur, 1.1))


def draw_cat_on_sofa(w: int = 1200, h: int = 800) -> Image.Image:
    """Orange tabby asleep, curled up on a green sofa in a living room."""
    img = grad_img(w, h, [(0, (222, 208, 186)), (0.7, (206, 190, 166)), (0.7001, (150, 106, 70)), (1, (120, 82, 52))])
    d = ImageDraw.Draw(img)
    for x in range(0, w, 60):  # floorboards
        d.line([(x, int(h * 0.7)), (x - 80, h)], fill=(130, 90, 58), width=2)
    # framed picture and a floor lamp
    d.rectangle([470, 70, 730, 250], fill=(60, 50, 40))
    d.rectangle([484, 84, 716, 236], fill=(170, 200, 210))
    d.polygon([(484, 236), (560, 150), (630, 236)], fill=(90, 120, 100))
    d.polygon([(580, 236), (660, 170), (716, 236)], fill=(70, 100, 90))
    d.line([(1080, 140), (1080, 560)], fill=(50, 50, 50), width=8)
    d.polygon([(1020, 140), (1140, 140), (1110, 60), (1050, 60)], fill=(246, 228, 190))
    img = overlay(img, lambda o: o.ellipse([960, 40, 1200, 260], fill=(255, 240, 200, 70)), blur=40)
    d = ImageDraw.Draw(img)
    # sofa
    green, dark = (104, 138, 112), (78, 108, 86)
    d.rounded_rectangle([120, 250, 1000, 520], radius=40, fill=dark)                 # back
    d.rounded_rectangle([150, 270, 560, 470], radius=30, fill=green)                # back cushions
    d.rounded_rectangle([570, 270, 970, 470], radius=30, fill=green)
    d.rounded_rectangle([120, 440, 1000, 640], radius=30, fill=dark)                # base
    d.rounded_rectangle([170, 440, 560, 540], radius=22, fill=shade(green, 1.08))   # seat cushions
    d.rounded_rectangle([565, 440, 950, 540], radius=22, fill=shade(green, 1.08))
    d.rounded_rectangle([70, 330, 200, 640], radius=40, fill=shade(dark, 0.95))     # arms
    d.rounded_rectangle([920, 330, 1050, 640], radius=40, fill=shade(dark, 0.95))
    for x in (150, 970):
        d.rectangle([x, 640, x + 20, 680], fill=(60, 40, 30))
    # a throw cushion
    d.rounded_rectangle([200, 330, 330, 450], radius=24, fill=(214, 150, 80))
    d.line([(210, 390), (320, 390)], fill=(190, 126, 60), width=3)
    # the cat
    _cat_curled(d, 600, 430, 1.0, (222, 140, 64), (176, 96, 40))
    img = overlay(img, lambda o: o.ellipse([380, 480, 820, 540], fill=(0, 0, 0, 50)), blur=12)
    return finish(img, 2041)


def draw_cat_at_window(w: int = 1200, h: int = 800) -> Image.Image:
    """A grey cat sitting upright on a windowsill looking out at rooftops (awake, not a sofa)."""
    img = Image.new("RGB", (w, h), (236, 232, 222))
    d = ImageDraw.Draw(img)
    # window with a view
    view = grad_img(620, 460, [(0, (130, 176, 224)), (1, (206, 226, 240))])
    vd = ImageDraw.Draw(view)
    rng = np.random.default_rng(2966)
    x = -10
    while x < 620:
        bw, bh = int(rng.integers(70, 130)), int(rng.integers(120, 260))
        col = tuple(int(v) for v in rng.integers(120, 190, 3))
        vd.rectangle([x, 460 - bh, x + bw, 460], fill=col)
        vd.polygon([(x - 6, 460 - bh), (x + bw // 2, 460 - bh - 40), (x + bw + 6, 460 - bh)], fill=(110, 70, 60))
        vd.rectangle([x + bw // 3, 460 - bh - 30, x + bw // 3 + 12, 460 - bh - 10], fill=(90, 60, 50))
        for wy in range(460 - bh + 20, 440, 44):
            for wx in range(x + 12, x + bw - 20, 30):
                vd.rectangle([wx, wy, wx + 16, wy + 22], fill=(70, 90, 120))
        x += bw + 8
    img.paste(view, (290, 90))
    d.rectangle([280, 80, 920, 560], outline=(250, 250, 250), width=20)
    d.line([(600, 80), (600, 560)], fill=(250, 250, 250), width=14)
    d.line([(280, 320), (920, 320)], fill=(250, 250, 250), width=14)
    # curtains
    for x0, x1 in ((150, 290), (910, 1050)):
        d.rectangle([x0, 40, x1, 700], fill=(170, 60, 60))
        for k in range(x0 + 15, x1, 28):
            d.line([(k, 40), (k, 700)], fill=(140, 44, 44), width=4)
    d.rectangle([120, 30, 1080, 46], fill=(90, 70, 50))
    # sill
    d.rectangle([240, 560, 960, 600], fill=(246, 246, 244))
    d.rectangle([240, 600, 960, 616], fill=(200, 200, 196))
    # plant pot
    d.polygon([(800, 560), (880, 560), (868, 490), (812, 490)], fill=(200, 110, 70))
    for k in range(9):
        a = math.pi * (0.15 + 0.7 * k / 8)
        d.ellipse([840 - 60 * math.cos(a) - 18, 480 - 90 * math.sin(a) - 10,
                   840 - 60 * math.cos(a) + 18, 480 - 90 * math.sin(a) + 10], fill=(60, 130, 70))
    # grey cat seen from behind, sitting
    grey, dgrey = (128, 130, 136), (100, 102, 108)
    cx = 520
    d.ellipse([cx - 110, 380, cx + 110, 570], fill=grey)            # haunches
    d.ellipse([cx - 80, 280, cx + 80, 470], fill=grey)              # chest/back
    d.ellipse([cx - 66, 200, cx + 66, 320], fill=grey)              # head
    d.polygon([(cx - 62, 240), (cx - 50, 160), (cx - 14, 210)], fill=grey)
    d.polygon([(cx + 14, 210), (cx + 50, 160), (cx + 62, 240)], fill=grey)
    d.polygon([(cx - 52, 230), (cx - 46, 180), (cx - 24, 212)], fill=(200, 160, 160))
    d.polygon([(cx + 24, 212), (cx + 46, 180), (cx + 52, 230)], fill=(200, 160, 160))
    d.line([(cx + 90, 540), (cx + 150, 600), (cx + 160, 680)], fill=dgrey, width=22)   # tail over the sill
    d.ellipse([cx + 146, 664, cx + 176, 694], fill=dgrey)
    for k in range(4):
        d.arc([cx - 70, 300 + k * 40, cx + 70, 360 + k * 40], 200, 340, fill=dgrey, width=5)
    return finish(img, 2967)


def draw_mountain_lake(w: int = 1200, h: int = 800) -> Image.Image:
    """Snow-capped mountains mirrored in a still lake, pines on the shore."""
    rng = np.random.default_rng(3902)
    shore = int(h * 0.52)
    img = grad_img(w, h, [(0, (80, 140, 210)), (0.5, (190, 218, 240)), (1, (190, 218, 240))])
    img = overlay(img, lambda o: [o.ellipse([cx - 90, cy - 26, cx + 90, cy + 26], fill=(255, 255, 255, 170))
                                  for cx, cy in [(220, 90), (300, 80), (760, 120), (860, 110), (1050, 70)]], blur=14)
    d = ImageDraw.Draw(img)
    ranges = [
        ([(0, shore), (120, 250), (260, 170), (400, 260), (520, 140), (660, 240), (760, 200), (900, 110),
          (1040, 220), (1200, 180), (1200, shore)], (110, 124, 150)),
        ([(0, shore), (200, 330), (360, 280), (520, 350), (700, 300), (860, 360), (1000, 290), (1200, 340),
          (1200, shore)], (70, 92, 100)),
    ]
    for pts, col in ranges:
        d.polygon(pts, fill=col)
    for px, py in [(260, 170), (520, 140), (900, 110), (760, 200)]:   # snow caps
        d.polygon([(px - 50, py + 50), (px, py), (px + 55, py + 55), (px + 25, py + 40), (px + 5, py + 60),
                   (px - 20, py + 42)], fill=(246, 248, 252))
    # pines along the far shore
    for x in range(0, w, 18):
        th = int(rng.integers(30, 70))
        d.polygon([(x, shore - th), (x - 10, shore), (x + 10, shore)], fill=(34, 70, 50))
    # lake: mirror of the upper part, darker and rippled
    arr = np.asarray(img).astype(np.float64)
    refl = arr[max(0, 2 * shore - h):shore][::-1].copy()
    refl = refl[: h - shore]
    for r in range(refl.shape[0]):
        refl[r] = np.roll(refl[r], int(2 * math.sin(r * 0.7)), axis=0)
    refl = refl * 0.7 + np.array([20, 40, 60]) * 0.3
    arr[shore:shore + refl.shape[0]] = refl
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "RGB")
    d = ImageDraw.Draw(img)
    for _ in range(90):
        y = rng.uniform(shore + 6, h - 120)
        x0 = rng.uniform(0, w)
        d.line([(x0, y), (x0 + rng.uniform(20, 80), y)], fill=(200, 220, 236), width=1)
    # near shore with rocks, grass and two big pines
    d.polygon([(0, h - 110), (300, h - 140), (700, h - 120), (1200, h - 150), (1200, h), (0, h)], fill=(86, 112, 60))
    for _ in range(12):
        rx, ry, rr = rng.uniform(0, w), rng.uniform(h - 120, h - 40), rng.uniform(16, 40)
        d.ellipse([rx - rr, ry - rr * 0.6, rx + rr, ry + rr * 0.6], fill=(130, 128, 120))
    for tx in (90, 1110):
        d.rectangle([tx - 8, h - 200, tx + 8, h - 100], fill=(70, 50, 36))
        for k in range(6):
            y = h - 200 - k * 55
            half = 90 - k * 13
            d.polygon([(tx, y - 80), (tx - half, y + 10), (tx + half, y + 10)], fill=(28, 62, 44))
    return finish(img, 3903)


def draw_birthday_cake(w: int = 1200, h: int = 800) -> Image.Image:
    """Chocolate layer cake with lit candles and raspberries, balloons behind."""
    rng = np.random.default_rng(2187)
    img = grad_img(w, h, [(0, (60, 44, 70)), (0.62, (92, 70, 90)), (0.6201, (236, 226, 214)), (1, (214, 202, 188))])

    def bokeh(o):
        for _ in range(26):
            x, y, r = rng.uniform(0, w), rng.uniform(0, h * 0.55), rng.uniform(14, 40)
            col = [(255, 210, 120), (255, 170, 200), (180, 220, 255)][int(rng.integers(0, 3))]
            o.ellipse([x - r, y - r, x + r, y + r], fill=col + (90,))
    img = overlay(img, bokeh, blur=8)
    d = ImageDraw.Draw(img)
    # balloons
    for bx, by, col in [(170, 150, (220, 50, 70)), (260, 110, (250, 200, 60)), (1010, 140, (70, 140, 230)),
                        (1090, 200, (230, 90, 160))]:
        d.line([(bx, by + 70), (bx + 10, by + 320)], fill=(220, 220, 220), width=2)
        d.ellipse([bx - 55, by - 70, bx + 55, by + 70], fill=col)
        d.ellipse([bx - 30, by - 48, bx - 12, by - 22], fill=shade(col, 1.5))
    # cake stand / plate
    cx = 600
    d.ellipse([cx - 300, 600, cx + 300, 680], fill=(250, 250, 250))
    d.ellipse([cx - 300, 596, cx + 300, 670], outline=(200, 200, 200), width=3)
    # cake body
    brown, light = (92, 52, 34), (120, 72, 46)
    top, bottom, rx, ry = 380, 630, 230, 56
    d.rectangle([cx - rx, top, cx + rx, bottom], fill=brown)
    d.ellipse([cx - rx, bottom - ry, cx + rx, bottom + ry], fill=brown)
    d.rectangle([cx - rx, 500, cx + rx, 520], fill=(240, 226, 210))  # cream layer
    d.ellipse([cx - rx, top - ry, cx + rx, top + ry], fill=light)
    for k in range(13):  # drips
        x = cx - rx + 14 + k * 35
        ln = 30 + int(rng.integers(0, 50))
        d.rounded_rectangle([x, top, x + 20, top + ln], radius=10, fill=light)
    # raspberries
    for _ in range(16):
        a = rng.uniform(0, 2 * math.pi)
        rr = rng.uniform(0.55, 0.85)
        x, y = cx + rx * rr * math.cos(a), top + ry * rr * math.sin(a)
        d.ellipse([x - 12, y - 10, x + 12, y + 10], fill=(200, 30, 60))
    # candles with flames
    flames = []
    for k in range(7):
        a = math.pi * (0.1 + 0.8 * k / 6)
        x, y = cx + 150 * math.cos(a), top - 10 + 26 * math.sin(a)
        col = [(120, 190, 240), (250, 150, 180), (250, 220, 90)][k % 3]
        d.rectangle([x - 7, y - 90, x + 7, y], fill=col)
        for s in range(4):
            d.line([(x - 7, y - 80 + s * 22), (x + 7, y - 90 + s * 22)], fill=(255, 255, 255), width=3)
        d.line([(x, y - 98), (x, y - 90)], fill=(40, 40, 40), width=2)
        flames.append((x, y - 112))
    img = overlay(img, lambda o: [o.ellipse([x - 40, y - 40, x + 40, y + 40], fill=(255, 200, 90, 110))
                                  for x, y in flames], blur=14)
    d = ImageDraw.Draw(img)
    for x, y in flames:
        d.ellipse([x - 9, y - 18, x + 9, y + 14], fill=(255, 190, 60))
        d.ellipse([x - 4, y - 6, x + 4, y + 10], fill=(255, 250, 210))
    return finish(img, 2188)


def draw_fruit_bowl(w: int = 1200, h: int = 800) -> Image.Image:
    """A blue ceramic bowl of apples, oranges, bananas and grapes on a wooden table."""
    rng = np.random.default_rng(3390)
    img = grad_img(w, h, [(0, (232, 226, 214)), (0.55, (220, 212, 198)), (0.5501, (160, 112, 72)), (1, (130, 88, 56))])
    d = ImageDraw.Draw(img)
    for y in range(int(h * 0.56), h, 26):
        d.line([(0, y), (w, y + 6)], fill=(142, 98, 62), width=2)
    img = overlay(img, lambda o: o.ellipse([300, 600, 900, 700], fill=(0, 0, 0, 70)), blur=16)
    d = ImageDraw.Draw(img)
    cx = 600
    # back fruit (inside the bowl)
    fruits = []
    for x, y, kind in [(470, 400, "orange"), (560, 370, "apple"), (660, 380, "orange"), (740, 410, "apple_g"),
                       (520, 440, "apple"), (640, 440, "orange"), (420, 450, "apple_g")]:
        fruits.append((x, y, kind))
    for x, y, kind in fruits:
        r = 62 if kind == "orange" else 58
        col = {"orange": (242, 140, 30), "apple": (196, 30, 40), "apple_g": (150, 196, 60)}[kind]
        d.ellipse([x - r, y - r, x + r, y + r], fill=col)
        d.ellipse([x - r * 0.5, y - r * 0.6, x - r * 0.1, y - r * 0.25], fill=shade(col, 1.25))
        if kind.startswith("apple"):
            d.line([(x, y - r + 6), (x + 6, y - r - 16)], fill=(80, 50, 30), width=5)
            d.ellipse([x + 6, y - r - 20, x + 34, y - r - 6], fill=(60, 140, 50))
        else:
            for _ in range(30):
                px, py = x + rng.uniform(-r * 0.7, r * 0.7), y + rng.uniform(-r * 0.7, r * 0.7)
                d.point((px, py), fill=shade(col, 0.85))
    # bananas draped over the rim
    for k in range(3):
        off = k * 18
        d.chord([700 - off, 330 + off, 960 - off, 560 + off], 190, 300, fill=(246, 214, 60))
        d.arc([700 - off, 330 + off, 960 - off, 560 + off], 190, 300, fill=(190, 150, 30), width=4)
    d.rectangle([712, 420, 726, 440], fill=(90, 70, 30))
    # grapes
    for k in range(22):
        gx = 380 + (k % 5) * 22 + rng.uniform(-4, 4)
        gy = 430 + (k // 5) * 22 + rng.uniform(-4, 4)
        d.ellipse([gx - 14, gy - 14, gx + 14, gy + 14], fill=(110, 40, 100), outline=(80, 20, 70))
    # the bowl in front
    d.chord([cx - 300, 330, cx + 300, 660], 0, 180, fill=(46, 88, 150))
    d.ellipse([cx - 300, 452, cx + 300, 512], outline=(30, 60, 110), width=6)
    d.arc([cx - 240, 360, cx + 240, 620], 20, 160, fill=(80, 130, 190), width=6)
    d.rectangle([cx - 90, 640, cx + 90, 662], fill=(36, 70, 124))
    return finish(img, 3391)


def draw_whiteboard(w: int = 1200, h: int = 800) -> Image.Image:
    """Office whiteboard with a hand-drawn service architecture: boxes, arrows and labels."""
    rng = np.random.default_rng(3655)
    img = Image.new("RGB", (w, h), (150, 156, 160))
    d = ImageDraw.Draw(img)
    board = Image.new("RGB", (1060, 660), (246, 247, 245))
    bd = ImageDraw.Draw(board)
    hand = font(24, "oblique")
    small = font(20, "oblique")
    blue, black, red, green = (30, 60, 170), (30, 30, 34), (190, 30, 40), (20, 120, 60)

    def box(x, y, bw, bh, label, col=black):
        pts = [(x + rng.uniform(-3, 3), y + rng.uniform(-3, 3)), (x + bw + rng.uniform(-3, 3), y + rng.uniform(-3, 3)),
               (x + bw + rng.uniform(-3, 3), y + bh + rng.uniform(-3, 3)), (x + rng.uniform(-3, 3), y + bh + rng.uniform(-3, 3))]
        bd.line(pts + [pts[0]], fill=col, width=4, joint="curve")
        centered_text(bd, (x, y, x + bw, y + bh), label, hand, col)

    bd.text((30, 18), "Checkout v2 - target architecture", font=font(30, "oblique"), fill=black)
    bd.line([(30, 58), (520, 60)], fill=black, width=3)
    box(40, 120, 170, 70, "Mobile app", blue)
    box(40, 260, 170, 70, "Web shop", blue)
    box(300, 190, 190, 80, "API gateway")
    box(590, 90, 190, 70, "Auth service")
    box(590, 210, 190, 80, "Payments\n(tollgate)")
    box(590, 350, 190, 70, "Queue")
    box(850, 350, 170, 70, "Ledger")
    box(850, 500, 170, 70, "Postgres", green)
    box(590, 500, 190, 70, "Search\n(marlin)", green)
    arrow(bd, (212, 158), (298, 212), blue, 4)
    arrow(bd, (212, 292), (298, 248), blue, 4)
    arrow(bd, (492, 210), (588, 130), black, 4)
    arrow(bd, (492, 232), (588, 248), black, 4)
    arrow(bd, (685, 292), (685, 348), black, 4)
    arrow(bd, (782, 385), (848, 385), black, 4)
    arrow(bd, (935, 422), (935, 498), green, 4)
    arrow(bd, (420, 272), (600, 498), green, 4)
    bd.text((800, 300), "async!", font=small, fill=red)
    bd.text((40, 420), "TODO: rate limits?", font=hand, fill=red)
    bd.text((40, 460), "idempotency keys end to end", font=hand, fill=red)
    bd.ellipse([790, 290, 880, 330], outline=red, width=3)
    # faint ghosts of erased writing
    for _ in range(5):
        x, y = rng.uniform(100, 900), rng.uniform(560, 640)
        bd.line([(x, y), (x + rng.uniform(80, 200), y + rng.uniform(-10, 10))], fill=(226, 228, 226), width=6)
    board = board.rotate(-1.2, resample=Image.BICUBIC, expand=False, fillcolor=(150, 156, 160))
    img.paste(board, (70, 60))
    d = ImageDraw.Draw(img)
    d.rectangle([64, 54, 1136, 726], outline=(190, 194, 198), width=10)
    d.rectangle([200, 726, 1000, 746], fill=(180, 184, 188))      # marker tray
    for k, col in enumerate([(30, 60, 170), (30, 30, 34), (190, 30, 40), (20, 120, 60)]):
        d.rounded_rectangle([260 + k * 110, 716, 350 + k * 110, 732], radius=6, fill=col)
    img = overlay(img, lambda o: o.ellipse([700, 40, 1160, 300], fill=(255, 255, 255, 60)), blur=50)
    return finish(img, 3656, grain=3.0, blur=0.6)


def draw_city_night(w: int = 1200, h: int = 800) -> Image.Image:
    """City skyline at night: lit windows, moon, reflections in a river."""
    rng = np.random.default_rng(4118)
    river = int(h * 0.72)
    img = grad_img(w, h, [(0, (8, 10, 36)), (0.7, (40, 36, 90)), (1, (10, 12, 30))])
    d = ImageDraw.Draw(img)
    for _ in range(140):
        x, y = rng.uniform(0, w), rng.uniform(0, river * 0.5)
        d.point((x, y), fill=(255, 255, 230))
    d.ellipse([980, 70, 1060, 150], fill=(250, 246, 220))
    d.ellipse([1000, 62, 1080, 142], fill=(14, 16, 44))  # crescent
    x = 0
    while x < w:
        bw = int(rng.integers(50, 120))
        bh = int(rng.integers(160, 430))
        if 520 < x < 640:
            bh = 520
        col = (int(rng.integers(14, 30)),) * 2 + (int(rng.integers(30, 50)),)
        d.rectangle([x, river - bh, x + bw, river], fill=col)
        if bh == 520:
            d.line([(x + bw // 2, river - bh), (x + bw // 2, river - bh - 80)], fill=col, width=5)
            d.ellipse([x + bw // 2 - 5, river - bh - 86, x + bw // 2 + 5, river - bh - 76], fill=(255, 60, 60))
        for wy in range(river - bh + 10, river - 10, 18):
            for wx in range(x + 6, x + bw - 10, 14):
                if rng.random() < 0.45:
                    d.rectangle([wx, wy, wx + 7, wy + 10], fill=(255, 214 + int(rng.integers(0, 40)), 120))
        x += bw + int(rng.integers(2, 10))
    # river with streaks of reflected light
    d.rectangle([0, river, w, h], fill=(10, 14, 34))
    for _ in range(600):
        xx = rng.uniform(0, w)
        yy = rng.uniform(river + 4, h)
        c = int(rng.integers(120, 255))
        d.line([(xx, yy), (xx + rng.uniform(4, 20), yy)], fill=(c, int(c * 0.8), 90), width=2)
    return finish(img, 4119, grain=5.0)


def draw_snowman(w: int = 1200, h: int = 800) -> Image.Image:
    """A snowman with a red scarf and a black hat in a snowy back garden."""
    rng = np.random.default_rng(4190)
    ground = int(h * 0.62)
    img = grad_img(w, h, [(0, (150, 170, 196)), (0.62, (206, 216, 228)), (0.6201, (240, 244, 250)), (1, (226, 232, 242))])
    d = ImageDraw.Draw(img)
    # fence and a snowy tree
    for x in range(0, w, 70):
        d.rectangle([x, ground - 150, x + 40, ground + 10], fill=(120, 92, 70))
        d.ellipse([x - 4, ground - 164, x + 44, ground - 140], fill=(250, 250, 252))
    d.rectangle([0, ground - 110, w, ground - 96], fill=(110, 84, 64))
    d.rectangle([990, ground - 300, 1010, ground + 20], fill=(80, 60, 50))
    for k in range(5):
        y = ground - 300 + k * 50
        d.polygon([(1000, y - 100), (1000 - 70 - k * 16, y + 20), (1000 + 70 + k * 16, y + 20)], fill=(40, 80, 60))
        d.polygon([(1000, y - 100), (1000 - 40 - k * 12, y - 10), (1000 + 40 + k * 12, y - 10)], fill=(240, 244, 250))
    # snowman
    cx = 520
    for r, cy in ((150, ground + 90), (110, ground - 110), (76, ground - 260)):
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(250, 252, 255), outline=(200, 210, 226), width=3)
        d.chord([cx - r, cy - r, cx + r, cy + r], 20, 160, fill=(226, 232, 244))
    hy = ground - 260
    d.ellipse([cx - 34, hy - 20, cx - 18, hy - 4], fill=(20, 20, 20))
    d.ellipse([cx + 18, hy - 20, cx + 34, hy - 4], fill=(20, 20, 20))
    d.polygon([(cx, hy + 4), (cx + 80, hy + 16), (cx, hy + 22)], fill=(240, 120, 30))
    for k in range(5):
        a = math.pi * (0.2 + 0.6 * k / 4)
        d.ellipse([cx + 45 * math.cos(a) - 5, hy + 20 + 30 * math.sin(a) - 5,
                   cx + 45 * math.cos(a) + 5, hy + 20 + 30 * math.sin(a) + 5], fill=(30, 30, 30))
    d.rectangle([cx - 80, hy - 78, cx + 80, hy - 62], fill=(20, 20, 24))
    d.rectangle([cx - 52, hy - 170, cx + 52, hy - 70], fill=(20, 20, 24))
    d.rectangle([cx - 52, hy - 96, cx + 52, hy - 80], fill=(170, 30, 40))
    d.rounded_rectangle([cx - 90, ground - 200, cx + 90, ground - 170], radius=14, fill=(200, 30, 40))
    d.rectangle([cx + 40, ground - 190, cx + 74, ground - 90], fill=(200, 30, 40))
    for k in range(3):
        d.ellipse([cx - 8, ground - 140 + k * 40, cx + 8, ground - 124 + k * 40], fill=(30, 30, 30))
    d.line([(cx - 100, ground - 120), (cx - 230, ground - 210), (cx - 260, ground - 250)], fill=(90, 60, 40), width=8)
    d.line([(cx + 100, ground - 120), (cx + 230, ground - 200), (cx + 270, ground - 190)], fill=(90, 60, 40), width=8)
    # falling snow
    for _ in range(260):
        x, y, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(2, 5)
        d.ellipse([x - r, y - r, x + r, y + r], fill=(255, 255, 255))
    return finish(img, 4191)


def draw_autumn_path(w: int = 1200, h: int = 800) -> Image.Image:
    """A path through a beech wood in autumn: orange and yellow leaves, light mist."""
    rng = np.random.default_rng(4033)
    img = grad_img(w, h, [(0, (210, 200, 170)), (0.55, (190, 170, 120)), (0.5501, (150, 100, 50)), (1, (120, 70, 30))])
    d = ImageDraw.Draw(img)
    d.polygon([(560, int(h * 0.55)), (640, int(h * 0.55)), (900, h), (300, h)], fill=(170, 140, 100))
    for depth in range(3):
        for _ in range(9):
            x = rng.uniform(0, w)
            if 450 < x < 750 and depth == 2:
                continue
            tw = 10 + depth * 14
            d.rectangle([x - tw / 2, 60, x + tw / 2, h * 0.55 + depth * 60], fill=shade((70, 56, 46), 1.2 - depth * 0.2))
    for _ in range(900):
        x, y, r = rng.uniform(0, w), rng.uniform(0, h * 0.5), rng.uniform(8, 26)
        col = [(230, 120, 30), (240, 180, 40), (200, 70, 30), (190, 150, 40)][int(rng.integers(0, 4))]
        d.ellipse([x - r, y - r * 0.7, x + r, y + r * 0.7], fill=col)
    for _ in range(700):
        x, y = rng.uniform(0, w), rng.uniform(h * 0.56, h)
        col = [(230, 120, 30), (240, 180, 40), (200, 70, 30)][int(rng.integers(0, 3))]
        d.ellipse([x - 5, y - 3, x + 5, y + 3], fill=col)
    img = overlay(img, lambda o: o.rectangle([0, int(h * 0.35), w, int(h * 0.65)], fill=(255, 250, 235, 60)), blur=40)
    return finish(img, 4034)


# ---- scenes that only appear inside PDFs --------------------------------------------------------

def draw_harbour(w: int = 900, h: int = 600) -> Image.Image:
    """Small fishing harbour: coloured boats at a stone quay, houses on the hill."""
    rng = np.random.default_rng(7101)
    water = int(h * 0.6)
    img = grad_img(w, h, [(0, (150, 196, 230)), (0.35, (210, 230, 244)), (0.3501, (110, 140, 90)),
                          (0.6, (120, 150, 100)), (0.6001, (40, 90, 110)), (1, (20, 60, 80))])
    d = ImageDraw.Draw(img)
    for _ in range(22):  # houses on the hillside
        x, y = rng.uniform(0, w), rng.uniform(h * 0.36, h * 0.52)
        col = [(240, 240, 232), (230, 220, 190), (200, 220, 230), (240, 210, 200)][int(rng.integers(0, 4))]
        d.rectangle([x, y, x + 46, y + 30], fill=col)
        d.polygon([(x - 4, y), (x + 23, y - 16), (x + 50, y)], fill=(90, 90, 100))
    d.rectangle([0, water - 24, w * 0.55, water + 8], fill=(150, 140, 126))     # quay
    for k in range(4):
        bx = 80 + k * 200
        by = water + 60 + (k % 2) * 60
        col = [(30, 80, 160), (200, 40, 40), (240, 240, 240), (40, 140, 90)][k]
        d.polygon([(bx - 80, by), (bx + 90, by), (bx + 70, by + 34), (bx - 64, by + 34)], fill=col)
        d.rectangle([bx - 20, by - 40, bx + 30, by], fill=(240, 240, 236))
        d.rectangle([bx - 12, by - 32, bx + 2, by - 20], fill=(60, 80, 100))
        d.line([(bx + 50, by), (bx + 50, by - 110)], fill=(60, 60, 60), width=4)
        d.line([(bx + 50, by - 100), (bx - 60, by)], fill=(80, 80, 80), width=1)
        for r in range(6):
            d.line([(bx - 70 + r * 28, by + 40 + r % 2 * 6), (bx - 50 + r * 28, by + 40 + r % 2 * 6)],
                   fill=shade(col, 0.7), width=3)
    for gx, gy in [(600, 90), (640, 120), (300, 70)]:
        d.arc([gx - 12, gy - 6, gx, gy + 6], 200, 340, fill=(60, 60, 60), width=3)
        d.arc([gx, gy - 6, gx + 12, gy + 6], 200, 340, fill=(60, 60, 60), width=3)
    return finish(img, 7102)


def draw_beach_umbrellas(w: int = 900, h: int = 600) -> Image.Image:
    """Sandy beach with striped umbrellas and towels, sea and sky behind."""
    img = grad_img(w, h, [(0, (90, 160, 226)), (0.38, (180, 216, 240)), (0.3801, (30, 120, 170)),
                          (0.5, (80, 170, 200)), (0.5001, (240, 222, 180)), (1, (226, 200, 150))])
    d = ImageDraw.Draw(img)
    for k in range(8):
        d.arc([k * 120 - 40, h * 0.47, k * 120 + 80, h * 0.53], 180, 360, fill=(255, 255, 255), width=3)
    spots = [(150, 400, (220, 50, 50)), (420, 360, (40, 100, 200)), (700, 420, (240, 170, 30)), (300, 500, (30, 150, 110))]
    for x, y, col in spots:
        d.rectangle([x - 40, y + 40, x + 80, y + 70], fill=shade(col, 1.2))            # towel
        d.line([(x, y - 110), (x + 6, y + 50)], fill=(90, 80, 70), width=5)              # pole
        for s in range(8):
            c = col if s % 2 == 0 else (250, 250, 250)
            d.pieslice([x - 110, y - 170, x + 110, y - 50], 180 + s * 22.5, 180 + (s + 1) * 22.5, fill=c)
        d.ellipse([x - 60, y + 60, x + 70, y + 90], fill=(200, 176, 130))                # shadow
    return finish(img, 7202)


def draw_cliffs(w: int = 900, h: int = 600) -> Image.Image:
    """Sea cliffs with a grassy top, a coast path and wildflowers."""
    rng = np.random.default_rng(7301)
    img = grad_img(w, h, [(0, (120, 176, 226)), (0.45, (200, 226, 244)), (0.4501, (40, 110, 150)), (1, (20, 80, 120))])
    d = ImageDraw.Draw(img)
    d.polygon([(300, 160), (900, 140), (900, h), (380, h), (330, 420), (350, 300)], fill=(110, 100, 92))
    d.polygon([(300, 160), (900, 140), (900, 230), (600, 250), (420, 230), (330, 200)], fill=(90, 140, 70))
    for k in range(30):
        y = 230 + k * 12
        d.line([(340 + rng.uniform(0, 30), y), (900, y + rng.uniform(-6, 6))], fill=(96, 88, 80), width=2)
    d.line([(340, 190), (500, 205), (700, 190), (900, 200)], fill=(200, 180, 140), width=8)
    for _ in range(160):
        x, y = rng.uniform(340, 900), rng.uniform(150, 240)
        col = [(180, 80, 200), (250, 220, 60), (250, 250, 250)][int(rng.integers(0, 3))]
        d.ellipse([x - 3, y - 3, x + 3, y + 3], fill=col)
    for _ in range(60):  # surf at the foot of the cliff
        x, y = rng.uniform(330, 420), rng.uniform(420, h)
        d.ellipse([x - 10, y - 4, x + 10, y + 4], fill=(230, 240, 246))
    return finish(img, 7302)


def draw_greenhouse(w: int = 900, h: int = 600) -> Image.Image:
    """A glass greenhouse in a community garden with raised beds and tomato plants."""
    rng = np.random.default_rng(7401)
    img = grad_img(w, h, [(0, (150, 196, 236)), (0.5, (210, 230, 244)), (0.5001, (110, 150, 80)), (1, (90, 130, 60))])
    d = ImageDraw.Draw(img)
    gx0, gx1, gy0, gy1 = 220, 700, 200, 460
    d.rectangle([gx0, gy0, gx1, gy1], fill=(196, 226, 226))
    d.polygon([(gx0, gy0), ((gx0 + gx1) / 2, gy0 - 110), (gx1, gy0)], fill=(206, 232, 232))
    for x in range(gx0, gx1 + 1, 60):
        d.line([(x, gy0), (x, gy1)], fill=(240, 240, 240), width=5)
    d.line([(gx0, gy0 + 120), (gx1, gy0 + 120)], fill=(240, 240, 240), width=5)
    d.line([(gx0, gy0), ((gx0 + gx1) / 2, gy0 - 110), (gx1, gy0)], fill=(240, 240, 240), width=6)
    d.rectangle([430, 300, 490, gy1], fill=(170, 200, 200), outline=(240, 240, 240), width=4)   # door
    for x in range(gx0 + 20, gx1 - 20, 40):  # tomato plants seen through the glass
        d.line([(x, gy1), (x, gy0 + 40)], fill=(50, 120, 50), width=4)
        for _ in range(4):
            yy = rng.uniform(gy0 + 60, gy1 - 40)
            d.ellipse([x - 8, yy - 8, x + 8, yy + 8], fill=(210, 50, 40))
    for bx in (40, 740):  # raised beds
        d.rectangle([bx, 470, bx + 130, 540], fill=(120, 80, 50))
        for _ in range(14):
            px = rng.uniform(bx + 10, bx + 120)
            d.ellipse([px - 14, 440, px + 14, 480], fill=(60, 140, 60))
    d.polygon([(380, h), (520, h), (480, gy1), (440, gy1)], fill=(180, 160, 130))
    return finish(img, 7402)


def draw_mugs_shelf(w: int = 900, h: int = 600) -> Image.Image:
    """Speckled handmade mugs, bowls and a vase on wooden shelves (the pottery shop)."""
    rng = np.random.default_rng(7501)
    img = Image.new("RGB", (w, h), (236, 230, 220))
    d = ImageDraw.Draw(img)
    for sy in (250, 500):
        d.rectangle([40, sy, 860, sy + 22], fill=(150, 104, 64))
        d.rectangle([40, sy + 22, 860, sy + 30], fill=(110, 76, 46))
    glazes = [(232, 224, 206), (120, 150, 160), (200, 170, 130), (90, 110, 90), (236, 230, 214)]
    for row, sy in enumerate((250, 500)):
        for k in range(5):
            x = 90 + k * 160
            col = glazes[(k + row * 2) % len(glazes)]
            if row == 1 and k == 2:  # a bowl
                d.chord([x - 60, sy - 110, x + 80, sy + 10], 0, 180, fill=col)
                d.ellipse([x - 60, sy - 60, x + 80, sy - 40], fill=shade(col, 0.8))
                continue
            d.rounded_rectangle([x - 45, sy - 130, x + 45, sy], radius=10, fill=col)
            d.arc([x + 25, sy - 110, x + 85, sy - 30], 270, 90, fill=col, width=16)
            d.ellipse([x - 45, sy - 140, x + 45, sy - 120], fill=shade(col, 0.7))
            for _ in range(60):
                px, py = rng.uniform(x - 40, x + 40), rng.uniform(sy - 125, sy - 5)
                d.point((px, py), fill=(70, 50, 40))
                d.point((px + 1, py), fill=(70, 50, 40))
    return finish(img, 7502, grain=3.0)


def draw_espresso_machine(w: int = 700, h: int = 700) -> Image.Image:
    """Product shot of a brushed-steel espresso machine on a white background."""
    img = grad_img(w, h, [(0, (250, 250, 250)), (1, (226, 226, 228))])
    d = ImageDraw.Draw(img)
    d.ellipse([130, 600, 570, 650], fill=(200, 200, 204))
    body = vgrad(420, 360, [(0, (200, 204, 210)), (1, (150, 154, 160))])
    img.paste(Image.fromarray(body.astype(np.uint8), "RGB"), (170, 170))
    d = ImageDraw.Draw(img)
    d.rectangle([170, 170, 530, 590], outline=(110, 114, 120), width=4)
    d.rectangle([170, 140, 530, 172], fill=(60, 62, 66))                         # cup warmer top
    d.ellipse([300, 210, 400, 310], fill=(240, 240, 236), outline=(60, 60, 60), width=5)   # gauge
    d.line([(350, 260), (380, 230)], fill=(200, 30, 30), width=4)
    for k in range(3):                                                         # buttons
        d.ellipse([212 + k * 36, 330, 236 + k * 36, 354], fill=(40, 40, 44))
    d.rectangle([310, 360, 390, 400], fill=(90, 92, 96))                       # group head
    d.rectangle([260, 400, 440, 420], fill=(40, 40, 44))                       # portafilter
    d.rounded_rectangle([440, 398, 560, 422], radius=10, fill=(30, 30, 32))    # handle
    d.line([(480, 330), (500, 480)], fill=(170, 170, 176), width=8)            # steam wand
    d.rectangle([220, 540, 480, 580], fill=(80, 82, 86))                       # drip tray
    for x in range(230, 470, 16):
        d.line([(x, 544), (x, 576)], fill=(120, 122, 126), width=3)
    d.polygon([(310, 480), (390, 480), (380, 540), (320, 540)], fill=(250, 250, 250), outline=(180, 180, 180))
    d.arc([376, 490, 410, 524], 270, 90, fill=(180, 180, 180), width=6)        # cup
    return finish(img, 7602, grain=2.0, vignette=0.05)


# --------------------------------------------------------------------------------------------
# Receipts (photographed till receipts)
# --------------------------------------------------------------------------------------------

def receipt_lines(shop: list[str], when: str, items: list[tuple[str, str]], payment: str, code: str,
                  footer: list[str]) -> tuple[list[str], str]:
    """Lay out a till receipt (40 columns); returns the lines and the computed total."""
    total = sum(round(float(p) * 100) for _, p in items)
    tot = f"{total // 100}.{total % 100:02d}"
    out = [s.center(40) for s in shop] + ["", when, "-" * 40]
    for name, price in items:
        out.append(f"{name:<31}{price:>9}")
    out += ["-" * 40, f"{'TOTAL':<31}{tot:>9}", f"{payment:<31}{tot:>9}",
            f"ITEMS {len(items)}", "", f"RETURNS CODE: {code}".center(40), ""]
    out += [s.center(40) for s in footer]
    return out, tot


def draw_receipt_photo(lines: list[str], seed: int, angle: float, w: int = 900, h: int = 1200) -> Image.Image:
    """A paper till receipt lying on a table, photographed from above at a slight angle."""
    rng = np.random.default_rng(seed)
    fnt = font(21, "mono")
    line_h = 29
    pw, ph = 560, 90 + line_h * len(lines)
    paper = Image.new("RGB", (pw, ph), (250, 249, 244))
    pd = ImageDraw.Draw(paper)
    for i, line in enumerate(lines):
        bold = i < 2 or line.startswith("TOTAL") or "CODE" in line
        pd.text((24, 40 + i * line_h), line, font=font(21, "monobold") if bold else fnt, fill=(40, 40, 46))
    # zigzag tear at the bottom, faint fold
    for x in range(0, pw, 16):
        pd.polygon([(x, ph), (x + 8, ph - 8), (x + 16, ph)], fill=(120, 90, 60))
    pd.line([(0, ph // 2), (pw, ph // 2 + 3)], fill=(232, 230, 224), width=3)
    paper = paper.filter(ImageFilter.GaussianBlur(0.6))
    # table
    table = vgrad(h, w, [(0, (150, 104, 66)), (1, (120, 82, 50))])
    for _ in range(60):
        y = int(rng.integers(0, h))
        table[y:y + 2] *= rng.uniform(0.85, 1.05)
    img = Image.fromarray(np.clip(table, 0, 255).astype(np.uint8), "RGB")
    scale = min((w - 140) / pw, (h - 120) / ph)
    paper = paper.resize((int(pw * scale), int(ph * scale)), Image.LANCZOS)
    mask = Image.new("L", paper.size, 255)
    paper = paper.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=(0, 0, 0))
    mask = mask.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=0)
    px, py = (w - paper.width) // 2, (h - paper.height) // 2
    shadow = Image.new("L", (w, h), 0)
    shadow.paste(mask, (px + 12, py + 14))
    shadow = shadow.filter(ImageFilter.GaussianBlur(12))
    img = Image.composite(Image.new("RGB", (w, h), (60, 40, 26)), img, shadow.point(lambda v: v * 0.6))
    img.paste(paper, (px, py), mask)
    img = overlay(img, lambda o: o.ellipse([-200, -300, w * 0.8, h * 0.5], fill=(255, 250, 230, 40)), blur=80)
    return finish(img, seed + 1, grain=3.0, blur=0.5, vignette=0.25)


# --------------------------------------------------------------------------------------------
# Screenshots
# --------------------------------------------------------------------------------------------

def _line_series(d, box, values, vmax, col, width=3, vmin=0.0):
    x0, y0, x1, y1 = box
    n = len(values)
    pts = [(x0 + (x1 - x0) * i / (n - 1), y1 - (y1 - y0) * (v - vmin) / (vmax - vmin)) for i, v in enumerate(values)]
    d.line(pts, fill=col, width=width, joint="curve")
    return pts


def draw_dashboard_latency(w: int = 1440, h: int = 900) -> Image.Image:
    """Dark monitoring dashboard for the payments API on 14 Feb 2025: p99 latency spike 09:52-11:06."""
    rng = np.random.default_rng(214)
    bg, panel, grid, txt, dim = (17, 18, 23), (31, 33, 40), (52, 55, 64), (216, 218, 224), (140, 144, 156)
    img = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, w, 48], fill=(24, 25, 31))
    d.text((20, 12), "Dashboards / tollgate-api / Overview", font=font(19, "bold"), fill=txt)
    d.text((1000, 14), "2025-02-14 09:00 to 12:00 UTC   Refresh 30s", font=font(16), fill=dim)
    # minutes 0..180 from 09:00
    t = np.arange(0, 181)
    spike = ((t >= 52) & (t <= 126))
    p99 = 240 + rng.normal(0, 12, t.size)
    ramp = np.clip((t - 52) / 6, 0, 1) * np.clip((126 - t) / 5, 0, 1)
    p99 = p99 + ramp * (4550 + rng.normal(0, 220, t.size))
    rps = 410 + 30 * np.sin(t / 25) + rng.normal(0, 8, t.size)
    err = 0.2 + rng.normal(0, 0.03, t.size) + spike * (2.9 + rng.normal(0, 0.3, t.size))
    pool = np.where(spike, 6, 22 + rng.normal(0, 2, t.size))

    def chart_panel(box, title, series, vmax, col, unit, threshold=None):
        x0, y0, x1, y1 = box
        d.rounded_rectangle(box, radius=6, fill=panel)
        d.text((x0 + 14, y0 + 10), title, font=font(17, "bold"), fill=txt)
        cx0, cy0, cx1, cy1 = x0 + 70, y0 + 44, x1 - 18, y1 - 34
        for k in range(5):
            y = cy1 - (cy1 - cy0) * k / 4
            d.line([(cx0, y), (cx1, y)], fill=grid, width=1)
            d.text((x0 + 10, y - 9), f"{vmax * k / 4:,.0f}{unit}" if vmax >= 10 else f"{vmax * k / 4:.1f}{unit}",
                   font=font(13), fill=dim)
        for k, lab in enumerate(["09:00", "09:30", "10:00", "10:30", "11:00", "11:30", "12:00"]):
            x = cx0 + (cx1 - cx0) * k / 6
            d.text((x - 18, cy1 + 8), lab, font=font(13), fill=dim)
        if threshold is not None:
            y = cy1 - (cy1 - cy0) * threshold / vmax
            for x in range(int(cx0), int(cx1), 14):
                d.line([(x, y), (x + 7, y)], fill=(224, 60, 60), width=2)
        _line_series(d, (cx0, cy0, cx1, cy1), list(series), vmax, col, 2)
        # deploy marker
        x = cx0 + (cx1 - cx0) * 41 / 180
        d.line([(x, cy0), (x, cy1)], fill=(250, 200, 60), width=1)

    chart_panel((20, 64, 940, 520), "p99 latency - POST /v2/charges", p99, 6000, (242, 140, 40), " ms",
                threshold=1000)
    d.text((700, 106), "alert: p99 > 1s for 5m", font=font(14), fill=(224, 90, 90))
    chart_panel((960, 64, 1420, 290), "Requests per second", rps, 600, (90, 160, 240), "")
    chart_panel((960, 300, 1420, 520), "Error rate (%)", err, 4, (230, 80, 80), "%")
    chart_panel((20, 536, 700, 880), "DB pool connections in use", pool, 80, (120, 200, 120), "")
    # stat panels
    for k, (title, value, col) in enumerate([("p99 now", "4,812 ms", (230, 70, 70)),
                                             ("Timeouts (1h)", "18,402", (230, 70, 70)),
                                             ("Apdex", "0.41", (240, 170, 50)),
                                             ("Last deploy", "09:41 CHG-8812", (160, 170, 190))]):
        x0 = 720 + (k % 2) * 355
        y0 = 536 + (k // 2) * 176
        d.rounded_rectangle([x0, y0, x0 + 345, y0 + 166], radius=6, fill=panel)
        d.text((x0 + 16, y0 + 12), title, font=font(17, "bold"), fill=txt)
        centered_text(d, (x0, y0 + 40, x0 + 345, y0 + 160), value, font(40 if len(value) < 10 else 28, "bold"), col)
    return img


def draw_dashboard_disk(w: int = 1440, h: int = 900) -> Image.Image:
    """Light dashboard of the search cluster's disk use: three nodes climb past 95 percent."""
    rng = np.random.default_rng(611)
    img = Image.new("RGB", (w, h), (244, 245, 247))
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, w, 50], fill=(255, 255, 255))
    d.text((20, 13), "marlin / Node disk usage", font=font(20, "bold"), fill=(30, 34, 40))
    d.text((1060, 15), "Last 7 days (to 11 Jun 07:40)", font=font(16), fill=(100, 106, 116))
    box = (30, 80, 1410, 640)
    d.rounded_rectangle(box, radius=8, fill=(255, 255, 255), outline=(220, 222, 228))
    d.text((50, 92), "Disk used (%) per data node", font=font(18, "bold"), fill=(30, 34, 40))
    cx0, cy0, cx1, cy1 = 110, 140, 1380, 590
    for k in range(6):
        y = cy1 - (cy1 - cy0) * k / 5
        d.line([(cx0, y), (cx1, y)], fill=(230, 232, 236))
        d.text((60, y - 9), f"{k * 20}%", font=font(14), fill=(110, 116, 126))
    for k, lab in enumerate(["Jun 4", "Jun 5", "Jun 6", "Jun 7", "Jun 8", "Jun 9", "Jun 10", "Jun 11"]):
        d.text((cx0 + (cx1 - cx0) * k / 7 - 20, cy1 + 10), lab, font=font(14), fill=(110, 116, 126))
    y95 = cy1 - (cy1 - cy0) * 0.95
    for x in range(cx0, cx1, 16):
        d.line([(x, y95), (x + 9, y95)], fill=(220, 50, 50), width=2)
    d.text((cx1 - 190, y95 - 24), "flood stage 95%", font=font(15, "bold"), fill=(220, 50, 50))
    n = 169
    cols = [(66, 133, 244), (234, 67, 53), (251, 188, 5), (52, 168, 83), (155, 89, 182)]
    finals = [0.84, 0.961, 0.955, 0.72, 0.952]
    for i in range(5):
        base = 0.55 + 0.03 * i
        vals = base + (finals[i] - 0.1 - base) * np.linspace(0, 1, n) ** 1.4 + rng.normal(0, 0.004, n)
        vals[-30:] += np.linspace(0, 0.1, 30) * (finals[i] > 0.9)
        vals = np.clip(vals, 0, 0.999)
        _line_series(d, (cx0, cy0, cx1, cy1), list(vals * 100), 100, cols[i], 3)
    for i in range(5):
        x = 120 + i * 260
        d.rectangle([x, 610, x + 18, 626], fill=cols[i])
        d.text((x + 26, 608), f"marlin-data-{i + 1}", font=font(15), fill=(40, 44, 50))
    for k, (title, value, col) in enumerate([("marlin-data-2", "96.1%", (220, 50, 50)),
                                             ("Indices read-only", "41 / 41", (220, 50, 50)),
                                             ("Snapshots on disk", "14 days", (230, 140, 20)),
                                             ("Indexing backlog", "96,120", (230, 140, 20))]):
        x0 = 30 + k * 350
        d.rounded_rectangle([x0, 660, x0 + 330, 870], radius=8, fill=(255, 255, 255), outline=(220, 222, 228))
        d.text((x0 + 18, 676), title, font=font(17, "bold"), fill=(60, 64, 72))
        centered_text(d, (x0, 710, x0 + 330, 860), value, font(46, "bold"), col)
    return img


TRACEBACK = """lena@northmere-dev:~/ledger-sync$ python -m ledger_sync.reconcile --file SETL-0303-EU.csv
2025-03-04 16:21:58 INFO  loading settlement file SETL-0303-EU.csv (18,224 rows)
2025-03-04 16:21:59 INFO  loaded 18,224 charges from ledger for 2025-03-03
Traceback (most recent call last):
  File "/usr/lib/python3.11/runpy.py", line 198, in _run_module_as_main
    return _run_code(code, main_globals, None,
  File "/home/lena/ledger-sync/ledger_sync/reconcile.py", line 112, in <module>
    main()
  File "/home/lena/ledger-sync/ledger_sync/reconcile.py", line 97, in main
    report = match_settlements(rows, charges_by_ref)
  File "/home/lena/ledger-sync/ledger_sync/reconcile.py", line 58, in match_settlements
    ref = row["merchant_ref"]
          ~~~^^^^^^^^^^^^^^^^
KeyError: 'merchant_ref'
lena@northmere-dev:~/ledger-sync$ head -1 SETL-0303-EU.csv
settlement_id;charge_id;merchant_reference;amount;currency;fee
lena@northmere-dev:~/ledger-sync$ """


def draw_terminal(w: int = 1440, h: int = 900) -> Image.Image:
    """Terminal window showing a Python stack trace (KeyError) while reconciling settlements."""
    img = Image.new("RGB", (w, h), (46, 52, 64))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([40, 30, w - 40, h - 30], radius=12, fill=(30, 30, 36))
    d.rounded_rectangle([40, 30, w - 40, 76], radius=12, fill=(58, 58, 66))
    d.rectangle([40, 60, w - 40, 76], fill=(58, 58, 66))
    for k, col in enumerate([(255, 95, 86), (255, 189, 46), (39, 201, 63)]):
        d.ellipse([62 + k * 28, 44, 80 + k * 28, 62], fill=col)
    centered_text(d, (40, 30, w - 40, 76), "lena@northmere-dev: ~/ledger-sync", font(17), (210, 210, 216))
    fnt, y = font(19, "mono"), 96
    for line in TRACEBACK.split("\n"):
        col = (210, 214, 220)
        if line.startswith("lena@"):
            col = (120, 220, 140)
        elif line.startswith("KeyError") or line.startswith("Traceback"):
            col = (255, 110, 100)
        elif "INFO" in line:
            col = (140, 180, 240)
        d.text((64, y), line, font=fnt, fill=col)
        y += 30
    d.rectangle([64 + 12 * 32, y - 28, 64 + 12 * 32 + 11, y - 6], fill=(210, 214, 220))  # cursor
    return img


CHAT = [
    ("day", "Wed 2 July 2025"),
    ("me", "Hi! We leave for Annecy on Friday at 5am. Can you still feed Biscuit Fri to Sun?"),
    ("ana", "Of course! Same as last time?"),
    ("me", "Half a pouch at 7 and 7, fresh water in the bathroom bowl. No treats, he's on a diet"),
    ("ana", "Poor guy. Where's the key again?"),
    ("me", "The spare key is under the blue plant pot next to the bins, not under the doormat"),
    ("ana", "Got it, blue pot by the bins"),
    ("me", "Alarm code is 4471, then press the tick"),
    ("ana", "I'll send you cat photos every day"),
    ("me", "You're the best. Back Sunday around 10pm"),
]


def _wrap(draw, text, fnt, width):
    words, lines, cur = text.split(), [], ""
    for wd in words:
        trial = (cur + " " + wd).strip()
        if draw.textlength(trial, font=fnt) <= width:
            cur = trial
        else:
            lines.append(cur)
            cur = wd
    if cur:
        lines.append(cur)
    return lines


def draw_chat(w: int = 720, h: int = 1480) -> Image.Image:
    """Phone screenshot of a messaging conversation with Ana."""
    img = Image.new("RGB", (w, h), (236, 229, 221))
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, w, 50], fill=(18, 94, 84))
    d.text((24, 12), "18:47", font=font(20, "bold"), fill=(255, 255, 255))
    d.text((w - 130, 12), "4G  82%", font=font(20), fill=(255, 255, 255))
    d.rectangle([0, 50, w, 150], fill=(0, 128, 105))
    d.ellipse([70, 70, 130, 130], fill=(230, 180, 150))
    d.text((148, 74), "Ana", font=font(28, "bold"), fill=(255, 255, 255))
    d.text((148, 110), "online", font=font(18), fill=(220, 240, 236))
    d.text((24, 78), "<", font=font(36, "bold"), fill=(255, 255, 255))
    fnt = font(25)
    y = 180
    for who, text in CHAT:
        if who == "day":
            centered_text(d, (0, y, w, y + 40), text, font(19, "bold"), (90, 100, 100))
            d.rounded_rectangle([w / 2 - 110, y, w / 2 + 110, y + 40], radius=10, outline=(200, 196, 190))
            y += 62
            continue
        lines = _wrap(d, text, fnt, 440)
        bh = 28 + 34 * len(lines) + 18
        bw = max(d.textlength(l, font=fnt) for l in lines) + 40
        x0 = w - 24 - bw if who == "me" else 24
        d.rounded_rectangle([x0, y, x0 + bw, y + bh], radius=16,
                            fill=(220, 248, 198) if who == "me" else (255, 255, 255))
        for k, l in enumerate(lines):
            d.text((x0 + 20, y + 14 + 34 * k), l, font=fnt, fill=(30, 30, 30))
        d.text((x0 + bw - 64, y + bh - 26), "18:" + str(20 + len(text) % 27), font=font(15), fill=(120, 130, 130))
        y += bh + 16
    d.rectangle([0, h - 90, w, h], fill=(240, 240, 240))
    d.rounded_rectangle([20, h - 74, w - 100, h - 18], radius=28, fill=(255, 255, 255))
    d.text((50, h - 60), "Message", font=font(24), fill=(150, 150, 150))
    d.ellipse([w - 84, h - 78, w - 20, h - 14], fill=(0, 128, 105))
    return img


CAL_EVENTS = [  # day index 0=Mon 8 Sep, start, end, title, colour
    (0, 9.5, 10.0, "Stand-up", (66, 133, 244)),
    (0, 14.0, 15.0, "1:1 Priya", (66, 133, 244)),
    (1, 8.67, 9.33, "Dentist - Dr Osei", (234, 67, 53)),
    (1, 9.5, 10.0, "Stand-up", (66, 133, 244)),
    (1, 18.5, 19.25, "Guitar lesson", (142, 36, 170)),
    (2, 9.5, 10.0, "Stand-up", (66, 133, 244)),
    (2, 10.5, 12.0, "Capacity review (marlin)", (66, 133, 244)),
    (2, 16.0, 17.0, "Gridwatch training", (66, 133, 244)),
    (3, 9.5, 10.0, "Stand-up", (66, 133, 244)),
    (3, 13.0, 14.0, "Interview: backend", (66, 133, 244)),
    (3, 17.0, 19.0, "Pottery class", (142, 36, 170)),
    (4, 12.5, 13.5, "Lunch with Ana", (51, 182, 121)),
    (4, 15.0, 15.5, "Collect laptop (Fixwell)", (246, 191, 38)),
    (5, 9.0, 10.0, "Parkrun", (51, 182, 121)),
    (5, 11.0, 13.0, "Market stall setup", (142, 36, 170)),
    (6, 13.0, 16.0, "Lunch at Mum's", (51, 182, 121)),
]


def draw_calendar_week(w: int = 1440, h: int = 900) -> Image.Image:
    """Calendar app, week view of 8-14 September 2025, with the week's appointments."""
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((24, 18), "September 2025", font=font(28, "bold"), fill=(50, 54, 60))
    d.text((290, 26), "Week 37", font=font(18), fill=(110, 116, 126))
    d.rounded_rectangle([1250, 18, 1330, 54], radius=8, outline=(200, 204, 210))
    d.text((1266, 26), "Today", font=font(16), fill=(60, 64, 72))
    d.text((1350, 26), "<  >", font=font(18, "bold"), fill=(60, 64, 72))
    left, top, colw = 90, 130, (w - 110) / 7
    hours = list(range(8, 21))
    rowh = (h - top - 10) / len(hours)
    for i, name in enumerate(["Mon 8", "Tue 9", "Wed 10", "Thu 11", "Fri 12", "Sat 13", "Sun 14"]):
        centered_text(d, (left + i * colw, 76, left + (i + 1) * colw, 120), name, font(18, "bold"), (60, 64, 72))
        d.line([(left + i * colw, 76), (left + i * colw, h)], fill=(226, 228, 232))
    for k, hr in enumerate(hours):
        y = top + k * rowh
        d.line([(left, y), (w, y)], fill=(232, 234, 238))
        d.text((24, y - 9), f"{hr:02d}:00", font=font(14), fill=(120, 126, 136))
    for day, s, e, title, col in CAL_EVENTS:
        x0 = left + day * colw + 4
        y0 = top + (s - 8) * rowh + 2
        y1 = top + (e - 8) * rowh - 2
        light = tuple(int(c + (255 - c) * 0.75) for c in col)
        d.rounded_rectangle([x0, y0, x0 + colw - 8, y1], radius=6, fill=light)
        d.rectangle([x0, y0, x0 + 4, y1], fill=col)
        hh, mm = int(s), int(round((s % 1) * 60))
        eh, em = int(e), int(round((e % 1) * 60))
        fnt = font(14, "bold")
        lines = _wrap(d, title, fnt, colw - 24)
        d.text((x0 + 10, y0 + 4), lines[0], font=fnt, fill=shade(col, 0.6))
        if y1 - y0 > 36:
            extra = lines[1:2] + [f"{hh:02d}:{mm:02d} - {eh:02d}:{em:02d}"]
            for k, l in enumerate(extra):
                if y0 + 22 + 18 * k < y1 - 14:
                    d.text((x0 + 10, y0 + 22 + 18 * k), l, font=font(13), fill=shade(col, 0.6))
    return img


def draw_booking(w: int = 1440, h: int = 900) -> Image.Image:
    """Web page screenshot: airline booking confirmation with the booking reference."""
    img = Image.new("RGB", (w, h), (244, 246, 250))
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, w, 40], fill=(222, 225, 230))
    d.rounded_rectangle([120, 6, 900, 34], radius=14, fill=(255, 255, 255))
    d.text((140, 10), "https://www.northquay-air.example/manage/confirmation", font=font(15), fill=(80, 86, 96))
    d.rectangle([0, 40, w, 110], fill=(14, 48, 96))
    d.text((60, 58), "NORTHQUAY AIR", font=font(30, "bold"), fill=(255, 255, 255))
    d.text((1100, 66), "My trips   Check in   Help", font=font(18), fill=(210, 220, 236))
    d.rounded_rectangle([60, 140, 1380, 860], radius=12, fill=(255, 255, 255), outline=(220, 224, 230))
    d.ellipse([100, 176, 150, 226], fill=(40, 170, 90))
    d.line([(112, 202), (122, 212), (140, 190)], fill=(255, 255, 255), width=5)
    d.text((170, 176), "Your booking is confirmed", font=font(34, "bold"), fill=(20, 30, 46))
    d.text((100, 250), "Booking reference", font=font(20), fill=(100, 110, 124))
    d.text((100, 280), "QX7RLM", font=font(54, "bold"), fill=(14, 48, 96))
    d.text((600, 250), "Passengers", font=font(20), fill=(100, 110, 124))
    d.text((600, 282), "Ms Lena Varga", font=font(24), fill=(20, 30, 46))
    d.text((600, 316), "Mr Jonas Feld", font=font(24), fill=(20, 30, 46))
    d.text((1000, 250), "Total paid", font=font(20), fill=(100, 110, 124))
    d.text((1000, 282), "GBP 186.40", font=font(32, "bold"), fill=(20, 30, 46))
    for k, (fl, date, dep, arr, seats) in enumerate([
            ("NQ 4411", "Fri 4 Jul 2025", "London Gatwick (LGW) 07:15", "Geneva (GVA) 09:55", "14A, 14B"),
            ("NQ 4418", "Sun 6 Jul 2025", "Geneva (GVA) 20:40", "London Gatwick (LGW) 21:25", "9C, 9D")]):
        y0 = 400 + k * 200
        d.rounded_rectangle([100, y0, 1340, y0 + 170], radius=10, fill=(247, 249, 252), outline=(226, 230, 236))
        d.text((130, y0 + 20), ("Outbound  " if k == 0 else "Return  ") + date, font=font(22, "bold"), fill=(20, 30, 46))
        d.text((130, y0 + 70), dep, font=font(22), fill=(20, 30, 46))
        arrow(d, (520, y0 + 84), (620, y0 + 84), (120, 130, 146), 3)
        d.text((650, y0 + 70), arr, font=font(22), fill=(20, 30, 46))
        d.text((130, y0 + 116), f"Flight {fl}   Seats {seats}   1 cabin bag each", font=font(18), fill=(100, 110, 124))
    d.text((100, 820), "Online check-in opens 30 days before departure.", font=font(17), fill=(100, 110, 124))
    return img


# --------------------------------------------------------------------------------------------
# Charts
# --------------------------------------------------------------------------------------------

MONTHS3 = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
SHOP_SALES_2025 = [640, 710, 1050, 1320, 1480, 1610, 980, 890, 1540, 2250, 3420, 2980]
ELECTRICITY = ([212, 198, 205, 176, 160, 151, 149, 155, 168, 190, 224, 241],
               [431, 398, 322, 214, 168, 154, 150, 158, 181, 262, 388, 452])
BUDGET = [("Rent", 41, (66, 133, 244)), ("Savings", 15, (52, 168, 83)), ("Groceries", 14, (251, 188, 5)),
          ("Utilities", 9, (234, 67, 53)), ("Transport", 8, (155, 89, 182)), ("Eating out", 6, (0, 172, 193)),
          ("Other", 7, (158, 158, 158))]


def draw_bar_chart(w: int = 1200, h: int = 800) -> Image.Image:
    """Bar chart: the pottery shop's sales per month in 2025."""
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((80, 30), "Monthly sales 2025", font=font(34, "bold"), fill=(30, 30, 30))
    d.text((80, 80), "GBP, all channels", font=font(20), fill=(110, 110, 110))
    x0, y0, x1, y1 = 120, 140, 1150, 700
    vmax = 4000
    for k in range(5):
        y = y1 - (y1 - y0) * k / 4
        d.line([(x0, y), (x1, y)], fill=(230, 230, 230), width=1)
        d.text((40, y - 12), f"{vmax * k // 4:,}", font=font(18), fill=(90, 90, 90))
    bw = (x1 - x0) / 12
    for i, v in enumerate(SHOP_SALES_2025):
        bx = x0 + i * bw + bw * 0.18
        by = y1 - (y1 - y0) * v / vmax
        d.rectangle([bx, by, bx + bw * 0.64, y1], fill=(46, 110, 180) if v < 3000 else (230, 120, 40))
        centered_text(d, (bx - 10, by - 30, bx + bw * 0.64 + 10, by - 4), f"{v:,}", font(15), (60, 60, 60))
        centered_text(d, (bx - 10, y1 + 8, bx + bw * 0.64 + 10, y1 + 36), MONTHS3[i], font(18), (60, 60, 60))
    d.line([(x0, y1), (x1, y1)], fill=(60, 60, 60), width=2)
    return img


def draw_line_chart(w: int = 1200, h: int = 800) -> Image.Image:
    """Line chart: household electricity use per month, 2024 vs 2025 (heat pump from 2025)."""
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((80, 30), "Electricity use per month (kWh)", font=font(32, "bold"), fill=(30, 30, 30))
    x0, y0, x1, y1 = 120, 130, 1140, 690
    vmax = 500
    for k in range(6):
        y = y1 - (y1 - y0) * k / 5
        d.line([(x0, y), (x1, y)], fill=(232, 232, 232))
        d.text((60, y - 11), str(vmax * k // 5), font=font(18), fill=(90, 90, 90))
    for i, m in enumerate(MONTHS3):
        x = x0 + (x1 - x0) * i / 11
        d.text((x - 16, y1 + 12), m, font=font(18), fill=(90, 90, 90))
    for series, col, label, ly in ((ELECTRICITY[0], (150, 150, 150), "2024", 150),
                                   (ELECTRICITY[1], (230, 110, 30), "2025 (heat pump)", 185)):
        pts = _line_series(d, (x0, y0, x1, y1), series, vmax, col, 4)
        for p in pts:
            d.ellipse([p[0] - 6, p[1] - 6, p[0] + 6, p[1] + 6], fill=col)
        d.line([(820, ly + 10), (870, ly + 10)], fill=col, width=5)
        d.text((880, ly), label, font=font(19), fill=(50, 50, 50))
    d.line([(x0, y1), (x1, y1)], fill=(60, 60, 60), width=2)
    d.line([(x0, y0), (x0, y1)], fill=(60, 60, 60), width=2)
    return img


def draw_pie_chart(w: int = 1200, h: int = 800) -> Image.Image:
    """Pie chart: how the monthly budget is split (rent, savings, groceries ...)."""
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((80, 30), "Where the money goes - monthly budget", font=font(32, "bold"), fill=(30, 30, 30))
    cx, cy, r = 430, 440, 300
    start = -90.0
    for name, pct, col in BUDGET:
        end = start + 360 * pct / 100
        d.pieslice([cx - r, cy - r, cx + r, cy + r], start, end, fill=col, outline=(255, 255, 255), width=3)
        mid = math.radians((start + end) / 2)
        centered_text(d, (cx + 0.68 * r * math.cos(mid) - 40, cy + 0.68 * r * math.sin(mid) - 16,
                          cx + 0.68 * r * math.cos(mid) + 40, cy + 0.68 * r * math.sin(mid) + 16),
                      f"{pct}%", font(22, "bold"), (255, 255, 255))
        start = end
    for k, (name, pct, col) in enumerate(BUDGET):
        y = 220 + k * 56
        d.rectangle([840, y, 872, y + 32], fill=col)
        d.text((890, y + 2), f"{name}  {pct}%", font=font(24), fill=(40, 40, 40))
    return img


# --------------------------------------------------------------------------------------------
# Diagrams
# --------------------------------------------------------------------------------------------

def draw_network_diagram(w: int = 1400, h: int = 900) -> Image.Image:
    """Home network: internet -> router -> switch -> NAS/desktop/printer/access point -> devices."""
    img = Image.new("RGB", (w, h), (250, 251, 253))
    d = ImageDraw.Draw(img)
    d.text((40, 24), "Home network (Jan 2025)", font=font(28, "bold"), fill=(30, 34, 40))
    # internet cloud
    for cx, cy, r in [(640, 110, 50), (700, 90, 60), (770, 115, 48), (700, 135, 45)]:
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(214, 230, 246), outline=(120, 150, 190), width=2)
    for cx, cy, r in [(640, 110, 48), (700, 90, 58), (770, 115, 46), (700, 135, 43)]:
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(214, 230, 246))
    centered_text(d, (620, 80, 790, 140), "Internet", font(22, "bold"), (40, 70, 110))
    nodes = {
        "router": ((600, 230, 800, 310), "Router\n192.168.1.1", (255, 236, 200)),
        "switch": ((600, 390, 800, 460), "8-port switch", (220, 236, 255)),
        "nas": ((120, 560, 330, 650), "NAS 2 x 4 TB\n192.168.1.20", (226, 246, 226)),
        "desktop": ((400, 560, 590, 650), "Desktop\n(study)", (240, 240, 240)),
        "printer": ((660, 560, 840, 650), "Printer", (240, 240, 240)),
        "ap": ((930, 560, 1160, 650), "Wi-Fi access point\n192.168.1.2", (255, 230, 236)),
        "phones": ((760, 760, 920, 830), "Phones", (245, 245, 245)),
        "laptops": ((960, 760, 1120, 830), "Laptops", (245, 245, 245)),
        "tv": ((1160, 760, 1300, 830), "TV", (245, 245, 245)),
    }
    links = [("router", "switch", "cable"), ("switch", "nas", "cable"), ("switch", "desktop", "cable"),
             ("switch", "printer", "cable"), ("switch", "ap", "cable"), ("ap", "phones", "wifi"),
             ("ap", "laptops", "wifi"), ("ap", "tv", "wifi")]

    def center(b):
        return ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
    d.line([(700, 160), (700, 230)], fill=(60, 70, 90), width=4)
    d.text((712, 180), "fibre", font=font(16), fill=(90, 100, 120))
    for a, b, kind in links:
        pa, pb = center(nodes[a][0]), center(nodes[b][0])
        pa = (pa[0], nodes[a][0][3])
        pb = (pb[0], nodes[b][0][1])
        if kind == "wifi":
            n = 12
            for k in range(n):
                if k % 2 == 0:
                    d.line([(pa[0] + (pb[0] - pa[0]) * k / n, pa[1] + (pb[1] - pa[1]) * k / n),
                            (pa[0] + (pb[0] - pa[0]) * (k + 1) / n, pa[1] + (pb[1] - pa[1]) * (k + 1) / n)],
                           fill=(200, 80, 120), width=3)
        else:
            d.line([pa, pb], fill=(60, 70, 90), width=4)
    for key, (box, label, col) in nodes.items():
        d.rounded_rectangle(box, radius=12, fill=col, outline=(70, 80, 100), width=3)
        centered_text(d, box, label, font(19, "bold" if key in ("router", "switch") else "sans"), (30, 34, 40))
    d.rectangle([40, 820, 60, 824], fill=(60, 70, 90))
    d.text((70, 810), "cable", font=font(16), fill=(60, 70, 90))
    for k in range(3):
        d.rectangle([160 + k * 8, 820, 164 + k * 8, 824], fill=(200, 80, 120))
    d.text((190, 810), "wireless", font=font(16), fill=(60, 70, 90))
    return img


def draw_flowchart(w: int = 1200, h: int = 1400) -> Image.Image:
    """Flowchart: what to do when a production alert fires (decision diamonds, yes/no arrows)."""
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((40, 26), "When an alert fires", font=font(30, "bold"), fill=(30, 30, 30))
    f = font(20)
    blk = (40, 40, 48)

    def term(cx, cy, text):
        d.rounded_rectangle([cx - 150, cy - 38, cx + 150, cy + 38], radius=38, fill=(220, 240, 220), outline=blk, width=3)
        centered_text(d, (cx - 150, cy - 38, cx + 150, cy + 38), text, f, blk)

    def step(cx, cy, text):
        d.rectangle([cx - 170, cy - 42, cx + 170, cy + 42], fill=(226, 236, 252), outline=blk, width=3)
        centered_text(d, (cx - 170, cy - 42, cx + 170, cy + 42), text, f, blk)

    def decide(cx, cy, text):
        d.polygon([(cx, cy - 80), (cx + 170, cy), (cx, cy + 80), (cx - 170, cy)], fill=(255, 244, 210), outline=blk, width=3)
        centered_text(d, (cx - 120, cy - 50, cx + 120, cy + 50), text, f, blk)

    L, R = 420, 900
    term(L, 120, "Alert fires")
    step(L, 260, "Acknowledge\nwithin 5 minutes")
    decide(L, 440, "Customers\naffected?")
    step(L, 640, "Open incident channel,\nname an incident lead")
    step(L, 800, "Mitigate first:\nroll back, fail over")
    decide(L, 980, "Resolved?")
    step(L, 1160, "Write the postmortem\nwithin 5 working days")
    term(L, 1300, "Done")
    step(R, 440, "Create a ticket,\nfix in working hours")
    step(R, 980, "Escalate to the\nsecondary on-call")
    for y0, y1 in [(158, 218), (302, 360), (520, 598), (682, 758), (842, 900), (1060, 1118), (1202, 1262)]:
        arrow(d, (L, y0), (L, y1), blk, 3)
    arrow(d, (L + 170, 440), (R - 170, 440), blk, 3)
    d.text((L + 190, 408), "no", font=f, fill=(180, 40, 40))
    d.text((L + 12, 530), "yes", font=f, fill=(30, 130, 60))
    arrow(d, (L + 170, 980), (R - 170, 980), blk, 3)
    d.text((L + 190, 948), "no", font=f, fill=(180, 40, 40))
    d.text((L + 12, 1070), "yes", font=f, fill=(30, 130, 60))
    d.line([(R, 938), (R, 800), (L + 170, 800)], fill=blk, width=3)
    arrow(d, (R - 200, 800), (L + 172, 800), blk, 3)
    return img


# --------------------------------------------------------------------------------------------
# Pictures for the Word files
# --------------------------------------------------------------------------------------------

def draw_kitchen_plan(w: int = 1000, h: int = 700) -> Image.Image:
    """Top-down sketch of the new kitchen layout: L-shaped worktop, sink, hob, fridge, island."""
    img = Image.new("RGB", (w, h), (252, 252, 248))
    d = ImageDraw.Draw(img)
    for x in range(0, w, 25):
        d.line([(x, 0), (x, h)], fill=(232, 238, 246))
    for y in range(0, h, 25):
        d.line([(0, y), (w, y)], fill=(232, 238, 246))
    wall = (40, 40, 48)
    d.rectangle([80, 80, 920, 620], outline=wall, width=12)
    d.rectangle([380, 74, 560, 86], fill=(180, 210, 240))                      # window
    d.rectangle([914, 380, 926, 520], fill=(252, 252, 248))                    # door gap
    d.arc([780, 380, 920, 520], 90, 180, fill=wall, width=3)
    d.rectangle([86, 86, 860, 200], fill=(214, 196, 170), outline=wall, width=2)   # worktop along top wall
    d.rectangle([86, 200, 200, 560], fill=(214, 196, 170), outline=wall, width=2)  # worktop along left wall
    d.rounded_rectangle([400, 100, 540, 180], radius=12, fill=(200, 210, 220), outline=wall, width=2)
    d.ellipse([455, 125, 485, 155], outline=wall, width=2)
    for cx, cy, r in [(640, 120, 22), (700, 120, 18), (640, 170, 18), (700, 170, 22)]:
        d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=wall, width=3)
    d.rectangle([100, 430, 190, 550], fill=(236, 236, 240), outline=wall, width=3)
    d.rectangle([380, 320, 700, 440], fill=(196, 170, 140), outline=wall, width=3)   # island
    for x in (420, 500, 580, 660):
        d.ellipse([x - 18, 450, x + 18, 486], outline=wall, width=2)
    f = font(20, "bold")
    centered_text(d, (400, 100, 540, 180), "Sink", f, wall)
    d.text((610, 200), "Induction hob", font=font(18), fill=wall)
    centered_text(d, (100, 430, 190, 550), "Fridge", f, wall)
    centered_text(d, (380, 320, 700, 440), "Island + 4 stools", f, wall)
    d.text((100, 640), "New layout, 4.2 m x 3.1 m", font=font(20), fill=wall)
    return img


def draw_book_stack(w: int = 700, h: int = 600) -> Image.Image:
    """A stack of books seen from the side (book club picture)."""
    rng = np.random.default_rng(5501)
    img = Image.new("RGB", (w, h), (244, 240, 232))
    d = ImageDraw.Draw(img)
    d.rectangle([0, 520, w, h], fill=(170, 130, 90))
    y = 520
    for k in range(9):
        bh = int(rng.integers(34, 62))
        bw = int(rng.integers(330, 470))
        x = 350 - bw // 2 + int(rng.integers(-30, 30))
        col = tuple(int(v) for v in rng.integers(40, 210, 3))
        d.rectangle([x, y - bh, x + bw, y], fill=col, outline=shade(col, 0.6), width=2)
        d.rectangle([x + 30, y - bh + 10, x + 60, y - 10], fill=shade(col, 1.4))
        d.line([(x + 90, y - bh // 2), (x + bw - 40, y - bh // 2)], fill=shade(col, 1.5), width=4)
        y -= bh
    d.ellipse([480, y - 60, 560, y - 10], fill=(250, 250, 250), outline=(200, 200, 200), width=3)   # a mug on top
    return img


def draw_iceland_map(w: int = 900, h: int = 620) -> Image.Image:
    """Sketch map of the island with the ring road and the overnight stops."""
    img = Image.new("RGB", (w, h), (200, 226, 242))
    d = ImageDraw.Draw(img)
    island = [(120, 300), (90, 220), (170, 150), (150, 90), (260, 120), (330, 70), (420, 110), (520, 60),
              (620, 100), (720, 80), (800, 160), (830, 260), (790, 360), (700, 430), (600, 500), (480, 530),
              (360, 520), (260, 470), (200, 400), (160, 360)]
    d.polygon(island, fill=(226, 232, 206), outline=(120, 130, 110))
    d.ellipse([420, 250, 520, 320], fill=(250, 250, 252))  # glacier
    stops = [("Reykjavik", (190, 360)), ("Vik", (400, 500)), ("Hofn", (640, 450)),
             ("Egilsstadir", (760, 240)), ("Akureyri", (520, 140)), ("Borgarnes", (210, 280))]
    pts = [p for _, p in stops] + [stops[0][1]]
    for a, b in zip(pts, pts[1:]):
        n = 14
        for k in range(0, n, 2):
            d.line([(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n),
                    (a[0] + (b[0] - a[0]) * (k + 1) / n, a[1] + (b[1] - a[1]) * (k + 1) / n)],
                   fill=(200, 40, 40), width=4)
    for name, (x, y) in stops:
        d.ellipse([x - 8, y - 8, x + 8, y + 8], fill=(30, 30, 30))
        d.text((x + 12, y - 12), name, font=font(18, "bold"), fill=(30, 30, 30))
    d.text((30, 20), "Ring road, anticlockwise - 8 days", font=font(22, "bold"), fill=(30, 50, 70))
    return img


def draw_capacity_chart(w: int = 1000, h: int = 600) -> Image.Image:
    """Bars of projected index size per quarter against the cluster's usable disk (red line)."""
    img = Image.new("RGB", (w, h), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((40, 20), "marlin: projected data vs usable disk (TB)", font=font(24, "bold"), fill=(30, 30, 30))
    x0, y0, x1, y1 = 100, 80, 960, 520
    vals = [5.1, 6.0, 7.2, 8.6, 10.1, 11.9]
    labels = ["Q3 25", "Q4 25", "Q1 26", "Q2 26", "Q3 26", "Q4 26"]
    vmax = 16
    for k in range(5):
        y = y1 - (y1 - y0) * k / 4
        d.line([(x0, y), (x1, y)], fill=(232, 232, 232))
        d.text((50, y - 10), str(vmax * k // 4), font=font(16), fill=(90, 90, 90))
    bw = (x1 - x0) / len(vals)
    for i, v in enumerate(vals):
        bx = x0 + i * bw + 20
        d.rectangle([bx, y1 - (y1 - y0) * v / vmax, bx + bw - 40, y1], fill=(80, 130, 200))
        centered_text(d, (bx, y1 + 6, bx + bw - 40, y1 + 30), labels[i], font(16), (60, 60, 60))
    ycap = y1 - (y1 - y0) * 10.0 / vmax
    d.line([(x0, ycap), (x1, ycap)], fill=(220, 40, 40), width=4)
    d.text((x0 + 10, ycap - 28), "usable at 75% of 5 x 4 TB = 15 TB raw -> 10 TB", font=font(16), fill=(220, 40, 40))
    return img


# --------------------------------------------------------------------------------------------
# Scanned pages (rendered text, rotated, noisy; only ever stored as images)
# --------------------------------------------------------------------------------------------

def render_scan_page(blocks: list[tuple[str, str]], seed: int, angle: float, w: int = 1240, h: int = 1754,
                     signature: bool = False, receipt: bool = False) -> Image.Image:
    """A page as a flatbed scanner sees it: greyscale, slightly rotated, uneven, speckled.

    blocks: (style, text) with style in title, head, body, small, mono, gap, right.
    """
    rng = np.random.default_rng(seed)
    page = Image.new("L", (w, h), 250)
    d = ImageDraw.Draw(page)
    margin = 140 if not receipt else 330
    width = w - 2 * margin
    y = 150
    styles = {"title": (font(40, "serifbold"), 60), "head": (font(30, "serifbold"), 46),
              "body": (font(27, "serif"), 40), "small": (font(22, "serif"), 32),
              "mono": (font(25, "mono"), 36), "monobold": (font(25, "monobold"), 36),
              "right": (font(26, "serif"), 38)}
    if receipt:
        d.rectangle([margin - 40, 80, w - margin + 40, h - 200], fill=253, outline=225)
    for style, text in blocks:
        if style == "gap":
            y += int(text or 24)
            continue
        fnt, lh = styles[style]
        if style in ("mono", "monobold"):
            lines = text.split("\n")
        else:
            lines = []
            for para in text.split("\n"):
                lines += _wrap(d, para, fnt, width) or [""]
        for line in lines:
            x = margin if style != "right" else w - margin - d.textlength(line, font=fnt)
            d.text((x, y), line, font=fnt, fill=int(rng.integers(20, 45)))
            y += lh
        y += 10
    if signature:
        pts = []
        x0, y0 = margin + 20, y + 30
        for k in range(60):
            pts.append((x0 + k * 6 + rng.normal(0, 2), y0 + 22 * math.sin(k * 0.55) + rng.normal(0, 3)))
        d.line(pts, fill=40, width=3, joint="curve")
        pts = []
        x0 = w // 2 + 80
        for k in range(50):
            pts.append((x0 + k * 7 + rng.normal(0, 2), y0 + 16 * math.sin(k * 0.8 + 1) + rng.normal(0, 3)))
        d.line(pts, fill=40, width=3, joint="curve")
    assert y < h - 120, f"scan page overflow ({y})"
    page = page.rotate(angle, resample=Image.BICUBIC, expand=False, fillcolor=236)
    a = np.asarray(page).astype(np.float64)
    yy, xx = np.mgrid[0:h, 0:w]
    a *= 0.93 + 0.07 * (xx / w)                                    # uneven lamp
    a[:, : int(rng.integers(10, 22))] *= 0.55                       # dark lid edge
    a += rng.normal(0, 7, a.shape)
    specks = rng.random(a.shape) < 0.0008
    a[specks] = rng.uniform(60, 140, specks.sum())
    img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8), "L")
    return img.filter(ImageFilter.GaussianBlur(0.55))
