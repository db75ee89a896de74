"""Running the web table: uvicorn serving `hoc.web.app` (in the foreground for `hoc serve`, or in a
background thread for tests and scripts)."""
from __future__ import annotations

import ipaddress
import socket
import threading
import time

LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]", "::1"]


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def config(host: str, port: int, root: str = "."):
    import uvicorn

    from hoc.web.app import create_app

    hosts = LOOPBACK_NAMES + [host] if is_loopback(host) else None
    app = create_app(root, allowed_hosts=hosts)
    return uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False)


def serve(host: str, port: int, root: str = ".") -> None:
    import uvicorn

    uvicorn.Server(config(host, port, root)).run()


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class Background:
    """A server in a thread of this process (tests, the screenshot script): `url`, then `stop()`."""

    def __init__(self, root: str = ".", host: str = "127.0.0.1", port: int | None = None):
        import uvicorn

        self.port = port or free_port(host)
        self.url = f"http://{host}:{self.port}"
        self.server = uvicorn.Server(config(host, self.port, root))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError(f"the web table did not start on {self.url}")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
