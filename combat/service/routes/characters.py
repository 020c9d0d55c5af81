"""The party: characters stored by the service, built from the SRD, imported from Foundry VTT,
rested, and added to fights by name (`add_character`).

Reading and writing them needs the credential that may create encounters (open on loopback,
the admin token beyond it); a player token of an encounter also reads the sheet of its own
character there, and a GM token the sheets of that encounter's characters.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from litestar import Request, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, PathParameter, QueryParameter

from combat.app.party import StoredCharacter
from combat.characters.sheet import CharacterSheet
from combat.fivee.characters import character
from combat.service.dependencies import Service
from combat.service.errors import ApiError, documented

__all__ = ["ROUTES", "BuildRequest", "RestRequest", "RestDone", "Imported"]

Name = Annotated[str, PathParameter(max_length=80, description="the character's name, in any case")]


class BuildRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A level N character of one SRD 5.2 class, as `combat characters build` makes it."""

    name: str
    class_name: str = msgspec.field(name="class")
    level: Annotated[int, msgspec.Meta(ge=1, le=20)]
    scores: str  # "STR 8 DEX 14 CON 12 INT 16 WIS 12 CHA 10"
    species: str | None = None
    size: str | None = None
    armor: str | None = None
    shield: bool = False
    weapons: list[str] = []
    spells: list[str] = []
    skills: list[str] = []
    subclass: str | None = None
    save: bool = False  # also store it in the party


class RestRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    kind: Literal["short", "long"]
    hit_dice: Annotated[int, msgspec.Meta(ge=0, le=40)] = 0  # Hit Point Dice to spend on a Short Rest
    faces: list[Annotated[int, msgspec.Meta(ge=1, le=1000)]] = []  # those dice as rolled at the table; none: the service rolls


class RestDone(msgspec.Struct, kw_only=True):
    character: StoredCharacter
    healed: int
    hit_dice_rolled: list[int]


class Imported(msgspec.Struct, kw_only=True):
    sheet: CharacterSheet
    not_mapped: list[str]  # what the Foundry actor holds that the sheet does not
    saved: bool


def _may_manage(request: Request, service: Service) -> None:
    service.admission.credential(request)  # 401 beyond loopback without the admin token


def _may_read(request: Request, service: Service, name: str) -> None:
    """The creating credential, or a token of an encounter where this character plays: a
    player's own character, any of them for the GM."""
    try:
        _may_manage(request, service)
        return
    except ApiError as refused:
        grant = service.tokens.any_grant(request)
        if grant is None:
            raise refused
        state = service.encounters.state(grant.encounter_id)
        mine = [cid for cid in state.combatants if grant.role == "gm" or cid in grant.combatants]
        stored = service.encounters.party.get(name).name
        if not any((held := character(state, cid)) is not None and held.character == stored for cid in mine):
            raise ApiError(
                403,
                "auth/not-your-character",
                f"this token's encounter gives no access to {stored}",
                allowed="the admin token, or a player token of an encounter where this character is yours",
            ) from None


@get("/characters", sync_to_thread=True, tags=["characters"], operation_id="listCharacters", responses=documented(401))
def list_characters(request: Request, service: NamedDependency[Service]) -> list[StoredCharacter]:
    """Every character in the party, by name, as they stand now (what their last fight left
    them, or their last rest)."""
    _may_manage(request, service)
    party = service.encounters.party
    return [party.settle(c.name, service.encounters) for c in party.all()]


@post(
    "/characters",
    status_code=201,
    sync_to_thread=True,
    tags=["characters"],
    operation_id="saveCharacter",
    responses=documented(401, 422),
)
def save_character(request: Request, data: JSONBody[CharacterSheet], service: NamedDependency[Service]) -> StoredCharacter:
    """Store a character sheet in the party: a new character, or a new sheet for one (a level
    gained), its HP, spent slots and uses kept."""
    _may_manage(request, service)
    return service.encounters.party.save(data)


@get(
    "/characters/{name:str}",
    sync_to_thread=True,
    tags=["characters"],
    operation_id="getCharacter",
    responses=documented(401, 403, 404),
)
def get_character(request: Request, name: Name, service: NamedDependency[Service]) -> StoredCharacter:
    """One character: its sheet and what it carries (HP, spent slots, used features, Hit Point Dice)."""
    _may_read(request, service, name)
    return service.encounters.party.settle(name, service.encounters)


@post(
    "/characters/build",
    status_code=200,
    sync_to_thread=True,
    tags=["characters"],
    operation_id="buildCharacter",
    responses=documented(401, 422),
)
def build_character(request: Request, data: JSONBody[BuildRequest], service: NamedDependency[Service]) -> CharacterSheet:
    """A sheet with the SRD 5.2's numbers for one class and level (HP, proficiency, saves,
    slots, attacks, features); with `save: true` it is stored in the party too."""
    _may_manage(request, service)
    from combat.characters.build import build_sheet

    sheet = build_sheet(
        name=data.name,
        class_name=data.class_name,
        level=data.level,
        scores=data.scores,
        species=data.species,
        size=data.size,
        armor=data.armor,
        shield=data.shield,
        weapons=data.weapons,
        spells=data.spells,
        skills=data.skills,
        subclass=data.subclass,
    )
    if data.save:
        service.encounters.party.save(sheet)
    return sheet


@post(
    "/characters/import",
    status_code=200,
    sync_to_thread=True,
    tags=["characters"],
    operation_id="importCharacter",
    responses=documented(401, 422),
)
def import_character(
    request: Request,
    data: JSONBody[dict[str, Any]],
    service: NamedDependency[Service],
    save: Annotated[bool, QueryParameter(description="also store it in the party")] = False,
) -> Imported:
    """A Foundry VTT dnd5e character actor (its "Export Data" JSON) read into a sheet, with
    what it holds that the sheet does not; with `?save=true` stored in the party too."""
    _may_manage(request, service)
    from combat.characters.foundry import import_actor

    sheet, not_mapped = import_actor(data)
    if save:
        service.encounters.party.save(sheet)
    return Imported(sheet=sheet, not_mapped=not_mapped, saved=save)


@post(
    "/characters/{name:str}/rest",
    status_code=200,
    sync_to_thread=True,
    tags=["characters"],
    operation_id="restCharacter",
    responses=documented(401, 404, 422),
)
def rest_character(request: Request, name: Name, data: JSONBody[RestRequest], service: NamedDependency[Service]) -> RestDone:
    """A Short Rest (Hit Point Dice spent, features that recover on one) or a Long Rest
    (every HP, Hit Point Die, slot and feature back)."""
    _may_manage(request, service)
    stored, rest = service.encounters.party.rest(
        name, data.kind, service.encounters, hit_dice=data.hit_dice, faces=tuple(data.faces) if data.faces else None
    )
    return RestDone(character=stored, healed=rest.healed, hit_dice_rolled=[d.face for d in rest.hit_dice])


ROUTES = [list_characters, save_character, build_character, import_character, get_character, rest_character]
