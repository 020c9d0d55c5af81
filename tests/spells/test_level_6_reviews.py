"""Level 6 spells as their reviewed entries cast them (combat/spells/reviewed/level_6.json),
where the review changed what the draft did, each with the SRD 5.2 sentence it checks and
every face entered.

Vesna is a level 17 Wizard (Intelligence 20: spell save DC 19; one level 6 slot, so a second
casting takes the level 7), Ilse a level 17 Cleric (122 Hit Points), Rook a level 17 Druid.
Bandits are Humanoids (11 HP, +0 to every save but Dexterity's +1)."""

from __future__ import annotations

from combat.common.commands import Damage
from combat.common.events import DamageTaken, Healed, SaveMade
from combat.fivee.casts import CastSpell, SpellCast
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionApplied
from tests.helpers import Table, against, of_type, spellcaster, turn_of

WIZARD = spellcaster(
    "Vesna", "Wizard", 17, "Chain Lightning", "Eyebite", "Flesh to Stone", "Freezing Sphere", "Sunbeam", "Wall of Ice"
)
CLERIC = spellcaster("Ilse", "Cleric", 17, "Heal")
DRUID = spellcaster("Rook", "Druid", 17, "Conjure Fey")


def table(caster=WIZARD, count: int = 5) -> Table:
    return against(caster, "Bandit", count)


def test_heal_restores_seventy_hit_points_and_ten_more_per_slot_level():
    """Heal: "Positive energy washes through the target, restoring 70 Hit Points." - "The
    healing increases by 10 for each spell slot level above 6." No dice: nothing to enter."""
    t = table(CLERIC, count=2)
    t.do(Damage(target="ilse", amount=100, damage_type="slashing"))
    events = t.do(CastSpell(caster="ilse", spell="Heal", targets=("ilse",), damage_faces=((),)))
    assert [(e.target, e.amount) for e in of_type(events, Healed)] == [("ilse", 70)]
    assert of_type(events, SpellCast)[0].manual == ()  # the conditions it ends: tests/spells/test_restoration_spells.py
    t.do(EndTurn(combatant="ilse"))
    turn_of(t, "ilse")
    t.do(Damage(target="ilse", amount=90, damage_type="slashing"))
    events = t.do(CastSpell(caster="ilse", spell="Heal", slot_level=7, targets=("ilse",)))
    assert [(e.target, e.amount) for e in of_type(events, Healed)] == [("ilse", 80)]


def test_chain_lightning_reaches_four_targets_each_saving_against_one_roll():
    """Chain Lightning: "You launch a lightning bolt toward a target ... Three bolts then leap
    from that target to as many as three other targets of your choice ... Each target makes a
    Dexterity saving throw, taking 10d8 Lightning damage on a failed save or half as much
    damage on a successful one." """
    t = table()
    five = tuple(f"bandit-{i}" for i in range(1, 6))
    t.rejects(CastSpell(caster="vesna", spell="Chain Lightning", targets=five), "spell/targets")
    events = t.do(
        CastSpell(
            caster="vesna",
            spell="Chain Lightning",
            targets=five[:4],
            save_faces={"bandit-1": (2,), "bandit-2": (3,), "bandit-3": (4,), "bandit-4": (20,)},
            damage_faces=((1,) * 10,),
        )
    )
    assert [s.success for s in of_type(events, SaveMade)] == [False, False, False, True]
    assert [(e.target, e.rolled, e.amount, e.damage_type) for e in of_type(events, DamageTaken)] == [
        ("bandit-1", 10, 10, "lightning"),
        ("bandit-2", 10, 10, "lightning"),
        ("bandit-3", 10, 10, "lightning"),
        ("bandit-4", 10, 5, "lightning"),
    ]


def test_eyebite_lands_the_chosen_effect_and_outlasts_a_success():
    """Eyebite: "One creature ... must succeed on a Wisdom saving throw or be affected by one
    of the following effects of your choice for the duration." Asleep: "The target has the
    Unconscious condition." "On each of your turns until the spell ends, you can take a Magic
    action to target another creature": a success leaves the spell, and the concentration, on
    (here cast anew with the level 7 slot: the engine has no later Magic action for it)."""
    t = table()
    t.rejects(CastSpell(caster="vesna", spell="Eyebite", targets=("bandit-1",)), "spell/option")
    events = t.do(
        CastSpell(caster="vesna", spell="Eyebite", option="asleep", targets=("bandit-1",), save_faces={"bandit-1": (2,)})
    )
    assert [e.condition.name for e in of_type(events, ConditionApplied)] == ["unconscious"]
    assert "It wakes up if it takes any damage" in of_type(events, SpellCast)[0].manual[-1]
    t.do(EndTurn(combatant="vesna"))
    turn_of(t, "vesna")
    events = t.do(
        CastSpell(
            caster="vesna",
            spell="Eyebite",
            option="sickened",
            slot_level=7,
            targets=("bandit-2",),
            save_faces={"bandit-2": (20,)},
        )
    )
    assert of_type(events, ConditionApplied) == [] and t["vesna"].concentration == "Eyebite"


def test_wall_of_ice_deals_cold_and_two_more_dice_per_slot_level():
    """Wall of Ice: "... makes a Dexterity saving throw, taking 10d6 Cold damage on a failed
    save or half as much damage on a successful one." - "The damage the wall deals when it
    appears increases by 2d6 ... for each spell slot level above 6." """
    t = table()
    events = t.do(
        CastSpell(
            caster="vesna",
            spell="Wall of Ice",
            slot_level=7,
            targets=("bandit-1",),
            save_faces={"bandit-1": (2,)},
            damage_faces=((1,) * 12,),
        )
    )
    assert [(e.rolled, e.damage_type) for e in of_type(events, DamageTaken)] == [(12, "cold")]


def test_sunbeam_spares_its_caster_and_blinds_until_the_casters_next_turn():
    """Sunbeam: "Each creature in the Line makes a Constitution saving throw. On a failed save,
    a creature takes 6d8 Radiant damage and has the Blinded condition until the start of your
    next turn." The Line starts at the caster."""
    t = table()
    t.rejects(CastSpell(caster="vesna", spell="Sunbeam", targets=("vesna", "bandit-1")), "spell/targets")
    events = t.do(
        CastSpell(
            caster="vesna", spell="Sunbeam", targets=("bandit-1",), save_faces={"bandit-1": (20,)}, damage_faces=((1,) * 6,)
        )
    )
    assert [(e.amount, e.damage_type) for e in of_type(events, DamageTaken)] == [(3, "radiant")]
    # No Blinded; only Vesna's marker, for the new Line she may call later (spell_effect).
    assert [(e.target, e.condition.name) for e in of_type(events, ConditionApplied)] == [("vesna", "sunbeam")]


def test_freezing_sphere_restrains_no_one_when_it_explodes():
    """Freezing Sphere: "Each creature in that area makes a Constitution saving throw, taking
    10d6 Cold damage on failed save or half as much damage on a successful one." Only
    "Creatures that were swimming on the surface of frozen water" are Restrained."""
    t = table()
    events = t.do(
        CastSpell(
            caster="vesna",
            spell="Freezing Sphere",
            targets=("bandit-1", "vesna"),
            save_faces={"bandit-1": (2,), "vesna": (20,)},
            damage_faces=((1,) * 10,),
        )
    )
    assert [(e.target, e.amount) for e in of_type(events, DamageTaken)] == [("bandit-1", 10), ("vesna", 5)]
    assert of_type(events, ConditionApplied) == []


def test_flesh_to_stone_restrains_on_a_failure_and_lapses_on_a_success():
    """Flesh to Stone: "On a failed save, it has the Restrained condition for the duration. On a
    successful save, its Speed is 0 until the start of your next turn." Its end-of-turn saves
    count to three of a kind (the GM's), so no single success ends the Restrained condition."""
    t = table()
    events = t.do(CastSpell(caster="vesna", spell="Flesh to Stone", targets=("bandit-1",), save_faces={"bandit-1": (2,)}))
    assert [e.condition.name for e in of_type(events, ConditionApplied)] == ["restrained"]
    assert not t["bandit-1"].conditions[0].save  # no repeat that ends it on one success
    t.do(EndTurn(combatant="vesna"))
    turn_of(t, "vesna")
    events = t.do(
        CastSpell(caster="vesna", spell="Flesh to Stone", slot_level=7, targets=("bandit-2",), save_faces={"bandit-2": (20,)})
    )
    assert of_type(events, ConditionApplied) == [] and t["vesna"].concentration is None


def test_conjure_fey_deals_nothing_when_cast():
    """Conjure Fey: "When the spirit appears, you can make one melee spell attack against a
    creature within 5 feet of it. On a hit, the target takes Psychic damage equal to 3d12 plus
    your spellcasting ability modifier": an attack the GM resolves, not damage at casting."""
    t = table(DRUID)
    events = t.do(CastSpell(caster="rook", spell="Conjure Fey", targets=("bandit-1",)))
    assert of_type(events, DamageTaken) == [] and of_type(events, ConditionApplied) == []
    assert t["rook"].concentration == "Conjure Fey"
    assert "melee spell attack" in of_type(events, SpellCast)[0].manual[0]  # a narrative spell: its text
