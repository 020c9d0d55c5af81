"""The default campaign's characters, for the server's admin: the routes every store had
before campaigns (a party saved then is this campaign's). They need the credential that may
create encounters (open on loopback, the admin token beyond it); a token of an encounter or
of another campaign opens nothing here. A campaign's own routes are
combat.service.routes.campaigns, which these share their work with.
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, PathParameter, QueryParameter

from combat.campaigns.records import DEFAULT_CAMPAIGN, StoredCharacter
from combat.characters.sheet import CharacterSheet
from combat.service.dependencies import Service
from combat.service.routes import campaigns as shared
from combat.service.routes.campaigns import BuildRequest, Imported, RestDone, RestRequest
from combat.service.routes.operation import operation

__all__ = ["ROUTES"]

_TAGS = ["characters"]

Name = Annotated[str, PathParameter(max_length=80, description="the character's name, in any case")]


def _admin(request: Request, service: Service) -> shared.Access:
    return shared.admin_access(request, service, DEFAULT_CAMPAIGN)


@operation(get, "/characters", "listCharacters", (401, 403), tags=_TAGS)
def list_characters(request: Request, service: NamedDependency[Service]) -> list[StoredCharacter]:
    """The default campaign's characters, by name, as they stand now. A stored log that cannot
    be read is left out here (GET /campaigns/{id} lists it under `unreadable`)."""
    return shared.roster_of(service.encounters.campaigns, _admin(request, service)).characters


@operation(post, "/characters", "saveCharacter", (401, 403, 422), tags=_TAGS, status_code=201)
def save_character(request: Request, data: JSONBody[CharacterSheet], service: NamedDependency[Service]) -> StoredCharacter:
    """Store a character sheet in the default campaign: a new character, or a new sheet for
    one (a level gained), what it carries kept."""
    return shared.save(service.encounters.campaigns, _admin(request, service), data)


@operation(get, "/characters/{name:str}", "getCharacter", (401, 403, 404), tags=_TAGS)
def get_character(request: Request, name: Name, service: NamedDependency[Service]) -> StoredCharacter:
    """One character: its sheet and what it carries (HP, spent slots, used features, Hit Point Dice)."""
    return shared.character_of(service.encounters.campaigns, _admin(request, service), name)


@operation(post, "/characters/build", "buildCharacter", (401, 403, 422), tags=_TAGS, status_code=200)
def build_character(request: Request, data: JSONBody[BuildRequest], service: NamedDependency[Service]) -> CharacterSheet:
    """A sheet with the SRD 5.2's numbers for one class and level (HP, proficiency, saves,
    slots, attacks, features); with `save: true` it is stored in the default campaign too."""
    return shared.build(service.encounters.campaigns, _admin(request, service), data)


@operation(post, "/characters/import", "importCharacter", (401, 403, 422), tags=_TAGS, status_code=200)
def import_character(
    request: Request,
    data: JSONBody[dict[str, Any]],
    service: NamedDependency[Service],
    save: Annotated[bool, QueryParameter(description="also store it in the default campaign")] = False,
) -> Imported:
    """A Foundry VTT dnd5e character actor (its "Export Data" JSON) read into a sheet, with
    what it holds that the sheet does not; with `?save=true` stored too."""
    return shared.import_(service.encounters.campaigns, _admin(request, service), data, save)


@operation(post, "/characters/{name:str}/rest", "restCharacter", (401, 403, 404, 409, 422), tags=_TAGS, status_code=200)
def rest_character(request: Request, name: Name, data: JSONBody[RestRequest], service: NamedDependency[Service]) -> RestDone:
    """A Short Rest (Hit Point Dice spent, features that recover on one) or a Long Rest
    (every HP, Hit Point Die, slot and feature back); refused while the character is in a fight."""
    return shared.rest(service.encounters.campaigns, _admin(request, service), name, data)


ROUTES = [list_characters, save_character, build_character, import_character, get_character, rest_character]
