"""What a healing spell ends or restores beyond Hit Points rolled (issue 31, items 1 and 2): a
reviewed entry's `restores` (combat/spells/model.py `Restoration`). `check` runs before anything
is spent, `restore` after the spell's healing.

- Lesser Restoration: "You touch a creature and end one condition on it: Blinded, Deafened,
  Paralyzed, or Poisoned." The caster names the condition in `option`; one left out, not in
  the list, or not on the target, is refused.
- Greater Restoration: "magically remove one of the following effects from it: 1 Exhaustion
  level; The Charmed or Petrified condition; ...": `option` "exhaustion" (one level off),
  "charmed" or "petrified"; a curse, an ability score or a Hit Point maximum is the GM's, so
  the option may be left out (a spell whose text leaves the GM nothing else needs it named).
- Heal: "This spell also ends the Blinded, Deafened, and Poisoned conditions on the target."
- Power Word Heal: "The target regains all its Hit Points. If the creature has the Charmed,
  Frightened, Paralyzed, Poisoned, or Stunned condition, the condition ends. If the creature
  has the Prone condition, it can use its Reaction to stand up." `option` "stand up" is the
  target's choice to do so (its Reaction spent, Prone ended).
- Spare the Dying: "Choose a creature within range that has 0 Hit Points and isn't dead. The
  creature becomes Stable."
- Revivify: "You touch a creature that has died within the last minute. That creature revives
  with 1 Hit Point." A minute is 10 rounds: a creature that died in round R is revived through
  round R + 10 (combat/fivee/dying.py keeps the round); one dead longer, or not dead, is refused.

Every entry of a named condition ends (a creature poisoned twice is poisoned no more), and a
condition that came with another (Hypnotic Pattern's Incapacitated) ends with it
(combat/fivee/spell_conditions.py). A condition that set the Speed to 0 gives back the
movement of the turn it ends in, as the GM's `remove_condition` does.
"""

from __future__ import annotations

import msgspec

from combat.common.commands import Heal
from combat.common.condition_effects import EXHAUSTION, SPEED_ZERO, exhaustion_level
from combat.common.durations import ending
from combat.common.events import Healed
from combat.common.hitpoints import heal
from combat.common.regained_movement import restore_movement
from combat.fivee.action_events import ReactionTaken
from combat.fivee.actions import require_reaction
from combat.fivee.dying import CombatantStabilized, at_death_door, died_in, revive
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionApplied, ConditionEnded
from combat.kernel.state import Combatant
from combat.spells.model import Restoration, Spell

__all__ = ["takes_option", "check", "restore"]

STAND_UP = "stand up"


def takes_option(spell: Spell) -> bool:
    """The spell's `option` is read here, not among `options`."""
    r = spell.restores
    return r is not None and (r.one_of or r.stand_up)


def _choices(r: Restoration) -> tuple[str, ...]:
    return (*r.conditions, *((EXHAUSTION,) if r.exhaustion else ()))


def _picked(spell: Spell, option: str | None) -> str | None:
    r = spell.restores
    assert r is not None
    if option is None and r.one_of and not spell.manual:
        raise RuleError(
            "spell/option",
            f"{spell.name} ends one condition: name it",
            allowed="option: " + ", ".join(_choices(r)),
        )
    if option is None:
        return None
    name = option.strip().lower()
    allowed = _choices(r) if r.one_of else (STAND_UP,) if r.stand_up else ()
    if name not in allowed:
        raise RuleError(
            "spell/option",
            f"{spell.name} can't end '{option}'" if r.one_of else f"{spell.name} offers no choice '{option}'",
            allowed="option: " + (", ".join(allowed) if allowed else "none"),
        )
    return name


def check(tx: Tx, spell: Spell, targets: tuple[str, ...], option: str | None) -> None:
    """Refuse, before anything is spent, a casting the spell can't do to its targets."""
    r = spell.restores
    if r is None:
        return
    picked = _picked(spell, option)
    for tid in targets:
        target = tx.combatant(tid)
        if r.revive_within is not None:
            _check_revive(tx, spell, target, r.revive_within)
            continue
        if target.status == "dead":
            raise RuleError("target/dead", f"{target.name} is dead", allowed="a living creature")
        if r.stabilize and not at_death_door(tx.state, target):
            raise RuleError(
                "spell/not-dying",
                f"{target.name} is not at 0 Hit Points and dying"
                + (" (it is already Stable)" if target.hp == 0 and target.status == "unconscious" else ""),
                allowed="a creature at 0 Hit Points, not dead and not Stable",
            )
        if picked == STAND_UP:
            if not (target.has("prone") or target.status == "unconscious"):  # Unconscious: Prone once it wakes
                raise RuleError("prone/not-prone", f"{target.name} is not Prone", allowed="no option")
        elif picked is not None and not _has(target, picked):
            raise RuleError(
                "spell/no-condition",
                f"{target.name} has no {picked.title()}" + (" level" if picked == EXHAUSTION else " condition") + " to end",
                allowed="option: " + (", ".join(n for n in _choices(r) if _has(target, n)) or "none it has"),
            )


def _has(c: Combatant, name: str) -> bool:
    return exhaustion_level(c) > 0 if name == EXHAUSTION else c.has(name)


def _check_revive(tx: Tx, spell: Spell, target: Combatant, within: int) -> None:
    if target.status != "dead":
        raise RuleError("spell/not-dead", f"{target.name} is not dead", allowed="a creature that has died within the last minute")
    died = died_in(tx.state, target.id)
    now = max(tx.state.round, 1)
    if died is None or now - max(died, 1) > within:
        since = "" if died is None else f" (it died in round {max(died, 1)}, this is round {now})"
        raise RuleError(
            "spell/dead-too-long",
            f"{spell.name} revives a creature that has died within the last minute; {target.name} has been dead longer{since}",
            allowed=f"a creature that died within the last {within} rounds",
        )


def restore(tx: Tx, c: Combatant, spell: Spell, targets: tuple[str, ...], option: str | None) -> None:
    """The spell's restoration on each target, after its healing."""
    r = spell.restores
    if r is None:
        return
    picked = _picked(spell, option)
    for tid in targets:
        if r.revive_within is not None:
            # Alive first, then its 1 Hit Point: healing a dead creature is what the re-check
            # after a changed past reports as impossible.
            revive(tx, tid)
            tx.emit(Healed(target=tid, amount=1, source=c.id))
            continue
        if r.stabilize:
            tx.emit(CombatantStabilized(combatant=tid, reason=f"{c.name}'s {spell.name}"))
        if r.all_hit_points:
            target = tx.state.combatants[tid]
            heal(tx, Heal(target=tid, amount=target.max_hp - target.hp, source=c.id))
        if r.one_of:
            if picked is not None and picked != STAND_UP:
                _end(tx, tid, picked, spell)
        else:
            for name in r.conditions:
                _end(tx, tid, name, spell)
        if picked == STAND_UP:
            _stand(tx, tid, spell)


def _end(tx: Tx, tid: str, name: str, spell: Spell) -> None:
    reason = f"ended by {spell.name}"
    if name == EXHAUSTION:
        _one_exhaustion_level(tx, tid, reason)
        return
    for cond in [x for x in tx.state.combatants[tid].conditions if x.name == name]:
        bearer = tx.state.combatants[tid]
        if cond in bearer.conditions:
            tx.emit(ending(bearer, cond, reason))
    if name in SPEED_ZERO:
        restore_movement(tx, tid, reason=f"no longer {name}")


def _one_exhaustion_level(tx: Tx, tid: str, reason: str) -> None:
    """The levelled Exhaustion entry a level lower, or gone at level 1."""
    entry = next(x for x in tx.state.combatants[tid].conditions if x.name == EXHAUSTION and x.level is not msgspec.UNSET)
    assert entry.level is not msgspec.UNSET
    if entry.level > 1:
        tx.emit(ConditionApplied(target=tid, condition=msgspec.structs.replace(entry, level=entry.level - 1)))
    else:
        tx.emit(ConditionEnded(target=tid, condition=EXHAUSTION, reason=reason, entry=entry))
    restore_movement(tx, tid, reason="an Exhaustion level less")


def _stand(tx: Tx, tid: str, spell: Spell) -> None:
    """ "it can use its Reaction to stand up": its Reaction spent, Prone ended."""
    target = tx.state.combatants[tid]
    require_reaction(target)
    tx.emit(ReactionTaken(combatant=tid, description=f"stands up ({spell.name})"))
    for cond in [x for x in target.conditions if x.name == "prone"]:
        tx.emit(ending(tx.state.combatants[tid], cond, f"stood up with its Reaction ({spell.name})"))
