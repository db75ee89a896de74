"""A card value override as the command line writes it (`--override CARD.FIELD=VALUE`), read the
same way for every game: the game's card database applies it."""
from __future__ import annotations

from typing import Mapping

from hoc.errors import HocError
from hoc.names import did_you_mean


def parse_override(text: str, types: Mapping[str, int] | None = None,
                   not_given: tuple[str, ...] = ()) -> tuple[str, str, int | str]:
    """'card.field=value' -> (card, field, value), with a clear error for anything else. The value is
    an integer, except for `types` in a game whose card types can change (`types`: its type names):
    type names joined by '/' (`purveyor.types=territory`), returned in the card table's own 'a|b'
    spelling; `not_given`: types no override may give a card."""
    try:
        target, value = text.split("=", 1)
        card, fld = target.strip().split(".", 1)
    except ValueError:
        raise HocError(f"bad override {text!r}: expected CARD.FIELD=VALUE, e.g. duke.cost=7") from None
    card, fld, value = card.strip(), fld.strip(), value.strip()
    if fld == "types" and types is not None:
        names = [t.strip().lower() for t in value.split("/")]
        for t in names:
            if t not in types:
                raise HocError(f"bad override {text!r}: unknown type {t!r}{did_you_mean(t, types)}; types: "
                               f"{', '.join(types)}, joined by '/'")
        for t in not_given:
            if t in names:
                raise HocError(f"bad override {text!r}: a card cannot be made a {t}")
        return card, fld, "|".join(dict.fromkeys(names))
    try:
        number = int(value)
    except ValueError:
        raise HocError(f"bad override {text!r}: value {value!r} is not an integer") from None
    return card, fld, number
