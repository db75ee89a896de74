"""Jitted kernels. Everything here works on one flat int32 state array `s`: a header, the ruleset
vector and card table it was made with (`rule`, `card`), the lineup of jitted agents, then the
game's own regions. The constants that give the array its meaning live in `constants.py`."""
