"""The names of what is indexed: file kinds, unit kinds, picture kinds, and what a file's numbered
parts are called. Apart from the records (scent.units), so that a search imports names, not the
extraction's types."""
from __future__ import annotations

# Unit kinds. A file kind names what the file is; a unit kind names what one
# searchable piece of it is. Picture kinds are here already so that the later
# picture pipeline (OCR, descriptions, embedded images) only adds producers.
FILE_KINDS = ("text", "code", "html", "csv", "json", "docx", "pdf", "image", "sheet", "slides",
              "odt", "rtf", "epub", "email", "archive", "notebook", "calendar", "contacts", "video", "audio")
UNIT_KINDS = (
    "text", "code", "html", "csv", "json", "docx", "pdf_page", "image",
    "ocr", "pdf_image", "docx_image", "sheet", "slide", "slide_image",
    "odt", "rtf", "epub", "email", "archive", "notebook_image", "calendar", "contacts", "odt_image", "epub_image",
    "video", "audio",
)
# Units that are pictures (an image file's, or one inside a PDF, Word file, slide or notebook).
PICTURE_KINDS = ("image", "pdf_image", "docx_image", "slide_image", "notebook_image", "odt_image", "epub_image")
# What a file's numbered parts are called where they are not pages (units carry their number as `page`).
PLACE_NAMES = {"email": "message", "slides": "slide", "calendar": "entry", "contacts": "contact"}
# Section.until of what never ends (a recurring event without COUNT or UNTIL): 9999-12-31 23:59:59
# UTC, after any day a filter can name (scent.filters.LAST_DAY); finite, as JSON payloads need.
UNTIL_OPEN = 253_402_300_799.0


def place(file_kind: str, page: int) -> str:
    """How a result's page is said: "p.3", or "entry 3" of a calendar, "slide 3" of a deck."""
    name = PLACE_NAMES.get(file_kind)
    return f"{name} {page}" if name else f"p.{page}"


# `--only image` must also find pictures that live inside PDFs and Word files.
KIND_ALIASES = {
    "image": PICTURE_KINDS,
    "pdf": ("pdf_page", "pdf_image"),
    "docx": ("docx", "docx_image"),
    "odt": ("odt", "odt_image"),
    "epub": ("epub", "epub_image"),
    "slides": ("slide", "slide_image"),
}
