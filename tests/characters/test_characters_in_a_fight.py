"""Player characters by sheet in a fight: what the sheet gives them, and what their players may
no longer claim beyond it. Rulesets: srd-2024, the variant and a5e alike."""

from __future__ import annotations

import pytest

from combat.characters.sheet import Abilities, CharacterSheet, Features, Resource, SheetAttack
from combat.common.commands import SavingThrow
from combat.common.events import DamageTaken, Healed
from combat.fivee.attack_commands import Attack, OpportunityAttack
from combat.fivee.attack_events import AttackMade, ExtraDamage
from combat.fivee.characters import AddCharacter, CharacterStatus, SheetAttached, character, status_of
from combat.fivee.resources import EndRage, UseResource
from combat.kernel.commands import EndTurn
from tests.helpers import Table, monster, of_type

FIVE_E = ["srd-2024", "srd-2024-variant", "a5e"]

RAPIER = SheetAttack(name="Rapier", weapon="Rapier", damage_dice="1d8", damage_type="piercing", properties=("finesse",))
SHORTBOW = SheetAttack(
    name="Shortbow",
    weapon="Shortbow",
    damage_dice="1d6",
    damage_type="piercing",
    ranged=True,
    normal_range=80,
    long_range=320,
    properties=("ammunition", "two-handed"),
)
GREATAXE = SheetAttack(
    name="Greataxe", weapon="Greataxe", damage_dice="1d12", damage_type="slashing", properties=("heavy", "two-handed")
)
LONGSWORD = SheetAttack(
    name="Longsword",
    weapon="Longsword",
    damage_dice="1d8",
    damage_type="slashing",
    properties=("versatile",),
    versatile_dice="1d10",
)

ROGUE = CharacterSheet(
    name="Vex",
    level=5,
    classes={"Rogue": 5},
    abilities=Abilities(strength=8, dexterity=16, constitution=14, intelligence=12, wisdom=10, charisma=13),
    save_proficiencies=("dexterity", "intelligence"),
    skills=("stealth", "perception"),
    expertise=("stealth",),
    ac=14,
    max_hp=38,
    hit_dice="5d8",
    attacks=(RAPIER, SHORTBOW),
    features=Features(sneak_attack="3d6"),
)
CHAMPION = CharacterSheet(
    name="Brann",
    level=5,
    classes={"Fighter": 5},
    subclass="Champion",
    abilities=Abilities(strength=16, dexterity=12, constitution=14),
    save_proficiencies=("strength", "constitution"),
    ac=18,
    max_hp=44,
    hit_dice="5d10",
    attacks=(LONGSWORD,),
    attacks_per_action=2,
    features=Features(critical_range=19),
    resources=(
        Resource(name="Action Surge", uses=1, recovers="short"),
        Resource(name="Second Wind", uses=2, short_rest_regains=1),
    ),
)
BARBARIAN = CharacterSheet(
    name="Ulla",
    level=5,
    classes={"Barbarian": 5},
    abilities=Abilities(strength=17, dexterity=14, constitution=16),
    save_proficiencies=("strength", "constitution"),
    ac=15,
    max_hp=55,
    hit_dice="5d12",
    attacks=(GREATAXE,),
    attacks_per_action=2,
    features=Features(rage_damage=2, rage_resistances=("bludgeoning", "piercing", "slashing")),
    resources=(Resource(name="Rage", uses=3, short_rest_regains=1),),
)


def fight(ruleset: str, *sheets: CharacterSheet, initiative: dict[str, int] | None = None) -> Table:
    """The characters (played by `ann`) against two goblins, in turns; the first character acts first."""
    t = Table.as_rolled(ruleset)
    for sheet in sheets:
        t.do(AddCharacter(character=sheet, side="party", player="ann"))
    t.add(monster("goblin-1", ac=13, max_hp=30), monster("goblin-2", ac=13, max_hp=30))
    order = initiative or {cid: 20 - i for i, cid in enumerate(list(t.state.combatants))}
    return t.start(order)


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_sheet_makes_the_combatant_its_numbers_computed_from_scores_and_proficiency(ruleset):
    """ "Attack roll: d20 + ability modifier + Proficiency Bonus"; a Finesse weapon uses "your
    choice of your Strength or Dexterity modifier"; the whole sheet goes into the log."""
    t = Table(ruleset)
    events = t.do(AddCharacter(character=ROGUE, side="party", player="ann"))
    vex = t["vex"]
    assert (vex.kind, vex.ac, vex.max_hp, vex.hp, vex.initiative_bonus, vex.player) == ("pc", 14, 38, 38, 3, "ann")
    assert vex.con_save == 2  # Constitution 14, not proficient
    rapier, bow = vex.attacks
    assert (rapier.bonus, rapier.damage, bow.bonus, bow.damage, bow.kind) == (6, "1d8+3", 6, "1d6+3", "ranged")
    assert of_type(events, SheetAttached)[0].sheet == ROGUE
    assert character(t.state, "vex").sheet == ROGUE
    assert t.rebuilt() == t.state


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_champions_19_is_a_critical_hit_from_the_sheet(ruleset):
    """Improved Critical: "Your attack rolls with weapons and Unarmed Strikes can score a
    Critical Hit on a roll of 19 or 20." The player sends no critical_range: the sheet gives it."""
    t = fight(ruleset, CHAMPION)
    events = t.do(Attack(attacker="brann", target="goblin-1", faces=(19,), damage_faces=(4, 5)), actor="ann")
    made = of_type(events, AttackMade)[0]
    assert made.critical and made.damage == 4 + 5 + 3  # the d8 twice, the modifier once


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_player_may_not_claim_a_wider_critical_range_than_the_sheet(ruleset):
    """A player's command uses only what their sheet gives: a critical on a natural 3 is refused."""
    t = fight(ruleset, CHAMPION)
    error = t.rejects(
        Attack(attacker="brann", target="goblin-1", critical_range=2, faces=(3,), damage_faces=(4,)),
        "attack/critical-range-claim",
        actor="ann",
    )
    assert "19-20" in error.message
    # The GM may rule otherwise (a magic weapon the sheet does not list).
    assert of_type(
        t.do(Attack(attacker="brann", target="goblin-1", critical_range=18, faces=(18,), damage_faces=(1, 1))), AttackMade
    )[0].critical


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_player_may_not_add_extra_damage_the_sheet_does_not_list(ruleset):
    t = fight(ruleset, CHAMPION)
    t.rejects(
        Attack(
            attacker="brann",
            target="goblin-1",
            faces=(15,),
            damage_faces=(4,),
            extra_damage=(ExtraDamage(dice="2d6", damage_type="fire"),),
        ),
        "attack/extra-damage-claim",
        actor="ann",
    )


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_sneak_attack_comes_from_the_sheet_once_per_turn(ruleset):
    """Sneak Attack: "Once per turn, you can deal extra damage to one creature you hit with an
    attack roll ... the attack uses a Finesse or a Ranged weapon." 3d6 at Rogue level 5."""
    t = fight(ruleset, ROGUE)
    t.do(
        Attack(
            attacker="vex", target="goblin-1", sneak_attack=True, faces=(15,), damage_faces=(5,), extra_damage_faces=(1, 2, 3)
        ),
        actor="ann",
    )
    assert t["goblin-1"].hp == 30 - (5 + 3) - (1 + 2 + 3)
    # The Attack action is spent, and a second chance the same turn (an opportunity attack on
    # another's turn would be the next turn) is refused: once per turn.
    t.do(EndTurn(combatant="vex"), actor="ann")
    assert not character(t.state, "vex").sneak_attack_used  # goblin-1's turn: a new turn
    assert t.rebuilt() == t.state


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_sneak_attack_twice_in_one_turn_is_refused(ruleset):
    t = fight(ruleset, ROGUE)
    t.do(
        Attack(
            attacker="vex", target="goblin-1", sneak_attack=True, faces=(15,), damage_faces=(5,), extra_damage_faces=(1, 2, 3)
        ),
        actor="ann",
    )
    t.state.combatants["vex"]  # still Vex's turn
    from combat.fivee.gm_edit_commands import GrantAction

    t.do(GrantAction(combatant="vex", kind="action"))
    t.rejects(
        Attack(
            attacker="vex", target="goblin-2", sneak_attack=True, faces=(15,), damage_faces=(5,), extra_damage_faces=(1, 2, 3)
        ),
        "attack/sneak-attack-used",
        actor="ann",
    )


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_miss_keeps_sneak_attack_for_a_later_hit_this_turn(ruleset):
    """ "...to one creature you hit": a miss spends nothing."""
    t = fight(ruleset, ROGUE)
    t.do(
        Attack(attacker="vex", target="goblin-1", sneak_attack=True, faces=(2,), damage_faces=(5,), extra_damage_faces=(1, 2, 3)),
        actor="ann",
    )
    assert not character(t.state, "vex").sneak_attack_used


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_sneak_attack_needs_a_finesse_or_ranged_weapon_and_a_sheet_that_has_it(ruleset):
    t = fight(ruleset, CHAMPION)
    t.rejects(
        Attack(attacker="brann", target="goblin-1", sneak_attack=True, faces=(15,), damage_faces=(5,)),
        "attack/no-sneak-attack",
        actor="ann",
    )


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_player_may_not_give_their_own_save_cover(ruleset):
    """Cover and situational Advantage stay the GM's: "+5 bonus to AC and Dexterity saving throws"."""
    t = fight(ruleset, ROGUE)
    t.rejects(
        SavingThrow(combatant="vex", ability="dexterity", cover="three-quarters", faces=(10,)), "command/gm-field", actor="ann"
    )


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_rage_resists_weapon_damage_and_adds_rage_damage_to_strength_attacks(ruleset):
    """Rage: "You have Resistance to Bludgeoning, Piercing, and Slashing damage" and "When you
    make an attack using Strength ... you gain a bonus to the damage" (+2 at level 5)."""
    t = fight(ruleset, BARBARIAN)
    t.do(UseResource(combatant="ulla", resource="rage"), actor="ann")
    assert "slashing" in t["ulla"].resistances and not t["ulla"].economy.bonus_action
    events = t.do(Attack(attacker="ulla", target="goblin-1", faces=(15,), damage_faces=(6,)), actor="ann")
    assert of_type(events, AttackMade)[0].damage == 6 + 3 + 2
    t.rejects(UseResource(combatant="ulla", resource="Rage"), "rage/already", actor="ann")
    t.do(EndRage(combatant="ulla"), actor="ann")
    assert "slashing" not in t["ulla"].resistances
    assert character(t.state, "ulla").resources_used == {"Rage": 1}
    assert t.rebuilt() == t.state


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_action_surge_gives_one_more_action_and_is_spent(ruleset):
    """Action Surge: "On your turn, you can take one additional action." One use; a Short Rest brings it back."""
    t = fight(ruleset, CHAMPION)
    t.do(Attack(attacker="brann", target="goblin-1", faces=(2,), damage_faces=(1,)), actor="ann")
    t.do(Attack(attacker="brann", target="goblin-1", faces=(2,), damage_faces=(1,)), actor="ann")
    assert not t["brann"].economy.action
    t.do(UseResource(combatant="brann", resource="Action Surge"), actor="ann")
    assert t["brann"].economy.action
    error = t.rejects(UseResource(combatant="brann", resource="Action Surge"), "resource/spent", actor="ann")
    assert "Short" in error.allowed


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_second_wind_heals_1d10_plus_fighter_level_as_a_bonus_action(ruleset):
    """Second Wind: "regain Hit Points equal to 1d10 plus your Fighter level"."""
    t = fight(ruleset, CHAMPION)
    from combat.fivee.gm_edit_commands import SetHp

    t.do(SetHp(combatant="brann", hp=20))
    events = t.do(UseResource(combatant="brann", resource="second wind", faces=(7,)), actor="ann")
    assert of_type(events, Healed)[0].amount == 12 and t["brann"].hp == 32


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_feature_the_sheet_lacks_is_refused_with_the_list(ruleset):
    t = fight(ruleset, CHAMPION)
    error = t.rejects(UseResource(combatant="brann", resource="Rage"), "resource/unknown", actor="ann")
    assert error.allowed == "Action Surge, Second Wind"


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_what_a_character_carries_in_comes_out_again(ruleset):
    """HP, spent slots and resource uses carried from an earlier fight stand at the start of this one."""
    t = Table(ruleset)
    carried = CharacterStatus(hp=20, resources_used={"Second Wind": 1})
    t.do(AddCharacter(character=CHAMPION, side="party", status=carried, stored_as="Brann"))
    assert t["brann"].hp == 20
    assert character(t.state, "brann").character == "Brann"
    assert status_of(t.state, "brann") == carried
    t.rejects(AddCharacter(character=CHAMPION, side="party", id="brann-2", status=CharacterStatus(dead=True)), "character/dead")


def test_a_character_named_without_a_party_store_is_refused(table):
    table.rejects(AddCharacter(character="Brann", side="party"), "character/not-found")


def test_an_opportunity_attack_by_a_rogue_may_sneak_attack():
    """An opportunity attack on another's turn: Sneak Attack is once per turn, not per round."""
    t = fight("srd-2024", ROGUE)
    from combat.fivee.action_commands import Move

    t.do(EndTurn(combatant="vex"), actor="ann")
    t.do(Move(combatant="goblin-1", feet=10, leaves_reach_of=("vex",)))
    events = t.do(
        OpportunityAttack(
            attacker="vex", target="goblin-1", sneak_attack=True, faces=(15,), damage_faces=(5,), extra_damage_faces=(6, 6, 6)
        ),
        actor="ann",
    )
    assert [e.amount for e in of_type(events, DamageTaken)] == [18]


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_players_save_adds_the_sheets_bonus_proficiency_included(ruleset):
    """ "Saving Throw: d20 + ability modifier + Proficiency Bonus if proficient": Vex's Dexterity
    save is +3 +3 = +6 from the player's phone, with no bonus sent; Wisdom, not proficient, +0."""
    from combat.common.events import SaveMade, SaveRolled

    t = fight(ruleset, ROGUE)
    rolled = of_type(t.do(SavingThrow(combatant="vex", ability="DEX", faces=(9,)), actor="ann"), SaveRolled)[0]
    assert (rolled.ability, rolled.total) == ("dexterity", 15)
    made = of_type(t.do(SavingThrow(combatant="vex", ability="wis", dc=15, faces=(9,))), SaveMade)[0]
    assert (made.total, made.success) == (9, False)


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_check_with_expertise_adds_twice_the_proficiency_bonus(ruleset):
    """Expertise: "you gain a bonus equal to twice your Proficiency Bonus": Stealth +3 + 2 x 3 = +9."""
    from combat.fivee.ability_checks import AbilityCheck
    from combat.fivee.check_events import CheckMade

    t = fight(ruleset, ROGUE)
    check = of_type(t.do(AbilityCheck(combatant="vex", ability="dex", skill="stealth", faces=(10,)), actor="ann"), CheckMade)[0]
    assert check.total == 19


def test_a_sheet_no_character_can_have_is_refused_saying_what_is_allowed(table):
    import msgspec

    bad = msgspec.structs.replace(CHAMPION, abilities=Abilities(strength=31))
    error = table.rejects(AddCharacter(character=bad, side="party"), "character/invalid")
    assert "abilities.strength 31" in error.message and error.allowed == "abilities.strength: a whole number from 1 to 30"
    table.rejects(
        AddCharacter(character=msgspec.structs.replace(CHAMPION, skills=("stelth",)), side="party"), "character/invalid"
    )
