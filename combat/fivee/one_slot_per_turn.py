"""One spell slot per turn (srd-2024 and srd-2024-variant; combat/fivee/casting_rules.py
quotes the rule): a character that has expended a spell slot to cast a spell on this turn
(anyone's: a reaction spell counts on the turn it is cast) is refused a second slot's spell.
The turn is kept on the caster's state (`slot_turn`: round and whose turn), so a new turn
needs no reset; a log folds the same with or without this bundle, which only refuses.
"""

from __future__ import annotations

from combat.fivee.casts import CastSpell, SpellCast
from combat.fivee.characters import CharacterState, character, with_character
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.state import EncounterState
from combat.spells import library

__all__ = ["RULES"]


def _this_turn(state: EncounterState) -> tuple[int, str] | None:
    return None if state.turn is None else (state.round, state.turn)


def _slot_level(held: CharacterState, cmd: CastSpell) -> int:
    """The level of the spell `cmd` casts from `held`'s sheet (0: no slot), or 0 when the
    spell is not the caster's: the cast refuses that with its own words."""
    casting = held.sheet.spellcasting
    if casting is None or cmd.ritual:
        return 0
    key = cmd.spell.strip().lower()
    custom = next((s for s in casting.custom_spells if s.name.lower() == key), None)
    if custom is not None:
        return custom.level
    if key not in {s.lower() for s in casting.spells}:
        return 0
    try:
        return library.find(cmd.spell).level
    except RuleError:
        return 0


def _one_slot_per_turn(tx: Tx, cmd: CastSpell) -> None:
    held = character(tx.state, cmd.caster) if cmd.caster in tx.state.combatants else None
    now = _this_turn(tx.state)
    if held is None or now is None or held.slot_turn != now or not _slot_level(held, cmd):
        return
    c = tx.state.combatants[cmd.caster]
    raise RuleError(
        "spell/one-slot-per-turn",
        f"{c.name} has already expended a spell slot to cast a spell this turn: "
        "on a turn, you can expend only one spell slot to cast a spell",
        allowed="a cantrip, or the spell on a later turn",
    )


def _mark(state: EncounterState, e: SpellCast) -> EncounterState:
    """The turn on which the caster last expended a slot to cast a spell."""
    now = _this_turn(state)
    if e.slot is None or now is None or character(state, e.caster) is None:
        return state
    return with_character(state, e.caster, slot_turn=now)


RULES = Rules(guards={CastSpell: (_one_slot_per_turn,)}, after={SpellCast: (_mark,)})
