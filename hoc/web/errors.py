"""The web table's refusals: each is a 4xx answer with a one-line message, never a crash."""
from __future__ import annotations


class Refused(Exception):
    """A request the server will not carry out; `status` is its HTTP status."""

    status = 400

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        if status is not None:
            self.status = status


class NotFound(Refused):
    status = 404


class Conflict(Refused):
    """Not now: an illegal action, a seat not to decide, a game that is over or moved on."""

    status = 409


class Forbidden(Refused):
    """A file outside what the server was asked to read."""

    status = 403
