"""The one table of settings. It drives the CLI options, the config file and docs/settings.md.

A setting's `scope` says when it takes effect: "index" settings shape what is stored (changing
them needs a re-index to matter), "search" settings can change per query, "storage" settings
say where the index lives (every command takes them).
"""
from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field, make_dataclass, replace
from pathlib import Path

from .errors import UsageError


@dataclass(frozen=True)
class Setting:
    """One row of the settings table: name, default, help, scope, and how a value is checked."""

    name: str
    default: object
    help: str
    scope: str  # "index", "search" or "storage"
    choices: tuple = ()
    check: Callable[[object], None] | None = None  # raises UsageError for a value it refuses


# Checks for values a type and a list of choices cannot describe. Imports are local: the modules
# that know the rules import this one.
def _check_min_share(value) -> None:
    from .query import required_terms

    try:
        required_terms(10, value)
    except ValueError:
        raise UsageError(f"setting min_share wants 60%, 2 or 3<30%, got {value!r}") from None


def _check_kinds(value) -> None:
    from .filters import KNOWN_KINDS
    from .terminal import visible

    unknown = sorted({k.strip() for k in value.split(",") if k.strip()} - KNOWN_KINDS)
    if unknown:
        raise UsageError(f"exclude_kinds: unknown kind {', '.join(map(visible, unknown))}; "
                         f"known: {', '.join(sorted(KNOWN_KINDS))}")


def _check_ocr_langs(value) -> None:
    from .ocr import parse_langs

    parse_langs(value)


def _check_ocr_engine(value) -> None:
    from .ocr import ENGINES

    if value not in ENGINES:
        raise UsageError(f"setting ocr_engine must be one of {', '.join(ENGINES)}, got {value!r}")


def _check_image_text_model(value) -> None:
    from .image_text import check_name

    check_name(value)


def _check_multivector_model(value) -> None:
    from .multivector import check_name

    check_name(value)


def _check_backend(value) -> None:
    from .engines import ENGINES

    if value not in ENGINES:
        raise UsageError(f"setting backend must be one of {', '.join(sorted(ENGINES))}, got {value!r}")


def _at_least(low: int, name: str):
    def check(value) -> None:
        if value < low:
            raise UsageError(f"setting {name} must be at least {low}, got {value!r}")
    return check


def _at_most(high, name: str):
    def check(value) -> None:
        if value > high:
            raise UsageError(f"setting {name} must be at most {high}, got {value!r}")
    return check


def _check_max_side(value) -> None:
    if value < 100:
        raise UsageError(f"setting ocr_max_side must be at least 100 (pixels), got {value!r}")


PAGE_CHOICES = ("fused", "proximity")
MATCH_MODES = ("and", "or", "and_or", "min_share")
# Rank profiles: which candidate lists are made and fused (scent.search.PROFILES).
STRATEGIES = ("dense", "keyword", "hybrid", "hybrid+mmr", "multivector", "hybrid+multivector")

SETTINGS = (
    # storage
    Setting("backend", "sqlite", "The storage engine: sqlite (one file in the index directory, vectors beside it) "
            "or qdrant (a Qdrant collection, local folder or server; `pip install 'scent[qdrant]'`).", "storage",
            check=_check_backend),
    Setting("qdrant_url", "", "With backend qdrant: the server's URL (http://host:6333); empty: a local folder.",
            "storage"),
    Setting("qdrant_path", "", "With backend qdrant and no URL: the local folder (default: qdrant/ in the index "
            "directory).", "storage"),
    Setting("qdrant_collection", "", "With backend qdrant: the collection's name (default: scent- and the index "
            "directory's name); a searcher on another machine names it.", "storage"),
    # search
    Setting("strategy", "hybrid", "Which lists are fused: dense, keyword, hybrid (both), hybrid+mmr (both, then "
            "diversified), multivector (late interaction over page regions alone), hybrid+multivector (hybrid with "
            "the multivector list fused in; needs an index built with `region_vectors`).", "search", STRATEGIES),
    Setting("match", "min_share", "Keyword matching: and (every query word), or (any word), and_or (documents with every word "
            "first, then the rest), min_share (at least `min_share` of the words).", "search", MATCH_MODES),
    Setting("min_share", "3<30%", "With match=min_share, how many query words a unit must contain: a share (60%), a count "
            "(2), or all of them up to N words and a share beyond (3<30%), as Elasticsearch's minimum_should_match. "
            "With strategy keyword the units holding fewer follow them.",
            "search", check=_check_min_share),
    Setting("stopwords", True, "Drop common words (the, of, what ...) from keyword queries, unless the query is only those.",
            "search"),
    Setting("rrf_k", 60, "Reciprocal Rank Fusion constant k: larger flattens the difference between ranks.", "search"),
    Setting("weight_dense", 1.0, "RRF weight of the dense (embedding) list.", "search"),
    Setting("weight_keyword", 1.0, "RRF weight of the keyword (BM25) list.", "search"),
    Setting("translation_offset", 0.01, "What dense search takes off the score of a unit's English translation (the "
            "`english` vector of a unit in Portuguese, Spanish or French; english_gloss) before it counts beside the "
            "unit's own vectors: a translation's plain English matched generic English questions better than the "
            "notes that answer them.", "search"),
    Setting("weight_ids", 1.0, "RRF weight of the exact/fuzzy ID list (only used when the query holds an ID-like token).",
            "search"),
    Setting("weight_pictures", 1.0, "RRF weight of the pictures list (the query against picture vectors; only used "
            "when the index was built with an `image_text_model`).", "search"),
    Setting("archived_weight", 0.98, "What a file under a folder named as an archive (Archive, Old, Backup, "
            "Deprecated ...) keeps of its fused score: of two near-equal files, last year's price list in "
            "Sales/Archive/ and this year's, this year's comes first; 1 weighs them alike.", "search",
            check=_at_most(1, "archived_weight")),
    Setting("weight_dated", 1.0, "RRF weight of the dated list (the files dated on a day the query names: \"on 19 "
            "March\", \"2025-03-19\", \"March 2025\", \"yesterday\"; only used when it names one).", "search"),
    Setting("weight_multivector", 1.0, "RRF weight of the multivector list (late interaction over page regions; "
            "only with strategy hybrid+multivector).", "search"),
    Setting("multivector_candidates", 200, "Pages (units with region vectors) the binary first phase of the "
            "multivector list passes to its exact MaxSim rescoring.", "search",
            check=_at_least(1, "multivector_candidates")),
    Setting("query_phrases", 6, "Sub-phrase vectors of a query (windows of its content words) beside its own vector, "
            "for the multivector list's MaxSim.", "search"),
    Setting("translate_query", "to_english", "Widen each keyword of the query to (word OR its translations) with "
            "the word lists of scent.gloss: to_english (a Spanish, French, German, Portuguese or Hindi query also "
            "matches English words, and its vector is moved toward its English gloss's; a Portuguese, Spanish or "
            "French one is also machine-translated, offline, and searched by the translation's words too: "
            "scent.translate), all (an English query also matches its words in those languages; lost on bench/), "
            "off (docs/retrieval-tuning.md).",
            "search",
            choices=("off", "to_english", "all")),
    Setting("spelling", True, "Search a query word that no file holds, no dictionary knows and that is not quoted "
            "as the word one typing slip away that files hold (securty -> security), or as files hyphenate it "
            "(secondhand -> second-hand); the output says so "
            "(docs/retrieval-tuning.md).", "search"),
    Setting("other_language_stand_in", True, "A unit in another language than the query (both detected) cannot match "
            "its words: within the first 10 of the dense list, its dense rank stands in for its missing keyword rank "
            "in fusion.", "search"),
    Setting("glossed_stand_in", "better", "The other-language stand-in of a unit a word-by-word gloss lets the "
            "query reach (with english_gloss, a unit in a glossed language under an English query; with "
            "translate_query, an English unit under a Spanish, French, German, Portuguese or Hindi query): absent "
            "(only when the keyword list lacks it, as for any other language), better (when its keyword rank is "
            "worse than its dense rank: a gloss matches weakly), none.", "search", choices=("absent", "better", "none")),
    Setting("confidence_floor", 0.5, "Results whose confidence (the chance, 0..1, that a result is a right "
            "answer) is below this are weak matches: shown under a \"weak matches\" line and flagged `weak`; when "
            "every result is weak, scent says there is no good match. 0 flags nothing.", "search",
            check=_at_most(1, "confidence_floor")),
    Setting("page_choice", "proximity", "Which unit (page) a file shows: fused (the one of best fused score; a tie goes "
            "to the first listed), or proximity (a tie, or a lead under page_proximity, goes to the page holding the "
            "query's rarer words close together, then to the higher keyword score).", "search", choices=PAGE_CHOICES),
    Setting("page_proximity", 0.0, "With page_choice=proximity, how much a page holding all the query's words within "
            "one sentence gains, as a share of a first-rank list's RRF contribution (0: proximity only settles ties).",
            "search", check=_at_least(0, "page_proximity")),
    Setting("feedback_units", 5, "Pseudo-relevance feedback for dense search: the query's vector is moved toward "
            "the answering units of this many files fused first (where meaning and keywords agree), and the dense "
            "list is searched again with it; 0 = off.", "search", check=_at_least(0, "feedback_units")),
    Setting("feedback_floor", 0.5, "With feedback_units, feed back only the files whose confidence (the "
            "chance that a result is right) is at least this; 0 = every one.", "search",
            check=_at_most(1, "feedback_floor")),
    Setting("feedback_weight", 0.5, "With feedback_units, the weight of the fed-back units' mean vector beside the "
            "query's own (Rocchio's beta; the query's is 1).", "search", check=_at_least(0, "feedback_weight")),
    Setting("candidates", 200, "Units taken from each list before fusion.", "search", check=_at_least(1, "candidates")),
    Setting("exclude_kinds", "", "Unit kinds left out of every list, comma-separated (e.g. image,ocr): an ablation, "
            "to measure what a kind adds.", "search", check=_check_kinds),
    Setting("dims", 0, "Use only the first N embedding dimensions in dense search (0 = all): measures what smaller "
            "vectors would cost.", "search"),
    Setting("vector_oversample", 4, "With an approximate vector index: candidates asked of it per list position "
            "(the binary first phase), before exact rescoring.", "search", check=_at_least(1, "vector_oversample")),
    Setting("rescore_depth", 1000, "With an approximate vector index: how many of its candidates are scored exactly "
            "(float query against the stored vectors); the rest follow them in the index's order.", "search",
            check=_at_least(1, "rescore_depth")),
    Setting("mmr_lambda", 0.7, "MMR trade-off for hybrid+mmr: 1 = pure relevance, 0 = pure diversity.", "search",
            check=_at_most(1, "mmr_lambda")),
    # index
    Setting("chunk_words", 180, "Longest chunk, in words; sections longer than this are split.", "index",
            check=_at_least(1, "chunk_words")),
    Setting("chunk_overlap", 30, "Words repeated between consecutive chunks of one section (fewer than "
            "chunk_words).", "index"),
    Setting("sentence_vectors", True, "Also embed each sentence of a text unit; dense search scores a unit by its "
            "best sentence or its whole text (finds a one-sentence mention, and other-language notes).", "index"),
    Setting("english_gloss", True, "Store an English gloss (a bilingual dictionary's words for each word) of units in "
            "Spanish, French, German, Portuguese or Hindi as extra keyword tokens, so English queries match them "
            "(scent.gloss); units in Portuguese, Spanish or French also get their machine translation into English, "
            "embedded into the `english` vector field (scent.translate; translation_offset; "
            "docs/retrieval-tuning.md). A file indexed before gets them when it is read again (or with --rebuild).",
            "index"),
    Setting("region_vectors", False, "Also embed each region of PDF pages, slides and pictures (a line or block of "
            "its text layer or OCR, a part of its picture description) into the `regions` field, for the "
            "multivector list (late interaction; strategy multivector or hybrid+multivector). Off: on bench/ and "
            "the chart pages the list did not beat hybrid (docs/retrieval-tuning.md), and it embeds ~5 more texts "
            "a page.", "index"),
    Setting("multivector_model", "", "A multi-vector (ColPali-style) model installed by a package of your own under "
            "the entry-point group `scent.multivector_models`: pictures get its patch vectors in the `regions` "
            "field instead of their regions' text vectors, and queries its token vectors. Empty: the text model "
            "over regions. The index remembers it; another model needs --rebuild.", "index",
            check=_check_multivector_model),
    Setting("max_units_per_file", 5000, "Units kept from one file (about 750,000 words of text; a PDF page is "
            "one or a few); the rest of a longer file is left out with a message (of a log, its first lines: its newest "
            "are kept). A mailbox's messages and an "
            "Evernote export's notes are files of their own, all of them read.", "index",
            check=_at_least(1, "max_units_per_file")),
    Setting("max_file_mb", 50, "Text-like files larger than this (MB) are skipped with a message.", "index"),
    Setting("max_pdf_pages", 2000, "Pages read from one PDF; the rest are skipped with a message.", "index"),
    Setting("max_archive_members", 1000, "Files read from one archive (.zip, .tar.gz) or from the attachments of "
            "one mailbox; each is indexed as a file of its own (ARCHIVE#MEMBER); the rest are left out with a message.",
            "index", check=_at_least(0, "max_archive_members")),
    Setting("max_archive_mb", 512, "Bytes (MB) inflated from one archive or mailbox's attachments, all members "
            "together; a member past it is skipped with a message, and a member inflating over 200x is a zip bomb.",
            "index", check=_at_least(0, "max_archive_mb")),
    Setting("embed_batch", 32, "Units embedded per batch.", "index", check=_at_least(1, "embed_batch")),
    Setting("index_workers", 0, "Processes that read files at once while indexing (extraction, OCR, picture "
            "descriptions); 0: one per core; never more than the files to read. A file whose bytes crash its reader "
            "is skipped and the run goes on. 1: files are read in the indexing process itself (a file that crashes "
            "it ends that run; the next skips it), but in a server or watcher (scent serve, scent watch), which "
            "always reads in readers. A process with threads of its own starts its readers from multiprocessing's "
            "fork server, and only if its main module guards what it runs (if __name__ == \"__main__\"); else it "
            "reads in its own process. A mailbox or an archive is embedded while its reader reads it. The model "
            "embeds in the "
            "indexing process, on every core.", "index",
            check=_at_least(0, "index_workers")),
    Setting("vector_storage", "int8", "How vectors are kept: int8 (one byte a dimension and a scale per vector; a "
            "quarter of float32's size) or float32. Fixed when an index is made: changing it needs --rebuild.",
            "index", ("int8", "float32")),
    Setting("vector_index_threshold", 50_000, "Vectors of one field above which an approximate index (HNSW over "
            "binary codes, then exact rescoring) answers instead of exact search; 0 = always.", "index",
            check=_at_least(0, "vector_index_threshold")),
    Setting("ocr", True, "Read the text in pictures and scanned PDF pages with OCR (Tesseract) while indexing.",
            "index"),
    Setting("ocr_engine", "tesseract", "OCR engine: tesseract, or rapidocr (`pip install 'scent[rapidocr]'`; reads "
            "Latin-script languages and Chinese, and leaves Hindi and Tamil to Tesseract when it is installed).",
            "index", check=_check_ocr_engine),
    Setting("ocr_langs", "auto", "OCR languages: auto (English first; Hindi, Tamil, Spanish, French, German or "
            "Portuguese only when the English reading calls for them), or Tesseract codes such as eng+hin.", "index",
            check=_check_ocr_langs),
    Setting("ocr_max_side", 3000, "Pictures and rendered PDF pages are scaled down to this many pixels on their "
            "longest side before OCR (bounds its time and memory).", "index", check=_check_max_side),
    Setting("describe", True, "Describe pictures in words (kind of picture, colours, brightness) and index pictures "
            "inside PDFs and Word files and vector-drawn PDF pages as units of their own.", "index"),
    Setting("max_pdf_images", 8, "Pictures read per PDF page (and 4x this per Word file) when `describe` is on; "
            "pictures under 64 px a side or 1% of the page are not counted.", "index"),
    Setting("max_drawn_pages", 50, "PDF pages drawn with many vector paths (charts, plans, ruled tables) rendered per "
            "file to find and describe drawings when `describe` is on; later ones keep their text only.", "index"),
    Setting("max_image_mp", 100, "Pictures larger than this many megapixels keep only their name, folders and "
            "EXIF (no OCR, no description), with a message; pixels are never decoded beyond this.", "index"),
    Setting("image_text_model", "", "An image-text (CLIP-style) model installed by a package of your own under the "
            "entry-point group `scent.image_text_models`: every picture (pictures in PDFs and Word files need "
            "`describe`) also gets a vector of its pixels, and queries are matched against them. Empty: none. The "
            "index remembers it; another model needs --rebuild.", "index", check=_check_image_text_model),
)
BY_NAME = {s.name: s for s in SETTINGS}


def _with_values(self, **values):
    """A copy with `values` applied; strings are parsed by the setting's type."""
    return replace(self, **{name: parse_value(name, raw) for name, raw in values.items() if raw is not None})


# Rules between settings, checked whenever a Settings is made (so the library, the config file and
# the CLI all refuse a bad combination before any work, not minutes into a run).
CROSS_RULES = (
    (lambda s: s.chunk_overlap < s.chunk_words,
     lambda s: f"setting chunk_overlap ({s.chunk_overlap}) must be smaller than chunk_words ({s.chunk_words})"),
)


# Checked when given as text (parse_value) only: whether a model is installed is no property of
# the value, and may change after a Settings is made (a test registers its model then).
INSTALLED_CHECKS = frozenset({"image_text_model", "multivector_model"})


def _post_init(self) -> None:
    for setting in SETTINGS:
        check_value(setting, getattr(self, setting.name), installed=setting.name not in INSTALLED_CHECKS)
    for holds, message in CROSS_RULES:
        if not holds(self):
            raise UsageError(message(self))


# The typed record is made from the table, so the two cannot drift apart.
Settings = make_dataclass(
    "Settings",
    [(s.name, type(s.default), field(default=s.default)) for s in SETTINGS],
    frozen=True,
    # A docstring of its own: without one, dataclasses writes one from the signature of all the
    # settings, milliseconds of every start.
    namespace={"__doc__": "Every setting's value (see SETTINGS); made checked, never changed (with_values copies).",
               "with_values": _with_values, "__post_init__": _post_init},
)


def parse_value(name: str, raw):
    setting = BY_NAME.get(name)
    if setting is None:
        raise UsageError(f"unknown setting {name!r}; known settings: {', '.join(sorted(BY_NAME))}")
    kind = type(setting.default)
    try:
        if kind is bool and isinstance(raw, str):
            if raw.lower() not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                raise ValueError(raw)
            value = raw.lower() in ("1", "true", "yes", "on")
        else:
            value = kind(raw)
    except (TypeError, ValueError, OverflowError):
        raise UsageError(f"setting {name} expects a {kind.__name__}, got {raw!r}") from None
    if kind is int and isinstance(raw, float) and raw != value:
        raise UsageError(f"setting {name} expects a whole number, got {raw!r}")
    check_value(setting, value)
    return value


MAX_INT = 2**31 - 1


def check_value(setting: Setting, value, installed: bool = True) -> None:
    """Raise UsageError for a value this setting refuses on its own (CROSS_RULES: with others)."""
    name = setting.name
    kind = type(setting.default)
    if isinstance(value, bool) != (kind is bool) or not isinstance(value, (int, float) if kind is float else kind):
        raise UsageError(f"setting {name} expects a {'whole number' if kind is int else kind.__name__}, got {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise UsageError(f"setting {name} must be a finite number, got {value!r}")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
        raise UsageError(f"setting {name} must not be negative, got {value!r}")
    if isinstance(value, int) and not isinstance(value, bool) and value > MAX_INT:
        # Counts reach SQLite (64-bit) and islice (sys.maxsize) after arithmetic: keep them far below.
        raise UsageError(f"setting {name} must be at most {MAX_INT:,}, got {value!r}")
    if setting.choices and value not in setting.choices:
        raise UsageError(f"setting {name} must be one of {', '.join(setting.choices)}, got {value!r}")
    # A default is valid as it stands; checking it would import what the check asks (OCR, models)
    # into every process that makes Settings, a fresh search included.
    if setting.check and installed and value != setting.default:
        setting.check(value)


def config_path() -> Path:
    return Path(os.environ.get("SCENT_CONFIG") or scent_home() / "config.toml")


def scent_home() -> Path:
    if os.environ.get("SCENT_HOME"):
        return Path(os.environ["SCENT_HOME"])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "scent"


def load(path: Path | None = None, **overrides) -> Settings:
    """Defaults, then the config file (if any), then `overrides` (e.g. from CLI flags)."""
    path = path or config_path()
    values: dict = {}
    if path.is_file():
        import tomllib  # here: most runs have no config file, and a fresh search pays for every import

        try:
            values.update(tomllib.loads(path.read_text(encoding="utf-8")))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
            raise UsageError(f"config file {path} is not valid TOML: {err}") from None
    values.update({k: v for k, v in overrides.items() if v is not None})
    return Settings().with_values(**values)


def markdown() -> str:
    """The settings table as Markdown, for docs/settings.md (a test keeps the two equal)."""
    lines = ["| setting | default | when | what it does |", "| --- | --- | --- | --- |"]
    for s in SETTINGS:
        choices = f" One of: {', '.join(s.choices)}." if s.choices else ""
        lines.append(f"| `{s.name}` | `{s.default}` | {s.scope} | {s.help}{choices} |")
    return "\n".join(lines) + "\n"
