"""SVG drawings (.svg): scent.extract.svg, on drawings written here as draw.io and Inkscape write
them (labels as HTML in a foreignObject with a <text> copy, a title, links to other files)."""
import io

import numpy as np
import pytest
from PIL import Image

from scent import Index
from scent.errors import ExtractError
from scent.extract import Limits, extract, file_kind, svg

# draw.io's export: each label in a <switch>, as HTML and again as <text>; a last switch whose
# fallback tells viewers without foreignObject that they miss the text.
DIAGRAM = """<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="421px" height="121px"
     viewBox="-0.5 -0.5 421 121">
<title>Checkout flow</title>
<defs><style>.label { font: 12px Helvetica; }</style></defs>
<g>
<rect x="0" y="0" width="120" height="60" fill="#dae8fc" stroke="#6c8ebf"/>
<switch><foreignObject width="100%" height="100%"><div xmlns="http://www.w3.org/1999/xhtml"><div>Payment<br/>gateway</div>
</div></foreignObject><text x="60" y="34">Payment gateway</text></switch>
<rect x="300" y="0" width="120" height="60" fill="#d5e8d4" stroke="#82b366"/>
<switch><foreignObject width="100%" height="100%"><div xmlns="http://www.w3.org/1999/xhtml">Ledger DB</div>
</foreignObject><text x="360" y="34">Ledger DB</text></switch>
<text x="200" y="100" class="label">retries <tspan font-weight="bold">3 times</tspan></text>
</g>
<switch><g requiredFeatures="http://www.w3.org/TR/SVG11/feature#Extensibility"/><a xlink:href="https://www.drawio.com/">
<text x="50%" y="100%">Text is not SVG - cannot display</text></a></switch>
</svg>
"""


def _write(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content) if isinstance(content, str) else path.write_bytes(content)
    return str(path)


def test_a_diagram_is_a_picture_whose_labels_are_read_once_each(tmp_path):
    got = extract(_write(tmp_path, "checkout.svg", DIAGRAM))
    assert file_kind("checkout.svg") == "image" and got.kind == "image" and got.title == "Checkout flow"
    assert [s.kind for s in got.sections] == ["image", "ocr"]
    assert got.sections[1].text == "Checkout flow\nPayment gateway\nLedger DB\nretries 3 times"
    assert got.sections[0].picture is not None  # its pixels, for an image-text model where there is one


def test_a_plots_text_drawn_as_outlines_is_read_from_its_comments(tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.bar(["Jan", "Feb"], [3, 5])
    ax.set_title("Monthly rainfall in Lisbon")
    ax.set_ylabel("mm")
    fig.savefig(tmp_path / "rain.svg")  # svg.fonttype "path", matplotlib's default: no <text> at all
    plt.close(fig)
    assert "<text" not in (tmp_path / "rain.svg").read_text()
    words = extract(str(tmp_path / "rain.svg")).sections[1].text.split("\n")
    assert words[:2] == ["Jan", "Feb"] and words[-2:] == ["mm", "Monthly rainfall in Lisbon"]


def test_a_drawing_is_described_as_drawn(tmp_path):
    got = extract(_write(tmp_path, "checkout.svg", DIAGRAM), Limits(describe=True))
    # the labels on white would read as a screen's text; a drawing is no screenshot
    assert got.sections[-1].kind == "image" and got.sections[-1].text.startswith("diagram, drawing")


@pytest.mark.parametrize("size, expected", [
    ('width="100000" height="50000" viewBox="0 0 400 200"', (300, 150)),  # a huge size: the side decides
    ('width="10cm" height="40cm"', (75, 300)),  # tall, in units: only the ratio counts
    ("", (300, 300)),  # no size at all: SVG's default square
])
def test_a_drawing_renders_at_the_side_asked(size, expected):
    image = svg.render(f'<svg xmlns="http://www.w3.org/2000/svg" {size}><rect width="5" height="5"/></svg>'.encode(),
                       300)
    assert image.size == expected and image.mode == "RGB"


def test_a_drawings_text_is_drawn_for_the_eye_not_for_the_describer():
    import shutil
    import subprocess

    if not shutil.which("fc-list") or "DejaVu Sans" not in subprocess.run(["fc-list"], capture_output=True,
                                                                            text=True).stdout:
        pytest.skip("the DejaVu fonts are not installed (Debian: fonts-dejavu-core)")
    drawing = (b'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50">'
               b'<text x="10" y="35" font-family="Helvetica" font-size="30">Ledger</text></svg>')

    def inked(image):
        return int((np.asarray(image)[:, :, 0] < 128).sum())

    # Helvetica is not on the machine: the text is drawn in DejaVu, where resvg alone drew nothing
    assert inked(svg.render(drawing, 200)) > 100
    assert inked(svg.render(drawing, 200, text=False)) == 0


def test_a_drawing_never_shows_another_files_pixels(tmp_path):
    Image.new("RGB", (40, 40), (255, 0, 0)).save(tmp_path / "red.png")
    inline = io.BytesIO()
    Image.new("RGB", (40, 40), (0, 0, 255)).save(inline, "PNG")
    import base64
    data = "data:image/png;base64," + base64.b64encode(inline.getvalue()).decode()
    drawing = (f'<svg xmlns="http://www.w3.org/2000/svg" width="80" height="40">'
               f'<image x="0" y="0" width="40" height="40" href="{tmp_path / "red.png"}"/>'
               f'<image x="40" y="0" width="40" height="40" href="{data}"/></svg>')
    image = svg.render(drawing.encode(), 80)
    assert image.getpixel((20, 20)) == (255, 255, 255)  # the file on disk is not drawn
    assert image.getpixel((60, 20)) == (0, 0, 255)  # a picture inside the drawing is


@pytest.mark.parametrize("content, reason", [
    ("<svg xmlns='http://www.w3.org/2000/svg'><text>cut short", "its XML does not parse"),
    ("<html><body>saved as .svg</body></html>", "its XML is a <html>, not an <svg>"),
    # entities expanding a billion times: expat refuses them
    ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
     + "".join(f'<!ENTITY {b} "{("&" + a + ";") * 10}">' for a, b in zip("abcdefgh", "bcdefghi"))
     + ']><svg xmlns="http://www.w3.org/2000/svg"><text>&i;</text></svg>', "its XML does not parse"),
])
def test_what_is_not_a_drawing_is_refused_with_its_reason(tmp_path, content, reason):
    with pytest.raises(ExtractError, match=rf"not a readable SVG drawing \({reason}"):
        extract(_write(tmp_path, "bad.svg", content))


def test_a_gzipped_drawing_is_read_as_the_drawing(tmp_path):
    import gzip

    got = extract(_write(tmp_path, "checkout.svgz", gzip.compress(DIAGRAM.encode())))
    assert file_kind("checkout.svgz") == "image" and got.title == "Checkout flow"
    assert got.sections[1].text == "Checkout flow\nPayment gateway\nLedger DB\nretries 3 times"
    drawn = got.sections[0].picture.load(64)  # what the describer is given is drawn from the unpacked XML
    assert max(drawn.size) == 64


def test_a_gzipped_drawing_that_is_cut_or_too_big_is_one_line(tmp_path):
    import gzip

    packed = gzip.compress(DIAGRAM.encode())
    with pytest.raises(ExtractError, match=r"not a readable gzipped SVG drawing \(\.svgz\) \(its gzip is cut short"):
        extract(_write(tmp_path, "cut.svgz", packed[:len(packed) // 2]))
    bomb = gzip.compress(b"<svg xmlns='http://www.w3.org/2000/svg'>" + b" " * 3_000_000 + b"</svg>")
    assert len(bomb) < 5_000
    with pytest.raises(ExtractError, match=r"the drawing unpacks to over 2\.0 MB; raise the max_file_mb"):
        extract(_write(tmp_path, "bomb.svgz", bomb), Limits(max_text_bytes=2 * 1024 * 1024))
    with pytest.raises(OverflowError):  # the bound the server's thumbnail unpacks to, as the index's
        svg.unpacked(bomb, 2_000_000)
    assert svg.unpacked(bomb, 3_000_100).endswith(b" </svg>")


def test_a_diagram_is_found_by_its_labels_and_has_a_thumbnail(tmp_path, fake_embedder):
    from scent.serve.files import make_thumbnail

    (tmp_path / "checkout.svg").write_text(DIAGRAM)
    (tmp_path / "notes.md").write_text("# Groceries\n\nApples, bread and coffee.\n")
    with Index(tmp_path, embedder=fake_embedder) as idx:
        assert idx.update().added == 2
        hit = idx.search("ledger db retries", k=1, strategy="keyword")[0]
    assert (hit.path, hit.kind) == ("checkout.svg", "image")
    thumb = Image.open(io.BytesIO(make_thumbnail(tmp_path / "checkout.svg", "image", None)))
    assert thumb.format == "JPEG" and max(thumb.size) <= 320
    import gzip

    (tmp_path / "checkout.svgz").write_bytes(gzip.compress(DIAGRAM.encode()))
    packed = Image.open(io.BytesIO(make_thumbnail(tmp_path / "checkout.svgz", "image", None)))
    assert packed.size == thumb.size and np.array_equal(np.asarray(packed), np.asarray(thumb))


def test_a_picture_shows_the_unit_holding_the_querys_words(tmp_path, fake_embedder):
    """Whichever of a drawing's units answers, the snippet is the one holding the most of the query's
    words: its labels for "payment gateway diagram" (two words against the description's one), its
    description for "diagram"."""
    (tmp_path / "checkout.svg").write_text(DIAGRAM)
    with Index(tmp_path, embedder=fake_embedder) as idx:
        idx.update()
        kinds = [u.kind for u in idx.engine.catalog.file_units("checkout.svg")]
        labels = idx.search("payment gateway diagram", k=1)[0]
        drawn = idx.search("diagram", k=1)[0]
    assert kinds == ["image", "ocr", "image"]  # name, labels, description
    assert labels.unit_kind == "ocr" and labels.snippet.startswith("Checkout flow Payment gateway Ledger DB")
    assert drawn.unit_kind == "image" and drawn.snippet.startswith("diagram, drawing")
