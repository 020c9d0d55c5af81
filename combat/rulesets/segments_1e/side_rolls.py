"""Which sides roll a d6 now (for surprise or for group initiative): the one named, or every
side that has not rolled yet; entered faces belong to one named side."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from combat.kernel.errors import RuleError

__all__ = ["sides_to_roll"]


def sides_to_roll(
    area: str,
    named: str | None,
    everyone: Sequence[str],
    rolled: Collection[str],
    faces: tuple[int, ...] | None,
    *,
    unknown: str,
    already: str,
) -> list[str]:
    """`unknown` and `already` are the messages for a side not in the fight or one that has
    rolled, with `{side}` where its name goes."""
    if named is not None:
        if named not in everyone:
            raise RuleError(f"{area}/unknown-side", unknown.format(side=named), allowed=", ".join(everyone))
        if named in rolled:
            raise RuleError(
                f"{area}/already-rolled", already.format(side=named), allowed=", ".join(s for s in everyone if s not in rolled)
            )
        return [named]
    chosen = [s for s in everyone if s not in rolled]
    if faces is not None and len(chosen) > 1:
        raise RuleError(
            "dice/whose-faces",
            f"faces were entered but {len(chosen)} sides still roll",
            allowed="name the side whose die was entered",
        )
    return chosen
