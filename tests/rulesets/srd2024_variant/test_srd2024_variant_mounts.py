"""srd-2024-variant Mounted Combat: mounting Δ costs the mount's size in movement.

"During your move, you can mount an entity that is within 5 feet of you or dismount. Doing so
costs an amount of movement equal to the entity size. For example: if your Speed is 30 feet,
and the entity you mount is of size Large, you spend 10 feet of movement to mount them."
"""

from combat.common.commands import ApplyCondition, Damage
from combat.fivee.action_commands import TakeAction
from combat.fivee.action_events import Moved
from combat.fivee.attack_commands import Attack
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionSpec, InitiativeSet, TurnStarted
from combat.rulesets.srd2024_variant.mounts import (
    Carried,
    Dismount,
    Dismounted,
    Mount,
    Mounted,
    SaveToStayMounted,
    StayedMounted,
    UnseatSaveRequired,
)
from combat.rulesets.srd2024_variant.movement import Traverse
from combat.rulesets.srd2024_variant.traits import NoteTraits
from combat.rulesets.srd2024_variant.unarmed import UnarmedStrike
from tests.helpers import Table, monster, of_type, pc


def _stable(*extra, horse: dict | None = None, trained: bool = True) -> Table:
    """Bran (18) beside his warhorse (Large, Speed 60, 4), a goblin (10) and a pony (Small)."""
    t = Table("srd-2024-variant", settings={"initiative_reorder": False})
    t.add(pc("bran"), monster("horse", side="party", size="large", speed=60, max_hp=19, **(horse or {})))
    t.add(monster("goblin"), monster("pony", side="party", size="small"), *extra)
    t.do(NoteTraits(combatant="horse", trained_mount=trained))
    t.do(NoteTraits(combatant="goblin", strength=2, proficiency=2))
    return t.start({"bran": 18, "goblin": 10, "horse": 4, "pony": 2, **{s.id: 1 for s in extra}})


def test_mounting_a_large_horse_costs_ten_feet_of_movement():
    """'the entity you mount is of size Large, you spend 10 feet (3m) of movement to mount them.'"""
    t = _stable()
    events = t.do(Mount(rider="bran", mount="horse"))
    assert of_type(events, Mounted) == [Mounted(rider="bran", mount="horse", controlled=True, cost=10)]
    assert t["bran"].economy.moved == 10


def test_dismounting_costs_the_same():
    t = _stable()
    t.do(Mount(rider="bran", mount="horse"))
    t.do(Dismount(rider="bran"))
    assert t["bran"].economy.moved == 20 and not t.state.rules.mounts


def test_mounting_without_the_movement_left_is_refused():
    t = _stable()
    t.do(Traverse(combatant="bran", feet=25))
    t.rejects(Mount(rider="bran", mount="horse"), "economy/movement")


def test_a_mount_must_be_at_least_one_size_larger_than_its_rider():
    """'A willing entity that is at least one size larger than a rider ... can serve as a mount.'"""
    t = _stable()
    t.rejects(Mount(rider="bran", mount="pony"), "mount/too-small")


def test_a_foe_is_not_a_willing_mount():
    t = _stable(monster("warg", size="large"))
    t.rejects(Mount(rider="bran", mount="warg", controlled=False), "mount/unwilling")


def test_only_a_trained_mount_can_be_controlled():
    """'You can control a mount only if it has been trained to accept a rider.'"""
    t = _stable(trained=False)
    t.rejects(Mount(rider="bran", mount="horse"), "mount/untrained")
    t.do(Mount(rider="bran", mount="horse", controlled=False))
    assert t["horse"].initiative == 4  # 'an independent mount ... retains its place'


def test_a_controlled_mount_takes_its_riders_initiative_and_moves_on_the_riders_turn():
    """'The Initiative of a controlled mount changes to match yours when you mount it. It moves
    on your turn as you direct it.'"""
    t = _stable()
    events = t.do(Mount(rider="bran", mount="horse"))
    assert of_type(events, InitiativeSet) == [InitiativeSet(combatants=("horse",), total=18)]
    events = t.do(Traverse(combatant="horse", feet=60))
    assert of_type(events, Carried) == [Carried(rider="bran", mount="horse", feet=60)]
    assert t.ruleset.turn_order(t.state, False) == ["bran", "horse", "goblin", "pony"]
    t.do(EndTurn(combatant="bran"))
    t.do(EndTurn(combatant="goblin"))
    events = t.do(EndTurn(combatant="pony"))
    # No turn of its own: the round goes from the pony back to Bran, and the horse is fresh again.
    assert [e.combatant for e in of_type(events, TurnStarted)] == ["bran"]
    assert t["horse"].economy.moved == 0 and t["horse"].economy.movement == 60
    assert t.rebuilt() == t.state


def test_a_controlled_mount_can_only_dash_disengage_or_dodge():
    """'it has only three action options during that turn: Dash, Disengage, and Dodge.'"""
    t = _stable()
    t.do(Mount(rider="bran", mount="horse"))
    t.do(TakeAction(combatant="horse", action="dash"))
    assert t["horse"].economy.movement == 120
    t.rejects(TakeAction(combatant="horse", action="hide"), "mount/controlled-actions")
    t.rejects(Attack(attacker="horse", target="goblin", faces=(20,)), "mount/controlled-actions")


def test_the_rider_moves_only_with_the_mount():
    t = _stable()
    t.do(Mount(rider="bran", mount="horse"))
    t.rejects(Traverse(combatant="bran", feet=5), "mount/riding")


def test_a_rider_knocked_prone_saves_or_falls_off():
    """'While mounted, you must make the same save if you're knocked Prone': DC 10 Dexterity."""
    t = _stable()
    t.do(Mount(rider="bran", mount="horse"))
    t.do(EndTurn(combatant="bran"))
    events = t.do(UnarmedStrike(attacker="goblin", target="bran", option="shove", faces=(3,)))
    assert of_type(events, UnseatSaveRequired)[0].reason == "rider knocked prone"
    t.rejects(EndTurn(combatant="goblin"), "turn/pending-save")
    events = t.do(SaveToStayMounted(rider="bran", bonus=1, faces=(8,)))
    assert of_type(events, Dismounted)[0].reason == "fell off"
    assert t["bran"].has("prone") and not t.state.rules.mounts
    t.do(EndTurn(combatant="goblin"))


def test_a_rider_who_saves_keeps_the_saddle():
    t = _stable()
    t.do(Mount(rider="bran", mount="horse"))
    t.do(ApplyCondition(target="bran", condition=ConditionSpec(name="prone")))
    events = t.do(SaveToStayMounted(rider="bran", bonus=1, faces=(9,)))
    assert of_type(events, StayedMounted) and not t["bran"].has("prone")


def test_pushing_the_mount_makes_its_rider_save():
    """'If an effect is about to move your mount against its will while you're on it, you must
    succeed on a DC 10 Dexterity saving throw or fall off.'"""
    t = _stable()
    t.do(Mount(rider="bran", mount="horse"))
    t.do(EndTurn(combatant="bran"))
    events = t.do(UnarmedStrike(attacker="goblin", target="horse", option="shove", shove="push", faces=(1,)))
    assert of_type(events, UnseatSaveRequired)[0].reason == "mount moved against its will"


def test_a_mount_dropping_to_zero_throws_its_rider():
    t = _stable()
    t.do(Mount(rider="bran", mount="horse"))
    t.do(Damage(target="horse", damage_type="slashing", amount=30))
    t.do(SaveToStayMounted(rider="bran", faces=(15,)))
    assert not t.state.rules.mounts and not t["bran"].has("prone")


def test_a_rider_can_start_the_fight_mounted():
    """'Establish Positions': a knight rides in; no movement is spent before the fight."""
    t = Table("srd-2024-variant", settings={"initiative_reorder": False})
    t.add(pc("bran"), monster("horse", side="party", size="large"), monster("goblin"))
    t.do(NoteTraits(combatant="horse", trained_mount=True))
    t.do(Mount(rider="bran", mount="horse"))
    t.start({"bran": 7, "goblin": 12})
    assert t["horse"].initiative == 7 and t.state.turn == "goblin"
    t.do(EndTurn(combatant="goblin"))
    assert t.state.turn == "bran"
    assert of_type(t.do(Traverse(combatant="horse", feet=30)), Moved)[0].combatant == "horse"
