"""Did-you-mean hints for names a user types: agents, market presets and kinds, princesses, cards
and card fields. One helper, so every error message offers its guess the same way."""
from __future__ import annotations

import difflib
from typing import Iterable, Mapping


def normal(word: str) -> str:
    """How a typed name is compared: 'Great Hall', 'great-hall' -> 'great_hall'."""
    return "_".join(str(word).strip().lower().replace("-", " ").replace("'", "").split())


def guess(word: str, choices: Iterable[str], aliases: Mapping[str, str] | None = None) -> str | None:
    """The choice the user most likely meant by `word`, or None. `aliases` maps other spellings
    (e.g. English card names) to choices."""
    choices = list(choices)
    w = normal(word)
    table = {normal(c): c for c in choices}
    for alias, target in (aliases or {}).items():
        table.setdefault(normal(alias), target)
    if w in table:
        return table[w]
    close = difflib.get_close_matches(w, list(table), n=1, cutoff=0.6)
    return table[close[0]] if close else None


def did_you_mean(word: str, choices: Iterable[str], aliases: Mapping[str, str] | None = None) -> str:
    """' (did you mean 'x'?)' to append to an error message, or '' when nothing is close."""
    g = guess(word, choices, aliases)
    return f" (did you mean {g!r}?)" if g is not None and g != word else ""
