"""World actions: the environment's own turn at the start of every round.

"After the environment uses a world action with a recharge, the Narrator rolls 1d6. On a
result equal to or greater than the listed number, the environment regains its world action.
Otherwise at the start of each round the Narrator repeats the roll until the environment
regains the world action."

A spent action owes its recharge roll at the start of each later round (`roll_recharge`,
before any world action is used or the world step ends). Resolving a world action records
the targets' saves, damage, conditions and effects as events; one that brings new
participants adds them with their initiative.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from combat.common.events import DamageTaken
from combat.common.hitpoints import adjusted_damage, after_damage
from combat.common.save_conditions import COVER_SAVE  # cover adds to Dexterity saving throws
from combat.common.saves import saving_throw
from combat.fivee.until_next_turn import is_dodging
from combat.kernel.commands import Command, Faces
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import CombatantAdded, ConditionApplied, ConditionSpec, Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState, with_rules
from combat.rulesets.a5e.environments import Environment, WorldAction
from combat.rulesets.a5e.initiative import set_initiative

__all__ = [
    "RULES",
    "still_spent",
    "world_acted",
    "struck_already",
    "nothing_to_recharge",
    "WorldTarget",
    "UseWorldAction",
    "RollRecharge",
    "WorldActionUsed",
    "RechargeRolled",
    "WorldEffectSuffered",
    "environment",
    "owed_recharges",
    "require_no_owed",
]


class WorldTarget(msgspec.Struct, frozen=True, kw_only=True):
    """A participant a world action reaches; the save bonus defaults to its Constitution save
    for Constitution saves and +0 otherwise."""

    combatant: str
    save_bonus: int | None = None
    faces: Faces = None
    cover: Literal["none", "half", "three-quarters"] = "none"
    reduced: bool = False  # e.g. wearing cold weather gear against Cold Chill


class UseWorldAction(Command, frozen=True, kw_only=True):
    action: str
    targets: tuple[WorldTarget, ...] | None = None  # "all" actions default to every participant
    damage_faces: Faces = None
    reduced_damage_faces: Faces = None
    pick_faces: Faces = None  # the d-N choosing "a random participant"
    initiative_faces: Faces = None  # a newcomer without a fixed initiative rolls Dexterity
    recharge_faces: Faces = None  # the d6 rolled right after use


class RollRecharge(Command, frozen=True, kw_only=True):
    action: str
    faces: Faces = None


class WorldActionUsed(Event, frozen=True, kw_only=True):
    environment: str
    action: str
    targets: tuple[str, ...] = ()
    recharge: int | None = None
    text: str = ""
    hidden: ClassVar[Hidden] = PUBLIC


class RechargeRolled(Event, frozen=True, kw_only=True):
    action: str
    needed: int
    rolled: int
    regained: bool
    hidden: ClassVar[Hidden] = Hidden.said("needed", "rolled")  # a world action's, of no combatant's sheet


class WorldEffectSuffered(Event, frozen=True, kw_only=True):
    combatant: str
    action: str
    effect: str
    hidden: ClassVar[Hidden] = PUBLIC


def environment(state: EncounterState) -> Environment | None:
    return state.rules.environment


def owed_recharges(state: EncounterState) -> list[str]:
    """Spent world actions whose recharge roll for this round has not been made yet."""
    return [name for name, last in state.rules.spent.items() if last < state.round]


def _find(tx: Tx, name: str) -> tuple[Environment, WorldAction]:
    env = environment(tx.state)
    if env is None or not env.world_actions:
        raise RuleError(
            "world/no-actions",
            "the scene's environment has no world actions",
            allowed="set_scene with an environment that has world actions",
        )
    action = env.world_action(name)
    if action is None:
        raise RuleError(
            "world-action/unknown",
            f"the {env.name.lower()} environment has no world action '{name}'",
            allowed=", ".join(a.name for a in env.world_actions),
        )
    return env, action


def require_no_owed(tx: Tx, before: str) -> None:
    """Refused while a spent world action's recharge roll for this round is not made;
    `before` says what it holds up ("comes first this round")."""
    owed = owed_recharges(tx.state)
    if owed:
        raise RuleError(
            "world/recharge-owed",
            f"the recharge roll for {', '.join(owed)} {before}",
            allowed="roll_recharge for " + ", ".join(owed),
        )


def _use(tx: Tx, cmd: UseWorldAction) -> None:
    env, action = _find(tx, cmd.action)
    require_no_owed(tx, "comes first this round")
    problem = still_spent(tx.state, action)
    if problem:
        raise RuleError("world-action/spent", problem, allowed=_available(env, tx.state.rules.spent))
    problem = world_acted(tx.state)
    if problem:
        raise RuleError("world/acted", problem, allowed="end_world_step")
    targets = _targets(tx, action, cmd.targets)
    tx.emit(
        WorldActionUsed(
            environment=env.id,
            action=action.name,
            targets=tuple(t.combatant for t in targets),
            recharge=action.recharge,
            text=action.text,
        )
    )
    affected = _saves(tx, action, targets)
    _damage(tx, action, affected, cmd)
    for target in affected:
        if action.condition:
            ends_on = target.combatant if action.condition_ends else None
            spec = ConditionSpec(name=action.condition, source=action.name, ends=action.condition_ends, ends_on=ends_on)
            tx.emit(ConditionApplied(target=target.combatant, condition=spec))
        if action.effect:
            tx.emit(WorldEffectSuffered(combatant=target.combatant, action=action.name, effect=action.effect))
    if action.summon is not None:
        _summon(tx, action, cmd)
    elif cmd.pick_faces is not None or cmd.initiative_faces is not None:
        raise RuleError("dice/unused-faces", f"{action.name} brings no new participants", allowed="no pick or initiative faces")
    if action.recharge is not None and tx.state.settings.get("recharge_roll_after_use", True):
        _recharge(tx, action, cmd.recharge_faces)
    elif cmd.recharge_faces is not None:
        raise RuleError(
            "dice/unused-faces",
            f"no recharge roll follows {action.name} now",
            allowed="roll_recharge at the start of a later round",
        )


def still_spent(state: EncounterState, action: WorldAction) -> str | None:
    """'... spent until a recharge roll regains it.'"""
    if action.name not in state.rules.spent:
        return None
    return f"{action.name} is spent until a recharge roll of {action.recharge} or more regains it"


def world_acted(state: EncounterState) -> str | None:
    """The world 'gets its own turn': one world action a round (setting `world_actions_per_round`)."""
    notes = state.rules
    per_round = state.settings.get("world_actions_per_round", 1)
    if notes.world_round == state.round and notes.world_used >= per_round:
        return f"the environment has used its world action{'s' if per_round > 1 else ''} this round"
    return None


def struck_already(state: EncounterState, action: str, c: Combatant) -> str | None:
    """A world action's target cannot be targeted by it again until Turn-Based Action ends."""
    if c.id not in state.rules.struck.get(action, ()):
        return None
    return f"{c.name} cannot be targeted by {action} again until Turn-Based Action ends"


def nothing_to_recharge(state: EncounterState, action: str) -> str | None:
    return None if action in state.rules.spent else f"{action} is not spent: there is nothing to recharge"


def _available(env: Environment, spent: dict[str, int]) -> str:
    ready = [a.name for a in env.world_actions if a.name not in spent]
    return ", ".join(ready) + ", or end_world_step" if ready else "end_world_step"


def _targets(tx: Tx, action: WorldAction, given: tuple[WorldTarget, ...] | None) -> list[WorldTarget]:
    if action.targets == "none":
        if given:
            raise RuleError("world-action/targets", f"{action.name} targets no one", allowed="no targets")
        return []
    if given is None:
        if action.targets != "all":
            raise RuleError(
                "world-action/targets",
                f"the Narrator names who {action.name} reaches",
                allowed="targets: exactly one participant" if action.targets == "one" else "targets",
            )
        given = tuple(WorldTarget(combatant=c.id) for c in tx.state.combatants.values() if c.status != "dead")
    if action.targets == "one" and len(given) != 1:
        raise RuleError(
            "world-action/targets", f"{action.name} reaches a single participant, not {len(given)}", allowed="exactly one target"
        )
    seen: set[str] = set()
    for t in given:
        c = tx.combatant(t.combatant)
        if c.status == "dead" or c.id in seen:
            raise RuleError(
                "world-action/targets",
                f"{c.name} is {'dead' if c.status == 'dead' else 'named twice'}",
                allowed="living participants, each once",
            )
        problem = struck_already(tx.state, action.name, c)
        if problem:
            raise RuleError("world-action/already-struck", problem, allowed="another participant")
        if t.reduced and action.reduced_damage is None:
            raise RuleError("world-action/not-reduced", f"nothing reduces {action.name}", allowed="reduced: false")
        seen.add(c.id)
    return list(given)


def _saves(tx: Tx, action: WorldAction, targets: list[WorldTarget]) -> list[WorldTarget]:
    """Everyone reached, or those who failed the save when there is one."""
    if action.save is None or action.dc is None:
        for t in targets:
            if t.faces is not None:
                raise RuleError("dice/unused-faces", f"{action.name} calls for no save", allowed="no faces")
        return targets
    failed = []
    for t in targets:
        c: Combatant = tx.state.combatants[t.combatant]
        bonus = t.save_bonus if t.save_bonus is not None else (c.con_save if action.save == "constitution" else 0)
        mode = "normal"
        if action.save == "dexterity":
            bonus += COVER_SAVE[t.cover]
            mode = "advantage" if is_dodging(tx.state, c.id) else "normal"  # Dodge: Dexterity saves with advantage
        save = saving_throw(tx, c.id, action.save, action.dc, bonus, mode, t.faces, reason=action.name)
        if not save.success:
            failed.append(t)
    return failed


def _damage(tx: Tx, action: WorldAction, affected: list[WorldTarget], cmd: UseWorldAction) -> None:
    """Damage is rolled once for everyone it reaches (once more for those it reaches reduced)."""
    for reduced, notation, faces in (
        (False, action.damage, cmd.damage_faces),
        (True, action.reduced_damage, cmd.reduced_damage_faces),
    ):
        hit = [t for t in affected if t.reduced == reduced]
        if not hit or notation is None or action.damage_type is None:
            if faces is not None:
                raise RuleError(
                    "dice/unused-faces", f"no {'reduced ' if reduced else ''}damage roll is owed", allowed="no damage faces"
                )
            continue
        rolled = max(0, tx.roll(notation, purpose=f"{action.name} damage", roller="world", faces=faces).total)
        for t in hit:
            before = tx.state.combatants[t.combatant]
            amount = adjusted_damage(before, rolled, action.damage_type)
            tx.emit(
                DamageTaken(target=t.combatant, amount=amount, damage_type=action.damage_type, rolled=rolled, source=action.name)
            )
            after_damage(tx, t.combatant, amount, before=before)


def _summon(tx: Tx, action: WorldAction, cmd: UseWorldAction) -> None:
    summon = action.summon
    assert summon is not None
    spec = summon.creature
    existing = tx.state.combatants
    n = 1 + sum(1 for cid in existing if cid.startswith(f"{spec.id}-"))
    cid = f"{spec.id}-{n}"
    name = spec.name if n == 1 else f"{spec.name} {n}"
    if summon.looks_like_random_participant:
        candidates = sorted(c.id for c in existing.values() if c.status != "dead")
        pick = tx.roll(f"1d{len(candidates)}", purpose="random participant", roller="world", faces=cmd.pick_faces)
        name = f"{spec.name} of {existing[candidates[pick.total - 1]].name}"
    elif cmd.pick_faces is not None:
        raise RuleError("dice/unused-faces", f"{action.name} picks no random participant", allowed="no pick faces")
    # "hostile to everyone": each newcomer is a side of its own.
    tx.emit(CombatantAdded(combatant=msgspec.structs.replace(spec, id=cid, name=name, side=cid, group=None)))
    if summon.initiative is not None:
        if cmd.initiative_faces is not None:
            raise RuleError("dice/unused-faces", f"{name} arrives at initiative {summon.initiative}", allowed="no faces")
        total = summon.initiative
    else:
        total = tx.roll(
            f"1d20{spec.initiative_bonus:+d}", purpose="initiative (dexterity)", roller=cid, faces=cmd.initiative_faces
        ).total
    set_initiative(tx, (cid,), total)


def _recharge(tx: Tx, action: WorldAction, faces: Faces) -> None:
    assert action.recharge is not None
    roll = tx.roll("1d6", purpose=f"{action.name} recharge", roller="world", faces=faces)
    tx.emit(RechargeRolled(action=action.name, needed=action.recharge, rolled=roll.total, regained=roll.total >= action.recharge))


def _roll_recharge(tx: Tx, cmd: RollRecharge) -> None:
    _env, action = _find(tx, cmd.action)
    spent = tx.state.rules.spent
    problem = nothing_to_recharge(tx.state, action.name)
    if problem:
        raise RuleError("world-action/not-spent", problem, allowed="spent world actions: " + (", ".join(spent) or "none"))
    if spent[action.name] >= tx.state.round:
        raise RuleError(
            "world-action/rolled",
            f"{action.name} has had its recharge roll this round",
            allowed="roll again at the start of the next round",
        )
    _recharge(tx, action, cmd.faces)


def _on_used(state: EncounterState, e: WorldActionUsed) -> EncounterState:
    notes = state.rules
    used = notes.world_used + 1 if notes.world_round == state.round else 1
    changes: dict = {"world_round": state.round, "world_used": used}
    if e.recharge is not None:
        changes["spent"] = {**notes.spent, e.action: state.round}
    env = notes.environment
    action = env.world_action(e.action) if env else None
    if action is not None and action.once_per_target:
        changes["struck"] = {**notes.struck, e.action: notes.struck.get(e.action, ()) + e.targets}
    return with_rules(state, **changes)


def _on_recharge(state: EncounterState, e: RechargeRolled) -> EncounterState:
    spent = dict(state.rules.spent)
    if e.regained:
        spent.pop(e.action, None)
    else:
        spent[e.action] = state.round
    return with_rules(state, spent=spent)


def _used(n, e: WorldActionUsed) -> str:
    on = f" on {', '.join(n.name(t) for t in e.targets)}" if e.targets else ""
    return f"The world acts: {e.action}{on}"


RULES = Rules(
    handlers={UseWorldAction: _use, RollRecharge: _roll_recharge},
    appliers={
        WorldActionUsed: _on_used,
        RechargeRolled: _on_recharge,
        WorldEffectSuffered: lambda state, e: state,
    },
    narration={
        WorldActionUsed: _used,
        RechargeRolled: lambda n, e: (
            f"{e.action} recharge: {e.rolled} (needs {e.needed}+) - " + ("regained" if e.regained else "still spent")
        ),
        WorldEffectSuffered: lambda n, e: f"{n.name(e.combatant)} {e.effect} ({e.action})",
    },
)
