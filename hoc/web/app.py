"""The web table's application: the pages and their assets (shipped in `static/`), the API routes,
and the answers to bad requests: a refusal, a bad input, a malformed body, an unknown route or
method, a wrong Host header and a body over the limit are each a 4xx JSON answer {"error": message};
an unexpected failure is a 500 for that request alone, the server and the other games go on."""
from __future__ import annotations

import contextlib
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from hoc.errors import HocError
from hoc.web.errors import Refused
from hoc.web.files import Root
from hoc.web.limits import MAX_BODY

STATIC = Path(__file__).parent / "static"
PAGES = {"/": "index.html", "/play": "play.html", "/replay": "replay.html", "/results": "results.html",
         "/market": "market.html", "/studies": "studies.html"}


def refusal(status: int, message: str):
    return JSONResponse({"error": message}, status_code=status)


def host_name(host: str) -> str:
    """A Host header's name without its port: 'localhost:8000' -> 'localhost', '[::1]:8000' -> '[::1]'."""
    if host.startswith("["):
        return host[:host.index("]") + 1] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class Guard:
    """Before the app sees a request: its Host header must be one this server answers (against DNS
    rebinding on localhost; None: any), and its body may hold at most MAX_BODY bytes however it is
    sent: a declared length over the limit is refused before a byte is read, a body sent in chunks is
    read up to the limit and refused (413) at the first byte past it."""

    def __init__(self, app, hosts: list[str] | None = None):
        self.app, self.hosts = app, hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or ())
        if self.hosts is not None:
            if host_name(headers.get(b"host", b"").decode("latin-1")) not in self.hosts:
                return await refusal(400, "the Host header names no address this server answers on")(scope, receive, send)
        length = headers.get(b"content-length")
        if length is not None:
            if not length.isdigit():
                return await refusal(400, "a malformed Content-Length")(scope, receive, send)
            if int(length) > MAX_BODY:
                return await refusal(413, f"the request body is larger than {MAX_BODY:,} bytes")(scope, receive, send)
            return await self.app(scope, receive, send)
        if scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            return await self.app(scope, receive, send)
        body, more = [], True
        size = 0
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_BODY:
                return await refusal(413, f"the request body is larger than {MAX_BODY:,} bytes")(scope, receive, send)
            body.append(chunk)
            more = message.get("more_body", False)
        whole = b"".join(body)
        sent = False

        async def replay():
            nonlocal sent
            if sent:
                return await receive()          # the client's disconnect, when it comes
            sent = True
            return {"type": "http.request", "body": whole, "more_body": False}

        await self.app(scope, replay, send)


def create_app(root: str | Path = ".", allowed_hosts: list[str] | None = None) -> FastAPI:
    """The app serving the folder `root` (runs, studies and agent files are read inside it only);
    `allowed_hosts`: the Host headers answered (None: any), against DNS rebinding on localhost."""
    from hoc import __version__
    from hoc.web.api import router
    from hoc.web.workers import Workers

    workers = Workers()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        workers.start()
        yield
        workers.shutdown()

    app = FastAPI(title="hoc web table", version=__version__, docs_url="/api/docs", redoc_url=None,
                  openapi_url="/api/openapi.json", lifespan=lifespan)
    app.add_middleware(Guard, hosts=allowed_hosts)
    app.include_router(router(Root(root), workers))
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
        headers = {"Retry-After": "2"} if e.status == 503 else None
        return JSONResponse({"error": str(e)}, status_code=e.status, headers=headers)

    @app.exception_handler(HocError)
    def bad_input(request: Request, e: HocError):
        return refusal(getattr(e, "status", 400), str(e))

    @app.exception_handler(HTTPException)
    def http_error(request: Request, e: HTTPException):
        what = {404: f"no page or route {request.url.path[:200]}", 405: f"{request.method} is not a method of "
                f"{request.url.path[:200]}"}.get(e.status_code, str(e.detail))
        return JSONResponse({"error": what}, status_code=e.status_code, headers=getattr(e, "headers", None))

    @app.exception_handler(RequestValidationError)
    def malformed(request: Request, e: RequestValidationError):
        parts = []
        for err in e.errors()[:5]:
            where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")[:200] or "body"
            parts.append(f"{where}: {err.get('msg', 'invalid')}")
        return refusal(422, "malformed request: " + "; ".join(parts))

    @app.exception_handler(Exception)
    def failed(request: Request, e: Exception):
        return refusal(500, f"the server failed on this request: {type(e).__name__}")

    return app
