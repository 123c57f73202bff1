"""The HTTP API and web UI over one open `Index`: `create_app(index)`.

A thin view of the library: parameters become `Filters.build(...)` and `Index.search(...)`,
results are `SearchResult.to_dict()` (typed in `schema.py`). Errors answer JSON `{"error": "..."}`:
a UsageError is 400, any other ScentError 500 with its message; never a stack trace. Who may ask,
and the headers every answer carries, are `guard.py`'s.

Every answer is what the request's user may read (scent.access): `request.state.user`, a user
name set by the guard from the request's token, or None for the user running the server.
A file they may not read is "not in the index", in every endpoint alike.
"""
from __future__ import annotations

import json
import time
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import Depends, FastAPI, Query, Request
from fastapi import Path as Path_
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..errors import NotIndexed, ScentError, UsageError
from ..filters import Filters
from ..index import MAX_CONTEXT_TOKENS, MIN_CONTEXT_TOKENS, Index
from ..kinds import FILE_KINDS
from ..query import MAX_QUERY_CHARS
from ..readers import DEFAULT_READERS, Readers
from ..watch import Live
from .desktop import OpenRequest, open_on_desktop
from .files import MAX_PICTURE_PX, THUMB_PX, Refused, Thumbnails, content_type, locate, member_bytes, zipped_package
from .guard import COOKIE, COOKIE_DAYS, Guard
from .preview import MAX_CHARS, READ_FROM_DISK, preview
from .schema import (EvalResponse, OpenResponse, PreviewResponse, SearchResponse, SessionResponse, StatusResponse,
                     SuggestionsResponse, fix_openapi)
from .tokens import Tokens

STATIC = Path(__file__).parent / "static"
MAX_K = 100
MAX_PATH_CHARS = 4096
QUERY = ('What to look for: plain words, an ID, a code identifier; or the query language: "a phrase", '
         "-word, a OR b, ext:pdf dir:notes kind:image lang:es after:2024 before:2024-06. Filters alone (here "
         "or as parameters) list the files they keep, newest first.")
AFTER = "Keep only files dated on or after this day (2025-07-14), month (2025-07), year (2025), or today, yesterday, this/last week|month|year, 3 days ago."
BEFORE = "Keep only files dated on or before this day, month, year or named period (as after)."
MAX_SUGGESTIONS = 50
# The only files of an evaluation report the app hands out, by name.
CHARTS = ("categories.png", "comparisons.png")
NO_SUGGESTIONS = ("no suggestions yet: they are made from each file's content when it is indexed; files "
                  "indexed by an older scent get them when re-indexed (scent index FOLDER --rebuild)")
NO_REPORT = "no evaluation report yet; make one with: scent eval QUERIES --folder FOLDER --report DIR"


def create_app(index: Index, *, allowed_hosts: list[str] | None = None, tokens: Tokens | None = None,
               require_token: bool = False, readers: int = DEFAULT_READERS, desktop: bool = True,
               live: Live | None = None, as_user: str | None = None, own_token: str | None = None) -> FastAPI:
    """A FastAPI app serving `index` (already open; the caller closes it).

    `allowed_hosts`: Host header values to accept (against DNS rebinding); None accepts any.
    `tokens`: the access tokens a request may carry (None: none is valid); `require_token`: every
    request but the page itself must carry one (serve --allow-remote). See guard.py.
    `own_token`: the token of the user running the server (a loopback `scent serve`); given, every
    request but the page itself must carry it or a user's token, answered as `as_user`.
    `readers`: how many requests read the index at the same time (see scent.readers).
    `desktop`: whether /api/open may open files in this machine's apps (only for a local server).
    `live`: the watch keeping the index fresh, when there is one (its state is in /api/status).
    `as_user`: who a request without a token is (serve --as); None: the user running the server.
    """
    pool = Readers(index, readers)
    answering = str(Path(index.index_dir).resolve())

    @asynccontextmanager
    async def lifespan(app):
        yield
        pool.close()

    app = FastAPI(title="scent", version=__version__, docs_url=None, redoc_url=None, lifespan=lifespan,
                  description="Search your own files: the HTTP API behind scent's web UI.",
                  dependencies=[Depends(_known_parameters)])
    thumbs = Thumbnails()

    if require_token and tokens is None:
        raise UsageError("require_token needs the tokens to check against")
    app.add_middleware(Guard, allowed_hosts=allowed_hosts, tokens=tokens,
                       require_token=require_token or own_token is not None, default_user=as_user,
                       own_token=own_token)
    default_openapi = app.openapi

    def openapi() -> dict:
        if app.openapi_schema is None:
            app.openapi_schema = fix_openapi(default_openapi())
        return app.openapi_schema

    app.openapi = openapi

    @app.exception_handler(Refused)
    async def refused(request, err: Refused):
        return _error(err.status, str(err))

    @app.exception_handler(UsageError)
    async def usage_error(request, err: UsageError):
        return _error(400, str(err))

    @app.exception_handler(ScentError)
    async def scent_error(request, err: ScentError):
        return _error(500, str(err))

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(request, err: RequestValidationError):
        return _error(400, "; ".join(_said(e) for e in err.errors()) or "bad request")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request, err: StarletteHTTPException):
        return _error(err.status_code, str(err.detail))

    @app.exception_handler(Exception)
    async def unexpected(request, err: Exception):
        return _error(500, f"internal error ({type(err).__name__}); see the server's log")

    @app.get("/api/search", summary="Search the index", response_model=SearchResponse,
             response_model_exclude_unset=True)
    def search(
        request: Request,
        q: str = Query("", max_length=MAX_QUERY_CHARS, description=QUERY),
        k: int = Query(10, ge=1, le=MAX_K, description="Number of results."),
        filters: Filters = Depends(_filters),
        explain: bool = Query(False, description="Add each result's rank in every list and its RRF share."),
    ) -> dict:
        """Files ranked for `q`, best first: `{"query", "results": [SearchResult...], "took_ms", "index"}`
        (`index`: the index directory answering, which `scent search` checks before it shows the answer),
        `corrected` when words no file holds were searched as others (scent.spelling), `translation`
        when the query was machine-translated into English and searched by those words too (scent.translate),
        `listed` when `q` holds filters alone (`ext:pdf after:2025-03`, or none with filter parameters):
        the files they keep, newest first, unranked and unassessed, and `unfinished_run` while the folder is being indexed or after a run that stopped midway."""
        started = time.perf_counter()
        with pool.use() as idx:
            results = idx.search(q, k=k, filters=filters, explain=explain, as_user=_user(request))
            run = idx.unfinished_run()
        body = {"query": q, "results": [r.to_dict() for r in results],
                "took_ms": round((time.perf_counter() - started) * 1000, 1), "index": answering}
        if run:
            body["unfinished_run"] = run
        if results.translation:
            body["translation"] = results.translation
        if results.listed:
            body["listed"] = True
        return {**body, "corrected": results.corrected} if results.corrected else body

    @app.get("/api/similar", summary="Files like an indexed file", response_model=SearchResponse,
             response_model_exclude_unset=True, responses={404: {"description": "Not in the index (or not yours)"}})
    def similar(
        request: Request,
        file: str = Query(..., min_length=1, max_length=MAX_PATH_CHARS,
                          description="The file, as results name it (relative to the indexed folder)."),
        page: int | None = Query(None, ge=1, description="Files like this page of it."),
        k: int = Query(10, ge=1, le=MAX_K, description="Number of results."),
        filters: Filters = Depends(_filters),
    ) -> dict:
        """Files like `file` by what they are about, best first, the file and its copies left out
        (scent.similar): `{"query": file, "results": [SearchResult...], "took_ms", "index"}`; 404 when
        `file` is not in the index for the asker. `path` and the other filters hold as in /api/search."""
        started = time.perf_counter()
        with pool.use() as idx:
            try:
                results = idx.similar(file, page=page, k=k, filters=filters, as_user=_user(request))
            except NotIndexed as err:
                raise Refused(404, str(err)) from None
        return {"query": file, "results": [r.to_dict() for r in results],
                "took_ms": round((time.perf_counter() - started) * 1000, 1), "index": answering}

    @app.get("/api/context", summary="Passages for an LLM prompt")
    def context(
        request: Request,
        q: str = Query("", max_length=MAX_QUERY_CHARS, description=QUERY),
        tokens: int = Query(2000, ge=MIN_CONTEXT_TOKENS, le=MAX_CONTEXT_TOKENS,
                            description="About how many tokens the passages may take (estimated, erring high)."),
        filters: Filters = Depends(_filters),
    ) -> dict:
        """The best passages for `q`, overlapping chunks merged, cited, within about `tokens` tokens:
        `{"query", "budget", "tokens", "passages": [{path, page, title, score, unit_ids, text}], "text"}`, and
        `corrected` as in /api/search."""
        with pool.use() as idx:
            return idx.context(q, tokens=tokens, filters=filters, as_user=_user(request)).to_dict()

    @app.get("/api/status", summary="Index status", response_model=StatusResponse,
             response_model_exclude_unset=True)
    def status(request: Request,
               skipped: bool = Query(False, description="Also list every file not indexed, by path.")) -> dict:
        """Files and units per kind, index size, model, last index time, skipped files with reasons,
        files not indexed per extension and cause (and, with skipped=true, each of them)."""
        with pool.use() as idx:
            st = idx.status(_user(request))
            if skipped:
                st["skipped"] = idx.skipped(_user(request))
        st["desktop"] = desktop
        if live is not None:
            st["live"] = live.state()
        return st

    @app.get("/api/suggestions", summary="Example queries from the indexed content", response_model=SuggestionsResponse,
             response_model_exclude_unset=True)
    def suggestions(request: Request,
                    limit: int = Query(12, ge=1, le=MAX_SUGGESTIONS, description="How many, at most.")) -> dict:
        """`{"suggestions": [{"text", "path", "page", "aspect"}...]}`: titles, headings, IDs, key
        phrases and pages' topics, details and pictures of different files and kinds, made at index
        time; a `note` says why when there are none."""
        with pool.use() as idx:
            found = idx.suggestions(limit, _user(request))
        return {"suggestions": found} if found else {"suggestions": [], "note": NO_SUGGESTIONS}

    def _report_dir() -> Path | None:
        with pool.use() as idx:
            where = idx.last_report()
        return where if where and (where / "report.json").is_file() else None

    @app.get("/api/eval", summary="The latest evaluation report", response_model=EvalResponse,
             response_model_exclude_unset=True)
    def evaluation(request: Request) -> dict:
        """The report.json of the last `scent eval --report DIR` on this index (`overall`,
        `by_category`, `hard`, `queries`), plus `report` (its folder), `written` (Unix time) and
        `charts` (URLs); `{"report": null, "note"}` when there is none."""
        folder = _report_dir()
        if folder is None:
            return {"report": None, "note": NO_REPORT}
        path = folder / "report.json"
        try:
            body = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise ScentError(f"cannot read {path}: {err}; run scent eval --report again") from None
        charts = {name.removesuffix(".png"): f"/api/eval/chart/{name}" for name in CHARTS if (folder / name).is_file()}
        with pool.use() as idx:  # the report names files in each query's top results: only the readable ones
            user = _user(request)
            for q in body.get("queries", []):
                q["top"] = [t for t in q.get("top", []) if idx.may_read(str(t.get("path")), user)]
        return {"report": str(folder), "written": path.stat().st_mtime, "charts": charts, **body}

    @app.get("/api/eval/chart/{name}", summary="A chart of the latest evaluation report", response_class=Response,
             responses={200: {"content": {"image/png": {}}}, 404: {"description": "No such chart"}})
    def chart(name: str = Path_(..., max_length=64)):
        """categories.png or comparisons.png from the latest report's folder; nothing else."""
        folder = _report_dir()
        if name not in CHARTS or folder is None or not (folder / name).is_file():
            raise Refused(404, f"no chart {name!r}; charts are {', '.join(CHARTS)} of the latest report")
        return FileResponse(folder / name, media_type="image/png", headers={"Cache-Control": "no-cache"})

    def _indexed(rel: str, request: Request):
        """The indexed folder, and `rel`'s units (None when not indexed, or not the request's user's to read)."""
        with pool.use() as idx:
            return idx.root, idx.file_units(rel, _user(request))

    # HEAD too (below): download managers and link checkers ask it first (it was 405).
    @app.get("/api/file", summary="An indexed file's bytes", response_class=Response,
             responses={200: {"description": "The file (HTML and other text as text/plain)"},
                        403: {"description": "Path outside the folder"}, 404: {"description": "Not indexed"}})
    def file(request: Request,
             path: str = Query(..., max_length=MAX_PATH_CHARS, description="Path relative to the indexed folder, as in results."),
             page: int | None = Query(None, ge=1, description="PDF page (the UI adds #page=N itself).")):
        """The bytes of an indexed file, for paths in the index only; a file inside another (an
        archive member, a mail attachment: ARCHIVE#MEMBER) is read out of it (up to 256 MB)."""
        root, units = _indexed(path, request)
        real, member = locate(root, path, units is not None)
        if member is not None:
            media, headers = content_type(Path(member))
            return Response(member_bytes(real, member), media_type=media, headers=headers)
        if real.is_dir():  # a document saved as a folder: sent as the zip of it
            data, headers = zipped_package(real)
            return Response(data, media_type="application/zip", headers=headers)
        media, headers = content_type(real)
        return FileResponse(real, media_type=media, headers=headers)

    app.head("/api/file", include_in_schema=False)(file)

    @app.get("/api/preview", summary="An indexed file's text for the preview pane", response_model=PreviewResponse,
             response_model_exclude_unset=True, responses={404: {"description": "Not in the index (or not yours)"}})
    def preview_file(request: Request,
                     path: str = Query(..., max_length=MAX_PATH_CHARS,
                                       description="Path relative to the indexed folder, as in results."),
                     q: str = Query("", max_length=MAX_QUERY_CHARS, description="The query whose words to mark.")) -> dict:
        """`{"path", "kind", "blocks": [{"tag", "text", "highlights", "page"?}], "hits", "cut"}`: the
        file as blocks of plain text (markdown's structure kept), the query's words marked."""
        root, units = _indexed(path, request)
        real, member = locate(root, path, units is not None)
        if member is not None and units and units[0].file_kind in READ_FROM_DISK:
            return preview(root, path, units, q, real, data=member_bytes(real, member, PREVIEW_BYTES))
        return preview(root, path, units, q, real)

    @app.post("/api/open", summary="Open an indexed file in this machine's app, or show it in its folder",
              response_model=OpenResponse,
              responses={403: {"description": "Not a local server, or not asked by its own page"},
                         501: {"description": "No opener (xdg-open, open, explorer) on this machine"}})
    def open_file(request: Request, body: OpenRequest) -> dict:
        """Runs the desktop's opener (xdg-open, open, start) on the file or its folder; only on a
        server bound to this machine, and only when asked by its own page (same Origin: guard.py)."""
        if not desktop:
            raise Refused(403, "opening files is only offered by a server on this machine (not with --allow-remote)")
        root, units = _indexed(body.path, request)
        real, _ = locate(root, body.path, units is not None)  # a file inside an archive or a message: the container
        return {"opened": str(open_on_desktop(real, body.how))}

    @app.get("/api/thumb", summary="A thumbnail of a picture or PDF page", response_class=Response,
             responses={200: {"content": {"image/jpeg": {}}}, 404: {"description": "Not indexed, or no thumbnail"}})
    def thumb(request: Request,
              path: str = Query(..., max_length=MAX_PATH_CHARS, description="Path relative to the indexed folder."),
              page: int | None = Query(None, ge=1, description="PDF page (default 1)."),
              size: int = Query(THUMB_PX, ge=64, le=MAX_PICTURE_PX,
                                description="Longest side in pixels (the preview pane asks a larger one).")):
        """A JPEG at most `size` px (320 by default) wide and high, for pictures and PDF pages."""
        root, units = _indexed(path, request)
        real, member = locate(root, path, units is not None)
        kind = units[0].file_kind if units else _kind_of(Path(member) if member else real)
        return Response(thumbs.get(real, kind, page, member, size), media_type="image/jpeg",
                        headers={"Cache-Control": "private, max-age=300"})

    @app.post("/api/session", summary="Keep this browser's access token as a cookie", response_model=SessionResponse,
              responses={401: {"description": "No valid bearer token sent"}})
    def session(request: Request, response: Response) -> dict:
        """For the web UI: send the token once as `Authorization: Bearer TOKEN` (from the page's
        #token=... address); the answer sets it as an HttpOnly, SameSite=Strict cookie, which
        pictures, thumbnails and opened files then carry. Needs this server's own Origin."""
        auth = request.headers.get("authorization", "")
        if not request.state.signed_in or not auth.lower().startswith("bearer "):
            raise Refused(401, "send the access token as Authorization: Bearer TOKEN to start a session")
        # Kept for a while (not just until the browser closes), so a bookmark of the page works
        # without the token: the guard checks the token on every request, so a removed one is
        # refused at once all the same.
        response.set_cookie(COOKIE, auth[7:].strip(), httponly=True, samesite="strict", path="/",
                            secure=request.url.scheme == "https", max_age=COOKIE_DAYS * 86400)
        return {"user": request.state.user}

    @app.get("/", include_in_schema=False)
    def home():
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


PREVIEW_BYTES = MAX_CHARS * 4  # what the preview reads of a text file inside an archive, as of one on disk


def _filters(
        only: list[str] = Query([], description="Keep only these kinds (" + ", ".join(FILE_KINDS) + "); repeatable, or joined by commas."),
        path: str | None = Query(None, max_length=MAX_PATH_CHARS,
                                 description="Keep only paths starting with this prefix, or matching this glob (* crosses folders, **/ is any folders or none)."),
        after: str | None = Query(None, max_length=40, description=AFTER),
        before: str | None = Query(None, max_length=40, description=BEFORE),
        lang: str | None = Query(None, max_length=16, description="Keep only units in this language (ISO code)."),
) -> Filters:
    """The filter parameters of /api/search and /api/context, named in errors as this API spells them."""
    return Filters.build(only, path or None, after or None, before or None, lang or None, spell=str)


def _known_parameters(request: Request) -> None:
    """An /api/ request's parameter its endpoint does not take is refused, as MCP refuses an unknown
    argument: `kinds=pdf` (for only=pdf) answered with every kind, as if no filter were asked."""
    route = request.scope.get("route")
    if route is None or not request.url.path.startswith("/api/"):
        return
    known = _query_names(route.dependant) if request.query_params else set()
    unknown = sorted(set(request.query_params) - known)
    if unknown:
        raise UsageError(f"unknown parameter {', '.join(unknown)}; {request.url.path} takes "
                         f"{', '.join(sorted(known)) or 'none'}")


def _query_names(dependant) -> set[str]:
    """The query parameters an endpoint takes, its dependencies' (the filters) included."""
    names = {p.alias for p in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _query_names(sub)
    return names


def _user(request: Request) -> str | None:
    """Who asks: set by the authentication middleware; None is the user running the server."""
    return getattr(request.state, "user", None)




def _kind_of(path: Path) -> str:
    from ..extract import file_kind
    return file_kind(str(path)) or ""


def _said(e: dict) -> str:
    """One validation error in a person's words ("q is 2,000 characters long, over the 1,000
    allowed", not pydantic's "String should have at most 1000 characters")."""
    name = ".".join(str(p) for p in e.get("loc", ())[1:]) or "request"
    kind, given, ctx = e.get("type", ""), e.get("input"), e.get("ctx") or {}
    if kind == "json_invalid" or (kind == "model_attributes_type" and name == "request"):
        return "the request body is not a JSON object; send one such as {\"path\": \"notes/a.md\"}"
    if kind == "string_too_long" and isinstance(given, str):
        return f"{name} is {len(given):,} characters long, over the {ctx.get('max_length', 0):,} allowed; shorten it"
    if kind in ("int_parsing", "int_from_float"):
        return f"{name} must be a whole number (got {_shorten(given)})"
    if kind in ("greater_than_equal", "less_than_equal"):
        bound = "at least" if kind == "greater_than_equal" else "at most"
        return f"{name} must be {bound} {ctx.get('ge', ctx.get('le'))} (got {given})"
    if kind == "missing":
        return f"{name} is missing"
    got = f" (got {_shorten(given)})" if given is not None else ""
    return f"{name}: {e.get('msg', 'invalid')}{got}"


def _shorten(value, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(str(value)):,} characters)"


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


