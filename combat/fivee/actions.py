"""A turn's economy and the SRD actions other than Attack.

Movement up to Speed split around actions, one action, one bonus action, one reaction per
round and one free object interaction; spending more is rejected.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from combat.common.concentration import start_concentration
from combat.common.condition_effects import can_see, is_incapacitated, speed_of
from combat.common.hitpoints import take_damage
from combat.common.rider_reads import barred
from combat.common.turns import require_able, require_turn
from combat.fivee import action_events, dying
from combat.fivee.action_commands import BonusAction, InteractWithObject, Move, TakeAction, UseReaction
from combat.fivee.action_events import ActionTaken, BonusActionTaken, Moved, ObjectInteracted, ReactionTaken
from combat.fivee.check_events import CheckMade, narrate_check
from combat.fivee.held_open import Help, helps_of, opportunities_offered
from combat.fivee.until_next_turn import disengages, dodges, has_disengaged, readies
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionApplied, ConditionSpec
from combat.kernel.state import Combatant, Economy, EncounterState, holding, with_combatant

__all__ = [
    "economy_after_attack",
    "SRD_ACTIONS",
    "spend_check",
    "require_reaction",
    "provoked_by",
    "RULES",
    "ACTION_EFFECTS",
    "take_action",
    "bonus_action",
]

HIDDEN = ConditionSpec(name="invisible", source="hide")
HIDE_DC = 15


def used_up(c: Combatant, resource: str) -> str | None:
    """The problem when `c` has no `resource` left (action, attack of its Attack action, bonus
    action, reaction, object interaction), else None. The guards refuse with it; the re-checks
    after a change to the past (combat.fivee.consistency and the rulesets') report it."""
    e = c.economy
    bar = barred(c, resource) if c.conditions else None
    if bar is not None:
        return f"{c.name} can't take {resource.replace('_', ' ')}s while {bar.title()} lasts"
    if (e.attacks_left > 0) if resource == "attack" else getattr(e, resource, True):
        return None
    if resource == "object_interaction":
        return f"{c.name} has already had its free object interaction this turn"
    what = "attacks" if resource == "attack" else resource.replace("_", " ")
    # The reaction comes back at the start of the creature's turn; the rest at the end of it.
    return f"{c.name} has already used its {what} this {'round' if resource == 'reaction' else 'turn'}"


def spend_check(c: Combatant, resource: str) -> None:
    problem = used_up(c, resource)
    if problem and c.conditions and barred(c, resource):
        raise RuleError("economy/barred", problem, allowed=_left(c))
    if problem:
        raise RuleError(f"economy/{resource.replace('_', '-')}-spent", problem, allowed=_left(c))


def _left(c: Combatant) -> str:
    e = c.economy
    left = [
        name
        for name, has in (
            ("action", e.action or e.attacks_left > 0),
            ("bonus action", e.bonus_action),
            ("reaction", e.reaction),
            ("object interaction", e.object_interaction),
        )
        if has
    ]
    left.append(f"{max(0, e.movement - e.moved)} ft of movement")
    return ", ".join(left) + ", end_turn"


def require_reaction(c: Combatant) -> None:
    require_able(c, "react")
    problem = used_up(c, "reaction")
    if problem and c.conditions and barred(c, "reaction"):
        raise RuleError("economy/barred", problem, allowed="no reaction while it lasts")
    if problem:
        raise RuleError("economy/reaction-spent", problem, allowed="wait for the start of its turn")


def movement_left(c: Combatant) -> int:
    """Feet of movement `c` has left this turn: none once a condition sets its Speed to 0
    (movement already granted stops too), and never below none."""
    return 0 if speed_of(c) == 0 else max(0, c.economy.movement - c.economy.moved)


def movement_short(c: Combatant, cost: int) -> str | None:
    """The problem when a move costing `cost` feet is more than `c` has left, else None: the
    Move guard refuses with it, the re-check of a Moved after a changed past reports it."""
    left = movement_left(c)
    return None if cost <= left else f"{c.name} has {left} ft of movement left, not {cost}"


def provoked_by(tx: Tx, c: Combatant, leaves_reach_of: tuple[str, ...]) -> tuple[str, ...]:
    """The foes whose reach `c` leaves who may make an Opportunity Attack: "You can make an
    Opportunity Attack when a creature that you can see leaves your reach." An ally is refused."""
    provoked = []
    for fid in leaves_reach_of:
        foe = tx.combatant(fid)
        if foe.side == c.side:
            raise RuleError("move/ally", f"{foe.name} is an ally of {c.name}", allowed="foes whose reach is left")
        if not has_disengaged(tx.state, c.id) and foe.economy.reaction and not is_incapacitated(foe) and can_see(foe, c):
            provoked.append(fid)
    return tuple(provoked)


def _move(tx: Tx, cmd: Move) -> None:
    c = require_turn(tx, cmd.combatant)
    require_able(c, "move")
    if cmd.feet <= 0:
        raise RuleError("move/distance", f"cannot move {cmd.feet} ft", allowed="a positive number of feet")
    if not 0 <= cmd.difficult_terrain <= cmd.feet:
        raise RuleError(
            "move/difficult-terrain",
            f"{cmd.difficult_terrain} ft of Difficult Terrain in a move of {cmd.feet} ft",
            allowed=f"0 to {cmd.feet}",
        )
    # "Every foot of movement in Difficult Terrain costs 1 extra foot."
    cost = cmd.feet + cmd.difficult_terrain
    problem = movement_short(c, cost)
    if problem:
        raise RuleError(
            "economy/movement",
            problem + (f" ({cmd.feet} ft, {cmd.difficult_terrain} of it Difficult Terrain)" if cmd.difficult_terrain else ""),
            allowed=f"up to {movement_left(c)} ft of movement, or Dash for more",
        )
    tx.emit(
        Moved(
            combatant=c.id,
            feet=cmd.feet,
            mode=cmd.mode,
            provoked=provoked_by(tx, c, cmd.leaves_reach_of),
            cost=cost if cost != cmd.feet else None,
        )
    )


SRD_ACTIONS = ("dash", "disengage", "dodge", "help", "hide", "influence", "magic", "ready", "search", "study", "utilize")
_BONUS_ACTION_OK = frozenset({"dash", "disengage", "hide"})  # e.g. Cunning Action


def take_action(
    tx: Tx, cmd: TakeAction, *, actions: tuple[str, ...] = SRD_ACTIONS, bonus_ok: frozenset[str] = _BONUS_ACTION_OK
) -> None:
    c = require_turn(tx, cmd.combatant)
    require_able(c, "act")
    action = cmd.action.lower()
    if action == "attack":
        raise RuleError("action/use-attack", "the Attack action is its own command", allowed="attack")
    if action not in actions:
        raise RuleError("action/unknown", f"'{cmd.action}' is not an action", allowed=", ".join(actions))
    uses = "bonus_action" if cmd.bonus_action else "action"
    if uses == "bonus_action" and action not in bonus_ok:
        raise RuleError("action/not-bonus", f"{action} cannot be taken as a bonus action", allowed=", ".join(sorted(bonus_ok)))
    spend_check(c, uses)
    tending = None
    if action == "help":
        target = tx.combatant(cmd.target or "")
        if target.side == c.side:
            if not dying.needs_medicine(tx.state, target):
                raise RuleError(
                    "help/target",
                    "Help names the enemy your ally will attack, or an ally to stabilise at 0 HP or give first aid",
                    allowed="a foe, or an ally at 0 HP (not Stable) or knocked out",
                )
            tending = target
    tx.emit(ActionTaken(combatant=c.id, action=action, target=cmd.target, detail=cmd.detail, uses=uses))  # type: ignore[arg-type]
    if tending is not None:
        dying.stabilize_or_wake(tx, c, tending, cmd.bonus, cmd.faces)
        return
    _follow_up(tx, c, action, cmd)


def _follow_up(tx: Tx, c: Combatant, action: str, cmd: TakeAction) -> None:
    if action == "hide":
        roll = tx.roll(f"1d20{cmd.bonus:+d}", purpose="stealth check", roller=c.id, faces=cmd.faces)
        dc = cmd.dc or HIDE_DC
        tx.emit(CheckMade(combatant=c.id, skill="stealth", total=roll.total, dc=dc, success=roll.total >= dc))
        if roll.total >= dc:
            tx.emit(ConditionApplied(target=c.id, condition=HIDDEN))
    elif action in ("influence", "search", "study") and (cmd.faces is not None or cmd.dc is not None):
        skill = {"influence": "charisma", "search": "wisdom", "study": "intelligence"}[action]
        roll = tx.roll(f"1d20{cmd.bonus:+d}", purpose=f"{action} check", roller=c.id, faces=cmd.faces)
        success = None if cmd.dc is None else roll.total >= cmd.dc
        tx.emit(CheckMade(combatant=c.id, skill=skill, total=roll.total, dc=cmd.dc, success=success))
    elif action == "magic" and cmd.concentration:
        start_concentration(tx, c.id, cmd.detail or "a spell")
    elif cmd.faces is not None:
        raise RuleError("dice/unused-faces", f"{action} rolls no dice", allowed="no faces")


def bonus_action(tx: Tx, cmd: BonusAction) -> None:
    c = require_turn(tx, cmd.combatant)
    require_able(c, "act")
    spend_check(c, "bonus_action")
    tx.emit(BonusActionTaken(combatant=c.id, description=cmd.description))


def _interact(tx: Tx, cmd: InteractWithObject) -> None:
    c = require_turn(tx, cmd.combatant)
    require_able(c, "interact")
    problem = used_up(c, "object_interaction")
    if problem:
        raise RuleError("economy/object-interaction-spent", problem, allowed="take_action utilize for a second object")
    tx.emit(ObjectInteracted(combatant=c.id, description=cmd.description))


def _reaction(tx: Tx, cmd: UseReaction) -> None:
    c = tx.combatant(cmd.combatant)
    require_reaction(c)
    tx.emit(ReactionTaken(combatant=c.id, description=cmd.description))


def _spend(c: Combatant, **changes: object) -> Combatant:
    return msgspec.structs.replace(c, economy=msgspec.structs.replace(c.economy, **changes))


def _on_moved(state: EncounterState, e: Moved) -> EncounterState:
    c = state.combatants[e.combatant]
    state = msgspec.structs.replace(state, combatants={**state.combatants, c.id: _spend(c, moved=c.economy.moved + e.spent)})
    return opportunities_offered(state, e.provoked, c.id)


# What each action changes beyond spending it ("Dash adds movement", "Dodge gives attackers Disadvantage").
ACTION_EFFECTS: dict[str, Callable[[EncounterState, Combatant, ActionTaken], EncounterState]] = {
    "dash": lambda s, c, e: with_combatant(
        s, c.id, economy=msgspec.structs.replace(c.economy, movement=c.economy.movement + speed_of(c))
    ),
    "disengage": lambda s, c, e: disengages(s, c.id),
    "dodge": lambda s, c, e: dodges(s, c.id),
    "help": lambda s, c, e: (
        holding(s, helps=helps_of(s) + (Help(helper=c.id, against=e.target or ""),))
        if e.target not in s.combatants or s.combatants[e.target].side != c.side  # tending an ally is no Help to attack
        else s
    ),
    "ready": lambda s, c, e: readies(s, c.id, e.detail or "an action"),
}


def _on_action(state: EncounterState, e: ActionTaken) -> EncounterState:
    c = _spend(state.combatants[e.combatant], **{e.uses: False})
    state = msgspec.structs.replace(state, combatants={**state.combatants, c.id: c})
    effect = ACTION_EFFECTS.get(e.action)
    return effect(state, c, e) if effect else state


def _on_reaction(state: EncounterState, e: ReactionTaken) -> EncounterState:
    c = state.combatants[e.combatant]
    return readies(with_combatant(state, c.id, economy=msgspec.structs.replace(c.economy, reaction=False)), c.id, None)


RULES = Rules(
    handlers={
        Move: _move,
        TakeAction: take_action,
        BonusAction: bonus_action,
        InteractWithObject: _interact,
        UseReaction: _reaction,
    },
    appliers={
        Moved: _on_moved,
        ActionTaken: _on_action,
        BonusActionTaken: lambda s, e: with_combatant(
            s, e.combatant, economy=msgspec.structs.replace(s.combatants[e.combatant].economy, bonus_action=False)
        ),
        ObjectInteracted: lambda s, e: with_combatant(
            s, e.combatant, economy=msgspec.structs.replace(s.combatants[e.combatant].economy, object_interaction=False)
        ),
        ReactionTaken: _on_reaction,
        CheckMade: lambda s, e: s,
    },
    narration={CheckMade: narrate_check, **action_events.NARRATION},
)


def economy_after_attack(attacker: Combatant, uses: str) -> Economy:
    """The attacker's economy once an attack is made with its action (the first of the
    action's attacks), an attack left of that action, its reaction or its bonus action."""
    economy = attacker.economy
    if uses == "action":
        return msgspec.structs.replace(economy, action=False, attacks_left=attacker.attacks_per_action - 1)
    if uses == "attack":
        return msgspec.structs.replace(economy, attacks_left=economy.attacks_left - 1)
    if uses == "reaction":
        return msgspec.structs.replace(economy, reaction=False)
    if uses == "bonus_action":
        return msgspec.structs.replace(economy, bonus_action=False)
    return economy


def attack_spent(state: EncounterState, attacker: str, uses: str, *, hit: tuple[str, int] | None = None) -> EncounterState:
    """`state` once `attacker` spent what the attack `uses` (a reaction spends its readied
    action) and `hit`'s target took its damage, in one copy of the combatants: this folds
    every attack made."""
    c = state.combatants[attacker]
    combatants = {**state.combatants, attacker: msgspec.structs.replace(c, economy=economy_after_attack(c, uses))}
    if hit is not None:
        target, damage = hit
        combatants[target] = take_damage(combatants[target], damage)  # the attacker too, if it struck itself
    state = msgspec.structs.replace(state, combatants=combatants)
    return readies(state, attacker, None) if uses == "reaction" else state
