"""Level 5 spells as their reviewed entries cast them (combat/spells/reviewed/level_5.json),
where the review changed what the draft did, each with the SRD 5.2 sentence it checks and
every face entered.

Vesna is a level 17 Wizard (Intelligence 20: spell save DC 19, spell attack +11). Bandits are
Humanoids (11 HP, +0 to every save but Dexterity's +1)."""

from __future__ import annotations

from combat.common.events import SaveMade
from combat.fivee.attack_events import AttackMade
from combat.fivee.casts import CastSpell
from combat.kernel.commands import EndTurn
from tests.helpers import Table, against, of_type, spellcaster, turn_of

WIZARD = spellcaster(
    "Vesna", "Wizard", 17, "Arcane Hand", "Conjure Elemental", "Hold Monster", "Mislead", "Telekinesis", "Wall of Stone"
)


def table(count: int = 3) -> Table:
    return against(WIZARD, "Bandit", count)


def test_telekinesis_restrains_a_creature_only_until_the_end_of_the_casters_next_turn():
    """Telekinesis: "The target must succeed on a Strength saving throw, or you move it up to
    30 feet ... Until the end of your next turn, the creature has the Restrained condition."
    The creature or object use is named in `option`; the Restrained condition does not last
    the spell's 10 minutes (the draft's), and the object use imposes nothing."""
    t = table()
    t.rejects(CastSpell(caster="vesna", spell="Telekinesis", targets=("bandit-1",)), "spell/option")
    events = t.do(
        CastSpell(caster="vesna", spell="Telekinesis", option="creature", targets=("bandit-1",), save_faces={"bandit-1": (3,)})
    )
    assert [s.success for s in of_type(events, SaveMade)] == [False] and t["bandit-1"].has("restrained")
    t.do(EndTurn(combatant="vesna"))
    turn_of(t, "vesna")
    assert t["bandit-1"].has("restrained")  # through the caster's next turn
    t.do(EndTurn(combatant="vesna"))
    assert not t["bandit-1"].has("restrained") and t["vesna"].concentration == "Telekinesis"
    t2 = table()
    t2.do(CastSpell(caster="vesna", spell="Telekinesis", option="object", targets=("bandit-2",), save_faces={"bandit-2": (3,)}))
    assert not t2["bandit-2"].has("restrained")


def test_hold_monster_holds_one_more_creature_per_slot_level_above_5():
    """Hold Monster: "Choose a creature that you can see within range ... You can target one
    additional creature for each spell slot level above 5." Two at slot 6, not three."""
    t = table()
    t.rejects(
        CastSpell(caster="vesna", spell="Hold Monster", slot_level=6, targets=("bandit-1", "bandit-2", "bandit-3")),
        "spell/targets",
    )
    t.do(
        CastSpell(
            caster="vesna",
            spell="Hold Monster",
            slot_level=6,
            targets=("bandit-1", "bandit-2"),
            save_faces={"bandit-1": (3,), "bandit-2": (4,)},
        )
    )
    assert t["bandit-1"].has("paralyzed") and t["bandit-2"].has("paralyzed")


def test_wall_of_stone_and_arcane_hand_roll_nothing_when_cast():
    """Wall of Stone: "If a creature would be surrounded on all sides by the wall ..., that
    creature can make a Dexterity saving throw" - only then, not as the wall appears. Arcane
    Hand: "you can move the hand up to 60 feet and then cause one of the following effects" -
    four of them, the GM's; the draft's melee attack that Grappled on a hit is gone."""
    t = table()
    events = t.do(CastSpell(caster="vesna", spell="Wall of Stone", targets=("bandit-1",)))
    assert of_type(events, SaveMade) == [] and t["vesna"].concentration == "Wall of Stone"
    t.do(EndTurn(combatant="vesna"))
    turn_of(t, "vesna")
    events = t.do(CastSpell(caster="vesna", spell="Arcane Hand", targets=("bandit-1",)))
    assert of_type(events, AttackMade) == [] and not t["bandit-1"].has("grappled")


def test_conjure_elemental_restrains_no_one_as_the_spirit_appears():
    """Conjure Elemental: "Whenever a creature you can see enters the spirit's space or starts
    its turn within 5 feet of the spirit, you can force that creature to make a Dexterity
    saving throw" - later, as creatures near it; the draft Restrained a target at once."""
    t = table()
    events = t.do(CastSpell(caster="vesna", spell="Conjure Elemental", targets=("bandit-1",)))
    assert of_type(events, SaveMade) == [] and not t["bandit-1"].has("restrained")
    assert t["vesna"].concentration == "Conjure Elemental"


def test_mislead_makes_its_caster_invisible_while_it_lasts():
    """Mislead: "You gain the Invisible condition at the same time that an illusory double of
    you appears where you are standing." The Invisible condition ends with the concentration."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Mislead", targets=("vesna",)))
    assert t["vesna"].has("invisible") and t["vesna"].concentration == "Mislead"
    t.do(EndTurn(combatant="vesna"))
    turn_of(t, "vesna")
    t.do(CastSpell(caster="vesna", spell="Hold Monster", targets=("bandit-1",), save_faces={"bandit-1": (19,)}))
    assert not t["vesna"].has("invisible")
