"""Issue 31: what a spell does again later in the fight (`spell_effect`), each as the SRD 5.2
text says, at the level it was cast at, every face entered.

Vesna is a level 17 Wizard (Intelligence 20: +5, spell save DC 19, spell attack +11), Oren a
level 9 Druid (Wisdom 18: +4, DC 16, spell attack +8). Ogres: 68 HP, AC 11, Strength +4,
Dexterity -1, Constitution +3. Ilse, a level 11 Cleric (Wisdom 18: DC 16), casts Blade Barrier."""

from __future__ import annotations

from combat.common.commands import Damage, EndConcentration
from combat.common.events import DamageTaken, Healed, SaveMade
from combat.fivee.attack_events import AttackMade
from combat.fivee.casts import CastSpell
from combat.fivee.characters import AddCharacter
from combat.fivee.monsters import AddCreature
from combat.fivee.spell_effect_uses import SpellEffect
from combat.kernel.commands import EndTurn
from combat.kernel.events import DiceRolled
from tests.helpers import Table, against, next_turn, of_type, pc, spellcaster

WIZARD = spellcaster(
    "Vesna",
    "Wizard",
    17,
    "Cloudkill",
    "Stinking Cloud",
    "Web",
    "Vampiric Touch",
    "Acid Arrow",
    "Arcane Hand",
    "Incendiary Cloud",
    "Flaming Sphere",
    "Dragon's Breath",
    "Black Tentacles",
    "Sunbeam",
    "Arcane Sword",
    "Grease",
    "Sleet Storm",
    "Phantasmal Force",
    "Vitriolic Sphere",
)
PRIEST = spellcaster("Ilse", "Cleric", 11, "Blade Barrier")
DRUID = spellcaster(
    "Oren",
    "Druid",
    9,
    "Moonbeam",
    "Spike Growth",
    "Call Lightning",
    "Heat Metal",
    "Insect Plague",
    "Wall of Fire",
    "Entangle",
    "Flame Blade",
    "Conjure Animals",
    "Conjure Woodland Beings",
)


def table(caster=WIZARD, *, ally: bool = False) -> Table:
    """The caster first, then two Ogres (and Brann, a fighter of the party, last)."""
    return against(caster, "Ogre", 2, initiative=(20, 10), ally=pc("brann", max_hp=30) if ally else None)


def taken(events) -> list[tuple[str, int, str]]:
    return [(e.target, e.amount, e.damage_type) for e in of_type(events, DamageTaken)]


def saved(events) -> list[tuple[str, int, int, bool]]:
    return [(s.combatant, s.total, s.dc, s.success) for s in of_type(events, SaveMade)]


# -- zones: a creature entering, ending or starting its turn there; no action of the caster's --


def test_moonbeam_saves_a_creature_entering_the_cylinder_at_the_level_cast_on_its_turn():
    """Moonbeam: "A creature also makes this save when the spell's area moves into its space and
    when it enters the spell's area or ends its turn there." "The damage increases by 1d10 for
    each spell slot level above 2." Cast at 3rd: an Ogre walking in on its own turn fails
    (5 + 3 = 8 against 16) and takes 3d10 = 6 Radiant; Oren spends nothing."""
    t = table(DRUID)
    t.do(CastSpell(caster="oren", spell="Moonbeam", slot_level=3))
    next_turn(t, "ogre-1")
    before = t["oren"].economy
    events = t.do(
        SpellEffect(caster="oren", spell="Moonbeam", targets=("ogre-1",), save_faces={"ogre-1": (5,)}, damage_faces=((2, 2, 2),))
    )
    assert saved(events) == [("ogre-1", 8, 16, False)]
    assert taken(events) == [("ogre-1", 6, "radiant")] and t["ogre-1"].hp == 62
    assert t["oren"].economy == before


def test_moonbeam_moved_as_a_magic_action_saves_the_creatures_it_moves_into():
    """Moonbeam: "A creature also makes this save when the spell's area moves into its space";
    the SRD 5.2 moves it with "a Magic action on later turns" (its opening sentences, which the
    shipped text lacks). On Oren's next turn the Cylinder moves onto both Ogres: Ogre 1 fails
    (5 + 3), 2d10 = 4; Ogre 2 succeeds (15 + 3), 2; his action is spent, a second move refused."""
    t = table(DRUID)
    t.do(CastSpell(caster="oren", spell="Moonbeam"))
    next_turn(t, "oren")
    move = SpellEffect(
        caster="oren",
        spell="Moonbeam",
        option="move",
        targets=("ogre-1", "ogre-2"),
        save_faces={"ogre-1": (5,), "ogre-2": (15,)},
        damage_faces=((2, 2),),
    )
    events = t.do(move)
    assert taken(events) == [("ogre-1", 4, "radiant"), ("ogre-2", 2, "radiant")] and not t["oren"].economy.action
    t.rejects(move, "economy/action-spent")


def test_moonbeam_is_refused_once_its_concentration_has_ended():
    """Moonbeam lasts "Concentration, up to 1 minute": once Oren stops concentrating, no
    creature saves against it any more."""
    t = table(DRUID)
    t.do(CastSpell(caster="oren", spell="Moonbeam"))
    t.do(EndConcentration(combatant="oren"))
    t.rejects(SpellEffect(caster="oren", spell="Moonbeam", targets=("ogre-1",)), "spell/not-active")


def test_cloudkill_saves_creatures_ending_their_turn_in_it_half_on_a_success():
    """Cloudkill: "Each creature in the Sphere makes a Constitution saving throw, taking 5d8
    Poison damage on a failed save or half as much damage on a successful one. A creature must
    also make this save when the Sphere moves into its space and when it enters the Sphere or
    ends its turn there." At 6th, 6d8 = 6: Ogre 1 fails (15 + 3 = 18 against 19), 6; Ogre 2
    succeeds (16 + 3), 3."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Cloudkill", slot_level=6))
    events = t.do(
        SpellEffect(
            caster="vesna",
            spell="Cloudkill",
            targets=("ogre-1", "ogre-2"),
            save_faces={"ogre-1": (15,), "ogre-2": (16,)},
            damage_faces=((1,) * 6,),
        )
    )
    assert [s[3] for s in saved(events)] == [False, True]
    assert taken(events) == [("ogre-1", 6, "poison"), ("ogre-2", 3, "poison")]


def test_insect_plague_saves_a_creature_entering_the_swarm():
    """Insect Plague: "A creature also makes this save when it enters the spell's area for the
    first time on a turn or ends its turn there." Constitution, 4d10 Piercing at 5th: the Ogre
    fails (2 + 3) and takes 12."""
    t = table(DRUID)
    t.do(CastSpell(caster="oren", spell="Insect Plague"))
    events = t.do(
        SpellEffect(
            caster="oren", spell="Insect Plague", targets=("ogre-1",), save_faces={"ogre-1": (2,)}, damage_faces=((3, 3, 3, 3),)
        )
    )
    assert saved(events) == [("ogre-1", 5, 16, False)] and taken(events) == [("ogre-1", 12, "piercing")]


def test_incendiary_cloud_saves_a_creature_the_cloud_moves_into():
    """Incendiary Cloud: "A creature must also make this save when the Sphere moves into its
    space and when it enters the Sphere or ends its turn there." Dexterity, 10d8 Fire: the Ogre
    fails (10 - 1 = 9 against 19) and takes 10."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Incendiary Cloud"))
    events = t.do(
        SpellEffect(
            caster="vesna", spell="Incendiary Cloud", targets=("ogre-1",), save_faces={"ogre-1": (10,)}, damage_faces=((1,) * 10,)
        )
    )
    assert saved(events) == [("ogre-1", 9, 19, False)] and taken(events) == [("ogre-1", 10, "fire")]


def test_wall_of_fire_burns_a_creature_ending_its_turn_by_its_side_with_no_save():
    """Wall of Fire: "One side of the wall ... deals 5d8 Fire damage to each creature that ends
    its turn within 10 feet of that side or inside the wall." No save: save faces are refused;
    the Ogre the GM names takes 5d8 = 10 Fire."""
    t = table(DRUID)
    t.do(CastSpell(caster="oren", spell="Wall of Fire"))
    t.rejects(
        SpellEffect(caster="oren", spell="Wall of Fire", targets=("ogre-1",), save_faces={"ogre-1": (3,)}), "dice/unused-faces"
    )
    events = t.do(SpellEffect(caster="oren", spell="Wall of Fire", targets=("ogre-1",), damage_faces=((2,) * 5,)))
    assert not of_type(events, SaveMade) and taken(events) == [("ogre-1", 10, "fire")]


def test_stinking_cloud_poisons_a_creature_starting_its_turn_there_until_that_turn_ends():
    """Stinking Cloud: "Each creature that starts its turn in the Sphere must succeed on a
    Constitution saving throw or have the Poisoned condition until the end of the current
    turn." The Ogre fails (4 + 3 = 7 against 19): Poisoned, and no longer once its turn ends."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Stinking Cloud"))
    next_turn(t, "ogre-1")
    events = t.do(SpellEffect(caster="vesna", spell="Stinking Cloud", targets=("ogre-1",), save_faces={"ogre-1": (4,)}))
    assert saved(events) == [("ogre-1", 7, 19, False)] and t["ogre-1"].has("poisoned")
    t.do(EndTurn(combatant="ogre-1"))
    assert not t["ogre-1"].has("poisoned")


def test_web_restrains_a_creature_entering_it_until_the_spell_ends():
    """Web: "The first time a creature enters the webs on a turn or starts its turn there, it
    must succeed on a Dexterity saving throw or have the Restrained condition". The Ogre fails
    (3 - 1); Restrained until Vesna's concentration ends."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Web"))
    t.do(SpellEffect(caster="vesna", spell="Web", targets=("ogre-1",), save_faces={"ogre-1": (3,)}))
    assert t["ogre-1"].has("restrained")
    t.do(EndConcentration(combatant="vesna"))
    assert not t["ogre-1"].has("restrained")


def test_spike_growth_deals_2d4_for_every_5_feet_the_gm_says_a_creature_moved():
    """Spike Growth: "When a creature moves into or within the area, it takes 2d4 Piercing
    damage for every 5 feet it travels." 15 feet: 6d4 = 12; a distance that is no multiple of
    5 feet, or none at all, is refused."""
    t = table(DRUID)
    t.do(CastSpell(caster="oren", spell="Spike Growth"))
    t.rejects(SpellEffect(caster="oren", spell="Spike Growth", targets=("ogre-1",), feet={"ogre-1": 12}), "spell/feet")
    t.rejects(SpellEffect(caster="oren", spell="Spike Growth", targets=("ogre-1",)), "spell/feet")
    events = t.do(
        SpellEffect(
            caster="oren", spell="Spike Growth", targets=("ogre-1",), feet={"ogre-1": 15}, damage_faces=((1, 2, 3, 1, 2, 3),)
        )
    )
    assert [e.notation for e in of_type(events, DiceRolled)] == ["6d4"] and taken(events) == [("ogre-1", 12, "piercing")]


def test_black_tentacles_restrain_a_creature_entering_them():
    """Black Tentacles: "On a failed save, it takes 3d6 Bludgeoning damage, and it has the
    Restrained condition until the spell ends. A creature also makes that save if it enters the
    area or ends it turn there." The Ogre fails its Strength save (5 + 4 = 9 against 19): 6
    Bludgeoning, Restrained until Vesna's concentration ends."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Black Tentacles"))
    events = t.do(
        SpellEffect(
            caster="vesna", spell="Black Tentacles", targets=("ogre-1",), save_faces={"ogre-1": (5,)}, damage_faces=((2, 2, 2),)
        )
    )
    assert saved(events) == [("ogre-1", 9, 19, False)] and taken(events) == [("ogre-1", 6, "bludgeoning")]
    assert t["ogre-1"].has("restrained")
    t.do(EndConcentration(combatant="vesna"))
    assert not t["ogre-1"].has("restrained")


def test_blade_barrier_cuts_a_creature_entering_the_wall():
    """Blade Barrier: "Any creature in the wall's space makes a Dexterity saving throw, taking
    6d10 Force damage on a failed save or half as much damage on a successful one. A creature
    also makes that save if it enters the wall's space or ends it turn there." The Ogre succeeds
    (19 - 1 = 18 against 16): half of 6d10 = 12 is 6."""
    t = Table()
    t.do(AddCharacter(character=PRIEST, side="party", player="sam"))
    t.do(AddCreature(creature="Ogre", count=1, side="foes"))
    t.start({"ilse": 20, "ogre": 10})
    t.do(CastSpell(caster="ilse", spell="Blade Barrier"))
    events = t.do(
        SpellEffect(caster="ilse", spell="Blade Barrier", targets=("ogre",), save_faces={"ogre": (19,)}, damage_faces=((2,) * 6,))
    )
    assert saved(events) == [("ogre", 18, 16, True)] and taken(events) == [("ogre", 6, "force")]


def test_wall_of_thorns_slashes_a_creature_entering_the_wall_at_the_level_cast():
    """Wall of Thorns: "the first time a creature enters a space in the wall on a turn or ends
    its turn there, the creature makes a Dexterity saving throw, taking 7d8 Slashing damage on a
    failed save or half as much damage on a successful one." "Both types of damage increase by
    1d8 for each spell slot level above 6." Tamsin, a level 13 Druid (DC 17), casts it at 7th:
    the Ogre fails (3 - 1), 8d8 = 8 Slashing (not the Piercing of the wall's appearing)."""
    elder = spellcaster("Tamsin", "Druid", 13, "Wall of Thorns")
    t = table(elder)
    t.do(CastSpell(caster="tamsin", spell="Wall of Thorns", slot_level=7))
    events = t.do(
        SpellEffect(
            caster="tamsin", spell="Wall of Thorns", targets=("ogre-1",), save_faces={"ogre-1": (3,)}, damage_faces=((1,) * 8,)
        )
    )
    assert saved(events) == [("ogre-1", 2, 17, False)] and taken(events) == [("ogre-1", 8, "slashing")]


def test_conjure_woodland_beings_saves_a_creature_ending_its_turn_in_the_emanation():
    """Conjure Woodland Beings: "whenever a creature you can see enters the Emanation or ends its
    turn there, you can force that creature to make a Wisdom saving throw. The creature takes
    5d8 Force damage on a failed save or half as much damage on a successful one." The Ogre
    fails (3 - 2 = 1 against 16): 5d8 = 10; Oren himself is not in his own Emanation."""
    t = table(DRUID)
    t.do(CastSpell(caster="oren", spell="Conjure Woodland Beings"))
    t.rejects(SpellEffect(caster="oren", spell="Conjure Woodland Beings", targets=("oren",)), "spell/targets")
    events = t.do(
        SpellEffect(
            caster="oren",
            spell="Conjure Woodland Beings",
            targets=("ogre-1",),
            save_faces={"ogre-1": (3,)},
            damage_faces=((2,) * 5,),
        )
    )
    assert saved(events) == [("ogre-1", 1, 16, False)] and taken(events) == [("ogre-1", 10, "force")]


def test_conjure_animals_pack_slashes_a_creature_it_moves_near_on_a_failed_save_only():
    """Conjure Animals: "Whenever the pack moves within 10 feet of a creature you can see ...
    you can force that creature to make a Dexterity saving throw. On a failed save, the creature
    takes 3d10 Slashing damage." "The damage increases by 1d10 for each spell slot level above
    3." At 4th, 4d10: Ogre 1 fails (2 - 1), 8; Ogre 2 succeeds (20 - 1) and takes none."""
    t = table(DRUID)
    t.do(CastSpell(caster="oren", spell="Conjure Animals", slot_level=4))
    events = t.do(
        SpellEffect(
            caster="oren",
            spell="Conjure Animals",
            targets=("ogre-1", "ogre-2"),
            save_faces={"ogre-1": (2,), "ogre-2": (20,)},
            damage_faces=((2, 2, 2, 2),),
        )
    )
    assert [s[3] for s in saved(events)] == [False, True] and taken(events) == [("ogre-1", 8, "slashing")]


def test_grease_knocks_prone_a_creature_ending_its_turn_there_for_the_spells_minute():
    """Grease: "A creature that enters the area or ends its turn there must also succeed on that
    save or fall Prone." No concentration: it lasts its minute. The Ogre fails its Dexterity
    save (6 - 1 = 5 against 19) and is Prone; after the minute, refused."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Grease"))
    next_turn(t, "ogre-1")
    t.do(SpellEffect(caster="vesna", spell="Grease", targets=("ogre-1",), save_faces={"ogre-1": (6,)}))
    assert t["ogre-1"].has("prone")
    for _ in range(10):
        next_turn(t, "vesna")
    t.rejects(SpellEffect(caster="vesna", spell="Grease", targets=("ogre-1",)), "spell/not-active")


def test_sleet_storm_knocks_prone_and_breaks_concentration():
    """Sleet Storm: "When a creature enters the Cylinder for the first time on a turn or starts
    its turn there, it must succeed on a Dexterity saving throw or have the Prone condition and
    lose Concentration." Oren, concentrating on Moonbeam, stands in Vesna's storm and fails (4):
    Prone, and his Moonbeam ends."""
    t = Table()
    t.do(AddCharacter(character=WIZARD, side="party", player="sam"))
    t.do(AddCharacter(character=DRUID, side="foes", player="kim"))
    t.start({"vesna": 20, "oren": 10})
    t.do(CastSpell(caster="vesna", spell="Sleet Storm"))
    next_turn(t, "oren")
    t.do(CastSpell(caster="oren", spell="Moonbeam"))
    assert t["oren"].concentration == "Moonbeam"
    t.do(SpellEffect(caster="vesna", spell="Sleet Storm", targets=("oren",), save_faces={"oren": (4,)}))
    assert t["oren"].has("prone") and t["oren"].concentration is None


def test_vitriolic_sphere_burns_those_who_failed_again_on_their_next_turn():
    """Vitriolic Sphere: "On a failed save, a creature takes 10d4 Acid damage and another 5d4
    Acid damage at the end of its next turn. On a successful save, a creature takes half the
    initial damage only." Ogre 1 fails (2 - 1), 10; Ogre 2 succeeds (20 - 1), 5 and nothing
    later; on Ogre 1's turn 5d4 = 5."""
    t = table()
    t.do(
        CastSpell(
            caster="vesna",
            spell="Vitriolic Sphere",
            targets=("ogre-1", "ogre-2"),
            save_faces={"ogre-1": (2,), "ogre-2": (20,)},
            damage_faces=((1,) * 10,),
        )
    )
    assert t["ogre-1"].has("vitriolic sphere") and not t["ogre-2"].has("vitriolic sphere")
    next_turn(t, "ogre-1")
    events = t.do(SpellEffect(caster="vesna", spell="Vitriolic Sphere", targets=("ogre-1",), damage_faces=((1,) * 5,)))
    assert taken(events) == [("ogre-1", 5, "acid")]
    t.rejects(SpellEffect(caster="vesna", spell="Vitriolic Sphere", targets=("ogre-2",)), "spell/not-active")


# -- repeated actions while concentrating ---------------------------------------------------


def test_flaming_sphere_burns_a_creature_ending_its_turn_beside_it_and_rams_as_a_bonus_action():
    """Flaming Sphere: "Any creature that ends its turn within 5 feet of the sphere makes a
    Dexterity saving throw, taking 2d6 Fire damage on a failed save or half as much damage on a
    successful one. As a Bonus Action, you can move the sphere up to 30 feet ... If you move the
    sphere into a creature's space, that creature makes the save". At 3rd, 3d6: Ogre 1 ends its
    turn beside it and fails (2 - 1), 9; on Vesna's turn her ram hits Ogre 2 (fails, 9) and
    spends her Bonus Action: a second ram is refused."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Flaming Sphere", slot_level=3))
    next_turn(t, "ogre-1")
    events = t.do(
        SpellEffect(
            caster="vesna", spell="Flaming Sphere", targets=("ogre-1",), save_faces={"ogre-1": (2,)}, damage_faces=((3, 3, 3),)
        )
    )
    assert taken(events) == [("ogre-1", 9, "fire")]
    next_turn(t, "vesna")
    ram = SpellEffect(
        caster="vesna",
        spell="Flaming Sphere",
        option="ram",
        targets=("ogre-2",),
        save_faces={"ogre-2": (2,)},
        damage_faces=((3, 3, 3),),
    )
    events = t.do(ram)
    assert taken(events) == [("ogre-2", 9, "fire")] and not t["vesna"].economy.bonus_action and t["vesna"].economy.action
    t.rejects(ram, "economy/bonus-action-spent")


def test_call_lightning_calls_a_bolt_again_as_a_magic_action_more_in_a_storm():
    """Call Lightning: "Until the spell ends, you can take a Magic action to call down lightning
    in that way again" (Dexterity, 3d10 Lightning); "If you're outdoors in a storm ... the
    spell's damage increases by 1d10." A bolt spends Oren's action (a second is refused); in a
    storm, on his next turn, 4d10: the Ogre fails (5 - 1) and takes 8."""
    t = table(DRUID)
    t.do(CastSpell(caster="oren", spell="Call Lightning"))
    next_turn(t, "oren")
    bolt = SpellEffect(
        caster="oren", spell="Call Lightning", targets=("ogre-1",), save_faces={"ogre-1": (5,)}, damage_faces=((1, 1, 1),)
    )
    assert taken(t.do(bolt)) == [("ogre-1", 3, "lightning")] and not t["oren"].economy.action
    t.rejects(bolt, "economy/action-spent")
    t.rejects(SpellEffect(caster="oren", spell="Call Lightning", option="ram", targets=("ogre-1",)), "spell/option")
    next_turn(t, "oren")
    events = t.do(
        SpellEffect(
            caster="oren",
            spell="Call Lightning",
            option="storm",
            targets=("ogre-1",),
            save_faces={"ogre-1": (5,)},
            damage_faces=((2, 2, 2, 2),),
        )
    )
    assert saved(events) == [("ogre-1", 4, 16, False)] and taken(events) == [("ogre-1", 8, "lightning")]


def test_vampiric_touch_heals_half_the_necrotic_damage_and_attacks_again_as_a_magic_action():
    """Vampiric Touch: "On a hit, the target takes 3d6 Necrotic damage, and you regain Hit Points
    equal to half the amount of Necrotic damage dealt. Until the spell ends, you can make the
    attack again on each of your turns as a Magic action". Vesna, 30 Hit Points down: 12 dealt,
    6 regained as cast; next turn 6 dealt, 3 regained, her action spent."""
    t = table()
    t.do(Damage(target="vesna", amount=30, damage_type="slashing"))
    hp = t["vesna"].hp
    events = t.do(
        CastSpell(caster="vesna", spell="Vampiric Touch", targets=("ogre-1",), attack_faces=((10,),), damage_faces=((4, 4, 4),))
    )
    assert [e.damage for e in of_type(events, AttackMade)] == [12] and [e.amount for e in of_type(events, Healed)] == [6]
    next_turn(t, "vesna")
    touch = SpellEffect(
        caster="vesna", spell="Vampiric Touch", targets=("ogre-1",), attack_faces=((10,),), damage_faces=((2, 2, 2),)
    )
    events = t.do(touch)
    assert [e.amount for e in of_type(events, Healed)] == [3] and t["vesna"].hp == hp + 9
    assert not t["vesna"].economy.action
    t.rejects(touch, "economy/action-spent")


def test_heat_metal_deals_its_damage_again_as_a_bonus_action_with_no_save():
    """Heat Metal: "Until the spell ends, you can take a Bonus Action on each of your later
    turns to deal this damage again" (2d8 Fire; "The damage increases by 1d8 for each spell
    slot level above 2"). Cast at 3rd on the Ogre's armour: 3d8 = 9, no attack or save; once
    Oren stops concentrating, refused."""
    t = table(DRUID)
    t.do(CastSpell(caster="oren", spell="Heat Metal", slot_level=3, targets=("ogre-1",)))
    next_turn(t, "oren")
    events = t.do(SpellEffect(caster="oren", spell="Heat Metal", targets=("ogre-1",), damage_faces=((3, 3, 3),)))
    assert taken(events) == [("ogre-1", 9, "fire")] and not t["oren"].economy.bonus_action
    assert not of_type(events, SaveMade) and not of_type(events, AttackMade)
    t.do(EndConcentration(combatant="oren"))
    next_turn(t, "oren")
    t.rejects(SpellEffect(caster="oren", spell="Heat Metal", targets=("ogre-1",)), "spell/not-active")


def test_acid_arrow_deals_its_later_damage_on_the_targets_next_turn_once():
    """Acid Arrow: "On a hit, the target takes 4d4 Acid damage and 2d4 Acid damage at the end of
    its next turn." "The damage (both initial and later) increases by 1d4 for each spell slot
    level above 2." At 3rd: 5d4 = 5 on the hit; on Vesna's turn the later damage is refused
    (not yet), on the Ogre's next turn 3d4 = 3, and only once."""
    t = table()
    events = t.do(
        CastSpell(
            caster="vesna", spell="Acid Arrow", slot_level=3, targets=("ogre-1",), attack_faces=((10,),), damage_faces=((1,) * 5,)
        )
    )
    assert [(e.damage, e.damage_type) for e in of_type(events, AttackMade)] == [(5, "acid")] and t["ogre-1"].has("acid arrow")
    later = SpellEffect(caster="vesna", spell="Acid Arrow", targets=("ogre-1",), damage_faces=((1, 1, 1),))
    t.rejects(later, "spell/not-yet")
    next_turn(t, "ogre-1")
    events = t.do(later)
    assert [e.notation for e in of_type(events, DiceRolled)] == ["3d4"] and taken(events) == [("ogre-1", 3, "acid")]
    assert not t["ogre-1"].has("acid arrow")
    t.rejects(later, "spell/not-active")


def test_arcane_hand_grasps_then_crushes_as_bonus_actions():
    """Arcane Hand: "Grasping Hand. ... The target must succeed on a Dexterity saving throw, or
    the target has the Grappled condition ... While the hand grapples the target, you can take a
    Bonus Action to cause the hand to crush it, dealing Bludgeoning damage to the target equal
    to 4d6 plus your spellcasting ability modifier." "Clenched Fist. ... Make a melee spell
    attack. On a hit, the target takes 5d8 Force damage." The Ogre fails (4 - 1): Grappled;
    next turn the crush, 4d6 + 5 = 9; Ogre 2, not grasped, cannot be crushed; then a Fist, 5d8 = 5."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Arcane Hand"))
    next_turn(t, "vesna")
    t.do(
        SpellEffect(caster="vesna", spell="Arcane Hand", option="grasping hand", targets=("ogre-1",), save_faces={"ogre-1": (4,)})
    )
    assert t["ogre-1"].has("grappled")
    next_turn(t, "vesna")
    t.rejects(SpellEffect(caster="vesna", spell="Arcane Hand", option="crush", targets=("ogre-2",)), "spell/targets")
    events = t.do(
        SpellEffect(caster="vesna", spell="Arcane Hand", option="crush", targets=("ogre-1",), damage_faces=((1, 1, 1, 1),))
    )
    assert taken(events) == [("ogre-1", 9, "bludgeoning")]
    next_turn(t, "vesna")
    events = t.do(
        SpellEffect(
            caster="vesna",
            spell="Arcane Hand",
            option="clenched fist",
            targets=("ogre-2",),
            attack_faces=((10,),),
            damage_faces=((1,) * 5,),
        )
    )
    assert [(e.hit, e.damage, e.damage_type) for e in of_type(events, AttackMade)] == [(True, 5, "force")]


def test_sunbeam_creates_a_new_line_as_a_magic_action_blinding_until_the_casters_next_turn():
    """Sunbeam: "On a failed save, a creature takes 6d8 Radiant damage and has the Blinded
    condition until the start of your next turn." "Until the spell ends, you can take a Magic
    action to create a new Line of radiance." On Vesna's next turn the Ogre fails (4 + 3 = 7):
    6 Radiant and Blinded, her action spent; Blinded ends as her following turn starts."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Sunbeam"))
    next_turn(t, "vesna")
    events = t.do(
        SpellEffect(caster="vesna", spell="Sunbeam", targets=("ogre-1",), save_faces={"ogre-1": (4,)}, damage_faces=((1,) * 6,))
    )
    assert taken(events) == [("ogre-1", 6, "radiant")] and t["ogre-1"].has("blinded") and not t["vesna"].economy.action
    next_turn(t, "vesna")
    assert not t["ogre-1"].has("blinded")


def test_arcane_sword_attacks_again_as_a_bonus_action_with_the_modifier():
    """Arcane Sword: "On a hit, the target takes Force damage equal to 4d12 plus your
    spellcasting ability modifier. On your later turns, you can take a Bonus Action to move the
    sword ... and repeat the attack". As cast, 4 + 5 = 9; next turn, with her Bonus Action,
    again 9; a second swing that turn is refused."""
    t = table()
    events = t.do(
        CastSpell(caster="vesna", spell="Arcane Sword", targets=("ogre-1",), attack_faces=((10,),), damage_faces=((1,) * 4,))
    )
    assert [e.damage for e in of_type(events, AttackMade)] == [9]
    next_turn(t, "vesna")
    swing = SpellEffect(
        caster="vesna", spell="Arcane Sword", targets=("ogre-2",), attack_faces=((10,),), damage_faces=((1,) * 4,)
    )
    assert [(e.target, e.damage) for e in of_type(t.do(swing), AttackMade)] == [("ogre-2", 9)]
    t.rejects(swing, "economy/bonus-action-spent")


def test_flame_blade_attacks_as_a_magic_action():
    """Flame Blade: "As a Magic action, you can make a melee spell attack with the fiery blade.
    On a hit, the target takes Fire damage equal to 3d6 plus your spellcasting ability
    modifier." "The damage increases by 1d6 for each spell slot level above 2." Evoked at 3rd
    with the Bonus Action, then an attack with the action: 4d6 + 4 = 8."""
    t = table(DRUID)
    t.do(CastSpell(caster="oren", spell="Flame Blade", slot_level=3))
    events = t.do(
        SpellEffect(caster="oren", spell="Flame Blade", targets=("ogre-1",), attack_faces=((10,),), damage_faces=((1,) * 4,))
    )
    assert [(e.damage, e.damage_type) for e in of_type(events, AttackMade)] == [(8, "fire")]
    assert not t["oren"].economy.action and not t["oren"].economy.bonus_action


def test_phantasmal_force_deals_2d8_psychic_on_each_of_the_casters_turns():
    """Phantasmal Force: "On each of your turns, such a phantasm can deal 2d8 Psychic damage to
    the target if it is in the phantasm's area or within 5 feet of the phantasm." The Ogre fails
    its Intelligence save (2 - 3); on Vesna's turn, 2d8 = 7, no action spent; on the Ogre's
    turn, refused."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Phantasmal Force", targets=("ogre-1",), save_faces={"ogre-1": (2,)}))
    events = t.do(SpellEffect(caster="vesna", spell="Phantasmal Force", targets=("ogre-1",), damage_faces=((3, 4),)))
    assert taken(events) == [("ogre-1", 7, "psychic")] and t["vesna"].economy.bonus_action
    next_turn(t, "ogre-1")
    t.rejects(SpellEffect(caster="vesna", spell="Phantasmal Force", targets=("ogre-1",)), "turn/not-yours")


def test_dragons_breath_lets_the_creature_touched_exhale_as_its_magic_action():
    """Dragon's Breath: "You touch one willing creature, and choose Acid, Cold, Fire, Lightning,
    or Poison. Until the spell ends, the target can take a Magic action to exhale a 15-foot
    Cone. Each creature in that area makes a Dexterity saving throw, taking 3d6 damage of the
    chosen type on a failed save or half as much damage on a successful one." "The damage
    increases by 1d6 for each spell slot level above 2." Cast at 3rd on Brann, Fire: on his turn
    the Ogre fails (5 - 1 against Vesna's 19) and takes 4d6 = 8 Fire; his action is spent;
    Vesna herself breathes nothing; no type chosen is refused."""
    t = table(ally=True)
    t.rejects(CastSpell(caster="vesna", spell="Dragon's Breath", targets=("brann",)), "spell/damage-type")
    t.do(CastSpell(caster="vesna", spell="Dragon's Breath", slot_level=3, targets=("brann",), damage_type="fire"))
    t.rejects(SpellEffect(caster="vesna", spell="Dragon's Breath", targets=("ogre-1",)), "spell/not-active")
    next_turn(t, "brann")
    breath = SpellEffect(
        caster="brann", spell="Dragon's Breath", targets=("ogre-1",), save_faces={"ogre-1": (5,)}, damage_faces=((2, 2, 2, 2),)
    )
    events = t.do(breath)
    assert saved(events) == [("ogre-1", 4, 19, False)] and taken(events) == [("ogre-1", 8, "fire")]
    assert not t["brann"].economy.action
    t.rejects(breath, "economy/action-spent")


def test_a_spell_with_nothing_to_do_again_is_refused():
    """Entangle restrains only "Each creature (other than you) in the area when you cast the
    spell": nothing comes back later."""
    t = table(DRUID)
    t.do(CastSpell(caster="oren", spell="Entangle"))
    t.rejects(SpellEffect(caster="oren", spell="Entangle", targets=("ogre-1",)), "spell/no-follow-up")
