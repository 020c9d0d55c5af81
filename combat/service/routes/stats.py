"""Statistics across a campaign's fights and of one encounter (docs/stats.md).

A campaign's GM token (or the admin) reads everything, from the read model's tables; a
campaign's player token reads its own character's numbers, computed from each fight's log as
that player may read it (combat.stats.reads: every event type's hidden-information declaration
applies, so no hidden monster's numbers). An encounter's tokens read that encounter the same
way: its GM everything, a player or viewer what their grant shows.
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import Request, get
from litestar.di import NamedDependency
from litestar.params import QueryParameter

from combat.campaigns.records import same_name
from combat.service.dependencies import Service
from combat.service.routes.campaigns import CampaignId, campaign_access
from combat.service.routes.operation import operation
from combat.stats.answers import Scope, Stats
from combat.stats.reads import PlayerReader
from combat.store.tokens import Grant

__all__ = ["ROUTES"]

_TAGS = ["stats"]


@operation(get, "/campaigns/{campaign_id:str}/stats", "getCampaignStats", (400, 401, 403, 404), tags=_TAGS)
def campaign_stats(
    request: Request,
    campaign_id: CampaignId,
    service: NamedDependency[Service],
    character: Annotated[str | None, QueryParameter(max_length=80, description="one character, by name (GM only)")] = None,
) -> Stats:
    """The campaign's fights (not practice fights or forks): per character damage dealt and
    taken, hits, misses, criticals, the d20's faces and a fit against a fair die, spell slots,
    turns; the rulings undone and amended. A player's token: their own character, without
    any hidden creature's numbers."""
    access = campaign_access(request, service, campaign_id)
    stats = service.encounters.stats
    if access.gm:
        return stats.gm(Scope(campaign=str(access.campaign), character=character))
    mine = access.character or ""

    def reader(_: UUID, cast: list[dict[str, Any]]) -> PlayerReader:
        return PlayerReader(frozenset(c["combatant"] for c in cast if same_name(c["character"] or "", mine)))

    return stats.player(Scope(campaign=str(access.campaign), character=access.character), reader)


@operation(get, "/encounters/{encounter_id:str}/stats", "getEncounterStats", (400, 401, 403, 404), tags=_TAGS)
def encounter_stats(grant: NamedDependency[Grant], service: NamedDependency[Service]) -> Stats:
    """One encounter's numbers, as the token may see them (a hidden creature's left out)."""
    stats = service.encounters.stats
    scope = Scope(encounter=str(grant.encounter_id))
    if grant.role == "gm":
        return stats.gm(scope)
    return stats.player(scope, lambda _, __: grant)


ROUTES = [campaign_stats, encounter_stats]
