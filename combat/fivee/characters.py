"""Player characters by sheet: adding one to a fight, and what the sheet keeps during it.

`add_character` puts a character in the fight from its sheet (combat/characters/sheet.py):
its AC, HP, speed, initiative, Constitution save and attacks are computed from the sheet,
and the whole sheet goes into the log (`SheetAttached`, after its `CombatantAdded`), with
what it brings from earlier fights (HP, spent slots, used resources), so a replay never reads
the party store. Named instead of sent whole, the service fills the sheet and that carried
status in from its party store before the command is decided (combat/app/party.py).

During the fight the sheet is what the character's player may claim: the bonuses of its
saves and checks (combat/fivee/bonuses.py), its critical range and extra damage
(combat/fivee/sheet_claims.py) and its limited-use features (combat/fivee/resources.py).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import msgspec

from combat.characters.sheet import CharacterSheet, attack_profiles, checked_sheet, initiative_bonus, save_bonus
from combat.common.setup import named_types, validate_spec
from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import CombatantAdded, CombatantSpec, Event, TurnStarted
from combat.kernel.hidden import Hidden
from combat.kernel.state import EncounterState, with_rules

__all__ = [
    "CharacterStatus",
    "CharacterState",
    "Characters",
    "CharactersSlot",
    "AddCharacter",
    "SheetAttached",
    "character",
    "characters_of",
    "with_character",
    "status_of",
    "RULES",
]


class CharacterStatus(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """What a character carries from one fight to the next and a rest restores."""

    hp: int | None = None  # None: at its maximum
    slots_spent: tuple[int, ...] = ()  # per spell level, from level 1
    pact_spent: int = 0
    resources_used: dict[str, int] = {}  # resource name -> uses spent
    hit_dice_spent: int = 0
    dead: bool = False


class CharacterState(msgspec.Struct, frozen=True, kw_only=True):
    """A character's sheet in the fight and what it has spent of it."""

    sheet: CharacterSheet
    character: str | None = None  # its name in the party store, when it came from there
    slots_spent: tuple[int, ...] = ()
    pact_spent: int = 0
    resources_used: dict[str, int] = {}
    hit_dice_spent: int = 0
    raging: bool = False
    sneak_attack_used: bool = False  # this turn (anyone's): "once per turn"
    slot_turn: tuple[int, str] | None = None  # (round, whose turn) it last expended a slot to cast (one_slot_per_turn.py)


class Characters(msgspec.Struct, frozen=True, kw_only=True):
    sheets: dict[str, CharacterState] = {}


# Unset (and so absent from the state's JSON, equal to a fresh state) until a character joins by sheet.
CharactersSlot = Characters | msgspec.UnsetType

_NONE = Characters()


def characters_of(state: EncounterState) -> Characters:
    # Read on every turn of every fold (see _on_turn_started), so by the slot's own type
    # rather than keeps_fivee: state.py, which declares the slot, imports this module.
    found = getattr(state.rules, "characters", None)
    return found if isinstance(found, Characters) else _NONE


def character(state: EncounterState, cid: str) -> CharacterState | None:
    """The sheet `cid` plays by in this fight, if it joined by one."""
    return characters_of(state).sheets.get(cid)


def with_character(state: EncounterState, cid: str, **changes: Any) -> EncounterState:
    sheets = characters_of(state).sheets
    return with_rules(state, characters=Characters(sheets={**sheets, cid: msgspec.structs.replace(sheets[cid], **changes)}))


def status_of(state: EncounterState, cid: str) -> CharacterStatus:
    """What the character takes away from this fight, as it stands now."""
    found = character(state, cid)
    c = state.combatants[cid]
    if found is None:
        raise RuleError(
            "character/no-sheet", f"{c.name} did not join by a character sheet", allowed="a combatant added with add_character"
        )
    return CharacterStatus(
        hp=None if c.hp == found.sheet.max_hp else c.hp,  # None: at its maximum, as after a Long Rest
        slots_spent=found.slots_spent,
        pact_spent=found.pact_spent,
        resources_used=found.resources_used,
        hit_dice_spent=found.hit_dice_spent,
        dead=c.status == "dead",
    )


# -- commands and events -------------------------------------------------------------------


class AddCharacter(Command, frozen=True, kw_only=True):
    """A player character by its sheet, sent whole or named from the service's party store
    (the service fills in the stored sheet and `status`, what it carries from earlier fights)."""

    gm_only: ClassVar[bool] = True
    service_fields: ClassVar[tuple[str, ...]] = ("status", "stored_as")

    character: str | CharacterSheet
    side: str
    id: str | None = None  # from the name unless given: "Elara Moonwhisper" is elara-moonwhisper
    player: str | None = None
    # Filled in by the service for a character named from its party store: what it carries
    # from earlier fights, and its stored name (where this fight's outcome is carried back).
    status: CharacterStatus | None = None
    stored_as: str | None = None


class SheetAttached(Event, frozen=True, kw_only=True):
    """The character sheet a character added by add_character plays by (follows its CombatantAdded)."""

    combatant: str
    sheet: CharacterSheet
    character: str | None = None  # its name in the party store
    status: CharacterStatus = CharacterStatus()
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("sheet", "status"))  # a creature the GM added by sheet


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:48] or "character"


def spec_of(sheet: CharacterSheet, *, cid: str, side: str, player: str | None, hp: int | None) -> CombatantSpec:
    """The combatant a sheet makes: its numbers computed from the sheet."""
    return CombatantSpec(
        id=cid,
        name=sheet.name,
        kind="pc",
        side=side,
        max_hp=sheet.max_hp,
        hp=hp,
        ac=sheet.ac,
        initiative_bonus=initiative_bonus(sheet),
        speed=sheet.speed,
        size=sheet.size,
        player=player,
        con_save=save_bonus(sheet, "constitution"),
        attacks=attack_profiles(sheet),
        attacks_per_action=sheet.attacks_per_action,
        resistances=sheet.resistances,
        vulnerabilities=sheet.vulnerabilities,
        immunities=sheet.immunities,
    )


def _add_character(tx: Tx, cmd: AddCharacter) -> None:
    if isinstance(cmd.character, str):
        raise RuleError(
            "character/not-found",
            f"no sheet for '{cmd.character}' here: a character is named from the service's party store, which fills its sheet in",
            allowed="the whole sheet, or a name from `combat characters`",
        )
    sheet = checked_sheet(cmd.character)
    status = cmd.status or CharacterStatus()
    if status.dead:
        raise RuleError(
            "character/dead", f"{sheet.name} died in an earlier fight", allowed="a living character (the GM may save a new sheet)"
        )
    spec = spec_of(sheet, cid=cmd.id or _slug(sheet.name), side=cmd.side, player=cmd.player, hp=status.hp)
    validate_spec(tx.state, spec)
    tx.emit(CombatantAdded(combatant=named_types(tx, spec)))
    tx.emit(SheetAttached(combatant=spec.id, sheet=sheet, character=cmd.stored_as, status=status))


def _on_attached(state: EncounterState, e: SheetAttached) -> EncounterState:
    s = e.status
    new = CharacterState(
        sheet=e.sheet,
        character=e.character,
        slots_spent=s.slots_spent,
        pact_spent=s.pact_spent,
        resources_used=s.resources_used,
        hit_dice_spent=s.hit_dice_spent,
    )
    return with_rules(state, characters=Characters(sheets={**characters_of(state).sheets, e.combatant: new}))


def _on_turn_started(state: EncounterState, e: TurnStarted) -> EncounterState:
    """Sneak Attack is "once per turn": anyone's turn, so a new turn of anyone's gives it back."""
    sheets = characters_of(state).sheets
    used = [cid for cid, s in sheets.items() if s.sneak_attack_used]
    if not used:
        return state
    fresh = {cid: msgspec.structs.replace(s, sneak_attack_used=False) if cid in used else s for cid, s in sheets.items()}
    return with_rules(state, characters=Characters(sheets=fresh))


def _narrate_attached(n: Any, e: SheetAttached) -> str:
    s = e.sheet
    whose = "the party's sheet" if e.character else "a character sheet"
    if s is None:  # not revealed to this reader (projections/redaction.py)
        return f"{n.name(e.combatant)} plays by {whose}"
    classes = ", ".join(f"{name} {level}" for name, level in s.classes.items()) or f"level {s.level}"
    return f"{n.name(e.combatant)} plays by {whose}: {classes}, AC {s.ac}, HP {s.max_hp}"


RULES = Rules(
    handlers={AddCharacter: _add_character},
    appliers={SheetAttached: _on_attached},
    after={TurnStarted: (_on_turn_started,)},
    narration={SheetAttached: _narrate_attached},
)
