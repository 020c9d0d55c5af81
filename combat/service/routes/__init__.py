"""The service's routes, one module per resource."""

from combat.service.routes import (
    bestiary,
    campaigns,
    characters,
    commands,
    encounters,
    history,
    meta,
    reference,
    spells,
    stats,
    table,
    tokens,
)

__all__ = ["ROUTES"]

ROUTES = [
    *encounters.ROUTES,
    *tokens.ROUTES,
    *commands.ROUTES,
    *history.ROUTES,
    *meta.ROUTES,
    *bestiary.ROUTES,
    *reference.ROUTES,
    *campaigns.ROUTES,
    *characters.ROUTES,
    *spells.ROUTES,
    *stats.ROUTES,
    *table.ROUTES,
]
