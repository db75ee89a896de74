"""Errors a user can cause. The command line prints their message alone and exits with code 2."""


class HocError(ValueError):
    """Bad input: an unknown name, a wrong count, a malformed file or value."""


class IllegalActionError(HocError):
    """A Python agent or caller chose an action that is not legal at this decision point."""


class InvariantError(RuntimeError):
    """The engine broke one of its own invariants (a bug): the message names the game's seed."""
