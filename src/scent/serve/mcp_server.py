"""An MCP server (stdio) over one open `Index`, for AI assistants: tools `search`, `fetch`,
`context`, `similar` and `status`, all read-only.

Built for an agent that reads every byte: parameters described, unknown arguments refused (an
ignored `only` once came back unfiltered), results compact and structured with ids, `fetch` by
a result's id in pages of at most `max_chars`, a picture returned as an image.
Uses the official `mcp` SDK (2.x: `MCPServer`).
"""
from __future__ import annotations

import os

import base64
import json
from contextlib import contextmanager
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, ImageContent, TextContent, ToolAnnotations
from pydantic import BaseModel, Field, ValidationError

from .. import __version__, passages
from ..dates import iso
from ..errors import ScentError
from ..filters import Filters
from ..index import MAX_CONTEXT_TOKENS, MIN_CONTEXT_TOKENS, Index
from ..kinds import FILE_KINDS, PICTURE_KINDS
from ..readers import DEFAULT_READERS, Readers
from .files import Refused, locate, make_thumbnail, member_bytes

INSTRUCTIONS = ("Search the user's own files (notes, code, PDFs, Word files, pictures ...) with `search`, "
                "then read a result with `fetch` and its `id`; `context` gives the best passages for a "
                "question, cited and within a token budget; `similar` gives the files like a result's "
                "(other drafts, the same topic elsewhere); `status` says what is indexed.")
MAX_K = 50
FETCH_CHARS = 6000      # a page of `fetch`: about 1,500 tokens of English
PICTURE_PX = 1024       # the longest side of a picture `fetch` returns
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)

# ---- parameters, described once for every tool ---------------------------------------------------
Query = Annotated[str, Field(description='What to look for: plain words, an ID, a code identifier; or the query '
                                         'language: "exact phrase", -exclude, a OR b, ext:pdf dir:notes '
                                         'kind:image lang:es after:2024 before:2024-06. Filters alone list the '
                                         'files they keep, newest first.')]
Kinds = Annotated[list[str] | None, Field(description="Keep only these kinds: " + ", ".join(FILE_KINDS) + ".")]
Path_ = Annotated[str | None, Field(description="Keep only paths starting with this prefix (notes/) or matching "
                                                "this glob (notes/*.md; * crosses folders, **/ is any folders or none).")]
After = Annotated[str | None, Field(description="Keep only files dated on or after this day (2025-07-14), month "
                                                "(2025-07), year (2025), or today, yesterday, last week, this "
                                                "month, 3 days ago ...")]
Before = Annotated[str | None, Field(description="Keep only files dated on or before this day, month, year or "
                                                 "named period (as after).")]
Lang = Annotated[str | None, Field(description="Keep only text in this language (ISO 639-1: en, es, fr, hi, ta ...).")]


class Hit(BaseModel):
    # A string: unit ids use 63 bits, more than a JSON number keeps in a JavaScript client.
    id: str = Field(description="The result's id: pass it to fetch.")
    path: str = Field(description="Relative to the indexed folder.")
    page: int | None = Field(None, description="PDF page, slide or message number; absent for whole files.")
    kind: str
    title: str | None = None
    date: str = Field(description="ISO 8601 day the file's content is dated.")
    snippet: str  # no score: results come best first, and a fused rank score means nothing to an agent
    translated: str | None = Field(None, description="The snippet's passage machine-translated into English, where "
                                   "it is in another language than the query; absent otherwise.")
    confidence: float | None = Field(None, description="Chance (0..1) that this is a right answer, as judged on "
                                     "held-out collections (README: how far it can be trusted).")
    weak: bool = Field(False, description="Below the confidence floor: a weak match; all weak means no good match.")
    gone: bool | None = Field(None, description="True when its file was deleted since the folder was indexed; "
                                               "absent otherwise.")
    line: int | None = Field(None, description="The line of a note or code file the snippet's passage begins at; "
                                               "absent for other kinds.")
    copies: list[str] | None = Field(None, description="Other files of the same bytes, and a Live Photo's other "
                                                     "part: this same result; absent when it has none.")


class SearchOutput(BaseModel):
    results: list[Hit]
    corrected: dict[str, str] | None = Field(None, description="Words of the query no file holds, read as misspelt "
                                             "-> the words searched instead; quote a word to search it as typed.")
    translation: str | None = Field(None, description="The query machine-translated into English, whose words "
                                    "were searched too (a Portuguese, Spanish or French query; absent otherwise).")
    listed: bool | None = Field(None, description="True when the query held filters alone (ext:pdf after:2025-03): "
                                "the files they keep, newest first, unranked (absent otherwise).")


class FetchOutput(BaseModel):
    id: str
    path: str
    page: int | None = None
    kind: str = Field(description="The kind of the result's unit (text, pdf_page, image, pdf_image ...).")
    text: str = Field(description="The file's text from `offset`, at most max_chars; pages marked [page N].")
    offset: int
    next_offset: int | None = Field(None, description="Pass it as offset for the rest; absent at the end.")
    total_chars: int
    picture: bool = Field(False, description="An image of the picture comes with this result.")


class Passage(BaseModel):
    path: str
    page: int | None = None
    title: str | None = None
    ids: list[str]
    text: str
    confidence: float | None = Field(None, description="Chance (0..1) that its file is a right answer, as a search "
                                     "weighs it.")
    weak: bool = Field(False, description="Below the confidence floor; every passage weak means no good match.")


class ContextOutput(BaseModel):
    tokens: int = Field(description="Estimated tokens of the passages with their citations.")
    passages: list[Passage]
    corrected: dict[str, str] | None = Field(None, description="Words of the question no file holds, read as "
                                             "misspelt -> the words searched instead; quote a word to search it "
                                             "as typed.")
    translation: str | None = Field(None, description="The question machine-translated into English, whose "
                                    "words were searched too (a Portuguese, Spanish or French question; absent "
                                    "otherwise).")


class StatusOutput(BaseModel):
    folder: str
    version: str
    files: int
    units: int
    files_by_kind: dict[str, int]
    last_indexed: str | None = Field(None, description="ISO 8601; null while no run has finished.")
    skipped: int = Field(description="Files not indexed, or indexed in part, at the last run.")
    not_indexed: list[dict[str, Any]] = Field(default_factory=list, description=(
        "`{ext, cause, files}`: files walked and not indexed, per extension and cause (unsupported kind, "
        "not read, too big, damaged ...), most first."))
    unfinished_run: dict[str, Any] | None = Field(None, description=(
        "`{started, running}` when an indexing run began after the last one that finished: `running` false "
        "means it stopped midway, so some files may be missing from the answers until the folder is indexed again."))


class StrictTool(Tool):
    """A tool that refuses arguments it does not take, and says what was wrong in one line."""

    async def run(self, arguments: dict[str, Any], context: Any, convert_result: bool = False) -> Any:
        known = self.parameters.get("properties", {})
        unknown = sorted(set(arguments) - set(known))
        if unknown:
            takes = f"its arguments are {', '.join(known)}" if known else "it takes no arguments"
            raise ToolError(f"{self.name} takes no argument {', '.join(map(repr, unknown))}; {takes}")
        try:
            return await super().run(arguments, context, convert_result)
        except ToolError as err:
            if isinstance(err.__cause__, ValidationError):
                raise ToolError(f"{self.name}: " + "; ".join(
                    f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}" for e in err.__cause__.errors()
                )) from None
            raise


def _tool(fn, title: str) -> Tool:
    tool = StrictTool.from_function(fn, title=title, annotations=READ_ONLY.model_copy(update={"title": title}))
    tool.parameters["additionalProperties"] = False
    return tool


def _result(structured: BaseModel, text: str | None = None, image: bytes | None = None) -> CallToolResult:
    """Compact JSON as the text an agent reads (the SDK's own is indented), the same as structured content."""
    data = structured.model_dump(exclude_none=True)
    content: list = [ImageContent(type="image", data=base64.b64encode(image).decode(), mime_type="image/jpeg")] \
        if image else []
    content.append(TextContent(type="text", text=text if text is not None else
                               json.dumps(data, ensure_ascii=False, separators=(",", ":"))))
    return CallToolResult(content=content, structured_content=data)


def build_server(index: Index, readers: int = DEFAULT_READERS, as_user: str | None = None) -> MCPServer:
    """An MCP server over `index` (already open; the caller closes it). Tools run in worker
    threads: up to `readers` of them read the index at the same time. Every tool answers as
    `as_user` sees the folder (None: the user running the server; over stdio that is who
    started it)."""
    pool = Readers(index, readers)

    def search(query: Query, k: Annotated[int, Field(ge=1, le=MAX_K, description="How many files.")] = 10,
               kinds: Kinds = None, path: Path_ = None, after: After = None, before: Before = None,
               lang: Lang = None) -> Annotated[CallToolResult, SearchOutput]:
        """Search the indexed folder: the best files for `query`, each with its best passage (or
        PDF page) as a snippet and an `id` for fetch."""
        with _tool_errors(), pool.use() as idx:
            filters = Filters.build(kinds or (), path, after, before, lang, spell=str)
            found = idx.search(query, k=k, filters=filters, as_user=as_user)
        return _result(SearchOutput(corrected=found.corrected or None, translation=found.translation or None,
                                    listed=found.listed or None, results=[Hit(
            id=str(r.unit_id), path=r.path, page=r.page, kind=r.kind, title=_title(r.title, r.path),
            date=(iso(r.date) or "")[:10], snippet=r.snippet, translated=r.translated or None,
            confidence=r.confidence, weak=r.weak, gone=r.gone or None, line=r.line,
            copies=list(r.copies) or None)
            for r in found]))

    def fetch(id: Annotated[str, Field(pattern=r"^\d{1,19}$", description="A result's id, from search or context.")],
              offset: Annotated[int | None, Field(ge=0, description="Where to start in the file's text; "
                                                  "by default at the result's passage (0 when it is near the "
                                                  "start).")] = None,
              max_chars: Annotated[int, Field(ge=200, le=50_000, description="At most this many characters.")]
              = FETCH_CHARS) -> Annotated[CallToolResult, FetchOutput]:
        """Read the file of a result: its text (PDF pages marked [page N]) from the result's passage,
        `max_chars` at a time; a picture also comes back as an image."""
        uid = int(id)
        with _tool_errors(), pool.use() as idx:
            unit = idx.engine.catalog.units([uid]).get(uid)
            # A unit of a file as_user may not read is "no result", as if it were not indexed.
            units = idx.file_units(unit.path, as_user) if unit is not None else None
            if unit is None or units is None:
                raise ScentError(f"no result has id {id} in this index; ids come from search (after a re-index, "
                                 "search again)")
            # the web API's checks: inside the folder, still there (a file inside an archive: the archive)
            real, member = locate(idx.root, unit.path, True)
        text, where = passages.file_text(units)
        at = where.get(uid, 0)
        start = offset if offset is not None else (0 if at + len(unit.text) <= max_chars else at)
        end = min(len(text), start + max_chars)
        image = _picture(real, unit, member) if unit.kind in PICTURE_KINDS else None
        out = FetchOutput(id=id, path=unit.path, page=unit.page, kind=unit.kind, text=text[start:end], offset=start,
                          next_offset=end if end < len(text) else None, total_chars=len(text), picture=bool(image))
        return _result(out, image=image)

    def context(question: Annotated[str, Field(description="The question, or what the passages should be about "
                                                          "(the query language works here too).")],
                tokens: Annotated[int, Field(ge=MIN_CONTEXT_TOKENS, le=MAX_CONTEXT_TOKENS,
                                             description="About how many tokens the passages may take.")] = 2000,
                kinds: Kinds = None, path: Path_ = None, after: After = None, before: Before = None,
                lang: Lang = None) -> Annotated[CallToolResult, ContextOutput]:
        """The best passages for a question across the folder, overlapping chunks merged, each cited
        (path, page), within about `tokens` tokens: text to answer from, with its sources."""
        with _tool_errors(), pool.use() as idx:
            filters = Filters.build(kinds or (), path, after, before, lang, spell=str)
            found = idx.context(question, tokens=tokens, filters=filters, as_user=as_user)
        out = ContextOutput(tokens=passages.estimate_tokens(found.text), corrected=found.corrected or None,
                            translation=found.translation or None, passages=[
            Passage(path=p.path, page=p.page, title=_title(p.title, p.path), ids=[str(i) for i in p.unit_ids], text=p.text,
                    confidence=p.confidence, weak=p.weak)
            for p in found.passages])
        return _result(out, text=found.text or "no passages found")

    def similar(id: Annotated[str, Field(pattern=r"^\d{1,19}$", description="A result's id, from search or context.")],
                k: Annotated[int, Field(ge=1, le=MAX_K, description="How many files.")] = 10,
                kinds: Kinds = None, path: Path_ = None, after: After = None, before: Before = None,
                lang: Lang = None) -> Annotated[CallToolResult, SearchOutput]:
        """Files like the file of a result, by what they are about (their words need not match): other
        drafts, the same topic elsewhere, similar photos. The file itself, its copies and its parts
        (the files inside it, the file it is inside) are left out."""
        uid = int(id)
        with _tool_errors(), pool.use() as idx:
            unit = idx.engine.catalog.units([uid]).get(uid)
            if unit is None or idx.file_units(unit.path, as_user) is None:
                raise ScentError(f"no result has id {id} in this index; ids come from search (after a re-index, "
                                 "search again)")
            filters = Filters.build(kinds or (), path, after, before, lang, spell=str)
            found = idx.similar(unit.path, k=k, filters=filters, as_user=as_user)
        return _result(SearchOutput(results=[Hit(
            id=str(r.unit_id), path=r.path, page=r.page, kind=r.kind, title=_title(r.title, r.path),
            date=(iso(r.date) or "")[:10], snippet=r.snippet, copies=list(r.copies) or None) for r in found]))

    def status() -> Annotated[CallToolResult, StatusOutput]:
        """What this server searches: the folder, file and unit counts, when it was last indexed."""
        with _tool_errors(), pool.use() as idx:
            st = idx.status(as_user)
        return _result(StatusOutput(folder=st["folder"] or "", version=__version__, files=st["files"],
                                    units=st["units"], files_by_kind=st["files_by_kind"],
                                    last_indexed=iso(st["last_indexed"]), skipped=len(st["errors"]),
                                    not_indexed=st["not_indexed"],
                                    unfinished_run={**run, "started": iso(run["started"])} if (
                                        run := st["unfinished_run"]) else None))

    tools = [_tool(search, "Search files"), _tool(fetch, "Read a result"),
             _tool(context, "Passages for a question"), _tool(similar, "Files like a result"),
             _tool(status, "Index status")]
    # The agent is told which folder it searches: several scent servers may be configured at once.
    return MCPServer("scent", version=__version__, tools=tools,
                     instructions=f"{INSTRUCTIONS} The indexed folder is {index.root}.")


def serve_stdio(server: MCPServer) -> None:
    """Serve `server` over stdin and stdout, answering a line that is no JSON-RPC message with the
    JSON-RPC error for it (-32700 or -32600), as the specification asks: the SDK drops such a line
    without a word, and a client that sent it waits for an answer that never comes."""
    import anyio
    from mcp.server.stdio import stdio_server

    async def serve() -> None:
        async with stdio_server() as (read_stream, write_stream):
            lowlevel = server._lowlevel_server  # what MCPServer.run_stdio_async serves
            await lowlevel.run(_Answering(read_stream, write_stream), write_stream,
                               lowlevel.create_initialization_options())

    anyio.run(serve)


class _Answering:
    """The transport's incoming messages, where a line it could not read (an Exception in the stream)
    is answered on `write_stream` and never reaches the server."""

    def __init__(self, read_stream, write_stream):
        self.read_stream, self.write_stream = read_stream, write_stream

    async def receive(self):
        while True:
            item = await self.read_stream.receive()
            if not isinstance(item, Exception):
                return item
            await self.write_stream.send(_refusal(item))

    async def aclose(self) -> None:
        await self.read_stream.aclose()

    def __aiter__(self):
        return self

    async def __anext__(self):
        import anyio

        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> None:
        await self.aclose()

    def __getattr__(self, name: str):  # last_context and what else the SDK reads of its stream
        return getattr(self.read_stream, name)


def _refusal(err: Exception):
    """The JSON-RPC error answering a line the transport could not read as a message."""
    from mcp.shared.message import SessionMessage
    from mcp.types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError

    errors = err.errors() if isinstance(err, ValidationError) else []
    if not errors or any(e["type"] == "json_invalid" for e in errors):
        error = ErrorData(code=PARSE_ERROR, message="Parse error: the line is not JSON; send one JSON-RPC "
                                                      "message a line")
    else:
        error = ErrorData(code=INVALID_REQUEST, message='Invalid Request: not a JSON-RPC 2.0 message (a request '
                          'is an object with "jsonrpc": "2.0", an "id" and a "method"; batches are not taken)')
    # The request's id where it can be read, so the client's waiting call ends (JSON-RPC: else null).
    ids = [e["input"]["id"] for e in errors if isinstance(e.get("input"), dict)
           and type(e["input"].get("id")) in (int, str)]
    return SessionMessage(JSONRPCError(jsonrpc="2.0", id=ids[0] if ids else None, error=error))


def _title(title: str, path: str) -> str | None:
    """A title only when it says more than the file's name (most notes are titled by it)."""
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
    return title if title and title.strip().lower() not in (stem, path.rsplit("/", 1)[-1].lower()) else None


def _picture(real, unit, member: str | None = None) -> bytes | None:
    """The picture as a JPEG: an image file, or the PDF page a picture sits on (either may be a
    file inside an archive, `member` of `real`); None for pictures inside Word files and slides
    (their words come back as text)."""
    kind = "image" if unit.file_kind == "image" else ("pdf" if unit.file_kind == "pdf" else None)
    if kind is None:
        return None
    try:
        source = member_bytes(real, member) if member is not None else real
        return make_thumbnail(source, kind, unit.page, px=PICTURE_PX, name=member or os.path.basename(str(real)))
    except Refused:
        return None  # unreadable pixels: the words still answer


@contextmanager
def _tool_errors():
    """A ScentError reaches the client as the tool's error message (anything else is a crash)."""
    try:
        yield
    except ScentError as err:
        raise ToolError(str(err)) from None
