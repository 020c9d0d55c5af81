"""Dice notation behind a small adapter over the `d20` library.

A roll either draws its faces from a seeded generator (so a demo is reproducible) or takes
the faces a person entered from physical dice. Either way the result lists every die face,
so the log can be replayed without rolling again.

`d20` rolls with the module-level `random`; the adapter swaps in its own face source for
the duration of one roll, under a lock, so concurrent rolls never share faces. Reading a
notation takes the same lock: d20 keeps the trees it parsed in a cache (a cachetools
LFUCache) that is not safe across threads, and parsing outside the lock gave a rare
`KeyError` under load (about 1 command in 6,000 with 8 server processes; issue 25).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import random
import re
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import msgspec

from combat.kernel.errors import RuleError

__all__ = ["DieFace", "Roll", "roll", "check_notation", "double_dice", "has_dice", "rng_for", "kept_d20"]

if TYPE_CHECKING:
    import d20

_lock = threading.Lock()


@functools.cache
def _d20() -> ModuleType:
    """d20, imported on the first roll rather than with the engine. It builds its Lark parser
    when imported, which was most of a `combat` call's start-up; lark can keep the built
    parser in a file (its `cache` option) but d20 does not ask for it, so d20 is imported with
    that option set, to a file in the user's cache directory named for the grammar and lark's
    version. Where that file can't be written or read, d20 builds its parser as usual."""
    import lark

    build = lark.Lark
    try:
        cache = _grammar_cache(lark.__version__)
        lark.Lark = functools.partial(build, cache=str(cache)) if cache else build  # type: ignore[misc, call-arg, assignment]
        import d20.expression  # binds the parser d20.diceast builds
    except Exception:  # an unreadable cache file: build the parser as d20 would
        lark.Lark = build  # type: ignore[misc]
        import d20.expression
    finally:
        lark.Lark = build  # type: ignore[misc]
    import d20 as module

    return module


def _grammar_cache(lark_version: str) -> Path | None:
    spec = importlib.util.find_spec("d20")
    if spec is None or not spec.submodule_search_locations:
        return None
    grammar = Path(next(iter(spec.submodule_search_locations))) / "grammar.lark"
    key = hashlib.sha256(grammar.read_bytes() + lark_version.encode()).hexdigest()[:16]
    folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "combat-log"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder / f"d20-parser-{key}.lark" if os.access(folder, os.W_OK) else None


@functools.cache
def _parser() -> d20.Roller:
    return _d20().Roller()


@functools.cache
def _stringifier() -> d20.Stringifier:
    """One for every roll. d20 makes a new one per roll unless given one, and each holds
    itself in a cycle (a table of its own bound methods): in the service that was most of
    what the collector's full passes found, and those passes stall every request in flight."""
    return _d20().MarkdownStringifier()


class DieFace(msgspec.Struct, frozen=True, gc=False):
    """One die as it landed: its size, its face, and whether keep/drop kept it."""

    sides: int
    face: int
    kept: bool = True


class Roll(msgspec.Struct, frozen=True):
    notation: str
    dice: tuple[DieFace, ...]
    total: int
    source: str  # "generated" or "entered"


class _EnteredFaces:
    """Stands in for `random` inside d20 and hands out the entered faces in order."""

    def __init__(self, notation: str, faces: Sequence[int]):
        self.notation = notation
        self.faces = list(faces)
        self.used = 0

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:  # randrange(size): a die of `size` sides, d20 adds one
            sides, low, high = start, 1, start
        else:  # percentile die: randrange(0, 100, 10)
            sides, low, high = 100, start, stop - step
        if self.used >= len(self.faces):
            raise RuleError(
                "dice/too-few-faces",
                f"{self.notation} needs more dice than the {len(self.faces)} face(s) entered",
                allowed=f"enter one face per die rolled by {self.notation}",
            )
        face = self.faces[self.used]
        self.used += 1
        # bool is an int subclass, and d20's percentile die lands only on 0, 10, ... 90.
        if isinstance(face, bool) or not isinstance(face, int) or not low <= face <= high or (face - low) % step:
            raise RuleError(
                "dice/bad-face",
                f"face {face!r} is not possible on a d{sides if stop is None else '%'}",
                allowed=f"a whole number from {low} to {high}" + (f" in steps of {step}" if step != 1 else ""),
            )
        return face - 1 if stop is None else face


class _Generated:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        return self.rng.randrange(start, stop, step)


def rng_for(seed: int, index: int) -> random.Random:
    """The generator for the `index`-th roll of an encounter seeded with `seed`.

    Derived from both numbers (string seeds hash the same in every process), so the
    n-th roll does not depend on how many faces earlier rolls consumed.
    """
    return random.Random(f"combat:{seed}:{index}")


# Far longer than any roll a table makes; d20's parser recurses on nesting, so a longer
# string is refused before it can exhaust the stack.
MAX_NOTATION = 100


# A roll that starts by taking dice away (-1d6, -(1d6)) or rolls no dice at all (0d6): a
# damage roll that heals, or a count that is not a count. Dice subtracted from a roll that
# has its own (Bane's 1d20+5-1d4) are a penalty and stay.
_NEGATIVE_DICE = re.compile(r"^\s*-\s*[(\s]*\d*\s*d|(?<![0-9])0+\s*d", re.IGNORECASE)


def check_notation(notation: str) -> None:
    if len(notation) > MAX_NOTATION:
        raise RuleError(
            "dice/bad-notation",
            f"dice notation of {len(notation)} characters is too long to read",
            allowed=f"at most {MAX_NOTATION} characters, such as 1d20+5, 2d20kh1+3, 2d6+2, 4d6kh3",
        )
    if _NEGATIVE_DICE.search(notation):
        raise RuleError(
            "dice/bad-notation",
            f"dice notation {notation!r} rolls a negative or zero number of dice",
            allowed="a positive count of dice, such as 1d6 or 2d6+2 (subtract a modifier: 1d6-1)",
        )
    try:
        with _lock:
            _parser().parse(notation)
    except _d20().RollSyntaxError as exc:
        raise RuleError(
            "dice/bad-notation",
            f"cannot read dice notation {notation!r}: {exc}",
            allowed="notation such as 1d20+5, 2d20kh1+3, 2d6+2, 4d6kh3",
        ) from None


def roll(notation: str, *, faces: Sequence[int] | None = None, rng: random.Random | None = None) -> Roll:
    """Roll `notation` with entered `faces`, or with `rng` when no faces are given."""
    check_notation(notation)
    if faces is not None:
        source: _EnteredFaces | _Generated = _EnteredFaces(notation, faces)
    elif rng is not None:
        source = _Generated(rng)
    else:
        raise ValueError("roll needs entered faces or a generator")
    d20 = _d20()
    with _lock:
        saved = d20.expression.random
        d20.expression.random = source
        try:
            result = _parser().roll(notation, stringifier=_stringifier())
            total = int(result.total)  # evaluated lazily: a division by zero surfaces here
        except d20.TooManyRolls:
            raise RuleError("dice/too-many", f"{notation} rolls too many dice", allowed="at most 1000 dice") from None
        except d20.RollValueError as exc:  # a 0-sided die, a division by zero
            raise RuleError(
                "dice/impossible",
                f"cannot roll {notation}: {exc}",
                allowed="dice of at least one side and no division by zero, such as 1d6+2 or 1d8/2",
            ) from None
        finally:
            d20.expression.random = saved
    if isinstance(source, _EnteredFaces) and source.used != len(source.faces):
        raise RuleError(
            "dice/too-many-faces",
            f"{notation} rolls {source.used} dice but {len(source.faces)} faces were entered",
            allowed=f"exactly {source.used} face(s) for {notation}",
        )
    dice = tuple(_faces(result.expr))
    return Roll(
        notation=notation,
        dice=dice,
        total=total,
        source="entered" if faces is not None else "generated",
    )


def _faces(node: d20.Number) -> Iterator[DieFace]:
    d20 = _d20()
    if isinstance(node, d20.Die):
        sides = 100 if node.size == "%" else int(node.size)
        for value in node.values:
            yield DieFace(sides=sides, face=int(value.number), kept=bool(node.kept and value.kept))
        return
    for child in node.children:
        yield from _faces(child)
    if isinstance(node, d20.Dice):
        for die in node.values:
            yield from _faces(die)


def kept_d20(dice: Sequence[DieFace]) -> int | None:
    """The natural face of the d20 that counts (after advantage or disadvantage)."""
    for die in dice:
        if die.sides == 20 and die.kept:
            return die.face
    return None


_DICE_TERM = re.compile(r"(\d*)d(\d+)")


def has_dice(notation: str) -> bool:
    """Whether `notation` rolls any die (an Unarmed Strike's "4" does not)."""
    return _DICE_TERM.search(notation) is not None


def double_dice(notation: str) -> str:
    """A critical hit's damage: every dice term rolled twice as many times (2d6+3 -> 4d6+3)."""
    return _DICE_TERM.sub(lambda m: f"{2 * int(m.group(1) or 1)}d{m.group(2)}", notation)
