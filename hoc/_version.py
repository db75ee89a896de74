"""The version, defined once: the package metadata, `hoc --version` and every result's provenance read it."""
__version__ = "0.4.0"
