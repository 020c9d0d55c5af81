"""Issue 31, fault 8: what a spell does beyond the moment it is cast, each as the SRD 5.2 text
says it, every face entered.

Vesna is a level 17 Wizard (Dexterity 14: +2, AC 12; Intelligence 20: spell save DC 19,
spell attack +11), Ilse a level 9 Cleric (Wisdom 18: +4, DC 16, spell attack +8; AC 10, 66 HP).
Bandits are Humanoids of CR 1/8 (11 HP, AC 12, Wisdom +0, Dexterity +1)."""

from __future__ import annotations

from combat.common.commands import ApplyCondition, Damage, EndConcentration, Heal, RemoveCondition
from combat.common.events import DamageTaken, Healed, SaveMade, TempHPGranted
from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackMade
from combat.fivee.casts import CastSpell
from combat.fivee.dying import CombatantDied
from combat.fivee.save_effects import SaveEffect
from combat.fivee.spell_effect_uses import SpellEffect
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionApplied, ConditionEnded, ConditionSpec
from tests.helpers import Table, against, next_turn, of_type, pc, spellcaster

WIZARD = spellcaster("Vesna", "Wizard", 17, "Mage Armor", "Haste", "Sleep", "Polymorph", "Disintegrate", "Chill Touch")
CLERIC = spellcaster("Ilse", "Cleric", 9, "Guiding Bolt", "Spiritual Weapon", "Spirit Guardians", "Aid", "Heroism")


def table(caster=WIZARD, count: int = 2, *, ally: bool = False, brann_hp: int = 20) -> Table:
    """The caster first, then the Bandits (and Brann, a fighter of the party, last)."""
    return against(caster, "Bandit", count, initiative=(20, 10), ally=pc("brann", max_hp=brann_hp) if ally else None)


def test_mage_armor_makes_base_ac_13_plus_dexterity():
    """Mage Armor: "Until the spell ends, the target's base AC becomes 13 plus its Dexterity
    modifier." Vesna (AC 12, Dexterity +2) is AC 15: a Bandit's 14 that hit her before misses."""
    t = table(count=1)
    t.do(CastSpell(caster="vesna", spell="Mage Armor", targets=("vesna",)))
    assert t["vesna"].conditions[0].riders.ac_base == 15
    next_turn(t, "bandit")
    made = of_type(t.do(Attack(attacker="bandit", target="vesna", faces=(11,), damage_faces=(1,))), AttackMade)[0]
    assert (made.total, made.target_ac, made.hit) == (14, 15, False)


def test_aid_raises_maximum_and_current_hit_points_and_5_more_per_slot_level():
    """Aid: "Each target's Hit Point maximum and current Hit Points increase by 5 for the
    duration." "Each target's Hit Points increase by 5 for each spell slot level above 2."
    With a 3rd-level slot, Ilse (66 of 66) is at 76 of 76; as it ends her maximum is 66 again."""
    t = table(CLERIC)
    t.do(CastSpell(caster="ilse", spell="Aid", targets=("ilse",), slot_level=3))
    assert (t["ilse"].hp, t["ilse"].max_hp) == (76, 76)
    t.do(Damage(target="ilse", amount=4, damage_type="slashing"))
    events = t.do(RemoveCondition(target="ilse", condition="aid", reason="dispelled"))
    assert of_type(events, ConditionEnded)[0].entry.riders.max_hp_bonus == 10
    assert (t["ilse"].hp, t["ilse"].max_hp) == (66, 66)
    assert t.rebuilt() == t.state


def test_heroism_gives_temporary_hit_points_at_the_start_of_each_turn_and_no_fear():
    """Heroism: "Until the spell ends, the creature is immune to the Frightened condition and
    gains Temporary Hit Points equal to your spellcasting ability modifier at the start of each
    of its turns." Ilse (Wisdom +4) on herself: 4 Temporary Hit Points as her next turn starts."""
    t = table(CLERIC)
    t.do(CastSpell(caster="ilse", spell="Heroism", targets=("ilse",)))
    assert t["ilse"].temp_hp == 0
    events = []
    t.do(EndTurn(combatant="ilse"))
    t.do(EndTurn(combatant="bandit-1"))
    events = t.do(EndTurn(combatant="bandit-2"))
    assert [(e.target, e.amount) for e in of_type(events, TempHPGranted)] == [("ilse", 4)] and t["ilse"].temp_hp == 4
    error = t.rejects(ApplyCondition(target="ilse", condition=ConditionSpec(name="frightened")), "condition/immune")
    assert "heroism" in error.message


def test_haste_doubles_speed_gives_dex_advantage_an_action_and_lethargy_when_it_ends():
    """Haste: "the target's Speed is doubled, it gains a +2 bonus to Armor Class, it has
    Advantage on Dexterity saving throws, and it gains an additional action on each of its
    turns." "When the spell ends, the target is Incapacitated and has a Speed of 0 until the end
    of its next turn." Vesna (Speed 30) on herself: her own action spent, the additional one is
    there; a Dexterity save rolls two d20s; 60 feet on her next turn; then lethargy."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Haste", targets=("vesna",)))
    assert t["vesna"].economy.action
    events = t.do(SaveEffect(source="trap", targets=("vesna",), ability="dex", dc=15, faces={"vesna": (3, 14)}))
    assert [(s.total, s.success) for s in of_type(events, SaveMade)] == [(16, True)]  # the higher d20, 14, + 2
    next_turn(t, "vesna")
    assert t["vesna"].economy.movement == 60
    events = t.do(EndConcentration(combatant="vesna"))
    lethargy = [e.condition for e in of_type(events, ConditionApplied)]
    assert [c.name for c in lethargy] == ["incapacitated"] and lethargy[0].ends_on == "vesna"
    assert t["vesna"].has("incapacitated")
    next_turn(t, "vesna")
    assert t["vesna"].economy.movement == 0 and t["vesna"].has("incapacitated")
    t.do(EndTurn(combatant="vesna"))
    assert not t["vesna"].has("incapacitated")


def test_guiding_bolt_gives_advantage_to_the_next_attack_roll_against_its_target():
    """Guiding Bolt: "On a hit, it takes 4d6 Radiant damage, and the next attack roll made
    against it before the end of your next turn has Advantage." Ilse hits a Bandit (15 + 8) for
    4; Brann's next attack rolls two d20s and spends the mark; a third attack has none."""
    t = table(CLERIC, count=1, ally=True)
    t.do(CastSpell(caster="ilse", spell="Guiding Bolt", targets=("bandit",), attack_faces=((15,),), damage_faces=((1, 1, 1, 1),)))
    assert t["bandit"].hp == 7 and t["bandit"].has("guiding bolt")
    next_turn(t, "brann")
    events = t.do(Attack(attacker="brann", target="bandit", faces=(2, 18), damage_faces=(1,)))
    made = of_type(events, AttackMade)[0]
    assert made.roll_mode == "advantage" and made.natural == 18
    assert not t["bandit"].has("guiding bolt")


def test_chill_touch_stops_healing_until_the_end_of_the_casters_next_turn():
    """Chill Touch: "On a hit, the target takes 1d10 Necrotic damage, and it can't regain Hit
    Points until the end of your next turn." (4d10 at level 17.) Healed before then: 0."""
    t = table()
    t.do(
        CastSpell(caster="vesna", spell="Chill Touch", targets=("bandit-1",), attack_faces=((15,),), damage_faces=((1, 1, 1, 1),))
    )
    assert t["bandit-1"].hp == 7
    next_turn(t, "bandit-1")
    assert [e.amount for e in of_type(t.do(Heal(target="bandit-1", amount=3)), Healed)] == [0] and t["bandit-1"].hp == 7
    next_turn(t, "vesna")
    t.do(EndTurn(combatant="vesna"))  # the end of Vesna's next turn
    assert [e.amount for e in of_type(t.do(Heal(target="bandit-1", amount=3)), Healed)] == [3]


def test_sleep_second_failure_is_unconscious_a_success_wakes_and_damage_ends_it():
    """Sleep: "must succeed on a Wisdom saving throw or have the Incapacitated condition until
    the end of its next turn, at which point it must repeat the save. If the target fails the
    second save, the target has the Unconscious condition for the duration. The spell ends on a
    target if it takes damage". DC 19: both Bandits fail (2, 3); at the end of its turn Bandit 1
    fails again (4) and sleeps, Bandit 2 succeeds (19); a blow wakes Bandit 1."""
    t = table()
    t.do(
        CastSpell(
            caster="vesna", spell="Sleep", targets=("bandit-1", "bandit-2"), save_faces={"bandit-1": (2,), "bandit-2": (3,)}
        )
    )
    assert t["bandit-1"].has("incapacitated") and t["bandit-2"].has("incapacitated")
    t.do(EndTurn(combatant="vesna"))
    t.do(EndTurn(combatant="bandit-1", save_faces=((4,),)))
    assert t["bandit-1"].has("unconscious") and not t["bandit-1"].has("incapacitated")
    t.do(EndTurn(combatant="bandit-2", save_faces=((19,),)))
    assert not t["bandit-2"].conditions
    events = t.do(Damage(target="bandit-1", amount=1, damage_type="bludgeoning"))
    assert [e.condition for e in of_type(events, ConditionEnded)] == ["unconscious"] and not t["bandit-1"].conditions


def test_spiritual_weapon_attacks_as_cast_and_as_a_bonus_action_on_later_turns():
    """Spiritual Weapon: "you can immediately make one melee spell attack ... On a hit, the
    target takes Force damage equal to 1d8 plus your spellcasting ability modifier. As a Bonus
    Action on your later turns, you can move the force up to 20 feet and repeat the attack";
    "The damage increases by 1d8 for every slot level above 2". Cast at 3rd: 2d8 + 4."""
    t = table(CLERIC)
    t.rejects(SpellEffect(caster="ilse", spell="Spiritual Weapon", targets=("bandit-1",)), "spell/not-active")
    events = t.do(
        CastSpell(
            caster="ilse",
            spell="Spiritual Weapon",
            slot_level=3,
            targets=("bandit-1",),
            attack_faces=((12,),),
            damage_faces=((1, 1),),
        )
    )
    assert [(e.damage, e.damage_type) for e in of_type(events, AttackMade)] == [(6, "force")]
    next_turn(t, "ilse")
    events = t.do(
        SpellEffect(caster="ilse", spell="Spiritual Weapon", targets=("bandit-2",), attack_faces=((12,),), damage_faces=((2, 1),))
    )
    assert [(e.target, e.damage) for e in of_type(events, AttackMade)] == [("bandit-2", 7)]
    assert not t["ilse"].economy.bonus_action and t["ilse"].economy.action
    t.rejects(SpellEffect(caster="ilse", spell="Spiritual Weapon", targets=("bandit-2",)), "economy/bonus-action-spent")


def test_spirit_guardians_save_when_a_creature_ends_its_turn_in_the_emanation():
    """Spirit Guardians: "whenever a creature enters the Emanation or ends its turn there, the
    creature must make a Wisdom saving throw. On a failed save, the creature takes 3d8 Radiant
    damage ... On a successful save, the creature takes half as much damage." Cast at 4th
    (4d8), Radiant chosen: a Bandit ending its turn there fails (5) and takes 4d8 = 8 Radiant."""
    t = table(CLERIC)
    t.do(CastSpell(caster="ilse", spell="Spirit Guardians", slot_level=4, damage_type="radiant"))
    t.do(EndTurn(combatant="ilse"))
    events = t.do(
        SpellEffect(
            caster="ilse",
            spell="Spirit Guardians",
            targets=("bandit-1",),
            save_faces={"bandit-1": (5,)},
            damage_faces=((2, 2, 2, 2),),
        )
    )
    assert [(s.dc, s.success) for s in of_type(events, SaveMade)] == [(16, False)]
    assert [(e.amount, e.damage_type) for e in of_type(events, DamageTaken)] == [(8, "radiant")]
    t.rejects(SpellEffect(caster="ilse", spell="Spirit Guardians", targets=("ilse",)), "spell/targets")
    t.do(EndConcentration(combatant="ilse"))
    t.rejects(SpellEffect(caster="ilse", spell="Spirit Guardians", targets=("bandit-2",)), "spell/not-active")


def test_disintegrate_turns_a_creature_it_drops_to_0_into_dust():
    """Disintegrate: "On a failed save, the target takes 10d6 + 40 Force damage. If this damage
    reduces it to 0 Hit Points, it and everything nonmagical it is wearing and carrying are
    disintegrated into gray dust." Brann (50 HP), a character, fails (2) and takes 10 + 40: he
    dies, no Death Saving Throws."""
    t = table(count=1, ally=True, brann_hp=50)
    events = t.do(
        CastSpell(caster="vesna", spell="Disintegrate", targets=("brann",), save_faces={"brann": (2,)}, damage_faces=((1,) * 10,))
    )
    assert [e.cause for e in of_type(events, CombatantDied)] == [
        "Disintegrate: reduced to 0 Hit Points, disintegrated into gray dust"
    ]
    assert t["brann"].status == "dead"


def test_polymorph_gives_the_beasts_hit_points_as_temporary_ones_and_ends_when_they_are_gone():
    """Polymorph: "That form can be any Beast you choose that has a Challenge Rating equal to or
    less than the target's". "The target gains a number of Temporary Hit Points equal to the Hit
    Points of the Beast form." "The spell ends early on the target if it has no Temporary Hit
    Points left." A Bandit (CR 1/8) fails (4) and becomes a Cat (2 HP); a Brown Bear (CR 1) is
    refused; 2 damage ends it."""
    t = table()
    t.rejects(
        CastSpell(caster="vesna", spell="Polymorph", targets=("bandit-1",), option="Brown Bear", save_faces={"bandit-1": (4,)}),
        "spell/option",
    )
    t.do(CastSpell(caster="vesna", spell="Polymorph", targets=("bandit-1",), option="Cat", save_faces={"bandit-1": (4,)}))
    assert t["bandit-1"].temp_hp == 2 and t["bandit-1"].has("polymorph")
    events = t.do(Damage(target="bandit-1", amount=2, damage_type="slashing"))
    assert [e.condition for e in of_type(events, ConditionEnded)] == ["polymorph"]
    assert t["bandit-1"].hp == 11


def test_sleep_ends_on_a_sleeper_hit_by_an_attack():
    """Sleep: "The spell ends on a target if it takes damage": an attack's damage too. Bandit 1
    fails twice (2, then 4) and sleeps; Brann's attack (Advantage: 15, 15) is a Critical Hit on
    the Unconscious Bandit (2d8 + 3 = 5), and it wakes."""
    t = table(ally=True)
    t.do(CastSpell(caster="vesna", spell="Sleep", targets=("bandit-1",), save_faces={"bandit-1": (2,)}))
    t.do(EndTurn(combatant="vesna"))
    t.do(EndTurn(combatant="bandit-1", save_faces=((4,),)))
    assert t["bandit-1"].has("unconscious")
    next_turn(t, "brann")
    events = t.do(Attack(attacker="brann", target="bandit-1", faces=(15, 15), damage_faces=(1, 1)))
    assert of_type(events, AttackMade)[0].damage == 5
    assert [e.condition for e in of_type(events, ConditionEnded)] == ["unconscious"]
    assert not t["bandit-1"].conditions
