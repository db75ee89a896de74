"""Files named relative to a folder and kept inside it: what a request to the web table may name (its
runs, studies and agent files), checked the same way wherever a name is read.

A name is refused before anything outside the folder is looked at, so an answer never tells whether
a file outside exists: a path leading out (`..`, an absolute path, a symlink to elsewhere) is
`Outside` whatever it points at; only a path inside is looked up (`Missing` when it is not there).
Names too long for the file system and names the system cannot read are refused in words, not with
the system's error."""
from __future__ import annotations

from pathlib import Path

from hoc.errors import HocError

MAX_PART = 255          # bytes of one part of a path (the longest file name on the usual file systems)
MAX_PATH = 1000         # characters of a whole name


class Outside(HocError):
    """A name that leads out of the folder (the web table answers 403)."""

    status = 403


class Missing(HocError):
    """A name inside the folder with nothing there (404)."""

    status = 404


def inside(folder: Path, given, what: str = "file") -> Path:
    """The path `given` names relative to `folder` (resolved), if it lies inside the folder and exists."""
    if not isinstance(given, str) or not given.strip() or "\x00" in given:
        raise HocError(f"name the {what} by a path inside {folder}")
    if len(given) > MAX_PATH or any(len(part.encode("utf-8", "surrogatepass")) > MAX_PART
                                    for part in given.replace("\\", "/").split("/")):
        raise HocError(f"the {what} name is too long (at most {MAX_PATH} characters, {MAX_PART} bytes between "
                       f"slashes)")
    try:
        p = (folder / given).resolve()
    except (OSError, RuntimeError, ValueError):        # a symlink loop, a name the system refuses
        raise Outside(f"{given!r} is not a {what} this server reads") from None
    if p != folder and folder not in p.parents:
        raise Outside(f"{given} is outside the folder this server reads ({folder})")
    try:
        found = p.exists()
    except (OSError, ValueError):
        found = False
    if not found:
        raise Missing(f"no {what} {given} in {folder}")
    return p


def readable_file(folder: Path, given, suffixes, what: str = "file") -> Path:
    """`inside`, and a regular file with one of `suffixes`."""
    p = inside(folder, given, what)
    try:
        ok = p.is_file()
    except OSError:
        ok = False
    if not ok or p.suffix not in suffixes:
        raise Outside(f"{given}: the server reads {', '.join(sorted(suffixes))} files only"
                      + (f" as {what}s" if what != "file" else ""))
    return p
