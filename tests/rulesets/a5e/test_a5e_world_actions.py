"""a5e rounds and world actions: the environment acts at the start of every round."""

from __future__ import annotations

from combat.common.events import DamageTaken, SaveMade
from combat.fivee.action_commands import Move, TakeAction
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import BeginCombat, EndTurn
from combat.kernel.events import (
    CombatantAdded,
    ConditionApplied,
    DiceRolled,
    InitiativeSet,
    PhaseChanged,
    RoundEnded,
    RoundStarted,
    TurnStarted,
)
from combat.rulesets.a5e.environments import ENVIRONMENTS
from combat.rulesets.a5e.initiative import RollOff
from combat.rulesets.a5e.rounds import EndWorldStep
from combat.rulesets.a5e.scene import SetScene
from combat.rulesets.a5e.world_actions import (
    RechargeRolled,
    RollRecharge,
    UseWorldAction,
    WorldActionUsed,
    WorldEffectSuffered,
    WorldTarget,
)
from tests.helpers import Table, monster, of_type, pc


def fight(environment: str | None, *specs, **settings) -> Table:
    """Aria (initiative 15) and a goblin (5), plus `specs` rolling 10, 9, 8..., in `environment`."""
    t = Table(ruleset="a5e", settings=settings or None).add(pc("aria", con_save=3), monster("goblin"), *specs)
    if environment:
        t.do(SetScene(environment=environment))
    t.do(BeginCombat())
    faces = {"aria": 15, "goblin": 5} | {s.id: 10 - i for i, s in enumerate(specs)}
    for cid, face in faces.items():
        t.do(RollInitiative(combatant=cid, faces=(face,)))
    return t


def next_round(t: Table) -> None:
    """Every participant ends its turn; the new round opens."""
    while t.state.phase == "turns":
        t.do(EndTurn(combatant=t.state.turn))
        if of_type(t.events[-3:], RoundStarted):
            return


def on(cid: str, face: int, **kw) -> tuple[WorldTarget, ...]:
    return (WorldTarget(combatant=cid, faces=(face,), **kw),)


def test_the_nine_example_environments_ship_as_data_with_their_saves_dcs_and_damage():
    """'CAVERNOUS ... FIERY ... Flame Burst (Recharge 4-6). A single participant makes a DC 12
    Dexterity saving throw or they take 1d12 fire damage.'"""
    assert sorted(ENVIRONMENTS) == ["cavernous", "fiery", "forested", "frigid", "furnished", "hazy", "rocky", "stormy", "swampy"]
    flame = ENVIRONMENTS["fiery"].world_action("Flame Burst")
    assert (flame.recharge, flame.targets, flame.save, flame.dc, flame.damage, flame.damage_type) == (
        4,
        "one",
        "dexterity",
        12,
        "1d12",
        "fire",
    )
    chill = ENVIRONMENTS["frigid"].world_action("cold chill")
    assert (chill.dc, chill.damage, chill.reduced_damage) == (15, "2d6", "1d6")
    assert ENVIRONMENTS["stormy"].world_action("lightning strike").once_per_target
    assert ENVIRONMENTS["hazy"].world_action("shadow puppet").summon.initiative == 20
    assert ENVIRONMENTS["rocky"].world_action("falling rocks").recharge == 5
    assert not ENVIRONMENTS["cavernous"].world_actions and not ENVIRONMENTS["furnished"].world_actions
    assert ENVIRONMENTS["cavernous"].bonuses[1].damage == "2d6"  # stalactites


def test_world_actions_come_at_the_start_of_every_round_before_any_turn():
    """'World Actions ... occurs at the start of a round before the participants take their turns
    ... End of Round. When everyone has taken their turn, the initiative round repeats at step 1.'"""
    t = fight("fiery")
    assert (t.state.phase, t.state.round, t.state.turn) == ("world", 1, None)
    t.rejects(Move(combatant="aria", feet=5), "phase/not-allowed")
    events = t.do(EndWorldStep())
    assert events[0] == PhaseChanged(previous="world", phase="turns")
    assert of_type(events, TurnStarted)[0].combatant == "aria"
    t.do(EndTurn(combatant="aria"))
    events = t.do(EndTurn(combatant="goblin"))
    assert [type(e) for e in events[-3:]] == [RoundEnded, RoundStarted, PhaseChanged]
    assert (t.state.phase, t.state.round, t.state.turn) == ("world", 2, None)


def test_a_scene_without_world_actions_goes_straight_to_the_turns():
    """Cavernous lists world bonuses and penalties but no world actions."""
    t = fight("cavernous")
    assert (t.state.phase, t.state.turn) == ("turns", "aria")
    t.rejects(UseWorldAction(action="Stalactites"), "phase/not-allowed")


def test_flame_burst_records_the_targets_save_and_damage():
    """'A single participant makes a DC 12 Dexterity saving throw or they take 1d12 fire damage.'"""
    t = fight("fiery")
    events = t.do(UseWorldAction(action="flame burst", targets=on("aria", 7), damage_faces=(9,), recharge_faces=(5,)))
    [used] = of_type(events, WorldActionUsed)
    assert used.action == "Flame Burst" and used.targets == ("aria",)
    assert of_type(events, SaveMade)[0].total == 7 and not of_type(events, SaveMade)[0].success
    assert of_type(events, DamageTaken) == [
        DamageTaken(target="aria", amount=9, damage_type="fire", rolled=9, source="Flame Burst")
    ]
    assert t["aria"].hp == 11
    assert t.rebuilt() == t.state


def test_a_save_against_a_world_action_takes_no_damage_and_cover_adds_to_dexterity_saves():
    """'Half cover provides you with a +2 bonus to AC, Dexterity saving throws'."""
    t = fight("fiery")
    events = t.do(UseWorldAction(action="Flame Burst", targets=on("goblin", 10, cover="half"), recharge_faces=(6,)))
    assert of_type(events, SaveMade)[0].total == 12 and of_type(events, SaveMade)[0].success
    assert not of_type(events, DamageTaken) and t["goblin"].hp == 7


def test_a_dodging_participant_makes_its_dexterity_save_with_advantage():
    """Dodge: 'you make Dexterity saving throws with advantage.'"""
    t = fight("fiery")
    t.do(EndWorldStep())
    t.do(TakeAction(combatant="aria", action="dodge"))
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant="goblin"))
    events = t.do(
        UseWorldAction(action="Flame Burst", targets=(WorldTarget(combatant="aria", faces=(4, 13)),), recharge_faces=(6,))
    )
    [save] = of_type(events, SaveMade)
    assert save.total == 13 and save.success
    assert of_type(events, DiceRolled)[0].notation == "2d20kh1+0"


def test_a_spent_world_action_cannot_be_used_again_before_it_recharges():
    """'After the environment uses a world action with a recharge, the Narrator rolls 1d6. On a
    result equal to or greater than the listed number, the environment regains its world action.
    Otherwise at the start of each round the Narrator repeats the roll.'"""
    t = fight("fiery")
    events = t.do(UseWorldAction(action="Flame Burst", targets=on("goblin", 18), recharge_faces=(3,)))
    assert of_type(events, RechargeRolled) == [RechargeRolled(action="Flame Burst", needed=4, rolled=3, regained=False)]
    t.do(EndWorldStep())
    next_round(t)
    t.rejects(UseWorldAction(action="Flame Burst", targets=on("goblin", 18)), "world/recharge-owed")
    t.rejects(EndWorldStep(), "world/recharge-owed")
    [_, rolled] = t.do(RollRecharge(action="Flame Burst", faces=(2,)))
    assert not rolled.regained
    t.rejects(RollRecharge(action="Flame Burst", faces=(6,)), "world-action/rolled")
    t.rejects(UseWorldAction(action="Flame Burst", targets=on("goblin", 18)), "world-action/spent")


def test_a_spent_world_action_returns_when_a_later_rounds_roll_meets_its_number():
    """'... at the start of each round the Narrator repeats the roll until the environment
    regains the world action.'"""
    t = fight("fiery")
    t.do(UseWorldAction(action="Flame Burst", targets=on("goblin", 18), recharge_faces=(1,)))
    t.do(EndWorldStep())
    next_round(t)
    t.do(RollRecharge(action="Flame Burst", faces=(3,)))
    t.do(EndWorldStep())
    next_round(t)
    [_, regained] = t.do(RollRecharge(action="Flame Burst", faces=(4,)))
    assert regained.regained and t.state.rules.spent == {}
    events = t.do(UseWorldAction(action="Flame Burst", targets=on("aria", 2), damage_faces=(5,), recharge_faces=(6,)))
    assert of_type(events, DamageTaken)[0].amount == 5
    t.rejects(RollRecharge(action="Flame Burst", faces=(6,)), "world-action/not-spent")


def test_a_table_can_wait_for_the_next_round_to_roll_the_recharge():
    """Setting: the recharge roll first comes at the start of the next round."""
    t = fight("fiery", recharge_roll_after_use=False)
    events = t.do(UseWorldAction(action="Flame Burst", targets=on("goblin", 18)))
    assert not of_type(events, RechargeRolled) and "Flame Burst" in t.state.rules.spent
    t.do(EndWorldStep())
    next_round(t)
    t.do(RollRecharge(action="Flame Burst", faces=(4,)))
    t.do(UseWorldAction(action="Flame Burst", targets=on("aria", 15)))


def test_the_environment_takes_one_world_action_a_round_unless_the_table_says_more():
    """'The world gets its own turn to enact these moving parts in the form of a world action.'"""
    t = fight("fiery")
    t.do(UseWorldAction(action="Flame Burst", targets=on("goblin", 18), recharge_faces=(6,)))
    t.rejects(UseWorldAction(action="Sweltering Heat"), "world/acted")
    generous = fight("fiery", world_actions_per_round=2)
    generous.do(UseWorldAction(action="Flame Burst", targets=on("goblin", 18), recharge_faces=(6,)))
    generous.do(UseWorldAction(action="Sweltering Heat", targets=on("aria", 15) + on("goblin", 15)))


def test_sweltering_heat_reaches_every_participant_and_fatigues_those_who_fail():
    """'Sweltering Heat. All participants make a DC 10 Constitution saving throw or suffer one
    level of fatigue.' Without bonuses entered, Aria adds her Constitution save (+3)."""
    t = fight("fiery")
    events = t.do(UseWorldAction(action="Sweltering Heat", targets=on("aria", 6) + on("goblin", 9)))
    assert [(s.combatant, s.total, s.success) for s in of_type(events, SaveMade)] == [("aria", 9, False), ("goblin", 9, False)]
    assert [c.target for c in of_type(events, ConditionApplied)] == ["aria", "goblin"]
    assert t["aria"].has("fatigue")
    everyone = fight("fiery")
    events = everyone.do(UseWorldAction(action="Sweltering Heat"))  # all participants, dice from the seed
    assert [s.combatant for s in of_type(events, SaveMade)] == ["aria", "goblin"]


def test_cold_chill_deals_less_damage_to_those_in_cold_weather_gear():
    """'All participants make a DC 15 Constitution saving throw or take 2d6 cold damage. This
    damage is reduced to 1d6 if they are wearing cold weather gear.'"""
    t = fight("frigid")
    targets = on("aria", 2, reduced=True) + on("goblin", 3)
    events = t.do(
        UseWorldAction(action="Cold Chill", targets=targets, damage_faces=(4, 3), reduced_damage_faces=(2,), recharge_faces=(6,))
    )
    assert [(d.target, d.amount) for d in of_type(events, DamageTaken)] == [("goblin", 7), ("aria", 2)]
    t2 = fight("fiery")
    t2.rejects(UseWorldAction(action="Flame Burst", targets=on("aria", 2, reduced=True)), "world-action/not-reduced")


def test_lightning_cannot_strike_the_same_participant_twice():
    """'They cannot be targeted by this action again until Turn-Based Action ends.'"""
    t = fight("stormy")
    t.do(UseWorldAction(action="Lightning Strike", targets=on("aria", 12), recharge_faces=(5,)))
    t.do(EndWorldStep())
    next_round(t)
    t.rejects(UseWorldAction(action="Lightning Strike", targets=on("aria", 12)), "world-action/already-struck")
    events = t.do(
        UseWorldAction(action="Lightning Strike", targets=on("goblin", 3), damage_faces=(1, 1, 1, 1), recharge_faces=(1,))
    )
    assert t["goblin"].hp == 3 and of_type(events, DamageTaken)[0].rolled == 4


def test_a_single_participant_action_needs_exactly_one_target_and_chosen_ones_need_naming():
    """'A single participant ...'; 'Participants near a treacherous cliffside ...'"""
    t = fight("stormy")
    t.rejects(UseWorldAction(action="Forceful Gale"), "world-action/targets")
    t.rejects(UseWorldAction(action="Forceful Gale", targets=on("aria", 3) + on("goblin", 3)), "world-action/targets")
    t.rejects(UseWorldAction(action="Thunder"), "world-action/unknown")
    rocky = fight("rocky")
    rocky.rejects(UseWorldAction(action="Falling Rocks"), "world-action/targets")


def test_forceful_gale_pushes_a_participant_who_fails_its_strength_save():
    """'A single participant makes a DC 12 Strength saving throw or they are pushed 15 feet in one
    direction. This movement does not provoke opportunity attacks.'"""
    t = fight("stormy")
    events = t.do(UseWorldAction(action="Forceful Gale", targets=on("goblin", 4)))
    [pushed] = of_type(events, WorldEffectSuffered)
    assert pushed.combatant == "goblin" and pushed.effect.startswith("is pushed 15 feet")


def test_swamp_gas_poisons_those_in_the_mud_until_the_end_of_their_next_turn():
    """'Participants in mud make a DC 10 Constitution saving throw or are poisoned until the end
    of their next turn.'"""
    t = fight("swampy")
    t.do(UseWorldAction(action="Swamp Gas", targets=on("goblin", 2)))
    assert t["goblin"].has("poisoned")
    t.do(EndWorldStep())
    t.do(EndTurn(combatant="aria"))
    assert t["goblin"].has("poisoned")
    t.do(EndTurn(combatant="goblin"))
    assert not t["goblin"].has("poisoned")


def test_shadow_puppet_brings_a_shadow_hostile_to_everyone_at_initiative_20():
    """'A shadow that looks identical to a random participant in the haze manifests and is
    hostile to everyone (initiative 20).'"""
    t = fight("hazy")
    events = t.do(UseWorldAction(action="Shadow Puppet", pick_faces=(1,), recharge_faces=(2,)))
    [pick] = [d for d in of_type(events, DiceRolled) if d.purpose == "random participant"]
    assert pick.notation == "1d2"
    [added] = of_type(events, CombatantAdded)
    assert added.combatant.name == "Shadow of Aria" and added.combatant.side == "shadow-1"
    assert of_type(events, InitiativeSet) == [InitiativeSet(combatants=("shadow-1",), total=20)]
    events = t.do(EndWorldStep())
    assert of_type(events, TurnStarted)[0].combatant == "shadow-1"  # it acts before Aria at 15
    assert t.rebuilt() == t.state


def test_leeches_rise_from_the_swamp_and_roll_their_initiative():
    """'A swarm of insects (leeches) rises out of the swamp to attack any creature in the marsh.'"""
    t = fight("swampy")
    events = t.do(UseWorldAction(action="Leeches", initiative_faces=(9,), recharge_faces=(6,)))
    assert of_type(events, CombatantAdded)[0].combatant.name == "Swarm of Leeches"
    assert of_type(events, InitiativeSet)[0].total == 10
    assert t.state.combatants["leeches-1"].side == "leeches-1"


def test_a_newcomer_tied_with_a_count_already_in_play_acts_after_it():
    """Where the text is silent: those already at the count may have acted this round, so the
    shadow arriving at 20 goes after the participant already at 20 (no roll-off mid-round)."""
    t = Table(ruleset="a5e").add(pc("aria"), pc("bron"), monster("goblin"))
    t.do(SetScene(environment="hazy"))
    t.do(BeginCombat())
    for cid, face in {"aria": 20, "bron": 20, "goblin": 3}.items():
        t.do(RollInitiative(combatant=cid, faces=(face,)))
    t.do(RollOff(faces=(4, 17)))  # Bron first, then Aria
    t.do(UseWorldAction(action="Shadow Puppet", pick_faces=(3,), recharge_faces=(1,)))
    assert t.ruleset.turn_order(t.state, False) == ["bron", "aria", "shadow-1", "goblin"]
    assert t.state.combatants["shadow-1"].name == "Shadow of Goblin"
