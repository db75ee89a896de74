"""The web table's application: the pages and their assets (shipped in `static/`), the API routes,
and the answers to bad requests: a refusal, a bad input and a malformed body are each a 4xx JSON
answer {"error": message}; an unexpected failure is a 500 for that request alone, the server and
the other games go on."""
from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from hoc.errors import HocError
from hoc.web.errors import Refused
from hoc.web.files import Root

STATIC = Path(__file__).parent / "static"
PAGES = {"/": "index.html", "/play": "play.html", "/replay": "replay.html", "/results": "results.html"}


MAX_BODY = 10_000_000      # bytes: the largest request body (a saved game is well under 1 MB)


class BodyLimit:
    """Refuses a request whose declared body is larger than MAX_BODY (413), before it is read."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            length = dict(scope.get("headers") or ()).get(b"content-length", b"0")
            if not length.isdigit() or int(length) > MAX_BODY:
                answer = JSONResponse({"error": f"the request body is larger than {MAX_BODY:,} bytes"
                                       if length.isdigit() else "a malformed Content-Length"}, status_code=413)
                return await answer(scope, receive, send)
        await self.app(scope, receive, send)


def create_app(root: str | Path = ".", allowed_hosts: list[str] | None = None) -> FastAPI:
    """The app serving the folder `root` (runs, studies and agent files are read inside it only);
    `allowed_hosts`: the Host headers answered (None: any), against DNS rebinding on localhost."""
    from hoc import __version__
    from hoc.web.api import router

    app = FastAPI(title="hoc web table", version=__version__, docs_url="/api/docs", redoc_url=None,
                  openapi_url="/api/openapi.json")
    if allowed_hosts:
        from starlette.middleware.trustedhost import TrustedHostMiddleware

        app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)
    app.add_middleware(BodyLimit)
    app.include_router(router(Root(root)))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    for route, page in PAGES.items():
        def serve(page=page):
            return FileResponse(STATIC / page, media_type="text/html")
        app.add_api_route(route, serve, methods=["GET"], include_in_schema=False)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon():
        return Response(status_code=204)

    @app.exception_handler(Refused)
    def refused(request: Request, e: Refused):
        return JSONResponse({"error": str(e)}, status_code=e.status)

    @app.exception_handler(HocError)
    def bad_input(request: Request, e: HocError):
        return JSONResponse({"error": str(e)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    def malformed(request: Request, e: RequestValidationError):
        parts = []
        for err in e.errors()[:5]:
            where = ".".join(str(x) for x in err.get("loc", ()) if x != "body") or "body"
            parts.append(f"{where}: {err.get('msg', 'invalid')}")
        return JSONResponse({"error": "malformed request: " + "; ".join(parts)}, status_code=422)

    @app.exception_handler(Exception)
    def failed(request: Request, e: Exception):
        return JSONResponse({"error": f"the server failed on this request: {type(e).__name__}: {e}"},
                            status_code=500)

    return app
