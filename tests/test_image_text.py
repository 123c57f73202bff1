"""The image-text model plug-in point (scent.image_text), end to end with a fake model.

Plumbing only: the fake model's "pixels" are a picture's mean colour and its texts know three
colour words, so these tests say that pictures get vectors, that the query meets them in a fourth
list under the same filters, and that the index keeps models apart; nothing about how well a real
CLIP-style model finds pictures.
"""
from __future__ import annotations

import os
from importlib.metadata import EntryPoint

import numpy as np
import pytest
from fpdf import FPDF
from PIL import Image

from scent import image_text
from scent.errors import IndexVersionError, UsageError
from scent.filters import Filters
from scent.index import Index
from scent.settings import Settings

AXES = {"red": 0, "green": 1, "blue": 2}


class MeanColour:
    """A picture is its mean RGB colour; a text is the axis of the colour word in it (else zeros)."""

    model_id = "fake/mean-colour"
    dim = 3
    images_seen = 0

    def embed_images(self, images):
        MeanColour.images_seen += len(images)
        m = np.stack([np.asarray(im, dtype=np.float32).reshape(-1, 3).mean(axis=0) for im in images])
        return m / np.linalg.norm(m, axis=1, keepdims=True)

    def embed_texts(self, texts):
        m = np.zeros((len(texts), 3), np.float32)
        for row, text in enumerate(texts):
            for word, axis in AXES.items():
                if word in text.lower():
                    m[row, axis] = 1
        return m


class OtherColour(MeanColour):
    model_id = "fake/other"


@pytest.fixture
def models(monkeypatch):
    """Registers the fake models as a user's package would, under the entry-point group."""
    MeanColour.images_seen = 0
    registered = {"colour": MeanColour, "other": OtherColour}
    monkeypatch.setattr(image_text, "installed", lambda: {
        name: EntryPoint(name, f"{__name__}:{cls.__name__}", image_text.GROUP) for name, cls in registered.items()})
    return registered


def solid(colour: str, size=(160, 120)) -> Image.Image:
    return Image.new("RGB", size, colour)


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "files"
    (root / "photos").mkdir(parents=True)
    solid("red").save(root / "photos" / "IMG_0001.png")
    solid("green").save(root / "photos" / "IMG_0002.png")
    pdf = FPDF()
    pdf.set_font("helvetica", size=12)
    pdf.add_page()
    pdf.multi_cell(0, 8, "Annual summary of the garden club.")
    pdf.image(solid((20, 40, 230), (200, 200)), x=40, y=60, w=120)
    pdf.output(str(root / "summary.pdf"))
    (root / "note.txt").write_text("Remember to water the tomatoes on Sunday.\n")
    return root


# OCR reads no pixels here: the pictures hold no text, and it would only cost time.
ON = Settings(ocr=False, image_text_model="colour")
OFF = Settings(ocr=False)


def test_unknown_model_is_one_line_usage_error(models):
    with pytest.raises(UsageError) as err:
        image_text.load("clip")
    assert str(err.value) == "unknown image_text_model 'clip'; installed: colour, other"
    with pytest.raises(UsageError, match="installed: colour, other"):
        Settings().with_values(image_text_model="clip")
    assert Settings().with_values(image_text_model="colour").image_text_model == "colour"


def test_none_installed_says_how_to_plug_one_in(monkeypatch):
    monkeypatch.setattr(image_text, "installed", dict)
    with pytest.raises(UsageError, match="installed: none .*scent.image_text_models") as err:
        image_text.load("clip")
    assert "\n" not in str(err.value)


def test_blue_finds_the_pdf_page_through_its_picture(folder, models, fake_embedder, tmp_path):
    idx = Index(folder, index_dir=tmp_path / "ix", settings=ON, embedder=fake_embedder)
    report = idx.update()
    # Three pictures: two image files and the one inside the PDF.
    assert report.pictures_embedded == 3 and MeanColour.images_seen == 3
    results, lists = idx.search_with_lists("blue", explain=True)
    assert lists["pictures"][0] == "summary.pdf"
    top = next(r for r in results if r.path == "summary.pdf")
    assert top.explain["pictures"]["rank"] == 1
    assert top.explain["pictures"]["page"] == 1
    assert idx.engine.catalog.units([top.explain["pictures"]["unit"]])[top.explain["pictures"]["unit"]].kind == "pdf_image"
    assert top.explain["pictures"]["contribution"] == round(1.0 / (60 + 1), 6)
    # The text note has no picture, so no place in the list; the red and green photos follow.
    assert set(lists["pictures"][1:]) == {"photos/IMG_0001.png", "photos/IMG_0002.png"}
    assert idx.search_with_lists("red")[1]["pictures"][0] == "photos/IMG_0001.png"
    # Its weight is a setting; at 0 the list is not made at all.
    assert "pictures" not in idx.search_with_lists("blue", weight_pictures=0)[1]
    assert "pictures" not in idx.search_with_lists("blue", strategy="keyword")[1]


def test_filters_apply_to_the_pictures_list(folder, models, fake_embedder, tmp_path):
    idx = Index(folder, index_dir=tmp_path / "ix", settings=ON, embedder=fake_embedder)
    idx.update()
    _, lists = idx.search_with_lists("blue", filters=Filters.build(path="photos/"))
    assert lists["pictures"] and all(p.startswith("photos/") for p in lists["pictures"])
    _, lists = idx.search_with_lists("blue", filters=Filters.build(kinds=["pdf"]))
    assert lists["pictures"] == ["summary.pdf"]
    _, lists = idx.search_with_lists("blue", filters=Filters.build(kinds=["text"]))
    assert lists["pictures"] == []


def test_an_index_without_the_model_is_as_before(folder, models, fake_embedder, tmp_path):
    idx = Index(folder, index_dir=tmp_path / "ix", settings=OFF, embedder=fake_embedder)
    report = idx.update()
    assert report.pictures_embedded == 0 and MeanColour.images_seen == 0
    statements = []
    idx.engine.db.set_trace_callback(statements.append)
    results, lists = idx.search_with_lists("blue", explain=True)
    idx.engine.db.set_trace_callback(None)
    assert "pictures" not in lists and all("pictures" not in r.explain for r in results)
    assert statements and not [q for q in statements if "picture" in q]  # not one query more
    assert idx.engine.db.execute("SELECT COUNT(*) FROM vectors WHERE field = 'picture'").fetchone()[0] == 0
    # ... and turning a model on later asks for a rebuild: the unchanged pictures are not read again.
    with pytest.raises(IndexVersionError, match="built without an image_text_model; re-index with --rebuild"):
        Index(folder, index_dir=tmp_path / "ix", settings=ON, embedder=fake_embedder).update()


def test_another_model_asks_for_a_rebuild(folder, models, fake_embedder, tmp_path, monkeypatch):
    Index(folder, index_dir=tmp_path / "ix", settings=ON, embedder=fake_embedder).update()
    with pytest.raises(IndexVersionError, match="embedded with image_text_model colour, not other; re-index with --rebuild"):
        Index(folder, index_dir=tmp_path / "ix", settings=ON.with_values(image_text_model="other"), embedder=fake_embedder)
    # The same name now giving another model (new weights) is refused as well.
    models["colour"] = OtherColour
    with pytest.raises(IndexVersionError, match="embedded with fake/mean-colour, not fake/other"):
        Index(folder, index_dir=tmp_path / "ix", settings=ON, embedder=fake_embedder).update()


def test_the_index_remembers_its_model(folder, models, fake_embedder, tmp_path):
    Index(folder, index_dir=tmp_path / "ix", settings=ON, embedder=fake_embedder).update()
    # Opened without the setting (a plain `scent search`), it still uses the pictures.
    idx = Index(folder, index_dir=tmp_path / "ix", settings=OFF, embedder=fake_embedder)
    assert idx.search_with_lists("blue")[1]["pictures"][0] == "summary.pdf"


def test_reindexing_embeds_no_picture_again(folder, models, fake_embedder, tmp_path):
    idx = Index(folder, index_dir=tmp_path / "ix", settings=ON, embedder=fake_embedder)
    idx.update()
    MeanColour.images_seen = 0
    report = idx.update()
    assert report.unchanged == 4 and report.pictures_embedded == 0 and MeanColour.images_seen == 0
    # A file touched but not changed is not read again ...
    os.utime(folder / "summary.pdf", ns=(1, 1))
    assert idx.update().touched == 1 and MeanColour.images_seen == 0
    # ... and a deleted photo's vector goes with it.
    (folder / "photos" / "IMG_0002.png").unlink()
    idx.update()
    assert idx.engine.db.execute("SELECT COUNT(*) FROM vectors WHERE field = 'picture'").fetchone()[0] == 2
    assert "photos/IMG_0002.png" not in idx.search_with_lists("green")[1]["pictures"]


def _cut_short(path, side):
    raise OSError("cut short")


def test_a_picture_that_no_longer_decodes_costs_only_its_vector(folder, models, fake_embedder, tmp_path, monkeypatch):
    from scent.extract import image as image_extract

    # A module's function: each picture's loader comes back from the reader process, pickled.
    monkeypatch.setattr(image_extract, "load_picture", _cut_short)
    warnings = []
    idx = Index(folder, index_dir=tmp_path / "ix", settings=ON, embedder=fake_embedder)
    report = idx.update(on_warning=lambda path, reason: warnings.append(path))
    assert report.pictures_embedded == 1  # the PDF's
    assert sorted(warnings) == ["photos/IMG_0001.png", "photos/IMG_0002.png"]
    assert idx.search_with_lists("blue")[1]["pictures"] == ["summary.pdf"]


def test_every_picture_kind_reads_its_pixels_again(folder, tmp_path):
    """The lazy pixel references of image files, PDF images, drawn PDF pages and Word pictures."""
    import docx

    from scent.extract import Limits, extract

    limits = Limits(describe=True)
    word = docx.Document()
    word.add_paragraph("Club newsletter.")
    solid("blue", (300, 200)).save(tmp_path / "blue.png")
    word.add_picture(str(tmp_path / "blue.png"))
    word.save(tmp_path / "letter.docx")
    drawn = FPDF()
    drawn.add_page()
    drawn.set_fill_color(200, 30, 30)
    for i in range(14):
        drawn.rect(20 + i * 12, 150 - 8 * i, 8, 8 + 8 * i, style="F")
    drawn.output(str(tmp_path / "chart.pdf"))

    def pictures(path):
        return [s.picture for s in extract(str(path), limits).sections if s.picture]

    def mean(picture):
        image = image_text.prepared(picture.load(image_text.MAX_SIDE))
        assert image.mode == "RGB" and max(image.size) <= image_text.MAX_SIDE
        return np.asarray(image, dtype=np.float32).reshape(-1, 3).mean(axis=0)

    [photo] = pictures(folder / "photos" / "IMG_0001.png")
    assert photo.locator == "" and np.argmax(mean(photo)) == 0
    [in_pdf] = pictures(folder / "summary.pdf")
    assert in_pdf.locator == "p1#0" and np.argmax(mean(in_pdf)) == 2
    [in_word] = pictures(tmp_path / "letter.docx")
    assert in_word.locator.startswith("word/media/") and np.argmax(mean(in_word)) == 2
    [page] = pictures(tmp_path / "chart.pdf")
    assert page.locator == "p1:drawn" and mean(page)[0] > mean(page)[2]  # red bars on white
