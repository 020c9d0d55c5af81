"""The SRD 5.2 spells: what a caster's sheet and a stat block's Spellcasting name."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import get
from litestar.params import PathParameter, QueryParameter

from combat.kernel.errors import RuleError
from combat.service.errors import ApiError, documented
from combat.spells import library
from combat.spells.model import Spell

__all__ = ["ROUTES", "SpellEntry"]


class SpellEntry(msgspec.Struct, kw_only=True):
    name: str
    level: int
    school: str
    casting_time: str
    concentration: bool
    damage_types: tuple[str, ...]
    classes: tuple[str, ...]
    automation: str
    reviewed: bool = False  # its entry was checked against the SRD text; False: the draft, not reviewed


@get("/spells", sync_to_thread=False, tags=["spells"], operation_id="listSpells", responses=documented(400))
def list_spells(
    q: Annotated[str, QueryParameter(max_length=200, description="words of the name, school, damage type or class")] = "",
    level: Annotated[int | None, QueryParameter(ge=0, le=9, description="only this level (0: cantrips)")] = None,
    cls: Annotated[str | None, QueryParameter(name="class", max_length=40, description="only this class's spells")] = None,
) -> list[SpellEntry]:
    """Spells matching every word of `q` (all 339 without it), by name: `fire` lists the
    spells named for fire and those dealing Fire damage."""
    return [
        SpellEntry(
            name=s.name,
            level=s.level,
            school=s.school,
            casting_time=s.casting_time_text or s.casting_time,
            concentration=s.concentration,
            damage_types=tuple(dict.fromkeys((*s.damage_types, *(t for d in s.damage for t in d.types)))),
            classes=s.classes,
            automation=s.automation,
            reviewed=s.review is not None,
        )
        for s in library.search(q, level=level, cls=cls)
    ]


@get("/spells/{name:str}", sync_to_thread=False, tags=["spells"], operation_id="showSpell", responses=documented(400, 404))
def show_spell(name: Annotated[str, PathParameter(max_length=200, description="the spell's name, in any case")]) -> Spell:
    """One spell whole: its fields (damage by slot, save, condition...), what the GM applies
    by hand (`manual`) and the SRD's text."""
    try:
        return library.find(name)
    except RuleError as exc:
        raise ApiError(404, exc.code, exc.message, allowed=exc.allowed) from None


ROUTES = [list_spells, show_spell]
