"""What the HTTP API sends, as pydantic models, and an /openapi.json that says so: errors are
400/401/403/404/413/500 `{"error": ...}` (never FastAPI's 422, which this app does not send).

Models allow extra fields: a field the library adds reaches clients at once; the tests compare
the fields sent with the fields documented, so the schema cannot drift silently."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class Error(BaseModel):
    error: str = Field(description="What went wrong and what to do, in one line.")


class Result(Open):
    rank: int = Field(description="1 for the best result.")
    path: str = Field(description="Path relative to the indexed folder (`folder`).")
    page: int | None = Field(description="PDF page or slide the match is on; null for whole files.")
    kind: str = Field(description="The file's kind: text, code, pdf, image, docx, html, csv, json ...")
    unit_kind: str = Field(description="The kind of the part that matched (pdf_page, image, ...).")
    score: float = Field(description="Fused score; only the order means something.")
    snippet: str = Field(description="The matching passage, as plain text.")
    highlights: list[tuple[int, int]] = Field(description="[start, end) character spans of `snippet` to mark.")
    translated: str = Field("", description="The matching passage machine-translated into English, where it is in "
                                            "another language than the query (Portuguese, Spanish, French); "
                                            "\"\" otherwise.")
    translated_highlights: list[tuple[int, int]] = Field(default_factory=list, description="[start, end) character "
                                                         "spans of `translated` to mark.")
    title: str
    date: str | None = Field(description="Its date (a message's or event's own, else the file's), ISO 8601 in the "
                                         "server's time zone.")
    place: str | None = Field(description="Where in the file, as the CLI says it: p.3, slide 3, message 2; "
                                          "null for whole files.")
    unit_id: int = Field(description="Stable id of the matched part while its file keeps its place in the index.")
    folder: str = Field(description="The indexed folder.")
    confidence: float | None = Field(None, description="Chance (0..1) that this is a right answer, as judged on held-out collections (README: how far it can be trusted).")
    weak: bool = Field(False, description="Confidence below the floor: a weak match (all weak: no good match).")
    gone: bool = Field(False, description="Its file is no longer on disk: deleted since the folder was indexed.")
    line: int | None = Field(None, description="The line of a note or code file the snippet's passage begins at; "
                                               "null for other kinds.")
    copies: list[str] = Field(default_factory=list, description="Other files of the same bytes that you may read, "
                                                                "and a Live Photo's other part (its photo or moving "
                                                                "part), shown as this result (not results of their own).")
    explain: dict[str, Any] | None = Field(None, description="With explain=true: per list, the rank, score and "
                                                             "RRF contribution (null: not in that list).")


class UnfinishedRun(Open):
    started: float = Field(description="Unix seconds.")
    running: bool = Field(description="Whether it still runs; false: it stopped (some files may be missing "
                                      "from the index until the next run).")


class SearchResponse(Open):
    query: str
    results: list[Result]
    took_ms: float
    corrected: dict[str, str] | None = Field(None, description="Words of the query no file holds, read as "
                                             "misspelt -> the words searched instead (absent when none was).")
    translation: str | None = Field(None, description="The query machine-translated into English, whose words "
                                    "were searched too (a Portuguese, Spanish or French query; absent otherwise).")
    index: str = Field(description="The index directory that answered (scent search checks it).")
    listed: bool | None = Field(None, description="True when the query held filters alone (ext:pdf after:2025-03): "
                                "the results are the files they keep, newest first, with no score or confidence "
                                "(absent otherwise).")
    unfinished_run: UnfinishedRun | None = Field(None, description="While the folder is being indexed, or after a "
                                                   "run that stopped midway: files may be missing from the results "
                                                   "(absent otherwise).")


class Skipped(Open):
    path: str
    reason: str
    level: str


class NotIndexed(Open):
    ext: str = Field(description="The extension, lower case with its dot; (none) for files without one.")
    cause: str = Field(description="unsupported kind, not read (.doc/.xls/.ppt), too big, damaged, encrypted, ...")
    files: int


class SkippedFile(Open):
    path: str
    cause: str = Field(description="As in not_indexed.")
    reason: str = Field(description="What happened and what to do, in one line.")


class SkippedList(Open):
    files: list[SkippedFile] = Field(description="Every file walked and not indexed that can be named, by path.")
    unlisted: list[dict[str, Any]] = Field(description="`{ext, files}`: files of kinds scent does not read beyond "
                                                       "the first few of each extension, only counted.")


class StatusResponse(Open):
    folder: str
    index: str = Field(description="The index directory.")
    backend: str = Field(description="The storage engine.")
    model: str = Field(description="The text embedding model.")
    files: int
    files_by_kind: dict[str, int]
    units: int
    units_by_kind: dict[str, int]
    units_by_lang: dict[str, int] = Field(description="Units per detected language (ISO code), most first.")
    index_bytes: int
    last_indexed: float | None = Field(description="Unix seconds; null if never.")
    unfinished_run: UnfinishedRun | None = Field(description="The indexing run begun after the last one that "
                                                            "finished; null when there is none.")
    errors: list[Skipped] = Field(description="Files skipped or read in part, with the reason.")
    not_indexed: list[NotIndexed] = Field(description="Files walked and not indexed, per extension and cause, "
                                                      "most first (unsupported kinds as of the last whole-folder run).")
    skipped: SkippedList | None = Field(None, description="With skipped=true: every file not indexed, by path.")
    vector_fields: dict[str, dict[str, Any]] = Field(description="Per vector field: model, dims, storage, count.")
    vectors: int
    sentence_vectors: int
    units_without_vector: int
    desktop: bool | None = Field(None, description="Whether POST /api/open is offered (a server on this machine).")
    live: Live | None = Field(None, description="Under scent serve --watch: the watch keeping the index fresh.")


class Live(Open):
    watching: bool = Field(description="Still running.")
    ready: bool = Field(description="Its first update of the index is written.")
    since: float = Field(description="When it started, Unix seconds.")
    last_refresh: float | None = Field(description="When it last wrote a change, Unix seconds.")
    problem: str | None = Field(description="The last refresh's error, or why the watch stopped.")


class Block(Open):
    tag: str = Field(description="h1..h6, p, li, pre, blockquote, tr (a table row) or hr.")
    text: str = Field(description="Plain text, never markup.")
    highlights: list[tuple[int, int]] = Field(description="[start, end) spans of `text` that match the query.")
    page: int | None = Field(None, description="The PDF page the block is on.")
    ordered: bool | None = Field(None, description="For li: in a numbered list.")


class PreviewResponse(Open):
    path: str
    kind: str
    blocks: list[Block]
    hits: int = Field(description="How many spans match the query in all blocks.")
    cut: bool = Field(description="The file is longer than the preview: only its start is shown.")


class OpenResponse(Open):
    opened: str = Field(description="What the opener was given: the file, or its folder.")


class Suggestion(Open):
    text: str
    path: str
    page: int | None = Field(description="The page or slide it was made from; null for the whole file.")
    aspect: str = Field(description="What it was drawn from: file (title, heading, codes, key phrases), or a "
                                    "page's topic, detail or visual.")


class SuggestionsResponse(Open):
    suggestions: list[Suggestion]
    note: str | None = Field(None, description="Why there are none, when there are none.")


class EvalResponse(Open):
    report: str | None = Field(description="The report's folder; null when there is no report yet.")
    note: str | None = Field(None, description="How to make a report, when there is none.")
    written: float | None = Field(None, description="When report.json was written, Unix seconds.")
    charts: dict[str, str] | None = Field(None, description="Chart name -> URL.")
    overall: dict[str, Any] | None = None
    by_category: dict[str, Any] | None = None
    hard: dict[str, Any] | None = None
    queries: list[Any] | None = None


class SessionResponse(Open):
    user: str | None = Field(description="The token's user (null: the user running the server); the browser now "
                                         "holds the token as an HttpOnly cookie.")


# The refusals every route can answer with (the guard's, and the app's error handlers').
COMMON_ERRORS = {
    "400": "Bad parameter: the message names it as this API spells it",
    "401": "Access token missing (serve --allow-remote) or not valid",
    "403": "Host or Origin not this server's own, or a path outside the indexed folder",
    "413": "Request body too large",
    "500": "The index could not answer; the message says why",
}


def fix_openapi(schema: dict) -> dict:
    """FastAPI documents 422 validation errors; this app answers 400 `Error`. Also says that a
    bearer token is accepted everywhere and required when serving beyond this machine."""
    ref = {"$ref": "#/components/schemas/Error"}
    components = schema.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    schemas["Error"] = Error.model_json_schema()
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    components["securitySchemes"] = {"bearer": {
        "type": "http", "scheme": "bearer",
        "description": "A token from `scent token add USER`; needed with `scent serve --allow-remote`."}}
    schema["security"] = [{}, {"bearer": []}]
    for operations in schema.get("paths", {}).values():
        for op in operations.values():
            responses = op.setdefault("responses", {})
            responses.pop("422", None)
            for code, text in COMMON_ERRORS.items():
                entry = responses.setdefault(code, {"description": text})
                entry.setdefault("content", {"application/json": {"schema": ref}})
            for code, entry in responses.items():
                if code not in ("200",) and code[0] in "45":
                    entry["content"] = {"application/json": {"schema": ref}}
    return schema
