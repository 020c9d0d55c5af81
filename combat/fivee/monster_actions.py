"""What a stat block lets a monster do on its turn.

- `attack` names one of the block's attacks; its to-hit and damage come from the block, and
  extra damage ("plus 5 (2d4) Fire damage") is rolled with it and taken as its own damage
  type, the whole hit one blow for the 0 HP rules. Extra damage the block gives only "if the
  attack roll had Advantage" (the Goblin Warrior's, `extra_damage_if`) is rolled only then.
- Multiattack is one action that makes the listed attacks, made one `attack` at a time.
- "Recharge X-Y": "at the start of each of the monster's turns, roll 1d6, and on one of those
  numbers it regains the use" - a spent action's recharge is rolled (`recharge`) before the
  monster does anything else on its turn. Uses per day are spent and never regained in a fight.

Where the SRD is silent: an action the block does not resolve itself (a breath, a gaze) is
recorded by `monster_action` (its action, bonus action or reaction, its limited uses) and the
GM resolves its saves and damage with `save_effect` (combat/fivee/save_effects.py; naming the
action there uses it in the same command), or `saving_throw` and `damage` one by one.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar, Literal

import msgspec

from combat.bestiary.model import BlockAction, MultiattackPart
from combat.common.attacks import choose_attack
from combat.common.turns import require_able, require_turn
from combat.fivee import attacks
from combat.fivee.actions import require_reaction, spend_check
from combat.fivee.attack_commands import Attack, OpportunityAttack
from combat.fivee.attack_events import AttackMade, AttackRolled, ExtraDamage
from combat.fivee.command_groups import RULING_COMMANDS
from combat.fivee.monster_uses import UseSpent, require_use
from combat.fivee.monsters import Faces, MonsterSheet, require_sheet, sheet, sheets, with_sheet
from combat.kernel.commands import Command
from combat.kernel.decider import Handler, Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import AttackProfile, Event, TurnStarted
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.phases import PhaseTable
from combat.kernel.state import Combatant, EncounterState, with_combatant

__all__ = [
    "Multiattack",
    "MonsterAction",
    "Recharge",
    "MultiattackUsed",
    "MonsterActionUsed",
    "RechargeChecked",
    "block_extra_damage",
    "by_stat_block",
    "attack",
    "opportunity_attack",
    "recharge_first",
    "monster_action",
    "RULINGS",
    "RULES",
]


class Multiattack(Command, frozen=True, kw_only=True):
    """Use the Multiattack action; then make its attacks with `attack`. `routine` picks one of
    the block's ways ("one Claws attack and one Tail attack, or ... two Hurl Flame attacks")."""

    attacker: str
    routine: int | None = None


class MonsterAction(Command, frozen=True, kw_only=True):
    """An action, bonus action or reaction of the stat block that is not an attack roll."""

    combatant: str
    action: str
    target: str | None = None
    note: str = ""


class Recharge(Command, frozen=True, kw_only=True):
    """Roll a spent action's recharge d6 at the start of the creature's turn."""

    combatant: str
    action: str | None = None
    faces: Faces = None


# -- events --------------------------------------------------------------------------------


class MultiattackUsed(Event, frozen=True, kw_only=True):
    """The action is spent; the attacks follow as AttackMade with uses 'attack'."""

    attacker: str
    attacks: tuple[MultiattackPart, ...]
    hidden: ClassVar[Hidden] = PUBLIC


class MonsterActionUsed(Event, frozen=True, kw_only=True):
    combatant: str
    action: str
    uses: Literal["action", "bonus_action", "reaction"]
    target: str | None = None
    text: str = ""
    note: str = ""
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("text",))  # the stat block's words, with its numbers


class RechargeChecked(Event, frozen=True, kw_only=True):
    """The recharge d6 (the DiceRolled before this): `regained` when it showed `needed` or more."""

    combatant: str
    action: str
    roll: int
    needed: int
    regained: bool
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("needed",))


# -- attacks from the block ----------------------------------------------------------------


def _block_attack_name(profile_name: str) -> str:
    return profile_name.removesuffix(" (ranged)")


def by_stat_block(tx: Tx, cmd: Any, rule: Handler) -> None:
    """An attack command decided by `rule` (the shared `attack`, or a ruleset's own), with
    what the attacker's stat block adds: its Multiattack's list, its limited uses and its
    extra damage. A ruleset that replaces the attack rule calls this from its own handler."""
    s = sheet(tx.state, cmd.attacker)
    if s is None:
        return rule(tx, cmd)
    c = tx.state.combatants[cmd.attacker]
    reacting = getattr(cmd, "readied", False) or cmd.trigger() == "opportunity_attack"
    if s.multiattack_left and c.economy.attacks_left > 0 and not reacting:
        cmd = _within_multiattack(c, s, cmd)
    named = cmd.attack or (c.attacks[0].name if c.attacks else None)  # the shared rules' default: the first
    if named is not None:
        require_use(c, s, _block_attack_name(named))
    cmd = _with_block_extra(c, s, cmd, getattr(cmd, "extra_damage_faces", None))
    start = len(tx.events)
    rule(tx, cmd)
    for made in [e for e in tx.events[start:] if isinstance(e, (AttackMade, AttackRolled)) and e.attacker == c.id]:
        name = _block_attack_name(made.attack)
        used = s.block.attack(name)
        if s.block.limited(name) is not None and used is not None:
            tx.emit(UseSpent(combatant=c.id, action=used.name))


# The shared attacks, as a stat block makes them.
attack: Handler = functools.partial(by_stat_block, rule=attacks.attack)
opportunity_attack: Handler = functools.partial(by_stat_block, rule=attacks.opportunity_attack)


def _with_block_extra(c: Combatant, s: MonsterSheet, cmd, faces: Faces):
    """The stat block's extra damage ("plus 5 (2d4) Fire damage") made the attack's own
    `extra_damage`: rolled with its damage (doubled on a Critical Hit, or left for
    `roll_damage` with the rest) and landed with it as one blow, so the drop to 0 HP, massive
    damage and damage at 0 HP are judged on the whole of it."""
    profile = choose_attack(c, cmd.attack, melee_only=cmd.trigger() == "opportunity_attack")
    extra = block_extra_damage(s, profile, cmd.faces, cmd.damage_faces, faces, getattr(cmd, "damage_type", None))
    return msgspec.structs.replace(cmd, extra_damage=(*extra, *cmd.extra_damage)) if extra else cmd


def block_extra_damage(
    s: MonsterSheet, profile: AttackProfile, faces: Faces, damage_faces: Faces, extra_faces: Faces, damage_type: str | None = None
) -> tuple[ExtraDamage, ...]:
    """The stat block's extra damage of an attack, with its faces if entered; an attack whose
    damage waits for `roll_damage` (the d20 entered alone) takes it along unrolled."""
    block_attack = s.block.attack(_block_attack_name(profile.name))
    if block_attack is None or block_attack.extra_damage is None:
        if extra_faces:
            raise RuleError(
                "attack/no-extra-damage", f"{profile.name} has no extra damage to roll", allowed="no extra_damage_faces"
            )
        return ()
    later = faces is not None and damage_faces is None
    if later and extra_faces is not None:
        raise RuleError(
            "dice/damage-later",
            f"extra damage faces were entered for {profile.name} without its damage_faces",
            allowed="damage_faces with them, or neither now and roll_damage once it hits",
        )
    kind = block_attack.extra_damage_type or damage_type or profile.damage_type
    return (
        ExtraDamage(
            dice=block_attack.extra_damage,
            damage_type=kind,
            faces=None if later else extra_faces,
            only_with=block_attack.extra_damage_if,
        ),
    )


def _within_multiattack(c: Combatant, s: MonsterSheet, cmd):
    """The next attack of a Multiattack must be one it still has to make."""
    left = [name for part in s.multiattack_left for name in part.attacks]
    if cmd.attack is None:
        return msgspec.structs.replace(cmd, attack=s.multiattack_left[0].attacks[0])
    if _block_attack_name(cmd.attack).lower() not in {n.lower() for n in left}:
        raise RuleError(
            "multiattack/not-listed",
            f"{c.name}'s Multiattack has no {cmd.attack} attack left to make",
            allowed=", ".join(dict.fromkeys(left)),
        )
    return cmd


def _consume(parts: tuple[MultiattackPart, ...], name: str) -> tuple[MultiattackPart, ...]:
    """One attack made: take it from the narrowest part that lists it."""
    fitting = [i for i, p in enumerate(parts) if name.lower() in {a.lower() for a in p.attacks}]
    if not fitting:
        return parts
    i = min(fitting, key=lambda j: len(parts[j].attacks))
    left = list(parts)
    if parts[i].count > 1:
        left[i] = msgspec.structs.replace(parts[i], count=parts[i].count - 1)
    else:
        del left[i]
    return tuple(left)


def _multiattack(tx: Tx, cmd: Multiattack) -> None:
    require_turn(tx, cmd.attacker)
    c, s = require_sheet(tx, cmd.attacker)
    require_able(c, "attack")
    routines = s.block.multiattack.routines if s.block.multiattack else ()
    if not routines:
        text = s.block.multiattack.text if s.block.multiattack else "no Multiattack"
        raise RuleError(
            "multiattack/none",
            f"{c.name}'s stat block lists no attacks to make as a Multiattack ({text})",
            allowed="attack with one of its attacks, or a ruling",
        )
    spend_check(c, "action")
    described = "; or ".join(
        f"{i}: " + ", ".join(f"{p.count} x {' or '.join(p.attacks)}" for p in r) for i, r in enumerate(routines)
    )
    if cmd.routine is None and len(routines) > 1:
        raise RuleError(
            "multiattack/which", f"{c.name}'s Multiattack can be made {len(routines)} ways", allowed=f"routine {described}"
        )
    index = cmd.routine or 0
    if not 0 <= index < len(routines):
        raise RuleError("multiattack/which", f"no routine {index}", allowed=f"routine {described}")
    tx.emit(MultiattackUsed(attacker=c.id, attacks=routines[index]))


# -- other actions, limited uses and recharge ----------------------------------------------


def _find_action(s: MonsterSheet, name: str) -> tuple[BlockAction, str] | None:
    for entries, uses in ((s.block.actions, "action"), (s.block.bonus_actions, "bonus_action"), (s.block.reactions, "reaction")):
        for a in entries:
            if a.name.lower() == name.lower():
                return a, uses
    return None


def monster_action(tx: Tx, cmd: MonsterAction) -> None:
    """Use the stat block's action: on the creature's turn (a reaction: when it has its
    reaction), what it uses spent, a Recharge or per-day use spent. `save_effect` with an
    `action` uses it so."""
    c, s = require_sheet(tx, cmd.combatant)
    found = _find_action(s, cmd.action)
    if found is None:
        attack = s.block.attack(cmd.action)
        if attack is not None:
            raise RuleError("creature/is-an-attack", f"{cmd.action} is an attack", allowed=f"attack with attack: {attack.name}")
        names = [a.name for a in (*s.block.actions, *s.block.bonus_actions, *s.block.reactions)]
        raise RuleError(
            "creature/unknown-action", f"{c.name} has no action called '{cmd.action}'", allowed=", ".join(names) or "its attacks"
        )
    action, uses = found
    if uses == "reaction":
        require_reaction(c)
    else:
        require_turn(tx, c.id)
        require_able(c, "act")
        spend_check(c, uses)
    require_use(c, s, action.name)
    if cmd.target is not None:
        tx.combatant(cmd.target)
    tx.emit(MonsterActionUsed(combatant=c.id, action=action.name, uses=uses, target=cmd.target, text=action.text, note=cmd.note))  # type: ignore[arg-type]
    if s.block.limited(action.name) is not None:
        tx.emit(UseSpent(combatant=c.id, action=action.name))


def _recharge(tx: Tx, cmd: Recharge) -> None:
    c, s = require_sheet(tx, cmd.combatant)
    if not s.recharge_due:
        raise RuleError(
            "recharge/not-due",
            f"{c.name} has no recharge to roll now",
            allowed="a spent Recharge action is rolled for at the start of the creature's turn",
        )
    name = s.recharge_due[0] if cmd.action is None else next((n for n in s.recharge_due if n.lower() == cmd.action.lower()), None)
    if name is None:
        raise RuleError(
            "recharge/not-due", f"{c.name}'s {cmd.action} is not waiting for a recharge roll", allowed=", ".join(s.recharge_due)
        )
    limited = s.block.limited(name)
    needed = limited.recharge if limited is not None else None
    if needed is None:
        raise RuleError("recharge/not-due", f"{c.name}'s {name} has no recharge", allowed=", ".join(s.recharge_due))
    roll = tx.roll("1d6", purpose=f"recharge {name}", roller=c.id, faces=cmd.faces)
    tx.emit(RechargeChecked(combatant=c.id, action=name, roll=roll.total, needed=needed, regained=roll.total >= needed))


def recharge_first(tx: Tx, cmd: Command) -> None:
    """Refuse a turn command of a creature that still owes its start-of-turn recharge roll:
    every command it could act by in its turn waits (the GM's rulings do not)."""
    turn = tx.state.turn
    if turn is None or turn not in cmd.actors():
        return
    s = sheet(tx.state, turn)
    if s is not None and s.recharge_due and cmd.trigger() in _acting(tx.ruleset.phases):
        raise RuleError(
            "recharge/due",
            f"{tx.state.combatants[turn].name} rolls to recharge {', '.join(s.recharge_due)} at the start of its turn",
            allowed=f"recharge for {turn} first",
        )


# The GM's rulings during a turn never wait for the recharge roll.
RULINGS = frozenset([*RULING_COMMANDS, "recharge", "legendary_action"])


def _acting(phases: PhaseTable) -> frozenset[str]:
    """The commands a creature acts by in its turn: those allowed only in turns, but rulings."""
    return frozenset(s.trigger for s in phases.steps if tuple(s.sources) == ("turns",)) - RULINGS


# -- appliers ------------------------------------------------------------------------------


def _on_multiattack(state: EncounterState, e: MultiattackUsed) -> EncounterState:
    c = state.combatants[e.attacker]
    total = sum(p.count for p in e.attacks)
    state = with_combatant(state, c.id, economy=msgspec.structs.replace(c.economy, action=False, attacks_left=total))
    return with_sheet(state, c.id, multiattack_left=e.attacks)


def _on_monster_action(state: EncounterState, e: MonsterActionUsed) -> EncounterState:
    c = state.combatants[e.combatant]
    return with_combatant(state, c.id, economy=msgspec.structs.replace(c.economy, **{e.uses: False}))


def _on_recharge(state: EncounterState, e: RechargeChecked) -> EncounterState:
    s = sheets(state)[e.combatant]  # KeyError in a changed past: a conflict, not a crash
    spent = tuple(n for n in s.spent if n != e.action) if e.regained else s.spent
    return with_sheet(state, e.combatant, spent=spent, recharge_due=tuple(n for n in s.recharge_due if n != e.action))


def _after_attack(state: EncounterState, e: AttackMade) -> EncounterState:
    if e.uses != "attack":
        return state
    s = sheet(state, e.attacker)
    if s is None or not s.multiattack_left:
        return state
    return with_sheet(state, e.attacker, multiattack_left=_consume(s.multiattack_left, _block_attack_name(e.attack)))


def _after_turn_started(state: EncounterState, e: TurnStarted) -> EncounterState:
    """Its turn: spent Recharge actions are due a roll; no Multiattack is under way."""
    s = sheet(state, e.combatant)
    if s is None:
        return state
    due = tuple(n for n in s.spent if (entry := s.block.limited(n)) is not None and entry.recharge is not None)
    return with_sheet(state, e.combatant, recharge_due=due, multiattack_left=())


RULES = Rules(
    handlers={
        Multiattack: _multiattack,
        MonsterAction: monster_action,
        Recharge: _recharge,
        Attack: attack,
        OpportunityAttack: opportunity_attack,
    },
    appliers={
        MultiattackUsed: _on_multiattack,
        MonsterActionUsed: _on_monster_action,
        RechargeChecked: _on_recharge,
    },
    guards={Command: (recharge_first,)},  # every command: those a creature acts by wait for its recharge roll
    # After the ruleset's own applier for these shared events: the block's own books.
    after={AttackMade: (_after_attack,), TurnStarted: (_after_turn_started,)},
    narration={
        MultiattackUsed: lambda n, e: (
            f"{n.name(e.attacker)} uses Multiattack: " + ", ".join(f"{p.count} x {' or '.join(p.attacks)}" for p in e.attacks)
        ),
        MonsterActionUsed: lambda n, e: (
            f"{n.name(e.combatant)} uses {e.action}" + (f" on {n.name(e.target)}" if e.target else "")
        ),
        RechargeChecked: lambda n, e: (
            f"{n.name(e.combatant)}'s {e.action} "
            + ("recharges" if e.regained else "stays spent")
            + (f" ({e.roll}, needs {e.needed})" if e.needed is not None else f" ({e.roll})")
        ),
    },
)
