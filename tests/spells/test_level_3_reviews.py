"""Level 3 spells as their reviewed entries cast them (combat/spells/reviewed/level_3.json),
where the review changed what the draft did, each with the SRD 5.2 sentence it checks and
every face entered.

Vesna is a level 17 Wizard (Intelligence 20: spell save DC 19, spell attack +11), Ilse a level
9 Cleric (Wisdom 18: DC 16, +4 to healing), Rook a level 9 Druid. Bandits are Humanoids (11 HP, +0 to every save
but Dexterity's +1)."""

from __future__ import annotations

from combat.common.commands import Damage
from combat.common.effect_bonuses import effect_ac_bonus
from combat.common.events import ConcentrationEnded, DamageTaken, Healed, SaveMade
from combat.fivee.casts import CastSpell, SpellCast
from combat.kernel.commands import EndTurn
from tests.helpers import Table, against, next_turn, of_type, spellcaster

WIZARD = spellcaster(
    "Vesna", "Wizard", 17, "Bestow Curse", "Counterspell", "Fireball", "Hypnotic Pattern", "Sleet Storm", "Slow", "Stinking Cloud"
)
CLERIC = spellcaster("Ilse", "Cleric", 9, "Mass Healing Word", "Revivify", "Beacon of Hope")
DRUID = spellcaster("Rook", "Druid", 9, "Conjure Animals", "Meld into Stone", "Plant Growth")


def table(caster=WIZARD, count: int = 3) -> Table:
    return against(caster, "Bandit", count)


def test_bestow_curse_deals_no_damage_when_cast_and_the_curse_is_chosen():
    """Bestow Curse: "You touch a creature, which must succeed on a Wisdom saving throw or
    become cursed for the duration. Until the curse ends, the target suffers one of the
    following effects of your choice: ... If you deal damage to the target with an attack roll
    or a spell, the target takes an extra 1d8 Necrotic damage." The 1d8 is a curse on later
    hits, not damage at casting; the curse is named in `option`, and a target that succeeds
    leaves nothing to concentrate on."""
    t = table()
    t.rejects(CastSpell(caster="vesna", spell="Bestow Curse", targets=("bandit-1",)), "spell/option")
    events = t.do(
        CastSpell(caster="vesna", spell="Bestow Curse", option="necrotic", targets=("bandit-1",), save_faces={"bandit-1": (3,)})
    )
    assert [s.success for s in of_type(events, SaveMade)] == [False] and of_type(events, DamageTaken) == []
    assert "extra 1d8 Necrotic damage" in of_type(events, SpellCast)[0].manual[-1]
    assert t["vesna"].concentration == "Bestow Curse"
    next_turn(t, "vesna")
    events = t.do(
        CastSpell(caster="vesna", spell="Bestow Curse", option="attacks", targets=("bandit-2",), save_faces={"bandit-2": (19,)})
    )
    # the first curse ends as the new one is cast; the second ends with its target's success
    assert [e.effect for e in of_type(events, ConcentrationEnded)] == ["Bestow Curse", "Bestow Curse"]
    assert t["vesna"].concentration is None


def test_stinking_cloud_and_sleet_storm_ask_no_save_when_cast():
    """Stinking Cloud: "Each creature that starts its turn in the Sphere must succeed on a
    Constitution saving throw or have the Poisoned condition until the end of the current
    turn." Sleet Storm: "When a creature enters the Cylinder for the first time on a turn or
    starts its turn there, it must succeed on a Dexterity saving throw or have the Prone
    condition". Casting either over the Bandits poisons and topples no one yet."""
    t = table()
    for spell in ("Stinking Cloud", "Sleet Storm"):
        events = t.do(CastSpell(caster="vesna", spell=spell, targets=("bandit-1", "bandit-2")))
        assert of_type(events, SaveMade) == [] and t["vesna"].concentration == spell
        assert not t["bandit-1"].conditions and not t["bandit-2"].conditions
        next_turn(t, "vesna")


def test_slow_gives_minus_2_ac_to_those_who_fail_and_lapses_when_all_succeed():
    """Slow: "Each target must succeed on a Wisdom saving throw or be affected by this spell
    for the duration. An affected target's Speed is halved, it takes a -2 penalty to AC".
    Bandit 1 fails (a 4) and is 2 easier to hit; Bandit 2 succeeds (a 19) and is not. Cast
    again at one Bandit that succeeds, nothing is slowed and the concentration ends."""
    t = table()
    t.do(
        CastSpell(
            caster="vesna", spell="Slow", targets=("bandit-1", "bandit-2"), save_faces={"bandit-1": (4,), "bandit-2": (19,)}
        )
    )
    assert (effect_ac_bonus(t["bandit-1"]), effect_ac_bonus(t["bandit-2"])) == (-2, 0)
    slow = t["bandit-1"].conditions[0]
    assert (slow.name, slow.concentration, slow.rounds) == ("slow", "vesna", 10)
    t2 = table(count=1)
    events = t2.do(CastSpell(caster="vesna", spell="Slow", targets=("bandit",), save_faces={"bandit": (19,)}))
    assert [e.effect for e in of_type(events, ConcentrationEnded)] == ["Slow"]


def test_hypnotic_pattern_charms_those_who_fail_and_lapses_when_all_succeed():
    """Hypnotic Pattern: "The pattern appears for a moment and vanishes. Each creature in the
    area who can see the pattern must succeed on a Wisdom saving throw or have the Charmed
    condition for the duration." A Bandit failing (a 2) is Charmed while Vesna concentrates;
    when every creature succeeds, nothing is left and the concentration ends."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Hypnotic Pattern", targets=("bandit-1",), save_faces={"bandit-1": (2,)}))
    assert t["bandit-1"].has("charmed") and t["vesna"].concentration == "Hypnotic Pattern"
    t2 = table()
    events = t2.do(
        CastSpell(
            caster="vesna",
            spell="Hypnotic Pattern",
            targets=("bandit-1", "bandit-2"),
            save_faces={"bandit-1": (19,), "bandit-2": (20,)},
        )
    )
    assert [e.effect for e in of_type(events, ConcentrationEnded)] == ["Hypnotic Pattern"]


def test_fireball_may_hold_its_caster_and_counterspell_rolls_the_casters_constitution_save():
    """Fireball: "Each creature in a 20-foot-radius Sphere centered on that point makes a
    Dexterity saving throw": the point is the caster's choice, so the caster may stand in it.
    Counterspell: "The creature makes a Constitution saving throw", cast as a Reaction: the
    save is rolled (a Bandit's 5 against DC 19 fails); what a failure undoes is the GM's."""
    t = table()
    events = t.do(
        CastSpell(
            caster="vesna",
            spell="Fireball",
            targets=("vesna", "bandit-1"),
            save_faces={"vesna": (20,), "bandit-1": (20,)},
            damage_faces=((1,) * 8,),
        )
    )
    assert [(e.target, e.amount) for e in of_type(events, DamageTaken)] == [("vesna", 4), ("bandit-1", 4)]
    t.do(EndTurn(combatant="vesna"))
    events = t.do(CastSpell(caster="vesna", spell="Counterspell", targets=("bandit-1",), save_faces={"bandit-1": (5,)}))
    assert [(s.ability, s.success) for s in of_type(events, SaveMade)] == [("constitution", False)]
    assert "the slot isn't expended" in " ".join(of_type(events, SpellCast)[0].manual)


def test_mass_healing_word_heals_six_and_no_more():
    """Mass Healing Word: "Up to six creatures of your choice that you can see within range
    regain Hit Points equal to 2d4 plus your spellcasting ability modifier." A seventh is
    refused; Ilse herself, wounded by 10, regains 2d4 (1, 1) + 4 = 6."""
    t = table(CLERIC, count=6)
    t.rejects(
        CastSpell(caster="ilse", spell="Mass Healing Word", targets=("ilse", *(f"bandit-{i}" for i in range(1, 7)))),
        "spell/targets",
    )
    t.do(Damage(target="ilse", amount=10, damage_type="slashing"))
    events = t.do(CastSpell(caster="ilse", spell="Mass Healing Word", targets=("ilse",), damage_faces=((1, 1),)))
    assert [(e.target, e.amount) for e in of_type(events, Healed)] == [("ilse", 6)]


def test_conjure_animals_meld_into_stone_and_plant_growth_do_nothing_when_cast_but_start_their_spell():
    """Conjure Animals: "Whenever the pack moves within 10 feet of a creature ... you can force
    that creature to make a Dexterity saving throw. On a failed save, the creature takes 3d10
    Slashing damage": no save and no damage as the pack appears. Meld into Stone: "If expelled,
    you move into an unoccupied space closest to where you first entered and have the Prone
    condition": Rook is not Prone for stepping into the stone. Plant Growth: "The casting time
    you use determines whether the spell has the Overgrowth or the Enrichment effect below":
    its Overgrowth is an action, cast in a fight."""
    t = table(DRUID)
    events = t.do(CastSpell(caster="rook", spell="Conjure Animals", targets=("bandit-1",)))
    assert of_type(events, SaveMade) == [] and of_type(events, DamageTaken) == []
    assert t["rook"].concentration == "Conjure Animals"
    next_turn(t, "rook")
    events = t.do(CastSpell(caster="rook", spell="Meld into Stone"))
    assert of_type(events, DamageTaken) == [] and not t["rook"].has("prone")
    next_turn(t, "rook")
    assert [e.spell for e in of_type(t.do(CastSpell(caster="rook", spell="Plant Growth")), SpellCast)] == ["Plant Growth"]


def test_beacon_of_hope_asks_no_save_of_any_number_of_creatures():
    """Beacon of Hope: "Choose any number of creatures within range. For the duration, each
    target has Advantage on Wisdom saving throws and Death Saving Throws". No save, and more
    than one creature."""
    t = table(CLERIC)
    events = t.do(CastSpell(caster="ilse", spell="Beacon of Hope", targets=("ilse", "bandit-1", "bandit-2")))
    assert of_type(events, SaveMade) == [] and of_type(events, SpellCast)[0].targets == ("ilse", "bandit-1", "bandit-2")
