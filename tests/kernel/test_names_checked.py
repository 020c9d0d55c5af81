"""Conditions and damage types are checked in all five rulesets: each declares its names,
matched whatever their case; an unknown name is refused with the list unless it is sent as
custom, which has no mechanical effect and says so. Old logs keep the spelling they hold."""

import pytest

from combat.common.commands import ApplyCondition, Damage, RemoveCondition
from combat.common.events import DamageTaken
from combat.fivee.attack_commands import Attack
from combat.kernel.commands import AddCombatant
from combat.kernel.decider import fold
from combat.kernel.events import ConditionApplied, ConditionSpec
from combat.rulesets import BUILT_IN, RULESETS
from combat.rulesets.declared_d10.wounds import D10Damage, D10DamageDealt
from tests.fivee.helpers import fight
from tests.helpers import Table, monster, of_type, pc
from tests.rulesets.declared_d10.helpers import duel
from tests.rulesets.segments_1e.helpers import fight as fight_1e
from tests.rulesets.segments_1e.helpers import fighter, orc

FIVE_E = ("srd-2024", "srd-2024-variant", "a5e")
# The five shipped rulesets (BUILT_IN), not whatever plug-in is installed: a plug-in need not
# know conditions or damage types at all (examples/twenty_one knows neither).


def started(ruleset: str) -> tuple[Table, str]:
    """A fight in each ruleset at the point where conditions may be applied; and a target."""
    if ruleset == "declared-d10":
        return duel(), "ogre"
    if ruleset == "segments-1e":
        return fight_1e(fighter(), orc(), d6={"party": 5, "orcs": 2}), "orc"
    return fight(ruleset, pc("aria"), monster("goblin", resistances=("fire",))), "goblin"


@pytest.mark.parametrize("ruleset", sorted(BUILT_IN))
def test_every_ruleset_declares_its_conditions_and_damage_types(ruleset):
    r = RULESETS[ruleset]
    assert r.conditions and r.damage_types
    assert all(n == n.lower() for n in r.conditions | r.damage_types)


@pytest.mark.parametrize("ruleset", sorted(BUILT_IN))
def test_a_condition_is_named_in_any_case_and_an_unknown_one_is_refused_with_the_list(ruleset):
    t, target = started(ruleset)
    known = "grappled"
    events = t.do(ApplyCondition(target=target, condition=ConditionSpec(name="  GRAPPLED ")))
    assert of_type(events, ConditionApplied)[0].condition.name == known and t[target].has(known)
    error = t.rejects(ApplyCondition(target=target, condition=ConditionSpec(name="grapled")), "condition/unknown")
    assert "grappled" in error.allowed and "custom: true" in error.allowed
    t.do(RemoveCondition(target=target, condition="Grappled", reason="let go"))
    assert not t[target].has(known)


@pytest.mark.parametrize("ruleset", sorted(BUILT_IN))
def test_a_custom_condition_is_recorded_as_custom_and_a_known_name_cannot_be_custom(ruleset):
    t, target = started(ruleset)
    events = t.do(ApplyCondition(target=target, condition=ConditionSpec(name="Hexed", source="the hag"), custom=True))
    applied = of_type(events, ConditionApplied)[0]
    assert applied.custom and applied.condition.name == "Hexed"
    t.rejects(ApplyCondition(target=target, condition=ConditionSpec(name="Grappled"), custom=True), "condition/not-custom")


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_prone_in_capitals_is_prone(ruleset):
    """Prone: 'An attack roll against you has Advantage if the attacker is within 5 feet of
    you.' `Prone` was accepted and did nothing while `prone` gave Advantage."""
    t, target = started(ruleset)
    t.do(ApplyCondition(target=target, condition=ConditionSpec(name="Prone")))
    assert t.do(Attack(attacker="aria", target=target, faces=(3, 17), damage_faces=(1,)))[-1].roll_mode == "advantage"


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_custom_condition_has_no_effect_on_an_attack(ruleset):
    t, target = started(ruleset)
    t.do(ApplyCondition(target=target, condition=ConditionSpec(name="marked"), custom=True))
    made = [
        e
        for e in t.do(Attack(attacker="aria", target=target, faces=(17,), damage_faces=(1,)))
        if type(e).__name__ == "AttackMade"
    ]
    assert made[0].roll_mode == "normal"


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_damage_type_in_any_case_meets_resistance_and_a_misspelt_one_is_refused(ruleset):
    """'Resistance halves it': a misspelt damage type silently skipped resistance."""
    t, target = started(ruleset)
    events = t.do(Damage(target=target, amount=6, damage_type="Fire"))
    assert of_type(events, DamageTaken)[0].amount == 3 and of_type(events, DamageTaken)[0].damage_type == "fire"
    error = t.rejects(Damage(target=target, amount=6, damage_type="fyre"), "damage-type/unknown")
    assert "fire" in error.allowed
    events = t.do(Damage(target=target, amount=2, damage_type="sonic", custom_type=True))
    assert of_type(events, DamageTaken)[0] == DamageTaken(target=target, amount=2, damage_type="sonic", rolled=2, custom=True)


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_stat_block_damage_type_is_checked_as_it_joins(ruleset):
    t = Table(ruleset=ruleset)
    t.do(AddCombatant(combatant=monster("imp", resistances=("Cold",))))
    assert t["imp"].resistances == ("cold",)
    t.rejects(AddCombatant(combatant=monster("imp-2", immunities=("poisen",))), "damage-type/unknown")


def test_declared_d10_checks_the_damage_type_the_gm_names_and_leaves_untyped_damage_alone():
    t = duel()
    assert of_type(t.do(D10Damage(targets=("ogre",), amount=3)), D10DamageDealt)[0].damage_type == ""
    assert of_type(t.do(D10Damage(targets=("ogre",), amount=3, damage_type="FIRE")), D10DamageDealt)[0].damage_type == "fire"
    t.rejects(D10Damage(targets=("ogre",), amount=3, damage_type="lava"), "damage-type/unknown")


def test_segments_1e_checks_the_damage_type_of_gm_damage():
    t, target = started("segments-1e")
    t.rejects(Damage(target=target, amount=3, damage_type="holy watr"), "damage-type/unknown")
    assert of_type(t.do(Damage(target=target, amount=3, damage_type="Magic")), DamageTaken)[0].damage_type == "magic"


def test_an_old_log_with_an_odd_spelling_replays_as_it_did():
    """Events keep the names they were recorded with: `Prone` folded from an old log stays
    `Prone`, with no Advantage, exactly as that log was played."""
    t, target = started("srd-2024")
    old = ConditionApplied(target=target, condition=ConditionSpec(name="Prone"))
    state = fold(t.ruleset, [old], t.state)
    assert [c.name for c in state.combatants[target].conditions] == ["Prone"]
    t.state = state
    assert t.do(Attack(attacker="aria", target=target, faces=(17,), damage_faces=(1,)))[-1].roll_mode == "normal"
