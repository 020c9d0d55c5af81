"""Names on tokens, which become the actor of every command a player sends.

A name is read in NFKC form (so `ｇｍ` is `gm`), may hold no invisible or control characters
(`g\\u200bm`), and is refused when it could be mistaken for `gm` or for a name already issued
in the encounter (`ɡm` with U+0261, `arla` beside `aria`), by Unicode's confusables table
(the `confusables` package). The same name again is the same person: a second device.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from confusables import is_confusable

from combat.kernel.decider import GM
from combat.service.errors import ApiError

__all__ = ["usable_name"]

_SHAPE = re.compile(r"^\S(.{0,62}\S)?$")
# Control, format (zero-width, bidi overrides), separators, private use, unassigned.
_HIDDEN = {"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"}


def _refuse(role: str, name: str, why: str, allowed: str) -> ApiError:
    return ApiError(422, "token/bad-name", f"{role} name {name!r} is not usable: {why}", allowed=allowed)


def usable_name(name: str, role: str, issued: Iterable[str]) -> str:
    """The name as it will be recorded, or a 422 saying why it cannot be."""
    normal = unicodedata.normalize("NFKC", name)
    hidden = sorted({f"U+{ord(ch):04X}" for ch in normal if unicodedata.category(ch) in _HIDDEN})
    if hidden:
        raise _refuse(
            role,
            name,
            f"it holds invisible or control characters ({', '.join(hidden)})",
            "letters, digits, spaces and punctuation only",
        )
    if not _SHAPE.match(normal):
        raise _refuse(
            role, name, "it is blank, too long or starts or ends with a space", "1 to 64 characters, not blank at either end"
        )
    if normal.casefold() == GM or is_confusable(normal, GM):
        raise _refuse(role, name, "it reads as 'gm'", "a name that cannot be mistaken for the GM's")
    for other in issued:
        if other != normal and (other.casefold() == normal.casefold() or is_confusable(normal, other)):
            raise _refuse(
                role,
                name,
                f"it can be mistaken for {other!r}, already issued in this encounter",
                f"{other!r} itself (the same person) or a clearly different name",
            )
    return normal
