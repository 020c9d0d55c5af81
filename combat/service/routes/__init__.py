"""The service's routes, one module per resource."""

from combat.service.routes import bestiary, commands, encounters, history, meta, reference, tokens

__all__ = ["ROUTES"]

ROUTES = [*encounters.ROUTES, *tokens.ROUTES, *commands.ROUTES, *history.ROUTES, *meta.ROUTES, *reference.ROUTES, *bestiary.ROUTES]
