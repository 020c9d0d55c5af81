"""A scripted srd-2024 fight, played through the application like a GM would, any seed.

Goblins and a bugbear ambush three adventurers on a forest road. The script decides what
each combatant does from the current state; the dice come from the encounter's seed, so the
same seed gives the same fight.
"""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

from combat.app.application import Encounters, Outcome
from combat.common.commands import ApplyCondition, SavingThrow
from combat.common.condition_effects import is_incapacitated
from combat.demos.cast import ARIA, BUGBEAR, LYRA, TOMAS
from combat.demos.table import DemoTable, healing_word, make_owed_saves, play_rounds, weakest_foe
from combat.fivee.action_commands import Move, TakeAction
from combat.fivee.attack_commands import Attack, OpportunityAttack
from combat.fivee.attack_events import AttackMade
from combat.fivee.held_open import opportunities_of
from combat.fivee.initiative import OrderTie, RollInitiative, unresolved_ties
from combat.fivee.monsters import AddCreature
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn, MarkSurprised
from combat.kernel.events import ConditionSpec, DiceRolled
from combat.kernel.state import Combatant

__all__ = ["run_demo", "DEMO_PARTY", "DEMO_GOBLINS", "DEMO_MONSTERS"]

MAX_ROUNDS = 12
BLESSED = ("aria", "lyra")

DEMO_PARTY = (ARIA, TOMAS, LYRA)

# Three Goblin Warriors from the SRD 5.2 bestiary, one initiative group (goblin-1 to goblin-3).
DEMO_GOBLINS = AddCreature(creature="Goblin Warrior", count=3, side="goblins", group="goblins", id_prefix="goblin")
DEMO_MONSTERS = (BUGBEAR,)


class _Table(DemoTable):
    """The GM's table: owed concentration saves are made at once."""

    def after(self, outcome: Outcome, *, command: bool) -> None:
        make_owed_saves(self, outcome)


def run_demo(encounters: Encounters, *, seed: int, report: Callable[[Outcome], None]) -> UUID:
    encounter_id = encounters.create("srd-2024", "Ambush on the forest road", seed=seed)
    table = _Table(encounters, encounter_id, report)
    for spec in DEMO_PARTY:
        table(AddCombatant(combatant=spec))
    table(DEMO_GOBLINS)
    for spec in DEMO_MONSTERS:
        table(AddCombatant(combatant=spec))
    table(BeginCombat())
    # The goblins were hidden in the trees; Aria, at the front, never saw them coming.
    table(MarkSurprised(combatants=("aria", "tomas")))
    table(RollInitiative())
    while unresolved_ties(table.state):
        tie = unresolved_ties(table.state)[0]
        # The GM settles mixed ties; for players-only ties the players agree on the same order.
        order = tuple(table.state.combatants[unit[0]].unit for unit in tie.units)
        table(OrderTie(order=order))
    play_rounds(
        table, _play_turn, review=_review_round_one, max_rounds=MAX_ROUNDS, end_reason="the goblins scatter into the trees"
    )
    return encounter_id


def _review_round_one(table: _Table) -> None:
    """Between rounds the table argues: the first hit on a goblin came through the trees, so the
    GM amends it to an attack against half cover (+2 AC), rolled with the same dice. Anything
    that no longer fits (a goblin that now lives was skipped) the GM lets stand, by ruling."""
    records = list(table.encounters.records(table.id))
    undone = set(table.state.retracted)
    first_hit = next(
        (
            r
            for r in records
            if isinstance(r.event, AttackMade) and r.event.hit and r.event.target.startswith("goblin") and r.seq not in undone
        ),
        None,
    )
    if first_hit is None:
        return
    hit = first_hit.event
    rolled = next(
        r.event for r in reversed(records[: first_hit.seq - 1]) if isinstance(r.event, DiceRolled) and r.event.purpose == "attack"
    )
    outcome = table.amend(
        first_hit.seq,
        Attack(
            attacker=hit.attacker,
            target=hit.target,
            attack=hit.attack,
            cover="half",
            roll_bonus="1d4" if rolled.notation.endswith("+1d4") else None,
        ),
        reason=f"{table.state.combatants[hit.target].name} was behind a tree: half cover",
    )
    table.let_stand(outcome, ruling="what happened at the table stands")


def _play_turn(table: _Table, c: Combatant) -> None:
    if not is_incapacitated(c) and c.status == "active":
        {"tomas": _cleric, "lyra": _rogue, "bugbear": _bugbear}.get(c.id, _fighter)(table, c.id)
    if table.state.phase == "turns" and table.state.turn == c.id:
        table(EndTurn(combatant=c.id))


def _attack_all(table: _Table, cid: str, attack: str | None = None, prefer: str | None = None) -> None:
    """Use every attack of the Attack action on `prefer` while it stands, else the weakest foe."""
    while table.state.phase == "turns":
        me = table.state.combatants[cid]
        blessed = cid in BLESSED and table.state.combatants["tomas"].concentration is not None
        if not (me.economy.action or me.economy.attacks_left) or is_incapacitated(me):
            return
        preferred = table.state.combatants.get(prefer or "")
        target = preferred if preferred and preferred.status == "active" else weakest_foe(table.state, me)
        if target is None:
            return
        table(Attack(attacker=cid, target=target.id, attack=attack, roll_bonus="1d4" if blessed else None))


def _fighter(table: _Table, cid: str) -> None:
    me = table.state.combatants[cid]
    if cid == "aria" and table.state.round == 1:
        # Aria swings before closing the distance; the GM takes it back and she moves first.
        target = weakest_foe(table.state, me)
        if target is not None:
            table(Attack(attacker=cid, target=target.id))
            table.undo("Aria was still 10 ft away: she has to move first")
    # A wounded goblin tries to slip away from Aria and provokes her opportunity attack.
    aria = table.state.combatants["aria"]
    if me.group == "goblins" and me.hp <= 4 and aria.status == "active" and aria.economy.reaction:
        outcome = table(Move(combatant=cid, feet=30, leaves_reach_of=("aria",)))
        if ("aria", cid) in opportunities_of(outcome.state):
            table(OpportunityAttack(attacker="aria", target=cid))
        return
    table(Move(combatant=cid, feet=10))
    _attack_all(table, cid)


def _cleric(table: _Table, cid: str) -> None:
    state = table.state
    healing_word(table, cid, "2d4+3")
    if state.combatants[cid].concentration is None and state.round == 1:
        table(TakeAction(combatant=cid, action="magic", detail="Bless on Aria and Lyra", concentration=True))
        return
    bugbear = state.combatants["bugbear"]
    if state.round == 2 and bugbear.status == "active":
        table(TakeAction(combatant=cid, action="magic", detail="Command (Grovel) on the Bugbear", target="bugbear"))
        save = table(SavingThrow(combatant="bugbear", ability="wisdom", dc=13, bonus=0, reason="Command"))
        if not save.records[-1].event.success:
            table(
                ApplyCondition(
                    target="bugbear", condition=ConditionSpec(name="prone", source="tomas", ends="end", ends_on="bugbear")
                )
            )
        return
    if state.combatants[cid].hp <= state.combatants[cid].max_hp // 3:
        table(TakeAction(combatant=cid, action="dodge"))
        return
    _attack_all(table, cid)


def _rogue(table: _Table, cid: str) -> None:
    # Cunning Action: hide as a bonus action, then shoot from hiding with Advantage.
    table(TakeAction(combatant=cid, action="hide", bonus=7, bonus_action=True))
    _attack_all(table, cid, attack="Shortbow")


def _bugbear(table: _Table, cid: str) -> None:
    # It goes for the chanting cleric to break his concentration. Prone from Command, it
    # swings from the ground (with Disadvantage) until its turn ends.
    _attack_all(table, cid, prefer="tomas")
