"""Reproducible studies: `python -m experiments.NAME [--games N] [--seed S] [--jobs J] [--out DIR]`."""
