"""segments-1e: d20 against descending AC by the attack tables, routines, free and immediate
attacks, damage multipliers, enhanced hit dice."""

import pytest

from combat.kernel.events import DiceRolled
from combat.rulesets.segments_1e.attack_tables import attack_row, class_tables, from_aac0, monster_table, needed
from combat.rulesets.segments_1e.commands import (
    AddCreature,
    BeginCasting,
    CheckMorale,
    FreeAttack,
    ImmediateAttack,
    MoveTo,
    OpenFreeAttack,
    RoutineAttack,
)
from combat.rulesets.segments_1e.events import MoraleChecked, SpellSpoiled, TableAttackRolled
from combat.rulesets.segments_1e.hit_dice import attack_band, hit_point_dice, morale_bonus, parse_hit_dice, save_hit_dice
from combat.rulesets.segments_1e.ledger import Routine, Strike
from tests.helpers import of_type
from tests.rulesets.segments_1e.helpers import CLAW_CLAW_BITE, done, fight, fighter, mage, orc, owlbear, rec, stats, table


def _swing(attacker, target, face, **kw):
    """One routine by `attacker` (HIGH, acting first) at `target`; its strike events."""
    t = fight(attacker, target, d6={attacker.side: 6, target.side: 1})
    return t, of_type(t.do(RoutineAttack(attacker=attacker.id, target=target.id, faces=(face,), **kw)), TableAttackRolled)


@pytest.mark.parametrize("face, hit", [(13, False), (14, True)])
def test_a_fighter_reads_his_class_table(face, hit):
    """'Each character class has its own Attack Table': Fighter 4 needs 14 against AC 3."""
    _, [strike] = _swing(fighter(x=0, y=0), orc(ac=3, hp=30, x=1, y=0), face)
    assert (strike.needed, strike.target_ac, strike.hit) == (14, 3, hit)


@pytest.mark.parametrize("face, hit", [(14, False), (15, True)])
def test_a_monster_reads_the_monster_table_by_hit_dice(face, hit):
    """'for creatures without a character class, use the Monster Attack Table': 1 HD needs 15
    against AC 4."""
    _, [strike] = _swing(orc(x=1, y=0), fighter(x=0, y=0), face)
    assert (strike.needed, strike.hit) == (15, hit)


def test_the_aac0_shorthand_counts_from_ac_0():
    """'Attack AC 0 ("AAC0"). Common short hand is to know a creature's roll needed to
    successfully strike an armor class rating of 0 and calculate the attack from there.'"""
    row = attack_row(stats("ogre", aac0=17, routines=(CLAW_CLAW_BITE,)))
    assert [needed(row, ac) for ac in (4, 0, -3, -8, -9, -10)] == [13, 17, 20, 20, 21, 22]


def test_twenty_star_means_a_20_is_needed_against_ac_1_too():
    """'A figure of "20*" means that the creature also needs a 20 to strike an AC of 1.'"""
    row = attack_row(stats("kobold", aac0="20*", routines=(CLAW_CLAW_BITE,)))
    assert [needed(row, ac) for ac in (2, 1, 0, -4, -5)] == [19, 20, 20, 20, 21]


def test_every_reference_table_follows_the_repeating_20s_from_its_aac0():
    """'there are always a sequence of six 20s before a 21 is required, and increase with each
    armor class from there' - checked against every cell of both reference tables."""
    rows = list(monster_table().values()) + [row for bands in class_tables().values() for row in bands.values()]
    for cells in rows:
        aac0 = 21 if cells[0] == 20 and cells[1] == 20 else cells[0]
        assert {ac: from_aac0(aac0, ac) for ac in cells} == cells


def test_a_modifier_is_added_to_the_roll_before_reading_the_table():
    """'a character that needs a "20" to hit an AC -1, but has a +2 modifier to their attack -
    they will hit on a roll of 18, 19, or 20'. Fighter 4 needs 20 against AC -5."""
    _, [strike] = _swing(fighter(x=0, y=0), orc(ac=-5, hp=30, x=1, y=0), 18, bonus=2)
    assert (strike.needed, strike.total, strike.hit) == (20, 20, True)
    _, [miss] = _swing(fighter(x=0, y=0), orc(ac=-5, hp=30, x=1, y=0), 17, bonus=2)
    assert not miss.hit


def test_an_ac_bonus_lowers_the_ac_number():
    """'a creature with an AC 5 that receives a +2 bonus to AC will become AC 3.'"""
    _, [strike] = _swing(fighter(x=0, y=0), orc(ac=5, hp=30, x=1, y=0), 13, target_ac_bonus=2)
    assert (strike.target_ac, strike.needed, strike.hit) == (3, 14, False)


def test_a_natural_20_always_hits():
    """'no matter what the chart shows, a natural 20 always hits': a Magic User 5 needs 26
    against AC -10."""
    _, [strike] = _swing(mage(x=0, y=0), orc(ac=-10, hp=30, x=1, y=0), 20)
    assert (strike.needed, strike.hit) == (26, True)


def test_a_natural_1_always_misses():
    """A 16+ HD giant needs -3 against AC 10, and still misses on a natural 1."""
    giant = stats(
        "giant", hit_dice="16", hp=90, routines=(Routine(name="Club", strikes=(Strike(name="club", damage="3d10"),)),), x=1, y=0
    )
    _, [strike] = _swing(giant, fighter(ac=10, x=0, y=0), 1)
    assert (strike.needed, strike.hit) == (-3, False)


def test_racial_hit_dice_are_used_unless_the_class_level_is_higher():
    """'Creatures that have hit dice granted as part of their race always use their hit dice
    for attacking ... unless the character class level exceeds the monsters hit dice'."""
    assert (
        attack_row(stats("gnoll-fighter", hit_dice="2", character_class="Fighter", level=5, routines=(CLAW_CLAW_BITE,))).label
        == "Fighter 5"
    )
    assert (
        attack_row(stats("bugbear-fighter", hit_dice="3+1", character_class="Fighter", level=2, routines=(CLAW_CLAW_BITE,))).label
        == "monster 2-3+ HD"
    )


@pytest.mark.parametrize(
    "hd, band, saves_as, hp_dice, morale",
    [
        ("1+1", "1+", 2, "1d8+1", 1),
        ("4+4", "4-5+", 5, "4d8+16", 4),
        ("5+5", "6-7+", 7, "5d8+25", 5),
        ("8+2", "8-9+", 9, "8d8+16", 2),
        ("1-1", "1-1", 1, "1d8-1", 0),
    ],
)
def test_enhanced_hit_dice(hd, band, saves_as, hp_dice, morale):
    """'+1-3 uses the "+" rating ... +4 or higher adds another hit die to a maximum of +1 HD
    (e.g. 5+5 HD = 6 HD or 6-7+)'; saves '+1-4=+1; +5-8=+2 ... (e.g. 5+5 HD = 7 HD)';
    '4+4 HD will have 4d8+16 hit points'; 'a bonus to morale checks equal to the enhanced hit
    dice bonus'."""
    parsed = parse_hit_dice(hd)
    assert (attack_band(parsed), save_hit_dice(parsed), hit_point_dice(parsed), morale_bonus(parsed)) == (
        band,
        saves_as,
        hp_dice,
        morale,
    )


def test_a_5_plus_5_creature_rolls_its_hit_points_and_attacks_and_saves_by_its_enhanced_dice():
    t = table()
    t.do(
        AddCreature(creature=stats("troll-chief", hp=None, hit_dice="5+5", routines=(CLAW_CLAW_BITE,)), hp_faces=(1, 2, 3, 4, 5))
    )
    [roll] = of_type(t.events, DiceRolled)
    assert (roll.notation, t["troll-chief"].max_hp) == ("5d8+25", 40)
    assert (rec(t, "troll-chief").attacks_as, rec(t, "troll-chief").saves_as) == ("monster 6-7+ HD", 7)


def test_the_enhanced_bonus_is_added_to_morale():
    t = fight(fighter(), stats("gnoll-chief", hit_dice="4+4", hp=20), d6={"party": 6, "orcs": 1})
    [check] = of_type(t.do(CheckMorale(combatant="gnoll-chief", needed=12, faces=(8,))), MoraleChecked)
    assert (check.bonus, check.total, check.holds) == (4, 12, True)


def test_damage_multipliers_include_every_modifier_and_do_not_stack():
    """'if a weapon does "double damage" it will include magical bonuses, Strength
    adjustments ... before the total is doubled. However, damage multipliers do not stack
    (take the highest multiplier)': a backstab (x3) on a set spear (x2) is x3 of 1d4+2."""
    thief = stats(
        "snitch",
        kind="pc",
        side="party",
        character_class="Thief",
        level=3,
        hp=10,
        routines=(Routine(name="Dagger +1", strikes=(Strike(name="dagger +1", damage="1d4+2", bonus=1),)),),
        x=0,
        y=0,
    )
    _, [strike] = _swing(thief, orc(hp=30, x=1, y=0), 15, multipliers=(3, 2), damage_faces=((4,),))
    assert (strike.damage_rolled, strike.multiplier, strike.damage) == (6, 3, 18)


def test_an_attack_routine_is_several_strikes_in_one_segment_at_one_target():
    """'a bear attacks in melee with a claw/claw/bite routine'; 'These attacks must target a
    single creature'."""
    t = fight(owlbear(x=1, y=0), fighter(hp=60, x=0, y=0), d6={"orcs": 6, "party": 1}, declared={"owlbear": {"action": "melee"}})
    strikes = of_type(t.do(RoutineAttack(attacker="owlbear", target="hugo", faces=(15, 3, 15))), TableAttackRolled)
    assert [(s.strike, s.hit) for s in strikes] == [("claw", True), ("claw", False), ("bite", True)]
    assert {s.segment for s in strikes} == {1}
    t.rejects(RoutineAttack(attacker="owlbear", target="hugo", faces=(20, 20, 20)), "attack/routine-used")


def test_strikes_left_when_the_target_falls_are_wasted():
    t = fight(owlbear(x=1, y=0), fighter(hp=3, x=0, y=0), d6={"orcs": 6, "party": 1}, declared={"owlbear": {"action": "melee"}})
    strikes = of_type(
        t.do(RoutineAttack(attacker="owlbear", target="hugo", faces=(15, 15, 15), damage_faces=((6,),))), TableAttackRolled
    )
    assert len(strikes) == 1 and t["hugo"].status == "unconscious"


def test_a_free_attack_is_drawn_by_leaving_melee_and_answers_at_once():
    """'A free attack allows a creature to use a primary attack routine instantaneously as the
    trigger occurs ... on the same segment as the trigger'."""
    t = fight(fighter(x=0, y=0), orc(x=1, y=0), d6={"party": 6, "orcs": 1}, declared={"hugo": {"action": "flee"}})
    assert t.state.phase == "fast_actions"
    t.do(MoveTo(combatant="hugo", x=0, y=4))
    [strike] = of_type(t.do(FreeAttack(attacker="orc", target="hugo", faces=(15,), damage_faces=((5,),))), TableAttackRolled)
    assert (strike.hit, strike.segment, t["hugo"].hp) == (True, 1, 25)


def test_a_free_attack_needs_something_to_draw_it():
    t = fight(fighter(x=0, y=0), orc(x=1, y=0), d6={"party": 6, "orcs": 1})
    t.rejects(FreeAttack(attacker="orc", target="hugo", faces=(15,)), "free-attack/not-drawn")


def test_only_one_free_attack_or_routine_per_opponent_per_round():
    """'Creatures drawing a free attack can only be subject to one free attack (or attack
    routine) per opponent per round.' The orc already swung at the fighter this round."""
    t = fight(fighter(x=0, y=0), orc(x=1, y=0), d6={"party": 1, "orcs": 6})
    t.do(RoutineAttack(attacker="orc", target="hugo", faces=(2,)))
    done(t, "orc")
    t.do(MoveTo(combatant="hugo", x=0, y=4))
    t.rejects(FreeAttack(attacker="orc", target="hugo", faces=(15,)), "free-attack/once-per-opponent")


def test_only_one_free_attack_per_segment():
    """'Only one free attack may be taken per segment by any creature (thus, if two opponents
    flee at the same time, the attacker must choose which to attack).'"""
    t = fight(
        fighter(x=0, y=0),
        mage(x=2, y=0),
        orc(x=1, y=0),
        d6={"party": 6, "orcs": 1},
        declared={"hugo": {"action": "flee"}, "mira": {"action": "flee"}},
    )
    t.do(MoveTo(combatant="hugo", x=0, y=5))
    done(t, "hugo")
    t.do(MoveTo(combatant="mira", x=2, y=5))
    t.do(FreeAttack(attacker="orc", target="mira", faces=(2,)))
    t.rejects(FreeAttack(attacker="orc", target="hugo", faces=(15,)), "free-attack/one-per-segment")


def test_a_free_attack_breaks_the_attackers_concentration():
    """'a free attack taken will break concentration (e.g. spell casting)'."""
    t = fight(
        mage(x=0, y=0),
        fighter("brute", side="orcs", x=1, y=0),
        d6={"party": 6, "orcs": 1},
        declared={"mira": {"action": "spell", "spell": "Web", "casting_segments": 2, "range_ft": 50}},
    )
    t.do(BeginCasting(caster="mira", targets=("brute",)))
    t.do(OpenFreeAttack(attacker="mira", target="brute", cause="turns his back"))
    events = t.do(FreeAttack(attacker="mira", target="brute", faces=(2,)))
    [spoiled] = of_type(events, SpellSpoiled)
    assert spoiled.reason == "made a free attack" and rec(t, "mira").casting is None


def test_an_immediate_attack_needs_an_unused_major_action():
    """'Creatures using an immediate attack must have an available major action'."""
    t = fight(fighter(x=0, y=0), orc(x=1, y=0, hp=30), d6={"party": 6, "orcs": 1})
    t.do(RoutineAttack(attacker="hugo", target="orc", faces=(2,)))
    done(t, "hugo")
    t.rejects(ImmediateAttack(attacker="hugo", target="orc", cause="the orc raises its horn", faces=(20,)), "immediate/no-major")


def test_an_immediate_attack_ends_a_declared_spell():
    """'Immediate attacks allow creatures with a different declared major action to use the
    immediate attack as their major action ... (consequences ... e.g. loss of spell, etc.)'"""
    t = fight(
        fighter("brute", side="orcs", x=1, y=0),
        mage(x=0, y=0),
        d6={"orcs": 6, "party": 1},
        declared={"mira": {"action": "spell", "spell": "Sleep", "casting_segments": 1, "range_ft": 90}},
    )
    events = t.do(ImmediateAttack(attacker="mira", target="brute", cause="the brute lunges", faces=(2,)))
    [spoiled] = of_type(events, SpellSpoiled)
    assert spoiled.spell == "Sleep" and rec(t, "mira").major_used
