"""Issue 31: spells whose lasting effect changes the attack rolls against a creature, its AC,
its Resistances, its saves or its Speed, each as the SRD 5.2 text says, every face entered;
and each stops when the spell does.

Oren is a level 7 Druid (Wisdom 16: +3, spell save DC 14), Vesna a level 17 Wizard (AC 12),
Ilse a level 9 Cleric (66 HP), Mara a level 15 Cleric, Tam a level 5 Paladin, Sael a level 9
Wizard. Brann is a fighter of the party (AC 15,
20 HP, Longsword +5, 1d8+3). Bandits (Scimitar +3, 1d6+1 Slashing; AC 12, Dexterity +1) are
Humanoids, the Zombie (Slam +3) an Undead."""

from __future__ import annotations

from combat.common.commands import ApplyCondition, Damage, EndConcentration, RemoveCondition
from combat.common.events import DamageTaken, SaveMade
from combat.fivee.ability_checks import AbilityCheck
from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackDamageRolled, AttackMade
from combat.fivee.casts import CastSpell
from combat.fivee.characters import AddCharacter
from combat.fivee.check_events import CheckMade
from combat.fivee.monsters import AddCreature
from combat.fivee.reaction_windows import ReactionWindowOpened
from combat.fivee.reactions import AttackDeflected
from combat.fivee.save_effects import SaveEffect
from combat.kernel.commands import AddCombatant
from combat.kernel.events import ConditionEnded, ConditionSpec
from tests.helpers import Table, next_turn, of_type, pc, spellcaster

DRUID = spellcaster(
    "Oren",
    "Druid",
    7,
    "Faerie Fire",
    "Barkskin",
    "Longstrider",
    "Protection from Evil and Good",
    "Protection from Energy",
    "Stoneskin",
    scores="STR 10 DEX 10 CON 14 INT 10 WIS 16 CHA 10",
)
WIZARD = spellcaster("Vesna", "Wizard", 17, "Blur", "Invisibility", "Mage Armor", "Enlarge/Reduce")
CLERIC = spellcaster("Ilse", "Cleric", 9, "Warding Bond")
HIGH_CLERIC = spellcaster("Mara", "Cleric", 15, "Holy Aura")


def table(caster=DRUID, *foes: str) -> Table:
    """The caster (initiative 20), Brann (15), then each foe (10, 9, ...): Bandits by default."""
    t = Table()
    t.do(AddCharacter(character=caster, side="party", player="sam"))
    t.do(AddCombatant(combatant=pc("brann")))
    return t.start({caster.name.lower(): 20, "brann": 15, **t.foes(*(foes or ("Bandit", "Bandit")))})


def attack(t: Table, attacker: str, target: str, faces: tuple[int, ...], damage: tuple[int, ...] = (1,)) -> AttackMade:
    next_turn(t, attacker)
    return of_type(t.do(Attack(attacker=attacker, target=target, faces=faces, damage_faces=damage)), AttackMade)[0]


def test_faerie_fire_gives_advantage_against_the_outlined_and_takes_their_invisibility_away():
    """Faerie Fire: "Each creature in the Cube is also outlined if it fails a Dexterity saving
    throw. For the duration, objects and affected creatures ... can't benefit from the Invisible
    condition. Attack rolls against an affected creature or object have Advantage if the
    attacker can see it." DC 14: Bandit 1 fails (3 + 1), Bandit 2 succeeds (15 + 1). Bandit 1,
    Invisible too, is attacked with Advantage (2, 18: the 18); Bandit 2 without it. Once Oren's
    concentration ends, Bandit 1's Invisible condition counts again: Disadvantage."""
    t = table()
    t.do(
        CastSpell(
            caster="oren", spell="Faerie Fire", targets=("bandit-1", "bandit-2"), save_faces={"bandit-1": (3,), "bandit-2": (15,)}
        )
    )
    assert t["bandit-1"].has("faerie fire") and not t["bandit-2"].has("faerie fire")
    t.do(ApplyCondition(target="bandit-1", condition=ConditionSpec(name="invisible")))
    made = attack(t, "brann", "bandit-1", (2, 18))
    assert (made.roll_mode, made.natural) == ("advantage", 18)
    made = attack(t, "brann", "bandit-2", (11,))
    assert made.roll_mode == "normal"
    t.do(EndConcentration(combatant="oren"))
    made = attack(t, "brann", "bandit-1", (18, 2))
    assert (made.roll_mode, made.natural) == ("disadvantage", 2)


def test_blur_gives_disadvantage_to_attacks_against_the_caster_until_concentration_ends():
    """Blur: "For the duration, any creature has Disadvantage on attack rolls against you."
    Vesna (AC 12) blurred: a Bandit's 18 and 3 keep the 3 (6, a miss); after her concentration
    ends, the other Bandit's one d20 (9, 12) hits."""
    t = table(WIZARD)
    t.do(CastSpell(caster="vesna", spell="Blur"))
    made = attack(t, "bandit-1", "vesna", (18, 3))
    assert (made.roll_mode, made.total, made.hit) == ("disadvantage", 6, False)
    t.do(EndConcentration(combatant="vesna"))
    made = attack(t, "bandit-2", "vesna", (9,))
    assert (made.roll_mode, made.total, made.hit) == ("normal", 12, True)


def test_protection_from_evil_and_good_against_undead_attacks_and_fear_not_a_humanoids():
    """Protection from Evil and Good: "one willing creature you touch is protected against
    creatures that are Aberrations, Celestials, Elementals, Fey, Fiends, or Undead. ...
    Creatures of those types have Disadvantage on attack rolls against the target. The target
    also can't be possessed by or gain the Charmed or Frightened conditions from them." The
    Zombie (an Undead) attacks Brann with Disadvantage and can't frighten him; the Bandit (a
    Humanoid) attacks with one d20 and can. When the spell ends, the Zombie's attack is plain."""
    t = table(DRUID, "Zombie", "Bandit")
    t.do(CastSpell(caster="oren", spell="Protection from Evil and Good", targets=("brann",)))
    made = attack(t, "zombie-1", "brann", (18, 3))
    assert made.roll_mode == "disadvantage" and made.natural == 3
    error = t.rejects(
        ApplyCondition(target="brann", condition=ConditionSpec(name="frightened", source="zombie-1")), "condition/immune"
    )
    assert "protection from evil and good" in error.message
    made = attack(t, "bandit-2", "brann", (3,))
    assert made.roll_mode == "normal"
    t.do(ApplyCondition(target="brann", condition=ConditionSpec(name="frightened", source="bandit-2")))
    assert t["brann"].has("frightened")
    t.do(EndConcentration(combatant="oren"))
    made = attack(t, "zombie-1", "brann", (18,))
    assert made.roll_mode == "normal"


def test_invisibility_ends_after_its_target_attacks_deals_damage_or_casts_a_spell():
    """Invisibility: "A creature you touch has the Invisible condition until the spell ends. The
    spell ends early immediately after the target makes an attack roll, deals damage, or casts a
    spell." "You can target one additional creature for each spell slot level above 2." At 3rd
    level on Vesna and Brann: casting it leaves her Invisible; Brann's attack has Advantage
    (2, 18) and ends his; her next spell, Mage Armor, ends hers."""
    t = table(WIZARD)
    t.do(CastSpell(caster="vesna", spell="Invisibility", slot_level=3, targets=("vesna", "brann")))
    assert t["vesna"].has("invisible") and t["brann"].has("invisible")
    made = attack(t, "brann", "bandit-1", (2, 18))
    assert made.roll_mode == "advantage"
    assert not t["brann"].has("invisible") and t["vesna"].has("invisible")
    next_turn(t, "vesna")
    events = t.do(CastSpell(caster="vesna", spell="Mage Armor", targets=("vesna",)))
    assert [e.reason for e in of_type(events, ConditionEnded)] == ["cast Mage Armor"]
    assert not t["vesna"].has("invisible")
    assert t.rebuilt() == t.state


def test_invisibility_ends_on_damage_dealt_and_with_the_concentration():
    """Invisibility ends "immediately after the target ... deals damage"; and, a Concentration
    spell, when the caster's concentration ends."""
    t = table(WIZARD)
    t.do(CastSpell(caster="vesna", spell="Invisibility", slot_level=3, targets=("vesna", "brann")))
    t.do(Damage(target="bandit-1", amount=3, damage_type="fire", source="brann"))
    assert not t["brann"].has("invisible") and t["vesna"].has("invisible")
    t.do(EndConcentration(combatant="vesna"))
    assert not t["vesna"].has("invisible")


def test_stoneskin_halves_bludgeoning_piercing_and_slashing_while_it_lasts():
    """Stoneskin: "Until the spell ends, one willing creature you touch has Resistance to
    Bludgeoning, Piercing, and Slashing damage." A Bandit's Scimitar rolls 6 Slashing: Brann
    takes 3; 6 Fire: all 6. After the concentration ends, 6 Slashing is 6."""
    t = table()
    t.do(CastSpell(caster="oren", spell="Stoneskin", targets=("brann",)))
    made = attack(t, "bandit-1", "brann", (15,), (5,))
    assert (made.damage_rolled, made.damage) == (6, 3)
    assert [e.amount for e in of_type(t.do(Damage(target="brann", amount=6, damage_type="fire")), DamageTaken)] == [6]
    t.do(EndConcentration(combatant="oren"))
    assert [e.amount for e in of_type(t.do(Damage(target="brann", amount=6, damage_type="slashing")), DamageTaken)] == [6]


def test_protection_from_energy_resists_the_one_type_the_caster_chooses():
    """Protection from Energy: "For the duration, the willing creature you touch has Resistance
    to one damage type of your choice: Acid, Cold, Fire, Lightning, or Thunder." No type, or
    Poison, is refused with nothing spent; Fire chosen: 9 Fire is 4, 9 Cold is 9; once it ends,
    9 Fire is 9."""
    t = table()
    error = t.rejects(CastSpell(caster="oren", spell="Protection from Energy", targets=("brann",)), "spell/damage-type")
    assert "acid, cold, fire, lightning, thunder" in error.allowed
    t.rejects(
        CastSpell(caster="oren", spell="Protection from Energy", targets=("brann",), damage_type="poison"), "spell/damage-type"
    )
    t.do(CastSpell(caster="oren", spell="Protection from Energy", targets=("brann",), damage_type="Fire"))
    assert [e.amount for e in of_type(t.do(Damage(target="brann", amount=9, damage_type="fire")), DamageTaken)] == [4]
    assert [e.amount for e in of_type(t.do(Damage(target="brann", amount=9, damage_type="cold")), DamageTaken)] == [9]
    t.do(EndConcentration(combatant="oren"))
    assert [e.amount for e in of_type(t.do(Damage(target="brann", amount=9, damage_type="fire")), DamageTaken)] == [9]


def test_barkskin_makes_an_armor_class_below_17_into_17():
    """Barkskin: "the target has an Armor Class of 17 if its AC is lower than that." Brann (AC
    15): a Bandit's 16 misses against 17; once the spell is dispelled, 16 hits AC 15."""
    t = table()
    t.do(CastSpell(caster="oren", spell="Barkskin", targets=("brann",)))
    made = attack(t, "bandit-1", "brann", (13,))
    assert (made.total, made.target_ac, made.hit) == (16, 17, False)
    t.do(RemoveCondition(target="brann", condition="barkskin", reason="dispelled"))
    made = attack(t, "bandit-2", "brann", (13,))
    assert (made.total, made.target_ac, made.hit) == (16, 15, True)


def test_barkskin_leaves_a_higher_armor_class_as_it_is():
    """ "... if its AC is lower than that": Brann behind Three-Quarters Cover (15 + 5) is at AC
    20, not 17."""
    t = table()
    t.do(CastSpell(caster="oren", spell="Barkskin", targets=("brann",)))
    next_turn(t, "bandit-1")
    made = of_type(t.do(Attack(attacker="bandit-1", target="brann", faces=(13,), cover="three-quarters")), AttackMade)[0]
    assert made.target_ac == 20


def test_longstrider_adds_10_feet_of_speed_until_it_ends():
    """Longstrider: "The target's Speed increases by 10 feet until the spell ends." Oren's 30
    feet are 40 on his next turn, 30 again once it is dispelled."""
    t = table()
    t.do(CastSpell(caster="oren", spell="Longstrider", targets=("oren",)))
    next_turn(t, "oren")
    assert t["oren"].economy.movement == 40
    t.do(RemoveCondition(target="oren", condition="longstrider", reason="dispelled"))
    next_turn(t, "oren")
    assert t["oren"].economy.movement == 30


def test_warding_bond_gives_ac_saves_resistance_and_shares_the_damage_with_the_caster():
    """Warding Bond: "You touch another creature that is willing ... it gains a +1 bonus to AC
    and saving throws, and it has Resistance to all damage. Also, each time it takes damage,
    you take the same amount of damage. The spell ends if you drop to 0 Hit Points". Ilse can't
    bond herself. Brann (AC 16): a 15 misses, a 17 hits for 6 Slashing, of which he takes 3 and
    Ilse 3; his Dexterity save of 11 is 12. Ilse dropped to 0 ends it: 4 Fire is 4 to him alone."""
    t = table(CLERIC)
    t.rejects(CastSpell(caster="ilse", spell="Warding Bond", targets=("ilse",)), "spell/targets")
    t.do(CastSpell(caster="ilse", spell="Warding Bond", targets=("brann",)))
    made = attack(t, "bandit-1", "brann", (12,))
    assert (made.target_ac, made.hit) == (16, False)
    next_turn(t, "bandit-2")
    events = t.do(Attack(attacker="bandit-2", target="brann", faces=(14,), damage_faces=(5,)))
    assert of_type(events, AttackMade)[0].damage == 3
    assert [(e.target, e.amount, e.source) for e in of_type(events, DamageTaken)] == [("ilse", 3, "warding bond")]
    assert (t["brann"].hp, t["ilse"].hp) == (17, 63)
    events = t.do(SaveEffect(source="trap", targets=("brann",), ability="dex", dc=12, faces={"brann": (11,)}))
    assert [(s.total, s.success) for s in of_type(events, SaveMade)] == [(12, True)]
    events = t.do(Damage(target="ilse", amount=63, damage_type="necrotic"))
    assert [e.condition for e in of_type(events, ConditionEnded) if e.target == "brann"] == ["warding bond"]
    events = t.do(Damage(target="brann", amount=4, damage_type="fire"))
    assert [(e.target, e.amount) for e in of_type(events, DamageTaken)] == [("brann", 4)]
    assert t.rebuilt() == t.state


def test_warding_bond_ends_when_cast_again_on_either_connected_creature():
    """Warding Bond: "It also ends if the spell is cast again on either of the connected
    creatures." Ilse bonds Brann; a second Warding Bond on Brann ends the first, and the new
    bond is the only one."""
    t = table(CLERIC)
    t.do(CastSpell(caster="ilse", spell="Warding Bond", targets=("brann",)))
    next_turn(t, "ilse")
    events = t.do(CastSpell(caster="ilse", spell="Warding Bond", targets=("brann",)))
    assert [e.reason for e in of_type(events, ConditionEnded)] == [
        "Warding Bond was cast again on one of the creatures it connects"
    ]
    assert [c.name for c in t["brann"].conditions] == ["warding bond"]


def test_holy_aura_gives_advantage_on_saves_and_disadvantage_to_attackers_while_it_lasts():
    """Holy Aura: "While in the aura, creatures of your choice have Advantage on all saving
    throws, and other creatures have Disadvantage on attack rolls against them." Mara chooses
    herself and Brann: a Bandit attacks Brann with Disadvantage (18, 3: the 3); Brann's Wisdom
    save rolls two d20s (3, 14: the 14). Her concentration ended, the next Bandit's d20 is one."""
    t = table(HIGH_CLERIC)
    t.do(CastSpell(caster="mara", spell="Holy Aura", targets=("mara", "brann")))
    made = attack(t, "bandit-1", "brann", (18, 3))
    assert (made.roll_mode, made.natural) == ("disadvantage", 3)
    events = t.do(SaveEffect(source="trap", targets=("brann",), ability="wis", dc=12, faces={"brann": (3, 14)}))
    assert [s.total for s in of_type(events, SaveMade)] == [14]
    t.do(EndConcentration(combatant="mara"))
    made = attack(t, "bandit-2", "brann", (18,))
    assert made.roll_mode == "normal"


def test_enlarge_adds_1d4_to_weapon_damage_and_advantage_on_strength_until_it_ends():
    """Enlarge/Reduce: "Enlarge. ... The target also has Advantage on Strength checks and
    Strength saving throws. The target's attacks with its enlarged weapons or Unarmed Strikes
    deal an extra 1d4 damage on a hit." The effect must be chosen. Brann enlarged: his
    Longsword deals 1d8 + 3 + 1d4 (4, 2: 9); his Strength save and check roll two d20s and keep
    the higher. Once Vesna's concentration ends, 1d8 + 3 (4: 7)."""
    t = table(WIZARD)
    error = t.rejects(CastSpell(caster="vesna", spell="Enlarge/Reduce", targets=("brann",)), "spell/option")
    assert "enlarge, reduce" in error.allowed
    t.do(CastSpell(caster="vesna", spell="Enlarge/Reduce", targets=("brann",), option="enlarge"))
    made = attack(t, "brann", "bandit-1", (15,), (4, 2))
    assert (made.damage_rolled, made.damage) == (9, 9)
    events = t.do(SaveEffect(source="trap", targets=("brann",), ability="str", dc=12, faces={"brann": (3, 14)}))
    assert [s.total for s in of_type(events, SaveMade)] == [14]
    check = of_type(t.do(AbilityCheck(combatant="brann", ability="strength", bonus=0, faces=(5, 16))), CheckMade)[0]
    assert check.total == 16
    t.do(EndConcentration(combatant="vesna"))
    made = attack(t, "brann", "bandit-1", (15,), (4,))
    assert made.damage_rolled == 7


def test_reduce_takes_1d4_from_weapon_damage_and_gives_disadvantage_on_strength():
    """Enlarge/Reduce: "Reduce. ... The target also has Disadvantage on Strength checks and
    Strength saving throws. The target's attacks with its reduced weapons or Unarmed Strikes
    deal 1d4 less damage on a hit (this can't reduce the damage below 1)". A reduced Bandit's
    Scimitar deals 1d6 + 1 - 1d4 (5, 2: 4), and with 1 and 4 still 1; its Strength save keeps
    the lower of 14 and 3."""
    t = table(WIZARD)
    t.do(CastSpell(caster="vesna", spell="Enlarge/Reduce", targets=("bandit-1",), option="reduce"))
    made = attack(t, "bandit-1", "brann", (15,), (5, 2))
    assert made.damage_rolled == 4
    events = t.do(SaveEffect(source="trap", targets=("bandit-1",), ability="str", dc=12, faces={"bandit-1": (14, 3)}))
    assert [s.total for s in of_type(events, SaveMade)] == [3]
    made = attack(t, "bandit-1", "brann", (15,), (1, 4))
    assert made.damage_rolled == 1


def test_barkskin_counts_shield_on_the_armor_class_it_raised_not_on_17():
    """Barkskin's AC of 17 "if its AC is lower than that" is the AC with every bonus: Elke (AC
    12) under Barkskin is hit by a Bandit's 18 against 17; her Shield ("a +5 bonus to AC,
    including against the triggering attack") makes her AC 12 + 5, still 17, and the hit stands."""
    t = Table()
    t.do(AddCharacter(character=DRUID, side="party", player="sam"))
    mage = spellcaster("Elke", "Wizard", 5, "Shield", scores="STR 8 DEX 14 CON 12 INT 16 WIS 10 CHA 10")
    t.do(AddCharacter(character=mage, side="party", player="kim"))
    t.do(AddCreature(creature="Bandit", side="foes"))
    t.start({"oren": 20, "elke": 15, "bandit": 10})
    t.do(CastSpell(caster="oren", spell="Barkskin", targets=("elke",)))
    next_turn(t, "bandit")
    events = t.do(Attack(attacker="bandit", target="elke", faces=(15,), damage_faces=(3,)))
    assert of_type(events, ReactionWindowOpened)[0].held["ac_raw"] == 12
    events = t.do(CastSpell(caster="elke", spell="Shield"))
    assert not of_type(events, AttackDeflected) and [e.damage for e in of_type(events, AttackDamageRolled)] == [4]


# -- other spells of the same shape ------------------------------------------------------------

PALADIN = spellcaster(
    "Tam", "Paladin", 5, "Shining Smite", scores="STR 16 DEX 10 CON 14 INT 8 WIS 10 CHA 14", weapons=("Longsword",)
)
ADEPT = spellcaster("Sael", "Wizard", 9, "Gaseous Form", "Fire Shield", scores="STR 8 DEX 14 CON 14 INT 18 WIS 12 CHA 10")
PRIEST = spellcaster(
    "Mara", "Cleric", 15, "Aura of Life", "Beacon of Hope", "Dispel Evil and Good", "Protection from Poison", "Enhance Ability"
)


def damage_taken(t: Table, target: str, amount: int, kind: str) -> int:
    return of_type(t.do(Damage(target=target, amount=amount, damage_type=kind)), DamageTaken)[0].amount


def test_shining_smite_gives_advantage_against_its_target_and_takes_its_invisibility_away():
    """Shining Smite: "Until the spell ends, the target sheds Bright Light in a 5-foot radius,
    attack rolls against it have Advantage, and it can't benefit from the Invisible condition."
    Tam's weapon hits a Bandit (19) and he smites it, which then turns Invisible: Brann still
    attacks it with Advantage (3, 17: the 17); with Tam's concentration ended, its Invisible
    condition gives Disadvantage."""
    t = table(PALADIN)
    t.do(Attack(attacker="tam", target="bandit-1", faces=(19,), damage_faces=(1,)))
    t.do(CastSpell(caster="tam", spell="Shining Smite", damage_faces=((1, 1),)))
    t.do(ApplyCondition(target="bandit-1", condition=ConditionSpec(name="invisible")))
    made = attack(t, "brann", "bandit-1", (3, 17))
    assert (made.roll_mode, made.natural) == ("advantage", 17)
    t.do(EndConcentration(combatant="tam"))
    made = attack(t, "brann", "bandit-1", (17, 3))
    assert (made.roll_mode, made.natural) == ("disadvantage", 3)


def test_enhance_ability_gives_advantage_on_checks_of_the_chosen_ability():
    """Enhance Ability: "You touch a creature and choose Strength, Dexterity, Intelligence,
    Wisdom, or Charisma. For the duration, the target has Advantage on ability checks using the
    chosen ability." Dexterity for Brann: his Dexterity check keeps 16 of 5 and 16, a Strength
    check is one d20; Constitution is no choice. When the spell ends, a Dexterity check is one d20."""
    t = table(PRIEST)
    t.rejects(CastSpell(caster="mara", spell="Enhance Ability", targets=("brann",), option="constitution"), "spell/option")
    t.do(CastSpell(caster="mara", spell="Enhance Ability", targets=("brann",), option="dexterity"))
    check = of_type(t.do(AbilityCheck(combatant="brann", ability="dex", bonus=0, faces=(5, 16))), CheckMade)[0]
    assert check.total == 16
    assert of_type(t.do(AbilityCheck(combatant="brann", ability="str", bonus=0, faces=(5,))), CheckMade)[0].total == 5
    t.do(EndConcentration(combatant="mara"))
    assert of_type(t.do(AbilityCheck(combatant="brann", ability="dex", bonus=0, faces=(5,))), CheckMade)[0].total == 5


def test_protection_from_poison_halves_poison_damage_until_it_ends():
    """Protection from Poison: "For the duration, the target ... has Resistance to Poison
    damage." 7 Poison to Brann is 3; dispelled, 7."""
    t = table(PRIEST)
    t.do(CastSpell(caster="mara", spell="Protection from Poison", targets=("brann",)))
    assert damage_taken(t, "brann", 7, "poison") == 3
    t.do(RemoveCondition(target="brann", condition="protection from poison", reason="dispelled"))
    assert damage_taken(t, "brann", 7, "poison") == 7


def test_gaseous_form_resists_weapons_cannot_be_prone_and_saves_strength_dex_con_with_advantage():
    """Gaseous Form: "The target has Resistance to Bludgeoning, Piercing, and Slashing damage;
    it has Immunity to the Prone condition; and it has Advantage on Strength, Dexterity, and
    Constitution saving throws." Brann in mist: 8 Piercing is 4, Prone is refused, a
    Constitution save keeps 15 of 2 and 15 (+2: 17). When it ends, 8 Piercing is 8."""
    t = table(ADEPT)
    t.do(CastSpell(caster="sael", spell="Gaseous Form", targets=("brann",)))
    assert damage_taken(t, "brann", 8, "piercing") == 4
    t.rejects(ApplyCondition(target="brann", condition=ConditionSpec(name="prone")), "condition/immune")
    events = t.do(SaveEffect(source="trap", targets=("brann",), ability="con", dc=12, faces={"brann": (2, 15)}))
    assert [s.total for s in of_type(events, SaveMade)] == [17]
    t.do(EndConcentration(combatant="sael"))
    assert damage_taken(t, "brann", 8, "piercing") == 8


def test_beacon_of_hope_gives_advantage_on_wisdom_saves():
    """Beacon of Hope: "For the duration, each target has Advantage on Wisdom saving throws".
    Brann's Wisdom save keeps 14 of 3 and 14; once the concentration ends, one d20."""
    t = table(PRIEST)
    t.do(CastSpell(caster="mara", spell="Beacon of Hope", targets=("brann", "mara")))
    events = t.do(SaveEffect(source="trap", targets=("brann",), ability="wis", dc=12, faces={"brann": (3, 14)}))
    assert [s.total for s in of_type(events, SaveMade)] == [14]
    t.do(EndConcentration(combatant="mara"))
    events = t.do(SaveEffect(source="trap", targets=("brann",), ability="wis", dc=12, faces={"brann": (3,)}))
    assert [s.total for s in of_type(events, SaveMade)] == [3]


def test_fire_shield_resists_cold_when_warm_and_fire_when_chill():
    """Fire Shield: "The flames provide you with a warm shield or a chill shield, as you choose.
    The warm shield grants you Resistance to Cold damage, and the chill shield grants you
    Resistance to Fire damage." Warm: 9 Cold is 4, 9 Fire is 9; dispelled and cast chill: 9
    Fire is 4."""
    t = table(ADEPT)
    t.rejects(CastSpell(caster="sael", spell="Fire Shield"), "spell/option")
    t.do(CastSpell(caster="sael", spell="Fire Shield", option="warm"))
    assert (damage_taken(t, "sael", 9, "cold"), damage_taken(t, "sael", 9, "fire")) == (4, 9)
    t.do(RemoveCondition(target="sael", condition="fire shield", reason="dismissed"))
    assert damage_taken(t, "sael", 9, "cold") == 9
    next_turn(t, "sael")
    t.do(CastSpell(caster="sael", spell="Fire Shield", option="chill"))
    assert damage_taken(t, "sael", 9, "fire") == 4


def test_aura_of_life_gives_the_creatures_in_it_resistance_to_necrotic_damage():
    """Aura of Life: "While in the aura, you and your allies have Resistance to Necrotic
    damage". Mara and Brann in it: 9 Necrotic is 4 each; the concentration ended, 9."""
    t = table(PRIEST)
    t.do(CastSpell(caster="mara", spell="Aura of Life", targets=("mara", "brann")))
    assert (damage_taken(t, "mara", 9, "necrotic"), damage_taken(t, "brann", 9, "necrotic")) == (4, 4)
    t.do(EndConcentration(combatant="mara"))
    assert damage_taken(t, "brann", 9, "necrotic") == 9


def test_dispel_evil_and_good_gives_undead_disadvantage_against_the_caster():
    """Dispel Evil and Good: "For the duration, Celestials, Elementals, Fey, Fiends, and Undead
    have Disadvantage on attack rolls against you." The Zombie's 18 and 3 keep the 3; a
    Bandit's one d20 stands. Ended, the Zombie's one d20 stands too."""
    t = table(PRIEST, "Zombie", "Bandit")
    t.do(CastSpell(caster="mara", spell="Dispel Evil and Good"))
    made = attack(t, "zombie-1", "mara", (18, 3))
    assert (made.roll_mode, made.natural) == ("disadvantage", 3)
    assert attack(t, "bandit-2", "mara", (3,)).roll_mode == "normal"
    t.do(EndConcentration(combatant="mara"))
    assert attack(t, "zombie-1", "mara", (18,)).roll_mode == "normal"


def test_a_blinded_attacker_has_faerie_fires_advantage_only_if_it_sees_but_shining_smites_always():
    """Faerie Fire: "Attack rolls against an affected creature or object have Advantage if the
    attacker can see it"; Shining Smite: "attack rolls against it have Advantage", with no such
    clause. Brann is Blinded ("your attack rolls have Disadvantage"): against the outlined
    Bandit his roll has Disadvantage only (18, 2: the 2); against the smitten one, Advantage and
    Disadvantage cancel (a single d20, 11)."""
    t = table()
    t.do(CastSpell(caster="oren", spell="Faerie Fire", targets=("bandit-1",), save_faces={"bandit-1": (3,)}))
    t.do(ApplyCondition(target="brann", condition=ConditionSpec(name="blinded")))
    made = attack(t, "brann", "bandit-1", (18, 2))
    assert (made.roll_mode, made.natural) == ("disadvantage", 2)
    t = table(PALADIN)
    t.do(Attack(attacker="tam", target="bandit-1", faces=(19,), damage_faces=(1,)))
    t.do(CastSpell(caster="tam", spell="Shining Smite", damage_faces=((1, 1),)))
    t.do(ApplyCondition(target="brann", condition=ConditionSpec(name="blinded")))
    made = attack(t, "brann", "bandit-1", (11,))
    assert (made.roll_mode, made.natural) == ("normal", 11)
