"""The bestiary: stat blocks a GM can add to a fight by name (add_creature)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import get
from litestar.params import PathParameter, QueryParameter

from combat.bestiary import library
from combat.bestiary.model import StatBlock
from combat.kernel.errors import RuleError
from combat.service.errors import ApiError, documented

__all__ = ["ROUTES", "BestiaryEntry"]


class BestiaryEntry(msgspec.Struct, kw_only=True):
    name: str
    cr: str
    size: str
    type: str
    ac: int
    hp: int
    source: str


@get("/bestiary", sync_to_thread=False, tags=["bestiary"], operation_id="listBestiary", responses=documented(400))
def list_bestiary(
    q: Annotated[str, QueryParameter(max_length=200, description="words of the name or type")] = "",
) -> list[BestiaryEntry]:
    """Creatures whose name or type holds every word of `q` (all of them without it), by name:
    the SRD 5.2's and those imported into the local store."""
    return [
        BestiaryEntry(name=b.name, cr=b.cr, size=b.size, type=b.type, ac=b.ac, hp=b.hp, source=b.source)
        for b in library.search(q)
    ]


@get(
    "/bestiary/{name:str}", sync_to_thread=False, tags=["bestiary"], operation_id="showStatBlock", responses=documented(400, 404)
)
def show_stat_block(
    name: Annotated[str, PathParameter(max_length=200, description="the creature's name, in any case")],
) -> StatBlock:
    """One creature's full stat block, found by name in any case (the shape add_creature also takes)."""
    try:
        return library.find(name)
    except RuleError as exc:
        raise ApiError(404, exc.code, exc.message, allowed=exc.allowed) from None


ROUTES = [list_bestiary, show_stat_block]
