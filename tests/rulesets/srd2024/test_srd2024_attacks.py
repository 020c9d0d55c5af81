"""srd-2024 attacks: d20 + bonus against AC, Advantage and Disadvantage, Critical Hits, cover, damage types.

"Make the Attack Roll. On a hit, you roll damage unless the particular attack has rules that
specify otherwise."
"""

from combat.common.commands import ApplyCondition, Damage
from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackMade
from combat.kernel.events import AttackProfile, ConditionSpec, DiceRolled
from tests.helpers import SHORTBOW, Table, monster, of_type, pc


def _duel(goblin: dict | None = None, **aria) -> Table:
    """Aria (Longsword +5, 1d8+3) against a sturdy goblin of AC 15."""
    t = Table().add(pc("aria", **aria), monster("goblin", max_hp=40, **(goblin or {})))
    return t.start({"aria": 15, "goblin": 5})


def _made(t: Table, **attack) -> AttackMade:
    [made] = of_type(t.do(Attack(attacker="aria", target="goblin", **attack)), AttackMade)
    return made


def _condition(t: Table, target: str, name: str) -> None:
    t.do(ApplyCondition(target=target, condition=ConditionSpec(name=name, source="gm")))


def test_an_attack_that_meets_the_armor_class_hits():
    """An attack roll hits when d20 + bonus equals or exceeds the target's AC: 10 + 5 = 15 against AC 15."""
    t = _duel()
    made = _made(t, faces=(10,), damage_faces=(6,))
    assert (made.total, made.target_ac, made.hit, made.damage) == (15, 15, True, 9)
    assert t["goblin"].hp == 31


def test_an_attack_below_the_armor_class_misses_and_rolls_no_damage():
    """'On a hit, you roll damage': a miss rolls none (9 + 5 = 14 against AC 15)."""
    t = _duel()
    events = t.do(Attack(attacker="aria", target="goblin", faces=(9,)))
    [made] = of_type(events, AttackMade)
    assert made.total == 14 and not made.hit and made.damage == 0
    assert [r.purpose for r in of_type(events, DiceRolled)] == ["attack"]
    assert t["goblin"].hp == 40


def test_advantage_rolls_two_d20_and_keeps_the_higher():
    """'roll a second d20 when you make the roll. Use the higher of the two rolls if you have Advantage.'"""
    t = _duel()
    made = _made(t, advantage=("the goblin is distracted",), faces=(3, 16), damage_faces=(1,))
    assert made.roll_mode == "advantage" and made.natural == 16 and made.hit


def test_disadvantage_rolls_two_d20_and_keeps_the_lower():
    """'Use ... the lower of the two rolls if you have Disadvantage.'"""
    t = _duel()
    made = _made(t, disadvantage=("fog",), faces=(19, 8))
    assert made.roll_mode == "disadvantage" and made.natural == 8 and not made.hit


def test_advantage_and_disadvantage_cancel_out_to_one_d20():
    """'If circumstances cause a roll to have both Advantage and Disadvantage, you are considered to have neither.'"""
    t = _duel()
    _condition(t, "goblin", "restrained")  # attacks against it have Advantage
    events = t.do(Attack(attacker="aria", target="goblin", disadvantage=("darkness", "fog"), faces=(12,), damage_faces=(2,)))
    [made] = of_type(events, AttackMade)
    assert made.roll_mode == "normal" and of_type(events, DiceRolled)[0].notation == "1d20+5"


def test_a_natural_20_hits_and_is_a_critical_hit_doubling_the_damage_dice():
    """'a natural 20 hits and is a Critical Hit': 1d8+3 becomes 2d8+3, with two damage faces."""
    t = _duel(goblin={"ac": 30})
    events = t.do(Attack(attacker="aria", target="goblin", faces=(20,), damage_faces=(5, 7)))
    [made] = of_type(events, AttackMade)
    assert made.hit and made.critical and made.damage == 15
    assert of_type(events, DiceRolled)[1].notation == "2d8+3"


def test_a_critical_hit_with_one_damage_face_is_rejected():
    """2d8+3 is two dice; one entered face is not enough and nothing is recorded."""
    t = _duel()
    t.rejects(Attack(attacker="aria", target="goblin", faces=(20,), damage_faces=(5,)), "dice/too-few-faces")


def test_a_natural_1_misses_even_with_a_huge_bonus():
    """'a natural 1 misses' whatever the modifiers."""
    huge = AttackProfile(name="Vorpal Blade", bonus=30, damage="1d8+3", damage_type="slashing")
    t = _duel(attacks=(huge,))
    made = _made(t, faces=(1,))
    assert made.total == 31 and not made.hit


def test_a_d4_from_bless_is_added_to_the_attack_roll():
    """Effects 'can apply penalties or bonuses to your attack roll': Bless adds 1d4."""
    t = _duel()
    made = _made(t, roll_bonus="1d4", faces=(8, 2), damage_faces=(1,))
    assert made.total == 15 and made.hit


def test_a_d4_from_bane_is_subtracted_from_the_attack_roll():
    """Effects 'can apply penalties ... to your attack roll': Bane subtracts 1d4."""
    t = _duel()
    made = _made(t, roll_bonus="-1d4", faces=(11, 2))
    assert made.total == 14 and not made.hit


def test_half_cover_adds_2_to_the_armor_class():
    """'Half: +2 bonus to AC.'"""
    t = _duel()
    made = _made(t, cover="half", faces=(11,))
    assert made.target_ac == 17 and made.total == 16 and not made.hit


def test_three_quarters_cover_adds_5_to_the_armor_class():
    """'Three-Quarters: +5 bonus to AC.'"""
    t = _duel()
    made = _made(t, cover="three-quarters", faces=(15,), damage_faces=(1,))
    assert made.target_ac == 20 and made.hit


def test_a_target_behind_total_cover_cant_be_targeted():
    """'Total: Can't be targeted directly.'"""
    t = _duel()
    error = t.rejects(
        Attack(attacker="aria", target="goblin", cover="total", faces=(20,), damage_faces=(8, 8)), "attack/total-cover"
    )
    assert "half" in (error.allowed or "")


def test_resistance_halves_damage_rounding_down():
    t = _duel(goblin={"resistances": ("slashing",)})
    made = _made(t, faces=(15,), damage_faces=(6,))
    assert (made.damage_rolled, made.damage) == (9, 4)


def test_vulnerability_doubles_damage():
    t = _duel(goblin={"vulnerabilities": ("slashing",)})
    made = _made(t, faces=(15,), damage_faces=(6,))
    assert made.damage == 18 and t["goblin"].hp == 22


def test_immunity_stops_the_damage():
    t = _duel(goblin={"immunities": ("slashing",)})
    made = _made(t, faces=(15,), damage_faces=(6,))
    assert made.hit and made.damage == 0 and t["goblin"].hp == 40


def test_attacking_a_prone_creature_in_melee_has_advantage():
    """Prone: 'An attack roll against you has Advantage if the attacker is within 5 feet of you.'"""
    t = _duel()
    _condition(t, "goblin", "prone")
    made = _made(t, faces=(4, 17), damage_faces=(1,))
    assert made.roll_mode == "advantage" and made.natural == 17


def test_shooting_at_a_prone_creature_from_afar_has_disadvantage():
    """Prone: 'Otherwise, that attack roll has Disadvantage.'"""
    t = _duel(attacks=(SHORTBOW,))
    _condition(t, "goblin", "prone")
    made = _made(t, faces=(17, 4))
    assert made.roll_mode == "disadvantage" and made.natural == 4 and not made.hit


def test_a_prone_attacker_has_disadvantage():
    """Prone: 'You have Disadvantage on attack rolls.'"""
    t = _duel()
    _condition(t, "aria", "prone")
    assert _made(t, faces=(16, 5)).roll_mode == "disadvantage"


def test_a_blinded_attacker_has_disadvantage_and_attacks_against_it_have_advantage():
    """Blinded: 'Attack rolls against you have Advantage, and your attack rolls have Disadvantage.'"""
    t = _duel()
    _condition(t, "goblin", "blinded")
    assert _made(t, faces=(3, 14), damage_faces=(2,)).roll_mode == "advantage"


def test_an_invisible_attacker_has_advantage_and_attacks_against_it_disadvantage():
    """Invisible: 'your attack rolls have Advantage'; attacks against you have Disadvantage."""
    t = _duel()
    _condition(t, "aria", "invisible")
    assert _made(t, faces=(3, 14), damage_faces=(2,)).roll_mode == "advantage"


def test_attacks_against_an_invisible_creature_have_disadvantage():
    """'When you make an attack roll against a target you can't see, you have Disadvantage on the roll.'"""
    t = _duel()
    _condition(t, "goblin", "invisible")
    made = _made(t, faces=(18, 9))
    assert made.roll_mode == "disadvantage" and not made.hit


def test_a_melee_hit_on_an_unconscious_creature_within_5_feet_is_a_critical_hit():
    """Unconscious: 'Any attack roll that hits you is a Critical Hit if the attacker is within 5 feet of you.'"""
    t = _duel()
    _condition(t, "goblin", "unconscious")
    made = _made(t, faces=(2, 11), damage_faces=(3, 4))
    assert made.roll_mode == "advantage" and made.hit and made.critical and made.damage == 10


def test_shooting_an_unconscious_creature_from_afar_is_a_straight_roll():
    """Unconscious: 'You have the Incapacitated and Prone conditions': Advantage against the
    unconscious, Disadvantage against the prone beyond 5 feet; they cancel."""
    t = _duel(attacks=(SHORTBOW,))
    _condition(t, "goblin", "unconscious")
    made = _made(t, faces=(12,), damage_faces=(3,))
    assert made.roll_mode == "normal" and made.hit and not made.critical


def test_a_ranged_hit_on_a_paralyzed_creature_is_not_automatically_critical():
    """Paralyzed: the automatic Critical Hit needs the attacker 'within 5 feet'."""
    t = _duel(attacks=(SHORTBOW,))
    _condition(t, "goblin", "paralyzed")
    made = _made(t, faces=(2, 12), damage_faces=(3,))
    assert made.hit and not made.critical and made.damage == 5


def test_a_dead_creature_cannot_be_attacked():
    """A dead monster is out of the fight; attacks name a living target."""
    t = Table().add(pc("aria"), monster("goblin"), monster("orc")).start({"aria": 15, "goblin": 5, "orc": 3})
    t.do(Damage(target="goblin", amount=7, damage_type="fire"))
    t.rejects(Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(3,)), "target/dead")


def test_an_unknown_attack_name_is_rejected_listing_the_stat_block():
    """A creature attacks with what its stat block gives it."""
    t = _duel()
    error = t.rejects(Attack(attacker="aria", target="goblin", attack="Greataxe", faces=(15,)), "attack/unknown")
    assert error.allowed == "Longsword"


def test_a_combatant_cannot_attack_itself():
    """'Pick a target within your attack's range' - another creature."""
    t = _duel()
    t.rejects(Attack(attacker="aria", target="aria", faces=(15,), damage_faces=(3,)), "target/self")


def test_an_incapacitated_combatant_cannot_attack():
    """Incapacitated: 'You can't take any action, Bonus Action, or Reaction.'"""
    t = _duel()
    _condition(t, "aria", "stunned")
    t.rejects(Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(3,)), "combatant/incapacitated")


def test_a_shot_beyond_normal_range_has_disadvantage_and_beyond_long_range_is_refused():
    """'Your attack roll has Disadvantage when your target is beyond normal range, and you can't
    attack a target beyond long range.' A melee attack reaches only its reach."""
    from combat.fivee.attack_commands import Attack
    from combat.fivee.attack_events import AttackMade
    from combat.kernel.commands import EndTurn
    from tests.helpers import SHORTBOW, Table, monster, of_type, pc

    t = Table().add(pc("lyra", attacks=(SHORTBOW,)), pc("aria"), monster("goblin", max_hp=30))
    t.start({"lyra": 18, "aria": 12, "goblin": 3})
    t.rejects(Attack(attacker="lyra", target="goblin", distance=330, faces=(20,)), "attack/out-of-range")
    [shot] = of_type(t.do(Attack(attacker="lyra", target="goblin", distance=120, faces=(17, 4))), AttackMade)
    assert shot.roll_mode == "disadvantage" and shot.natural == 4 and not shot.hit
    t.do(EndTurn(combatant="lyra"))
    t.rejects(Attack(attacker="aria", target="goblin", distance=10, faces=(12,)), "attack/out-of-reach")
    [swing] = of_type(t.do(Attack(attacker="aria", target="goblin", distance=5, faces=(12,), damage_faces=(3,))), AttackMade)
    assert swing.hit and swing.roll_mode == "normal"
