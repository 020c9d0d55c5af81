"""A scripted a5e fight, played through the application like a Narrator would, any seed.

Bandits lie in wait for three adventurers in a burning mill. The Narrator sets a fiery scene,
calls Perception checks against the bandits' Stealth (those checks become initiative), and at
the start of every round the mill itself acts: Flame Burst whenever it is charged, a recharge
roll while it is spent (this table rolls recharge at the start of the next round, setting
`recharge_roll_after_use: false`, so the burst always waits at least a round). The script
decides what each participant does from the current state; the dice come from the
encounter's seed, so the same seed gives the same fight.

The table argues twice, as tables do: the mill's first burst is taken back (its target stands
at the door, out of the flames' reach) and goes to the next participant; and the first time
the burst recharges, the recharge die is disputed and the roll amended, which leaves the burst
that followed in conflict with the rules until the Narrator lets it stand by ruling.
"""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

import msgspec

from combat.app.application import Encounters, Outcome
from combat.common.condition_effects import is_incapacitated
from combat.demos.cast import ARIA, LYRA, TOMAS
from combat.demos.table import DemoTable, healing_word, make_owed_saves, standing_foes, weakest_foe
from combat.fivee.action_commands import Move, TakeAction
from combat.fivee.attack_commands import Attack, OpportunityAttack
from combat.fivee.held_open import opportunities_of
from combat.fivee.initiative import RollInitiative, unresolved_ties
from combat.fivee.monster_actions import Multiattack
from combat.fivee.monsters import AddCreature
from combat.kernel.commands import AddCombatant, BeginCombat, Command, EndCombat, EndTurn
from combat.kernel.records import Recorded
from combat.kernel.state import Combatant
from combat.rulesets.a5e.actions import FreeAction
from combat.rulesets.a5e.attacks import MakeAttack
from combat.rulesets.a5e.initiative import RollOff
from combat.rulesets.a5e.maneuvers import FallBack, PressTheAttack, Tumble
from combat.rulesets.a5e.rounds import EndWorldStep
from combat.rulesets.a5e.scene import SetScene
from combat.rulesets.a5e.sprint import Sprint
from combat.rulesets.a5e.surprise import SurpriseCheck
from combat.rulesets.a5e.world_actions import (
    RechargeRolled,
    RollRecharge,
    UseWorldAction,
    WorldTarget,
    owed_recharges,
)

__all__ = ["run_demo", "DEMO_PARTY", "DEMO_BANDITS"]

MAX_ROUNDS = 12
FLAME_BURST = "Flame Burst"
RECHARGE_REROLLED = 2  # below Flame Burst's 4-6

# At this table Lyra is Small, and her Shortsword is listed before her Shortbow.
DEMO_PARTY = (ARIA, TOMAS, msgspec.structs.replace(LYRA, size="small", attacks=LYRA.attacks[::-1]))
# The SRD 5.2 Bandit Captain and three Bandits (bandit-1 to bandit-3), by name from the bestiary.
DEMO_BANDITS = (
    AddCreature(creature="Bandit Captain", side="bandits", id_prefix="captain"),
    AddCreature(creature="Bandit", count=3, side="bandits", id_prefix="bandit"),
)
# Dexterity saves (Flame Burst), Perception and Stealth, which the stat blocks above do not carry.
DEX_SAVE = {"aria": 1, "tomas": 0, "lyra": 6, "captain": 5, "bandit-1": 1, "bandit-2": 1, "bandit-3": 1}
PERCEPTION = {"aria": 1, "tomas": 5, "lyra": 3}
STEALTH = {"captain": 5, "bandit-1": 3, "bandit-2": 3, "bandit-3": 3}


class _Table(DemoTable):
    """The Narrator's table: owed concentration saves are made at once."""

    def __init__(self, encounters: Encounters, encounter_id: UUID, report: Callable[[Outcome], None]):
        super().__init__(encounters, encounter_id, report)
        self.disputed = False  # has the table argued over a recharge roll yet

    def after(self, outcome: Outcome, *, command: bool) -> None:
        make_owed_saves(self, outcome)


def run_demo(encounters: Encounters, *, seed: int, report: Callable[[Outcome], None]) -> UUID:
    # This table plays 0 HP as the recorded session did (replays/a5e-burning-mill.jsonl): a
    # character stays down until healed, with no Death Saving Throws to shift the seeded dice.
    encounter_id = encounters.create(
        "a5e", "Ambush in the burning mill", seed=seed, settings={"recharge_roll_after_use": False, "death_saves": False}
    )
    table = _Table(encounters, encounter_id, report)
    for spec in DEMO_PARTY:
        table(AddCombatant(combatant=spec))
    for arrival in DEMO_BANDITS:
        table(arrival)
    table(
        SetScene(
            environment="fiery",
            description="The mill is ablaze; flames leap from the grain bins.",
            positions={
                "aria": "at the door",
                "tomas": "behind Aria",
                "lyra": "on the stair",
                "captain": "by the millstone",
                "bandit-1": "in the loft",
                "bandit-2": "in the loft",
                "bandit-3": "behind the grain bins",
            },
        )
    )
    table(BeginCombat())
    # The bandits hide among the sacks; each adventurer's Perception is checked against the
    # captain's Stealth. Every one of these checks is kept as that participant's initiative.
    stealth = table(SurpriseCheck(combatant="captain", check="dexterity (stealth)", bonus=STEALTH["captain"]))
    dc = stealth.records[-1].event.total
    for cid in ("bandit-1", "bandit-2", "bandit-3"):
        table(SurpriseCheck(combatant=cid, check="dexterity (stealth)", bonus=STEALTH[cid]))
    for cid, bonus in PERCEPTION.items():
        table(SurpriseCheck(combatant=cid, check="wisdom (perception)", bonus=bonus, dc=dc))
    table(RollInitiative())
    while unresolved_ties(table.state):
        table(RollOff(total=unresolved_ties(table.state)[0].total))
    while table.state.phase in ("world", "turns"):
        state = table.state
        if state.round > MAX_ROUNDS:
            table(EndCombat(reason="the bandits throw down their blades and flee the flames", winner="party"))
            break
        if state.phase == "world":
            _world(table)
        else:
            _play_turn(table, state.combatants[state.turn])  # type: ignore[index]
    return encounter_id


def _world(table: _Table) -> None:
    regained = []
    for action in owed_recharges(table.state):
        outcome = table(RollRecharge(action=action))
        regained += [r for r in outcome.records if isinstance(r.event, RechargeRolled) and r.event.regained]
    state = table.state
    if FLAME_BURST not in state.rules.spent:
        # The flames leap from bin to bin: each round they reach the next participant standing.
        standing = sorted(c.id for c in state.combatants.values() if c.status == "active")
        pick = (state.round - 1) % len(standing)
        _flame_burst(table, standing[pick])
        if state.round == 1:
            # The table argues: the first burst went to someone out of the flames' reach.
            target = state.combatants[standing[pick]]
            where = state.rules.positions.get(target.id, "elsewhere")
            table.undo(f"{target.name} is {where}, out of reach of the burning grain bins")
            _flame_burst(table, standing[(pick + 1) % len(standing)])
        elif regained and not table.disputed:
            _recharge_disputed(table, regained[0])
    if table.state.phase == "world":
        table(EndWorldStep())


def _flame_burst(table: _Table, cid: str) -> Outcome:
    return table(UseWorldAction(action=FLAME_BURST, targets=(WorldTarget(combatant=cid, save_bonus=DEX_SAVE.get(cid, 0)),)))


def _recharge_disputed(table: _Table, regained: Recorded) -> None:
    """The first time the burst comes back, a player protests: the recharge die landed cocked
    against a tankard. The Narrator amends the roll to the die rolled again on the table (a 2:
    still spent), so the burst that followed could not have happened; the flames had already
    leapt, so the Narrator lets it stand by ruling."""
    table.disputed = True
    outcome = table.amend(
        regained.seq,
        RollRecharge(action=FLAME_BURST, faces=(RECHARGE_REROLLED,)),
        reason=f"the recharge die landed cocked against a tankard; rolled again it shows {RECHARGE_REROLLED}",
    )
    table.let_stand(outcome, ruling="the flames had already leapt from the bins: the burst stands")


def _play_turn(table: _Table, c: Combatant) -> None:
    if c.surprised:
        # "Surprised creatures are unable to move or take an action on their first turn."
        table(FreeAction(combatant=c.id, description="shouts a warning through the smoke"))
    elif not is_incapacitated(c) and c.status == "active":
        {"aria": _aria, "tomas": _tomas, "lyra": _lyra, "captain": _captain}.get(c.id, _bandit)(table, c.id)
    if table.state.phase == "turns" and table.state.turn == c.id:
        table(EndTurn(combatant=c.id))


def _attack_all(table: _Table, cid: str, make: Callable[[Combatant], Command]) -> None:
    """Use every attack of the Attack action on the weakest foe standing."""
    while table.state.phase == "turns":
        me = table.state.combatants[cid]
        if not (me.economy.action or me.economy.attacks_left) or is_incapacitated(me):
            return
        target = weakest_foe(table.state, me)
        if target is None:
            return
        table(make(target))


def _aria(table: _Table, cid: str) -> None:
    state = table.state
    captain = state.combatants["captain"]
    target = captain if captain.status == "active" else weakest_foe(state, state.combatants[cid])
    if target is None:
        return
    if not any(p.target == target.id for p in state.rules.presses):
        # Press the Attack: an expertise die on her sword, at the price of being easier to hit.
        table(PressTheAttack(combatant=cid, target=target.id))
        foe = table.state.combatants[target.id]
        if foe.id == "captain" and foe.hp < foe.max_hp // 2 and foe.economy.reaction:
            table(FallBack(combatant=foe.id))
    table(Move(combatant=cid, feet=10))
    tomas = table.state.combatants["tomas"]
    flank = "tomas" if tomas.status == "active" and not is_incapacitated(tomas) else None
    while table.state.phase == "turns":
        me = table.state.combatants[cid]
        foe = table.state.combatants[target.id]
        if foe.status != "active":
            weakest = weakest_foe(table.state, me)
            if weakest is None:
                return
            foe = weakest
        if not (me.economy.action or me.economy.attacks_left):
            return
        table(MakeAttack(attacker=cid, target=foe.id, flanking_with=flank if foe.id == target.id else None))


def _tomas(table: _Table, cid: str) -> None:
    state = table.state
    healing_word(table, cid, "1d4+3")
    if state.round <= 2 and state.combatants[cid].concentration is None:
        table(TakeAction(combatant=cid, action="cast a spell", detail="Bless on Aria and Lyra", concentration=True))
        return
    blessed = state.combatants[cid].concentration is not None
    _attack_all(table, cid, lambda t: Attack(attacker=cid, target=t.id, roll_bonus="1d4" if blessed else None))


def _lyra(table: _Table, cid: str) -> None:
    state = table.state
    me = state.combatants[cid]
    bandit = next((f for f in standing_foes(state, me) if f.id != "captain"), None)
    blessed = state.combatants["tomas"].concentration is not None
    if bandit is not None and state.round % 2 == 0:
        # She dives through a bandit's space to reach the captain's flank (she is Small).
        table(Tumble(combatant=cid, through=bandit.id, dc=11, save_bonus=6, acrobatics=True, bonus_action=True))
        _attack_all(
            table,
            cid,
            lambda t: MakeAttack(attacker=cid, target=t.id, attack="Shortsword", roll_bonus="1d4" if blessed else None),
        )
        return
    table(TakeAction(combatant=cid, action="hide", bonus=7, dc=13, bonus_action=True))
    _attack_all(
        table,
        cid,
        lambda t: MakeAttack(attacker=cid, target=t.id, attack="Shortbow", distance=40, roll_bonus="1d4" if blessed else None),
    )


def _captain(table: _Table, cid: str) -> None:
    # "The bandit makes two attacks, using Scimitar and Pistol in any combination."
    table(Multiattack(attacker=cid))
    _attack_all(table, cid, lambda t: MakeAttack(attacker=cid, target=t.id, attack="Scimitar"))


def _bandit(table: _Table, cid: str) -> None:
    state = table.state
    me = state.combatants[cid]
    lyra = state.combatants["lyra"]
    if cid == "bandit-3" and state.round == 1 and lyra.status == "active":
        # It sprints across the mill floor at the archer: 120 feet, nothing else this turn.
        table(Sprint(combatant=cid))
        table(Move(combatant=cid, feet=60))
        return
    aria = state.combatants["aria"]
    if me.hp <= 4 and aria.status == "active" and aria.economy.reaction and not aria.surprised:
        # Badly burnt, it backs out of Aria's reach and provokes her opportunity attack.
        outcome = table(Move(combatant=cid, feet=20, leaves_reach_of=("aria",)))
        if ("aria", cid) in opportunities_of(outcome.state):
            table(OpportunityAttack(attacker="aria", target=cid))
        if table.state.combatants[cid].status == "active":
            _attack_all(table, cid, lambda t: MakeAttack(attacker=cid, target=t.id, attack="Light Crossbow", distance=25))
        return
    table(Move(combatant=cid, feet=10))
    _attack_all(table, cid, lambda t: MakeAttack(attacker=cid, target=t.id, attack="Scimitar"))
