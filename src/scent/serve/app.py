"""The HTTP API and web UI over one open `Index`: `create_app(index)`.

A thin view of the library: parameters become `Filters.build(...)` and `Index.search(...)`,
results are `SearchResult.to_dict()`. Errors answer JSON `{"error": "..."}`: a UsageError is
400, any other ScentError 500 with its message; never a stack trace.
"""
from __future__ import annotations

import json
import time
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Query
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import ScentError, UsageError
from ..filters import Filters
from ..index import Index
from ..readers import DEFAULT_READERS, Readers
from ..units import FILE_KINDS
from .files import Refused, Thumbnails, content_type, resolve

STATIC = Path(__file__).parent / "static"
# The UI loads nothing but its own files: no inline script, no CDN, no framing.
UI_CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
          "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
MAX_K = 100
MAX_SUGGESTIONS = 50
# The only files of an evaluation report the app hands out, by name.
CHARTS = ("categories.png", "comparisons.png")
NO_SUGGESTIONS = ("no suggestions yet: they are made from each file's content when it is indexed; files "
                  "indexed by an older scent get them when re-indexed (scent index FOLDER --rebuild)")
NO_REPORT = "no evaluation report yet; make one with: scent eval QUERIES --folder FOLDER --report DIR"


def create_app(index: Index, *, allowed_hosts: list[str] | None = None, readers: int = DEFAULT_READERS) -> FastAPI:
    """A FastAPI app serving `index` (already open; the caller closes it).

    `allowed_hosts`: Host header values to accept (against DNS rebinding); None accepts any.
    `readers`: how many requests read the index at the same time (see scent.readers).
    """
    pool = Readers(index, readers)
    answering = str(Path(index.index_dir).resolve())

    @asynccontextmanager
    async def lifespan(app):
        yield
        pool.close()

    app = FastAPI(title="scent", version=_version(), docs_url=None, redoc_url=None, lifespan=lifespan,
                  description="Search your own files: the HTTP API behind scent's web UI.")
    thumbs = Thumbnails()

    if allowed_hosts:
        from starlette.middleware.trustedhost import TrustedHostMiddleware
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)

    @app.middleware("http")
    async def security_headers(request, call_next):
        response = await call_next(request)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if not request.url.path.startswith("/api/"):
            response.headers.setdefault("Content-Security-Policy", UI_CSP)
        return response

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
        parts = []
        for e in err.errors():
            name = ".".join(str(p) for p in e.get("loc", ())[1:]) or "request"
            got = f" (got {e['input']!r})" if "input" in e and e["input"] is not None else ""
            parts.append(f"{name}: {e.get('msg', 'invalid')}{got}")
        return _error(400, "; ".join(parts) or "bad request")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request, err: StarletteHTTPException):
        return _error(err.status_code, str(err.detail))

    @app.exception_handler(Exception)
    async def unexpected(request, err: Exception):
        return _error(500, f"internal error ({type(err).__name__}); see the server's log")

    @app.get("/api/search", summary="Search the index")
    def search(
        q: str = Query("", description="What to look for: plain words, an ID, a code identifier."),
        k: int = Query(10, ge=1, le=MAX_K, description="Number of results."),
        only: list[str] = Query([], description="Keep only these kinds (" + ", ".join(FILE_KINDS) + "); repeatable."),
        path: str | None = Query(None, description="Keep only paths starting with this prefix, or matching this glob."),
        after: str | None = Query(None, description="Keep only files dated on or after this day (YYYY-MM-DD)."),
        before: str | None = Query(None, description="Keep only files dated on or before this day (YYYY-MM-DD)."),
        lang: str | None = Query(None, description="Keep only units in this language (ISO code)."),
        explain: bool = Query(False, description="Add each result's rank in every list and its RRF share."),
    ) -> dict:
        """Files ranked for `q`, best first: `{"query", "results": [SearchResult...], "took_ms", "index"}`
        (`index`: the index directory answering, which `scent search` checks before it shows the answer)."""
        filters = Filters.build(only, path or None, after or None, before or None, lang or None, spell=str)
        started = time.perf_counter()
        with pool.use() as idx:
            results = idx.search(q, k=k, filters=filters, explain=explain)
        return {"query": q, "results": [r.to_dict() for r in results],
                "took_ms": round((time.perf_counter() - started) * 1000, 1), "index": answering}

    @app.get("/api/status", summary="Index status")
    def status() -> dict:
        """Files and units per kind, index size, model, last index time, skipped files with reasons."""
        with pool.use() as idx:
            return idx.status()

    @app.get("/api/suggestions", summary="Example queries from the indexed content")
    def suggestions(limit: int = Query(12, ge=1, le=MAX_SUGGESTIONS, description="How many, at most.")) -> dict:
        """`{"suggestions": [{"text", "path"}...]}`: titles, headings, IDs and key phrases of different
        files and kinds, made at index time; a `note` says why when there are none."""
        with pool.use() as idx:
            found = idx.suggestions(limit)
        return {"suggestions": found} if found else {"suggestions": [], "note": NO_SUGGESTIONS}

    def _report_dir() -> Path | None:
        with pool.use() as idx:
            where = idx.last_report()
        return where if where and (where / "report.json").is_file() else None

    @app.get("/api/eval", summary="The latest evaluation report")
    def evaluation() -> dict:
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
        return {"report": str(folder), "written": path.stat().st_mtime, "charts": charts, **body}

    @app.get("/api/eval/chart/{name}", summary="A chart of the latest evaluation report", response_class=Response,
             responses={200: {"content": {"image/png": {}}}, 404: {"description": "No such chart"}})
    def chart(name: str):
        """categories.png or comparisons.png from the latest report's folder; nothing else."""
        folder = _report_dir()
        if name not in CHARTS or folder is None or not (folder / name).is_file():
            raise Refused(404, f"no chart {name!r}; charts are {', '.join(CHARTS)} of the latest report")
        return FileResponse(folder / name, media_type="image/png", headers={"Cache-Control": "no-cache"})

    def _indexed(rel: str):
        """The indexed folder, and `rel`'s units (None when not indexed)."""
        with pool.use() as idx:
            return idx.root, idx.file_units(rel)

    @app.get("/api/file", summary="An indexed file's bytes", response_class=Response,
             responses={200: {"description": "The file (HTML and other text as text/plain)"},
                        403: {"description": "Path outside the folder"}, 404: {"description": "Not indexed"}})
    def file(path: str = Query(..., description="Path relative to the indexed folder, as in results."),
             page: int | None = Query(None, ge=1, description="PDF page (the UI adds #page=N itself).")):
        """The bytes of an indexed file, for paths in the index only."""
        root, units = _indexed(path)
        real = resolve(root, path, units is not None)
        media, headers = content_type(real)
        return FileResponse(real, media_type=media, headers=headers)

    @app.get("/api/thumb", summary="A thumbnail of a picture or PDF page", response_class=Response,
             responses={200: {"content": {"image/jpeg": {}}}, 404: {"description": "Not indexed, or no thumbnail"}})
    def thumb(path: str = Query(..., description="Path relative to the indexed folder."),
              page: int | None = Query(None, ge=1, description="PDF page (default 1).")):
        """A JPEG at most 320 px wide and high, for pictures and PDF pages."""
        root, units = _indexed(path)
        real = resolve(root, path, units is not None)
        kind = units[0].file_kind if units else _kind_of(real)
        return Response(thumbs.get(real, kind, page), media_type="image/jpeg",
                        headers={"Cache-Control": "private, max-age=300"})

    @app.get("/", include_in_schema=False)
    def home():
        return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _kind_of(path: Path) -> str:
    from ..extract import file_kind
    return file_kind(str(path)) or ""


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("scent")
    except PackageNotFoundError:
        return "0"
