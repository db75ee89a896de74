"""Jitted kernels. Everything here works on a flat int64 state array `s`, the card table `T` and the
ruleset vector `R`; the constants that give those arrays their meaning live in `constants.py`."""
