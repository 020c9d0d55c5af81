"""Faces a command enters for dice its rules roll deep inside it, on a defender's behalf: Mirror
Image's d6s when an attack hits the caster, Resistance's d4 when its bearer takes damage. The
roll may come several calls below the command (an attack's damage, a spell's share of a
save's damage), and only if the fight gets there; so the handler enters them here, for the
command's `Tx`, and checks once it is done that every list entered was rolled.

Each list is taken by name (`mirror_faces`, `resistance_faces[vesna]`), in the order the
rolls come; a list left over is refused (`dice/unused-faces`), appending nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from weakref import WeakKeyDictionary

from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError

__all__ = ["entering", "take", "keep", "Faces"]

Faces = tuple[int, ...]


class _Entered:
    def __init__(self) -> None:
        self.lists: dict[str, list[Faces]] = {}
        self.depth = 0  # a command's rules may enter more (a window closing rolls the damage it held)


_ENTERED: WeakKeyDictionary[Tx, _Entered] = WeakKeyDictionary()


def _lists(tx: Tx) -> dict[str, list[Faces]]:
    return _ENTERED.setdefault(tx, _Entered()).lists


@contextmanager
def entering(tx: Tx, **given: Iterable[Faces] | Mapping[str, Faces] | None) -> Iterator[None]:
    """Enter each field's lists for the rolls below; once the outermost block is done, refuse
    any list no roll took. A mapping is by creature id (`resistance_faces: {"vesna": [3]}`)."""
    entered = _ENTERED.setdefault(tx, _Entered())
    lists = entered.lists
    for field, value in given.items():
        if isinstance(value, Mapping):
            for cid, faces in value.items():
                lists.setdefault(f"{field}[{cid}]", []).append(tuple(faces))
        elif value is not None:
            lists.setdefault(field, []).extend(tuple(f) for f in value)
    entered.depth += 1
    try:
        yield
    finally:
        entered.depth -= 1
    if entered.depth:
        return
    left = {name: faces for name, faces in lists.items() if faces}
    lists.clear()
    if left:
        name = next(iter(left))
        raise RuleError(
            "dice/unused-faces",
            f"{name} was entered but no such roll was made: {_why(name)}",
            allowed=f"leave {name.split('[')[0]} out unless that roll comes",
        )


def _why(name: str) -> str:
    if name.startswith("mirror_faces"):
        return "no attack roll hit a creature with Mirror Image duplicates left"
    if name.startswith("resistance_faces"):
        return "that creature took no damage its Resistance spell reduces (of the chosen type, once per turn)"
    return "the roll never came"


def take(tx: Tx, name: str) -> Faces | None:
    """The next list entered for `name`, or None for the service to roll."""
    queue = _lists(tx).get(name)
    return queue.pop(0) if queue else None


def keep(tx: Tx, prefix: str) -> dict[str, Faces]:
    """Take every list still entered under `prefix` (by creature id), for a later command to
    roll with (a hit's damage held in a reaction window)."""
    lists = _lists(tx)
    held = {}
    for name in [n for n in lists if n.startswith(prefix + "[") and lists[n]]:
        held[name[len(prefix) + 1 : -1]] = lists[name].pop(0)
    return held
