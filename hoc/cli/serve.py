"""`hoc serve`: the web table, a local web app to play, replay and look at runs and studies in the
browser (`hoc.web`; needs the `web` extra: pip install -e ".[web]")."""
from __future__ import annotations

from pathlib import Path

from hoc.errors import HocError


def cmd_serve(args) -> int:
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise HocError('hoc serve needs the web extra: pip install -e ".[web]"') from None
    from hoc.web.server import is_loopback, serve

    if not 0 < args.port < 65536:
        raise HocError(f"--port must be 1 to 65535, got {args.port}")
    if not Path(args.root).is_dir():
        raise HocError(f"--root {args.root}: no such folder")
    where = f"http://{'[' + args.host + ']' if ':' in args.host else args.host}:{args.port}/"
    warn = "" if is_loopback(args.host) else " (reachable from other machines: it has no login)"
    print(f"hoc web table on {where}{warn}; reading runs and studies in {Path(args.root).resolve()}; "
          f"Ctrl-C stops it", flush=True)
    serve(args.host, args.port, args.root)
    return 0


def add_parser(sub) -> None:
    p = sub.add_parser("serve", help="the web table: play, replay and look at runs and studies in the browser",
                       description="Start the web table on --host:--port (default 127.0.0.1:8000, this machine "
                                   "only) and open it in a browser. It reads runs, studies and agent files "
                                   "inside --root only and writes no file (games are saved by the browser).")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--root", default=".", help="the folder whose runs and studies it shows (default: this one)")
    p.set_defaults(func=cmd_serve)
