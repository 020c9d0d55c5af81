"""Legendary actions, from the stat block (Legendary Resistance: combat/fivee/legendary_resistance.py).

- Legendary actions: "taken immediately after another creature's turn, one at a time, and all
  spent uses are regained at the start of the monster's own turn"; each costs its uses (1
  unless the block says more), from 3 a round unless the block says otherwise. Here "right
  after another creature's turn" is until the creature whose turn came next has done anything
  (moved, acted, used its bonus action or an object); never during the monster's own turn.
- "Can't take this action again until the start of its next turn": once per round of its turns.
- Legendary Resistance (N/Day): "If the dragon fails a saving throw, it can choose to succeed
  instead." The GM chooses after seeing the failed save; the save's DC and ability are kept.

A legendary action that "makes one Rend attack" makes it with `target`, rolled like any attack
(the attack uses neither the monster's action nor its reaction).
"""

from __future__ import annotations

from typing import ClassVar

from combat.common.attacks import choose_attack
from combat.common.turns import require_able
from combat.fivee.attacks import AttackOptions, defenders_dice, resolve_attack
from combat.fivee.monster_actions import block_extra_damage
from combat.fivee.monsters import Faces, monsters_of, require_sheet, sheet, sheets, with_monsters, with_sheet
from combat.fivee.sanctuary import aimed_attack
from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event, TurnEnded, TurnStarted
from combat.kernel.hidden import Hidden
from combat.kernel.state import Economy, EncounterState

__all__ = ["LegendaryAction", "LegendaryActionUsed", "RULES"]


class LegendaryAction(Command, frozen=True, kw_only=True):
    gm_fields: ClassVar[tuple[str, ...]] = ("advantage", "disadvantage", "mirror_faces", "resistance_faces")

    combatant: str
    action: str
    target: str | None = None  # for a legendary action that makes an attack
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    faces: Faces = None
    damage_faces: Faces = None
    extra_damage_faces: Faces = None
    note: str = ""
    # The target's spells' dice, as `attack` takes them (combat/common/entered_dice.py): Mirror
    # Image's d6s, the attacker's Wisdom save against a Sanctuary (and the creature it goes at
    # instead on a failure), Resistance's d4 by the id of the creature it protects.
    mirror_faces: Faces = None
    sanctuary_faces: Faces = None
    new_target: str | None = None
    resistance_faces: dict[str, tuple[int, ...]] = {}


class LegendaryActionUsed(Event, frozen=True, kw_only=True):
    combatant: str
    action: str
    cost: int
    after_turn_of: str
    text: str = ""
    note: str = ""
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("text",))


def _untouched(e: Economy) -> bool:
    """Nothing done yet this turn: the moment right after the turn before it."""
    return e.action and e.bonus_action and e.object_interaction and e.moved == 0 and e.attacks_left == 0


@defenders_dice
def _legendary_action(tx: Tx, cmd: LegendaryAction) -> None:
    c, s = require_sheet(tx, cmd.combatant)
    actions = {a.name.lower(): a for a in s.block.legendary_actions}
    chosen = actions.get(cmd.action.lower())
    if chosen is None:
        raise RuleError(
            "legendary/unknown",
            f"{c.name} has no legendary action called '{cmd.action}'",
            allowed=", ".join(a.name for a in s.block.legendary_actions) or "none: its stat block has no legendary actions",
        )
    require_able(c, "take legendary actions")
    after = monsters_of(tx.state).after_turn_of
    now = tx.state.turn
    acting = tx.state.combatants.get(now) if now else None
    if after is None or after == c.id or now == c.id or acting is None or not _untouched(acting.economy):
        raise RuleError(
            "legendary/not-now",
            f"{c.name}'s legendary actions come right after another creature's turn",
            allowed="after another creature's end_turn, before the next creature acts",
        )
    if chosen.cost > s.legendary_left:
        raise RuleError(
            "legendary/no-uses-left",
            f"{c.name} has {s.legendary_left} legendary action use(s) left, {chosen.name} costs {chosen.cost}",
            allowed="wait for the start of its turn, when it regains them",
        )
    if chosen.once_per_turn and chosen.name in s.legendary_used:
        raise RuleError(
            "legendary/once",
            f"{c.name} can't take {chosen.name} again until the start of its next turn",
            allowed=", ".join(a.name for a in s.block.legendary_actions if a.name not in s.legendary_used),
        )
    if cmd.target is not None and chosen.attack is None:
        raise RuleError("legendary/no-attack", f"{chosen.name} makes no attack", allowed="no target; the GM resolves its effect")
    tx.emit(
        LegendaryActionUsed(
            combatant=c.id, action=chosen.name, cost=chosen.cost, after_turn_of=after, text=chosen.text, note=cmd.note
        )
    )
    if cmd.target is None and (cmd.sanctuary_faces or cmd.new_target):
        raise RuleError(
            "legendary/no-attack", f"{chosen.name} makes no attack to turn away", allowed="no sanctuary_faces, no new_target"
        )
    if cmd.target is not None:
        aimed = aimed_attack(tx, c, tx.combatant(cmd.target), "none", faces=cmd.sanctuary_faces, new_target=cmd.new_target)
        if aimed is None:
            return  # "lose the attack" (Sanctuary): the legendary action is spent
        profile = choose_attack(c, chosen.attack)
        extra = block_extra_damage(s, profile, cmd.faces, cmd.damage_faces, cmd.extra_damage_faces)
        resolve_attack(
            tx,
            c,
            aimed,
            profile,
            AttackOptions(
                uses="none",
                advantage=cmd.advantage,
                disadvantage=cmd.disadvantage,
                faces=cmd.faces,
                damage_faces=cmd.damage_faces,
                extra_damage=extra,
            ),
        )


def _on_legendary(state: EncounterState, e: LegendaryActionUsed) -> EncounterState:
    s = sheets(state)[e.combatant]  # KeyError in a changed past: a conflict, not a crash
    once = any(a.name == e.action and a.once_per_turn for a in s.block.legendary_actions)
    return with_sheet(
        state,
        e.combatant,
        legendary_left=s.legendary_left - e.cost,
        legendary_used=(*s.legendary_used, e.action) if once else s.legendary_used,
    )


def _after_turn_started(state: EncounterState, e: TurnStarted) -> EncounterState:
    """'All spent uses are regained at the start of the monster's own turn.'"""
    s = sheet(state, e.combatant)
    if s is None or not s.block.legendary_actions:
        return state
    return with_sheet(state, e.combatant, legendary_left=s.block.legendary_action_uses, legendary_used=())


def _after_turn_ended(state: EncounterState, e: TurnEnded) -> EncounterState:
    """Whose turn has just ended: the moment for another creature's legendary actions."""
    if not sheets(state):
        return state
    return with_monsters(state, after_turn_of=e.combatant)


RULES = Rules(
    handlers={LegendaryAction: _legendary_action},
    appliers={LegendaryActionUsed: _on_legendary},
    # After the ruleset's own applier for these shared events: the block's own books.
    after={TurnStarted: (_after_turn_started,), TurnEnded: (_after_turn_ended,)},
    narration={
        LegendaryActionUsed: lambda n, e: (
            f"{n.name(e.combatant)} takes a legendary action after {n.name(e.after_turn_of)}'s turn: {e.action} (costs {e.cost})"
        ),
    },
)
