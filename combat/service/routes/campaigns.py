"""Campaigns: a party of characters and the encounters they fight in, behind a credential of
their own.

Creating a campaign (the credential that may create encounters) gives its GM's token. That
token reaches the campaign's characters (save, replace, build, import, read, rest, release),
creates the campaign's encounters (their GM token comes back, as from POST /encounters), and
issues, lists and revokes the campaign's tokens: a player's reads one character. A token of
another campaign or of an encounter opens nothing here (403). What a fight does to its
characters is carried to them by the carry-over follower (docs/campaigns.md).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec
from litestar import Request, Response, delete, get, post, put
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody, PathParameter, QueryParameter

from combat.campaigns.party import Campaigns, Roster
from combat.campaigns.party_rest import PartyRest, rest_party
from combat.campaigns.records import StoredCharacter, same_name
from combat.characters.sheet import CharacterSheet
from combat.service.admission import ADMIN
from combat.service.auth import CAMPAIGN_ROLES, bearer_token
from combat.service.dependencies import Service
from combat.service.errors import ApiError
from combat.service.logging import annotate
from combat.service.messages import CreateEncounter, EncounterOpened
from combat.service.routes.operation import operation
from combat.service.routes.tokens import revoked

__all__ = [
    "ROUTES",
    "Access",
    "BuildRequest",
    "RestRequest",
    "RestDone",
    "Imported",
    "CampaignOpened",
    "campaign_access",
    "admin_access",
]

Name = Annotated[str, PathParameter(max_length=80, description="the character's name, in any case")]
CampaignId = Annotated[str, PathParameter(description="the campaign's id, from POST /campaigns")]


class CreateCampaign(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    name: str


class CampaignOpened(msgspec.Struct, kw_only=True):
    id: UUID
    name: str
    gm_token: str  # shown once: the service keeps only its hash
    gm_token_id: str


class CampaignEncounter(CreateEncounter, kw_only=True, forbid_unknown_fields=True):
    practice: bool = False  # its outcome is not carried to the characters


class CampaignTokenRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    role: Literal["gm", "player"]
    name: str = ""
    character: str | None = None  # a player's: the one character of the campaign it reads


class CampaignTokenIssued(msgspec.Struct, kw_only=True):
    token: str  # shown once
    token_id: str
    campaign_id: UUID
    role: Literal["gm", "player"]
    name: str
    character: str | None = None


class CampaignTokenInfo(msgspec.Struct, kw_only=True):
    token_id: str
    role: Literal["gm", "player"]
    name: str
    character: str | None = None
    active: bool


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
    save: bool = False  # also store it in the campaign


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


class Access(msgspec.Struct, frozen=True, kw_only=True):
    """Who is asking, in one campaign: its GM (or the server's admin), or a player who reads one character."""

    campaign: UUID
    gm: bool
    character: str | None = None  # a player's

    def require_gm(self, what: str) -> None:
        if not self.gm:
            raise ApiError(
                403,
                "auth/gm-only",
                f"only the campaign's GM may {what}; this is a player's token",
                allowed="the campaign's GM token",
            )

    def require_reads(self, name: str) -> None:
        if not self.gm and not same_name(name, self.character or ""):
            raise ApiError(
                403,
                "auth/not-your-character",
                f"this token gives no access to {name[:80]}",
                allowed="the campaign's GM token, or a player token of that character",
            )


def parse_campaign_id(value: str) -> UUID:
    try:
        return UUID(value)
    except ValueError:
        raise ApiError(
            400, "campaign/bad-id", f"'{value[:80]}' is not a campaign id", allowed="the id returned by POST /campaigns (a UUID)"
        ) from None


def admin_access(request: Request, service: Service, campaign: UUID) -> Access:
    """The server's admin (its admin token, or anyone on a loopback-only server that was sent
    no token at all): the GM of every campaign. A token that is not the admin's is never
    passed over for the open door: it is read as what it is."""
    credential = service.admission.credential(request)
    if credential != ADMIN and bearer_token(request) is not None:
        raise ApiError(
            403,
            "auth/other-campaign",
            "the token belongs to another campaign or an encounter",
            allowed="the campaign's GM token (from POST /campaigns), or the server's admin token",
        )
    return Access(campaign=campaign, gm=True)


def campaign_access(request: Request, service: Service, campaign_id: str) -> Access:
    """The request's access to a campaign: the admin's, its GM token's or its player token's; else 401 or 403."""
    campaign = parse_campaign_id(campaign_id)
    annotate(request, campaign=campaign)
    service.encounters.campaigns.campaign(campaign)  # 404 for an unknown one
    token = bearer_token(request)
    admin = service.admission.admin_token
    if token is None or (admin and token == admin):
        return admin_access(request, service, campaign)
    try:
        grant = service.tokens.scope_grant(request, campaign)
    except ApiError as refused:
        if refused.code == "auth/other-encounter":
            raise ApiError(
                403,
                "auth/other-campaign",
                "the token belongs to another campaign or an encounter",
                allowed="the campaign's GM token (from POST /campaigns), or a player token it issued",
            ) from None
        raise
    if grant.role == CAMPAIGN_ROLES["gm"]:
        return Access(campaign=campaign, gm=True)
    if grant.role == CAMPAIGN_ROLES["player"]:
        return Access(campaign=campaign, gm=False, character=next(iter(grant.combatants), None))
    raise ApiError(403, "auth/other-campaign", "an encounter's token opens no campaign", allowed="the campaign's own token")


# -- what both the campaigns' routes and the admin's /characters routes do ----------------


def roster_of(campaigns: Campaigns, access: Access) -> Roster:
    campaigns.caught_up()
    roster = campaigns.roster(access.campaign)
    if access.gm:
        return roster
    mine = [c for c in roster.characters if same_name(c.name, access.character or "")]
    return Roster(campaign=roster.campaign, characters=mine)


def character_of(campaigns: Campaigns, access: Access, name: str) -> StoredCharacter:
    access.require_reads(name)
    campaigns.caught_up()
    return campaigns.get(access.campaign, name)


def save(campaigns: Campaigns, access: Access, sheet: CharacterSheet) -> StoredCharacter:
    access.require_gm("store characters")
    return campaigns.save(access.campaign, sheet)


def replace(campaigns: Campaigns, access: Access, name: str, sheet: CharacterSheet) -> StoredCharacter:
    access.require_gm("store characters")
    if not same_name(name, sheet.name):
        raise ApiError(
            422,
            "character/name-mismatch",
            f"the path names {name[:80]!r} but the sheet is {sheet.name[:80]!r}",
            allowed="the same name in the path and the sheet (POST a new character to rename)",
        )
    campaigns.get(access.campaign, name)  # 404 for a character not there yet: PUT replaces
    return campaigns.save(access.campaign, sheet)


def build(campaigns: Campaigns, access: Access, data: BuildRequest) -> CharacterSheet:
    access.require_gm("build characters")
    from combat.characters.build import build_sheet

    fields = msgspec.structs.asdict(data)
    save = fields.pop("save")
    # The request's fields are build_sheet's arguments, by name: one the request gains that
    # build_sheet lacks fails loudly instead of being dropped by a hand-kept list.
    sheet = build_sheet(**fields)
    if save:
        campaigns.save(access.campaign, sheet)
    return sheet


def import_(campaigns: Campaigns, access: Access, data: dict[str, Any], save: bool) -> Imported:
    access.require_gm("import characters")
    from combat.characters.foundry import import_actor

    sheet, not_mapped = import_actor(data)
    if save:
        campaigns.save(access.campaign, sheet)
    return Imported(sheet=sheet, not_mapped=not_mapped, saved=save)


def rest(campaigns: Campaigns, access: Access, name: str, data: RestRequest) -> RestDone:
    access.require_gm("give rests")
    stored, done = campaigns.rest(
        access.campaign, name, data.kind, hit_dice=data.hit_dice, faces=tuple(data.faces) if data.faces else None
    )
    return RestDone(character=stored, healed=done.healed, hit_dice_rolled=[d.face for d in done.hit_dice])


def release(campaigns: Campaigns, access: Access, name: str) -> StoredCharacter:
    access.require_gm("release characters")
    return campaigns.release(access.campaign, name)


# -- routes ------------------------------------------------------------------------------

_TAGS = ["campaigns"]
_READS = (400, 401, 403, 404)  # the errors of any route of a campaign
_WRITES = (*_READS, 422)


@operation(post, "/campaigns", "createCampaign", (401, 422, 429), tags=_TAGS, status_code=201)
def create_campaign(request: Request, data: JSONBody[CreateCampaign], service: NamedDependency[Service]) -> CampaignOpened:
    """Create a campaign. The reply holds its id and its GM's token (shown once). A server
    reachable beyond its own machine asks for its admin token here."""
    credential = service.admission.credential(request)
    with service.quota_slot(credential):
        campaign = service.encounters.campaigns.create(data.name)
    token, grant = service.tokens.issue_campaign(campaign.id, "gm", created_by=credential)
    return CampaignOpened(id=campaign.id, name=campaign.name, gm_token=token, gm_token_id=grant.token_id)


@operation(get, "/campaigns/{campaign_id:str}", "getCampaign", _READS, tags=_TAGS)
def get_campaign(request: Request, campaign_id: CampaignId, service: NamedDependency[Service]) -> Roster:
    """The campaign and its characters as they stand now (a player's token: their own only).
    A stored log that cannot be read is listed under `unreadable`, never failing the rest."""
    return roster_of(service.encounters.campaigns, campaign_access(request, service, campaign_id))


@operation(get, "/campaigns/{campaign_id:str}/characters", "listCampaignCharacters", _READS, tags=_TAGS)
def list_campaign_characters(request: Request, campaign_id: CampaignId, service: NamedDependency[Service]) -> Roster:
    """The campaign's characters by name, with what each carries and the fight it is in."""
    return roster_of(service.encounters.campaigns, campaign_access(request, service, campaign_id))


@operation(post, "/campaigns/{campaign_id:str}/characters", "saveCampaignCharacter", _WRITES, tags=_TAGS, status_code=201)
def save_campaign_character(
    request: Request, campaign_id: CampaignId, data: JSONBody[CharacterSheet], service: NamedDependency[Service]
) -> StoredCharacter:
    """Store a sheet: a new character, or a new sheet for one (what it carries stays)."""
    return save(service.encounters.campaigns, campaign_access(request, service, campaign_id), data)


@operation(get, "/campaigns/{campaign_id:str}/characters/{name:str}", "getCampaignCharacter", _READS, tags=_TAGS)
def get_campaign_character(
    request: Request, campaign_id: CampaignId, name: Name, service: NamedDependency[Service]
) -> StoredCharacter:
    """One character: its sheet, what it carries, and the fight it is in."""
    return character_of(service.encounters.campaigns, campaign_access(request, service, campaign_id), name)


@operation(put, "/campaigns/{campaign_id:str}/characters/{name:str}", "replaceCampaignCharacter", _WRITES, tags=_TAGS)
def replace_campaign_character(
    request: Request, campaign_id: CampaignId, name: Name, data: JSONBody[CharacterSheet], service: NamedDependency[Service]
) -> StoredCharacter:
    """A new sheet for a stored character (a level gained): what it carries stays."""
    return replace(service.encounters.campaigns, campaign_access(request, service, campaign_id), name, data)


@operation(post, "/campaigns/{campaign_id:str}/characters/build", "buildCampaignCharacter", _WRITES, tags=_TAGS, status_code=200)
def build_campaign_character(
    request: Request, campaign_id: CampaignId, data: JSONBody[BuildRequest], service: NamedDependency[Service]
) -> CharacterSheet:
    """A sheet with the SRD 5.2's numbers for one class and level; with `save: true` stored too."""
    return build(service.encounters.campaigns, campaign_access(request, service, campaign_id), data)


@operation(
    post, "/campaigns/{campaign_id:str}/characters/import", "importCampaignCharacter", _WRITES, tags=_TAGS, status_code=200
)
def import_campaign_character(
    request: Request,
    campaign_id: CampaignId,
    data: JSONBody[dict[str, Any]],
    service: NamedDependency[Service],
    save: Annotated[bool, QueryParameter(description="also store it in the campaign")] = False,
) -> Imported:
    """A Foundry VTT dnd5e character actor read into a sheet; with `?save=true` stored too."""
    return import_(service.encounters.campaigns, campaign_access(request, service, campaign_id), data, save)


@operation(
    post,
    "/campaigns/{campaign_id:str}/characters/{name:str}/rest",
    "restCampaignCharacter",
    (*_READS, 409, 422),
    tags=_TAGS,
    status_code=200,
)
def rest_campaign_character(
    request: Request, campaign_id: CampaignId, name: Name, data: JSONBody[RestRequest], service: NamedDependency[Service]
) -> RestDone:
    """A Short or a Long Rest; refused (409 rest/in-fight) while the character is in a fight."""
    return rest(service.encounters.campaigns, campaign_access(request, service, campaign_id), name, data)


class PartyRestRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    kind: Literal["short", "long"]


@operation(post, "/campaigns/{campaign_id:str}/rest", "restCampaignParty", _WRITES, tags=_TAGS, status_code=200)
def rest_campaign_party(
    request: Request, campaign_id: CampaignId, data: JSONBody[PartyRestRequest], service: NamedDependency[Service]
) -> PartyRest:
    """The whole party rests: every character not in a fight takes a Short or Long Rest (a
    Short Rest spends no Hit Point Dice), and the reply says what came back to each (HP, spell
    slots, features) and who did not rest and why."""
    access = campaign_access(request, service, campaign_id)
    access.require_gm("give rests")
    return rest_party(service.encounters.campaigns, access.campaign, data.kind)


@operation(
    post,
    "/campaigns/{campaign_id:str}/characters/{name:str}/release",
    "releaseCampaignCharacter",
    (*_READS, 409),
    tags=_TAGS,
    status_code=200,
)
def release_campaign_character(
    request: Request, campaign_id: CampaignId, name: Name, service: NamedDependency[Service]
) -> StoredCharacter:
    """Take a character out of the fight it is in (what that fight did so far stays); it may
    then rest or join another fight."""
    return release(service.encounters.campaigns, campaign_access(request, service, campaign_id), name)


@operation(
    post, "/campaigns/{campaign_id:str}/encounters", "createCampaignEncounter", (*_WRITES, 429), tags=_TAGS, status_code=201
)
def create_campaign_encounter(
    request: Request, campaign_id: CampaignId, data: JSONBody[CampaignEncounter], service: NamedDependency[Service]
) -> EncounterOpened:
    """An encounter of the campaign: it adds the campaign's characters by name, and what it
    does to them is carried back (unless `practice`). The reply holds the encounter's GM token."""
    access = campaign_access(request, service, campaign_id)
    access.require_gm("create its encounters")
    if not data.name.strip() or len(data.name) > 200:
        raise ApiError(422, "encounter/bad-name", "an encounter needs a name", allowed="1 to 200 characters")
    credential = f"campaign:{access.campaign}"
    with service.quota_slot(credential):
        encounter_id = service.encounters.create(
            data.ruleset, data.name, seed=data.seed, settings=data.settings, campaign=access.campaign, practice=data.practice
        )
    annotate(request, encounter=encounter_id)
    return service.opened(encounter_id, credential)


@operation(post, "/campaigns/{campaign_id:str}/tokens", "issueCampaignToken", _WRITES, tags=_TAGS, status_code=201)
def issue_campaign_token(
    request: Request, campaign_id: CampaignId, data: JSONBody[CampaignTokenRequest], service: NamedDependency[Service]
) -> CampaignTokenIssued:
    """A token of the campaign: a co-GM's, or a player's that reads one character (shown once)."""
    access = campaign_access(request, service, campaign_id)
    access.require_gm("issue its tokens")
    character = None
    if data.role == "player" and data.character:
        character = service.encounters.campaigns.get(access.campaign, data.character).name  # 404 for one not there
    token, grant = service.tokens.issue_campaign(access.campaign, data.role, data.name, character)
    return CampaignTokenIssued(
        token=token, token_id=grant.token_id, campaign_id=access.campaign, role=data.role, name=grant.name, character=character
    )


@operation(get, "/campaigns/{campaign_id:str}/tokens", "listCampaignTokens", _READS, tags=_TAGS)
def list_campaign_tokens(request: Request, campaign_id: CampaignId, service: NamedDependency[Service]) -> list[CampaignTokenInfo]:
    """The campaign's tokens, for its GM: ids, roles, names; never the secrets."""
    from datetime import UTC, datetime

    access = campaign_access(request, service, campaign_id)
    access.require_gm("list its tokens")
    now = datetime.now(UTC)
    roles = {v: k for k, v in CAMPAIGN_ROLES.items()}
    return [
        CampaignTokenInfo(
            token_id=row.grant.token_id,
            role=roles[row.grant.role],  # type: ignore[arg-type]
            name=row.grant.name,
            character=next(iter(row.grant.combatants), None),
            active=row.refusal(now) is None,
        )
        for row in service.tokens.store.of_encounter(access.campaign)
        if row.grant.role in roles
    ]


@operation(
    delete, "/campaigns/{campaign_id:str}/tokens/{token_id:str}", "revokeCampaignToken", _READS, tags=_TAGS, status_code=204
)
def revoke_campaign_token(
    request: Request, campaign_id: CampaignId, token_id: FromPath[str], service: NamedDependency[Service]
) -> Response[None]:
    """Revoke one of the campaign's tokens: refused from the next request on, on every process."""
    access = campaign_access(request, service, campaign_id)
    access.require_gm("revoke its tokens")
    return revoked(service, access.campaign, token_id, "campaign")


ROUTES = [
    create_campaign,
    get_campaign,
    list_campaign_characters,
    save_campaign_character,
    build_campaign_character,
    import_campaign_character,
    get_campaign_character,
    replace_campaign_character,
    rest_campaign_character,
    rest_campaign_party,
    release_campaign_character,
    create_campaign_encounter,
    issue_campaign_token,
    list_campaign_tokens,
    revoke_campaign_token,
]
