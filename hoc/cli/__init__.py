"""The `hoc` command line."""
from hoc.cli.main import main

__all__ = ["main"]
