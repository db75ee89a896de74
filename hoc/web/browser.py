"""A real headless browser for the web table's tests and screenshots: Debian's Chromium driven by
Playwright (never a browser downloaded by Playwright itself)."""
from __future__ import annotations

import os
import shutil

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


def chromium_path() -> str | None:
    """The system's Chromium (HOC_CHROMIUM, else /usr/bin/chromium or chromium on the PATH), or None."""
    given = os.environ.get("HOC_CHROMIUM")
    if given:
        return given
    for name in ("/usr/bin/chromium", "chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def launch(playwright):
    """A headless Chromium of the system, started by a running `sync_playwright()`."""
    path = chromium_path()
    if path is None:
        raise RuntimeError("no Chromium: apt-get install chromium (or set HOC_CHROMIUM)")
    return playwright.chromium.launch(executable_path=path, args=ARGS, headless=True)
