"""Issue 31: the SRD 5.2 spells that add damage to hits, each as its text says, every face entered.

Aldric is a level 5 Paladin (Strength 16: Longsword +6, 1d8+3 Slashing; Charisma 16: spell save
DC 14), Tamsin a level 5 Ranger (Longbow +6, 1d8+3 Piercing; Wisdom 14: DC 13), Morwen a
level 5 Warlock (Charisma 16: spell attack +6, Eldritch Blast 1d10 Force, two beams). The Ogre
is a Large Giant (68 HP, AC 11, Strength +4, Constitution +3), the Zombie an Undead (15 HP,
AC 8), Bandits Humanoids (11 HP, AC 12).

Critical Hits (SRD 5.2, Combat): "Roll the attack's damage dice twice ... If the attack involves
other damage dice, such as from the Rogue's Sneak Attack feature, you also roll those dice twice."
"""

from __future__ import annotations

from combat.characters.sheet import CharacterSheet
from combat.common.commands import ApplyCondition, EndConcentration, RemoveCondition
from combat.common.events import DamageTaken, SaveMade
from combat.fivee.ability_checks import AbilityCheck
from combat.fivee.attack_commands import Attack, RollDamage
from combat.fivee.attack_events import AttackMade, AttackRolled
from combat.fivee.casts import CastSpell
from combat.fivee.characters import AddCharacter
from combat.fivee.check_events import CheckMade
from combat.fivee.monsters import AddCreature
from combat.fivee.spell_effect_uses import SpellEffect
from combat.fivee.turn_pointer import GotoTurn, PreviousTurn
from combat.kernel.commands import EndTurn, TurnStartDice
from combat.kernel.events import ConditionApplied, ConditionEnded, ConditionSpec, DiceRolled
from tests.helpers import Table, monster, next_turn, of_type, spellcaster


def paladin(level: int, *spells: str) -> CharacterSheet:
    """Aldric, a Paladin in chain mail with a Shield, a Longsword and Javelins (Strength 16, Charisma 16)."""
    armed = {"armor": "chain mail", "shield": True, "weapons": ("Longsword", "Javelin")}
    return spellcaster("Aldric", "Paladin", level, *spells, scores="STR 16 DEX 10 CON 14 INT 8 WIS 10 CHA 16", **armed)


PALADIN = paladin(5, "Divine Smite", "Searing Smite", "Shining Smite", "Divine Favor", "Magic Weapon")
RANGER = spellcaster(
    "Tamsin",
    "Ranger",
    5,
    "Hunter's Mark",
    "Ensnaring Strike",
    scores="STR 10 DEX 16 CON 14 INT 8 WIS 14 CHA 10",
    armor="leather",
    weapons=("Longbow", "Shortsword"),
)
WARLOCK = spellcaster("Morwen", "Warlock", 5, "Hex", "Eldritch Blast", scores="STR 8 DEX 14 CON 14 INT 10 WIS 10 CHA 16")


def table(sheet, *foes: str, bandits: int = 0, others=()) -> Table:
    """The character first in the order, then the foes: one creature of each stat block named,
    `bandits` Bandits (bandit-1..., one initiative for the group), and `others` by their specs."""
    t = Table()
    t.do(AddCharacter(character=sheet, side="party", player="sam"))
    for foe in foes:
        t.do(AddCreature(creature=foe, side="foes"))
    if bandits:
        t.do(AddCreature(creature="Bandit", count=bandits, side="foes"))
    t.add(*others)
    later = [*(foe.lower() for foe in foes), *(["bandit-1"] if bandits else []), *(o.id for o in others)]
    return t.start({sheet.name.lower(): 20} | {cid: 10 - i for i, cid in enumerate(later)})


def taken(events, kind: str | None = None) -> list[tuple[str, int, str]]:
    return [(e.target, e.amount, e.damage_type) for e in of_type(events, DamageTaken) if kind in (None, e.damage_type)]


# -- lasting extra damage on hits ----------------------------------------------------------------


def test_hunters_mark_adds_1d6_force_to_each_hit_on_the_marked_creature_only():
    """Hunter's Mark: "Until the spell ends, you deal an extra 1d6 Force damage to the target
    whenever you hit it with an attack roll." Tamsin marks the Ogre (her Bonus Action), hits it
    with her Longbow (5 + 3 Piercing, then the mark's 4 Force); her second attack, on a Bandit,
    adds nothing."""
    t = table(RANGER, "Ogre", "Bandit")
    t.do(CastSpell(caster="tamsin", spell="Hunter's Mark", targets=("ogre",)))
    assert not t["tamsin"].economy.bonus_action and t["tamsin"].economy.action
    events = t.do(Attack(attacker="tamsin", target="ogre", attack="Longbow", faces=(14,), damage_faces=(5, 4)))
    assert taken(events) == [("ogre", 4, "force")] and of_type(events, AttackMade)[0].damage == 8
    assert t["ogre"].hp == 68 - 12
    assert "Hunter's Mark: force damage" in [e.purpose for e in of_type(events, DiceRolled)]
    events = t.do(Attack(attacker="tamsin", target="bandit", attack="Longbow", faces=(14,), damage_faces=(5,)))
    assert taken(events) == [] and t["bandit"].hp == 11 - 8
    assert t.rebuilt() == t.state


def test_hunters_mark_die_is_doubled_on_a_critical_hit():
    """A natural 20 with the mark on: the Longbow's 2d8+3 (5, 3: 11) and the mark's 2d6 (4, 2: 6),
    "you also roll those dice twice"."""
    t = table(RANGER, "Ogre")
    t.do(CastSpell(caster="tamsin", spell="Hunter's Mark", targets=("ogre",)))
    events = t.do(Attack(attacker="tamsin", target="ogre", attack="Longbow", faces=(20,), damage_faces=(5, 3, 4, 2)))
    made = of_type(events, AttackMade)[0]
    assert (made.critical, made.damage) == (True, 11) and taken(events) == [("ogre", 6, "force")]
    rolled = {e.purpose: e.notation for e in of_type(events, DiceRolled)}
    assert rolled["Hunter's Mark: force damage"] == "2d6"


def test_the_marks_faces_must_be_entered_with_the_damage():
    """Entered damage with the mark on needs its die too: only the Longbow's is refused, saying what to enter."""
    t = table(RANGER, "Ogre")
    t.do(CastSpell(caster="tamsin", spell="Hunter's Mark", targets=("ogre",)))
    error = t.rejects(
        Attack(attacker="tamsin", target="ogre", attack="Longbow", faces=(14,), damage_faces=(5,)), "dice/extra-faces"
    )
    assert "Hunter's Mark's 1d6 force" in error.allowed


def test_hunters_mark_rides_on_a_hit_rolled_in_two_steps():
    """To-hit faces alone: the pending hit lists the mark's 1d6 Force, and `roll_damage` takes
    its faces in `extra_faces`."""
    t = table(RANGER, "Ogre")
    t.do(CastSpell(caster="tamsin", spell="Hunter's Mark", targets=("ogre",)))
    rolled = of_type(t.do(Attack(attacker="tamsin", target="ogre", attack="Longbow", faces=(14,))), AttackRolled)[0]
    assert [(x.dice, x.damage_type, x.source) for x in rolled.extra_damage] == [("1d6", "force", "Hunter's Mark")]
    events = t.do(RollDamage(attacker="tamsin", faces=(5,), extra_faces=((6,),)))
    assert taken(events) == [("ogre", 6, "force")] and t["ogre"].hp == 68 - 8 - 6


def test_hunters_mark_moves_with_a_bonus_action_once_its_creature_drops_to_0():
    """Hunter's Mark: "If the target drops to 0 Hit Points before this spell ends, you can take a
    Bonus Action to move the mark to a new creature you can see within range." While the first
    Bandit stands the mark stays; once it has dropped, next turn, the mark moves to the second."""
    t = table(RANGER, bandits=2)
    t.do(CastSpell(caster="tamsin", spell="Hunter's Mark", targets=("bandit-1",)))
    next_turn(t, "tamsin")
    error = t.rejects(SpellEffect(caster="tamsin", spell="Hunter's Mark", targets=("bandit-2",)), "spell/mark-not-dropped")
    assert "11 Hit Points" in error.message
    t.do(Attack(attacker="tamsin", target="bandit-1", attack="Longbow", faces=(14,), damage_faces=(8, 6)))
    assert t["bandit-1"].status == "dead"
    events = t.do(SpellEffect(caster="tamsin", spell="Hunter's Mark", targets=("bandit-2",)))
    moved = of_type(events, ConditionApplied)[0].condition
    assert (moved.name, moved.source, moved.concentration) == ("hunter's mark", "tamsin", "tamsin")
    assert moved.until_round == 601 and not t["tamsin"].economy.bonus_action
    assert [e.target for e in of_type(events, ConditionEnded)] == ["bandit-1"]
    events = t.do(Attack(attacker="tamsin", target="bandit-2", attack="Longbow", faces=(14,), damage_faces=(1, 2)))
    assert taken(events) == [("bandit-2", 2, "force")]
    assert t.rebuilt() == t.state


def test_hex_adds_1d6_necrotic_to_eldritch_blast_and_disadvantage_on_the_chosen_ability():
    """Hex: "you deal an extra 1d6 Necrotic damage to the target whenever you hit it with an
    attack roll. Also, choose one ability when you cast the spell. The target has Disadvantage
    on ability checks made with the chosen ability." Morwen hexes the Ogre (Strength) and hits
    it with both beams of Eldritch Blast: each beam's 1d10 Force, then Hex's 1d6, in its list."""
    t = table(WARLOCK, "Ogre")
    t.rejects(CastSpell(caster="morwen", spell="Hex", targets=("ogre",)), "spell/option")
    t.do(CastSpell(caster="morwen", spell="Hex", targets=("ogre",), option="Strength"))
    events = t.do(
        CastSpell(
            caster="morwen",
            spell="Eldritch Blast",
            targets=("ogre", "ogre"),
            attack_faces=((12,), (13,)),
            damage_faces=((7, 3), (2, 5)),
        )
    )
    assert [e.damage for e in of_type(events, AttackMade)] == [7, 2]
    assert taken(events, "necrotic") == [("ogre", 3, "necrotic"), ("ogre", 5, "necrotic")]
    assert t["ogre"].hp == 68 - 7 - 3 - 2 - 5
    check = t.do(AbilityCheck(combatant="ogre", ability="strength", skill="athletics", faces=(15, 4)))
    assert [e.dice[1].kept for e in of_type(check, DiceRolled)] == [True] and of_type(check, CheckMade)[0].total == 4 + 4
    check = t.do(AbilityCheck(combatant="ogre", ability="dexterity", faces=(15,)))
    assert of_type(check, CheckMade)[0].total == 15 - 1


def test_divine_favor_adds_1d4_radiant_to_weapon_hits_and_resistance_halves_it():
    """Divine Favor: "Until the spell ends, your attacks with weapons deal an extra 1d4 Radiant
    damage on a hit." Against a foe with Resistance to Radiant damage, the 3 rolled is 1 taken
    ("Resistance ... halve the damage (round down)"); the Longsword's Slashing is not halved."""
    t = table(PALADIN, others=(monster("warden", resistances=("radiant",), max_hp=30, ac=10),))
    t.do(CastSpell(caster="aldric", spell="Divine Favor"))
    events = t.do(Attack(attacker="aldric", target="warden", attack="Longsword", faces=(14,), damage_faces=(5, 3)))
    assert of_type(events, AttackMade)[0].damage == 8
    assert [(e.amount, e.rolled, e.damage_type) for e in of_type(events, DamageTaken)] == [(1, 3, "radiant")]
    assert t["warden"].hp == 30 - 8 - 1


PALADIN_9 = paladin(9, "Magic Weapon")


def test_magic_weapon_gives_its_weapon_plus_2_with_a_3rd_level_slot_and_ends_if_cast_again():
    """Magic Weapon: "that weapon becomes a magic weapon with a +1 bonus to attack rolls and
    damage rolls. The spell ends early if you cast it again." "The bonus increases to +2 with a
    level 3-5 spell slot." Aldric at level 9 (Longsword +7, 1d8+3): with a 3rd-level slot his
    Longsword is +9 and 1d8+5, his Javelin unchanged; cast again next turn with a 2nd-level
    slot, the first ends and the bonus is +1."""
    t = table(PALADIN_9, "Ogre")
    t.rejects(CastSpell(caster="aldric", spell="Magic Weapon", targets=("aldric",), option="Greataxe"), "spell/option")
    t.do(CastSpell(caster="aldric", spell="Magic Weapon", targets=("aldric",), slot_level=3, option="Longsword"))
    made = of_type(t.do(Attack(attacker="aldric", target="ogre", attack="Longsword", faces=(1,), damage_faces=(4,))), AttackMade)[
        0
    ]
    assert (made.total, made.hit) == (1 + 7 + 2, False)
    made = of_type(
        t.do(Attack(attacker="aldric", target="ogre", attack="Longsword", faces=(10,), damage_faces=(4,))), AttackMade
    )[0]
    assert (made.total, made.damage) == (19, 4 + 3 + 2)
    next_turn(t, "aldric")
    made = of_type(t.do(Attack(attacker="aldric", target="ogre", attack="Javelin", faces=(10,), damage_faces=(4,))), AttackMade)[
        0
    ]
    assert (made.total, made.damage) == (17, 7)
    events = t.do(CastSpell(caster="aldric", spell="Magic Weapon", targets=("aldric",), slot_level=2, option="longsword"))
    assert [e.reason for e in of_type(events, ConditionEnded)] == ["Magic Weapon was cast again"]
    assert [c.riders.weapon_bonus for c in t["aldric"].conditions if c.name == "magic weapon"] == [1]
    assert t.rebuilt() == t.state


# -- spells cast right after a hit ----------------------------------------------------------------


def test_divine_smite_deals_2d8_radiant_to_the_creature_just_hit():
    """Divine Smite: "The target takes an extra 2d8 Radiant damage from the attack", cast as a
    Bonus Action "immediately after hitting a target with a Melee weapon or an Unarmed Strike".
    The target is the Ogre Aldric's Longsword just hit; no target need be named."""
    t = table(PALADIN, "Ogre")
    t.do(Attack(attacker="aldric", target="ogre", attack="Longsword", faces=(14,), damage_faces=(5,)))
    events = t.do(CastSpell(caster="aldric", spell="Divine Smite", damage_faces=((3, 4),)))
    assert taken(events) == [("ogre", 7, "radiant")] and t["ogre"].hp == 68 - 8 - 7
    assert not t["aldric"].economy.bonus_action
    assert t.rebuilt() == t.state


def test_divine_smite_against_an_undead_on_a_critical_hit_with_a_2nd_level_slot():
    """ "The damage increases by 1d8 if the target is a Fiend or an Undead." "The damage increases
    by 1d8 for each spell slot level above 1." On a Critical Hit its dice are doubled as the
    attack's extra damage: 3d8 + 1d8 against the Zombie, rolled as 8d8."""
    t = table(PALADIN, "Zombie")
    t.do(Attack(attacker="aldric", target="zombie", attack="Longsword", faces=(20,), damage_faces=(1, 1)))
    assert t["zombie"].hp == 15 - 5
    events = t.do(CastSpell(caster="aldric", spell="Divine Smite", slot_level=2, damage_faces=((1,) * 8,)))
    assert [e.notation for e in of_type(events, DiceRolled)] == ["8d8"]
    assert taken(events) == [("zombie", 8, "radiant")]


def test_divine_smite_is_refused_without_a_melee_hit_this_turn():
    """The casting time's hit: none yet this turn, a miss, a thrown Javelin (a ranged attack),
    or another creature named: each refused, nothing spent."""
    t = table(PALADIN, "Ogre", "Bandit")
    error = t.rejects(CastSpell(caster="aldric", spell="Divine Smite", damage_faces=((3, 4),)), "spell/no-hit")
    assert "no attack this turn" in error.message
    t.do(Attack(attacker="aldric", target="ogre", attack="Longsword", faces=(2,), damage_faces=(5,)))
    error = t.rejects(CastSpell(caster="aldric", spell="Divine Smite", damage_faces=((3, 4),)), "spell/no-hit")
    assert "did not hit" in error.message
    t.do(Attack(attacker="aldric", target="ogre", attack="Javelin (thrown)", faces=(14,), damage_faces=(5,)))
    error = t.rejects(CastSpell(caster="aldric", spell="Divine Smite", damage_faces=((3, 4),)), "spell/no-hit")
    assert "ranged attack" in error.message
    next_turn(t, "aldric")
    error = t.rejects(CastSpell(caster="aldric", spell="Divine Smite", damage_faces=((3, 4),)), "spell/no-hit")
    t.do(Attack(attacker="aldric", target="ogre", attack="Longsword", faces=(14,), damage_faces=(5,)))
    t.rejects(CastSpell(caster="aldric", spell="Divine Smite", targets=("bandit",), damage_faces=((3, 4),)), "spell/targets")
    t.do(CastSpell(caster="aldric", spell="Divine Smite", targets=("ogre",), damage_faces=((3, 4),)))


def test_a_second_smite_on_the_turn_is_refused_by_the_bonus_action_and_the_slot():
    """A Bonus Action a turn, and "on a turn, you can expend only one spell slot to cast a spell":
    Searing Smite after Divine Smite, on the next hit of the same turn, is refused."""
    t = table(PALADIN, "Ogre")
    t.do(Attack(attacker="aldric", target="ogre", attack="Longsword", faces=(14,), damage_faces=(5,)))
    t.do(CastSpell(caster="aldric", spell="Divine Smite", damage_faces=((3, 4),)))
    t.do(Attack(attacker="aldric", target="ogre", attack="Longsword", faces=(14,), damage_faces=(5,)))
    t.rejects(CastSpell(caster="aldric", spell="Searing Smite", damage_faces=((3,),)), "spell/one-slot-per-turn")


def test_searing_smite_burns_at_the_start_of_the_targets_turns_until_it_saves():
    """Searing Smite: "As you hit the target, it takes an extra 1d6 Fire damage from the attack.
    At the start of each of its turns until the spell ends, the target takes 1d6 Fire damage and
    then makes a Constitution saving throw. On a failed save, the spell continues. On a
    successful save, the spell ends." Aldric's end_turn enters the Ogre's burn (4) and its save
    (7 + 3 = 10, failing DC 14): the spell continues. A round on, the burn is 2 and the save
    12 + 3 = 15: the spell ends, and the next turn of the Ogre burns no more."""
    t = table(PALADIN, "Ogre")
    t.do(Attack(attacker="aldric", target="ogre", attack="Longsword", faces=(14,), damage_faces=(5,)))
    events = t.do(CastSpell(caster="aldric", spell="Searing Smite", damage_faces=((6,),)))
    assert taken(events) == [("ogre", 6, "fire")]
    burning = next(c for c in t["ogre"].conditions if c.name == "searing smite")
    assert (burning.riders.turn_start_dice, burning.riders.turn_start_dc, burning.until_round) == ("1d6", 14, 11)
    events = t.do(EndTurn(combatant="aldric", turn_start_faces={"searing smite": TurnStartDice(damage=(4,), save=(7,))}))
    assert t.state.turn == "ogre"
    burn = next(e for e in of_type(events, DiceRolled) if e.purpose.startswith("Searing Smite"))
    assert (burn.source, burn.total) == ("entered", 4) and taken(events) == [("ogre", 4, "fire")]
    save = of_type(events, SaveMade)[0]
    assert (save.ability, save.dc, save.total, save.success) == ("constitution", 14, 10, False)
    assert t["ogre"].has("searing smite")
    t.do(EndTurn(combatant="ogre"))
    events = t.do(EndTurn(combatant="aldric", turn_start_faces={"Searing Smite": TurnStartDice(damage=(2,), save=(12,))}))
    assert taken(events) == [("ogre", 2, "fire")] and of_type(events, SaveMade)[0].success
    assert [e.condition for e in of_type(events, ConditionEnded)] == ["searing smite"]
    t.do(EndTurn(combatant="ogre"))
    events = t.do(EndTurn(combatant="aldric"))
    assert taken(events) == [] and of_type(events, DiceRolled) == []


def test_searing_smite_upcast_burns_with_2d6_and_a_successful_save_ends_it():
    """ "All the damage increases by 1d6 for each spell slot level above 1": at 2nd level the hit's
    2d6 and each turn's 2d6, here 3 and 5; the Ogre's save, 18 + 3 = 21, ends the spell."""
    t = table(PALADIN, "Ogre")
    t.do(Attack(attacker="aldric", target="ogre", attack="Longsword", faces=(14,), damage_faces=(5,)))
    events = t.do(CastSpell(caster="aldric", spell="Searing Smite", slot_level=2, damage_faces=((1, 2),)))
    assert taken(events) == [("ogre", 3, "fire")]
    events = t.do(EndTurn(combatant="aldric", turn_start_faces={"searing smite": TurnStartDice(damage=(3, 5), save=(18,))}))
    burn = next(e for e in of_type(events, DiceRolled) if e.purpose.startswith("Searing Smite"))
    assert (burn.notation, burn.total) == ("2d6", 8) and taken(events) == [("ogre", 8, "fire")]
    assert of_type(events, SaveMade)[0].success
    assert [e.condition for e in of_type(events, ConditionEnded)] == ["searing smite"]
    assert not t["ogre"].has("searing smite")


def test_a_burn_that_drops_the_target_leaves_its_save_unrolled():
    """The target "takes 1d6 Fire damage and then makes a Constitution saving throw": a Bandit
    (11 HP) hit for 5 and burnt for 6 dies before it would save, so the save's face entered is
    left unused, as a missed attack leaves its damage's."""
    t = table(PALADIN, "Bandit")
    t.do(Attack(attacker="aldric", target="bandit", attack="Longsword", faces=(14,), damage_faces=(2,)))
    t.do(CastSpell(caster="aldric", spell="Searing Smite", damage_faces=((1,),)))
    assert t["bandit"].hp == 11 - 5 - 1
    events = t.do(EndTurn(combatant="aldric", turn_start_faces={"searing smite": TurnStartDice(damage=(6,), save=(20,))}))
    assert taken(events) == [("bandit", 6, "fire")] and t["bandit"].status == "dead"
    assert of_type(events, SaveMade) == []


def test_turn_start_faces_for_an_effect_that_rolls_nothing_then_are_refused():
    """Faces are entered only for what rolls as the turn starts: refused for an effect the
    creature does not have, for a save Ensnaring Strike never asks, when no turn starts with
    that effect, and from a player (the target's save is the GM's)."""
    t = table(PALADIN, "Ogre")
    t.do(Attack(attacker="aldric", target="ogre", attack="Longsword", faces=(14,), damage_faces=(5,)))
    t.do(CastSpell(caster="aldric", spell="Searing Smite", damage_faces=((6,),)))
    err = t.rejects(EndTurn(combatant="aldric", turn_start_faces={"hex": TurnStartDice(damage=(4,))}), "dice/unused-faces")
    assert "searing smite" in err.allowed
    t.rejects(
        EndTurn(combatant="aldric", turn_start_faces={"searing smite": TurnStartDice(damage=(4,))}),
        "command/gm-field",
        actor="sam",
    )
    t.rejects(EndTurn(combatant="aldric", turn_start_faces={"searing smite": TurnStartDice(damage=(7,))}), "dice/bad-face")
    t.do(EndTurn(combatant="aldric", turn_start_faces={"searing smite": TurnStartDice(damage=(1,), save=(1,))}))
    # The Ogre's turn ends: Aldric's turn starts, and Aldric burns with nothing.
    t.rejects(EndTurn(combatant="ogre", turn_start_faces={"searing smite": TurnStartDice(damage=(4,))}), "dice/unused-faces")

    r = table(RANGER, "Ogre")
    r.do(Attack(attacker="tamsin", target="ogre", attack="Longbow", faces=(14,), damage_faces=(5,)))
    r.do(CastSpell(caster="tamsin", spell="Ensnaring Strike", save_faces={"ogre": (3, 5)}))
    r.rejects(
        EndTurn(combatant="tamsin", turn_start_faces={"ensnaring strike": TurnStartDice(damage=(4,), save=(10,))}),
        "dice/unused-faces",
    )


def test_shining_smite_deals_2d6_radiant_and_attacks_against_the_target_have_advantage():
    """Shining Smite: "The target hit by the strike takes an extra 2d6 Radiant damage from the
    attack. Until the spell ends ... attack rolls against it have Advantage, and it can't
    benefit from the Invisible condition." The Ogre turns Invisible: Aldric's next attack on it
    still rolls with Advantage (no Disadvantage from its invisibility); once his concentration
    ends, the invisible Ogre is attacked with Disadvantage."""
    t = table(PALADIN, "Ogre")
    t.do(Attack(attacker="aldric", target="ogre", attack="Longsword", faces=(14,), damage_faces=(5,)))
    events = t.do(CastSpell(caster="aldric", spell="Shining Smite", damage_faces=((2, 6),)))
    assert taken(events) == [("ogre", 8, "radiant")] and t["aldric"].concentration == "Shining Smite"
    t.do(ApplyCondition(target="ogre", condition=ConditionSpec(name="invisible")))
    made = of_type(
        t.do(Attack(attacker="aldric", target="ogre", attack="Longsword", faces=(3, 15), damage_faces=(5,))), AttackMade
    )[0]
    assert (made.roll_mode, made.natural) == ("advantage", 15)
    t.do(EndConcentration(combatant="aldric"))
    next_turn(t, "aldric")
    made = of_type(
        t.do(Attack(attacker="aldric", target="ogre", attack="Longsword", faces=(15, 3), damage_faces=(5,))), AttackMade
    )[0]
    assert (made.roll_mode, made.natural) == ("disadvantage", 3)


def test_ensnaring_strike_restrains_on_a_failed_strength_save_and_pierces_at_each_turn_start():
    """Ensnaring Strike, cast "immediately after hitting a creature with a weapon": "On a failed
    save, the target has the Restrained condition until the spell ends ... While Restrained, the
    target takes 1d6 Piercing damage at the start of each of its turns." Tamsin's Longbow hits
    the Ogre. "A Large or larger creature has Advantage on this save": the Large Ogre rolls two
    d20s, and the higher, 5 + 4 = 9, fails her DC 13."""
    t = table(RANGER, "Ogre")
    t.do(Attack(attacker="tamsin", target="ogre", attack="Longbow", faces=(14,), damage_faces=(5,)))
    events = t.do(CastSpell(caster="tamsin", spell="Ensnaring Strike", save_faces={"ogre": (3, 5)}))
    save = of_type(events, SaveMade)[0]
    assert (save.ability, save.dc, save.total, save.success) == ("strength", 13, 9, False)
    assert [e.notation for e in of_type(events, DiceRolled)] == ["2d20kh1+4"]
    assert t["ogre"].has("restrained") and t["ogre"].has("ensnaring strike")
    events = t.do(EndTurn(combatant="tamsin", turn_start_faces={"ensnaring strike": TurnStartDice(damage=(5,))}))
    thorns = next(e for e in of_type(events, DiceRolled) if e.purpose.startswith("Ensnaring Strike"))
    assert (thorns.notation, thorns.source) == ("1d6", "entered") and taken(events) == [("ogre", 5, "piercing")]


def test_ensnaring_strike_pierces_only_while_restrained():
    """ "While Restrained, the target takes 1d6 Piercing damage at the start of each of its
    turns": the GM ends the Ogre's Restrained (it tore free); its next turn start deals nothing,
    and faces entered for the thorns are refused, for nothing rolls."""
    t = table(RANGER, "Ogre")
    t.do(Attack(attacker="tamsin", target="ogre", attack="Longbow", faces=(14,), damage_faces=(5,)))
    t.do(CastSpell(caster="tamsin", spell="Ensnaring Strike", slot_level=2, save_faces={"ogre": (3, 5)}))
    events = t.do(EndTurn(combatant="tamsin", turn_start_faces={"ensnaring strike": TurnStartDice(damage=(2, 6))}))
    assert taken(events) == [("ogre", 8, "piercing")]
    t.do(RemoveCondition(target="ogre", condition="restrained", reason="it tore free"))
    t.do(EndTurn(combatant="ogre"))
    t.rejects(
        EndTurn(combatant="tamsin", turn_start_faces={"ensnaring strike": TurnStartDice(damage=(2, 6))}), "dice/unused-faces"
    )
    assert taken(t.do(EndTurn(combatant="tamsin"))) == []


def test_ensnaring_strike_that_the_target_saves_against_ends():
    """ "On a successful save, the vines shrivel away, and the spell ends": no Restrained, no
    concentration, and nothing at the Ogre's turn start."""
    t = table(RANGER, "Ogre")
    t.do(Attack(attacker="tamsin", target="ogre", attack="Longbow", faces=(14,), damage_faces=(5,)))
    t.do(CastSpell(caster="tamsin", spell="Ensnaring Strike", save_faces={"ogre": (15, 2)}))
    assert not t["ogre"].has("restrained") and t["tamsin"].concentration is None
    events = t.do(EndTurn(combatant="tamsin"))
    assert taken(events) == []


def test_bestow_curse_necrotic_adds_1d8_to_the_casters_attack_roll_hits():
    """Bestow Curse, the curse chosen: "If you deal damage to the target with an attack roll or
    a spell, the target takes an extra 1d8 Necrotic damage." Vesna, a level 5 Wizard (DC 14,
    spell attack +6), curses the Ogre (Wisdom -2: 5 - 2 fails); next turn her Fire Bolt (2d10 at
    level 5) hits it: 3 + 4 Fire, then the curse's 5 Necrotic."""
    wizard = spellcaster("Vesna", "Wizard", 5, "Bestow Curse", "Fire Bolt", scores="STR 8 DEX 14 CON 14 INT 16 WIS 12 CHA 10")  # fmt: skip
    t = table(wizard, "Ogre")
    events = t.do(
        CastSpell(caster="vesna", spell="Bestow Curse", targets=("ogre",), option="necrotic", save_faces={"ogre": (5,)})
    )
    assert not of_type(events, SaveMade)[0].success and t["ogre"].has("bestow curse")
    next_turn(t, "vesna")
    events = t.do(
        CastSpell(caster="vesna", spell="Fire Bolt", targets=("ogre",), attack_faces=((12,),), damage_faces=((3, 4, 5),))
    )
    assert taken(events, "necrotic") == [("ogre", 5, "necrotic")] and t["ogre"].hp == 68 - 7 - 5


def test_divine_smite_after_a_hit_rolled_in_two_steps_and_against_resistance():
    """A hit whose damage waits for `roll_damage` holds the table ("its damage is still to be
    rolled"); once the Longsword's damage lands, the smite follows it. Against a creature with
    Resistance to Radiant damage, its 2d8 (3, 4: 7) is 3 taken."""
    t = table(PALADIN, others=(monster("warden", resistances=("radiant",), max_hp=40, ac=10),))
    t.do(Attack(attacker="aldric", target="warden", attack="Longsword", faces=(14,)))
    t.rejects(CastSpell(caster="aldric", spell="Divine Smite", damage_faces=((3, 4),)), "attack/damage-pending")
    t.do(RollDamage(attacker="aldric", faces=(5,)))
    events = t.do(CastSpell(caster="aldric", spell="Divine Smite", damage_faces=((3, 4),)))
    assert [(e.amount, e.rolled, e.damage_type) for e in of_type(events, DamageTaken)] == [(3, 7, "radiant")]
    assert t["warden"].hp == 40 - 8 - 3


def test_goto_turn_and_previous_turn_carry_the_turn_start_faces_too():
    """The GM moving the turn to the Ogre starts its turn "as any turn does": Searing Smite's burn
    (3) and save (5 + 3 = 8, failing) take the faces goto_turn enters; going back to it with
    previous_turn, the burn (1) and save (19 + 3 = 22) take previous_turn's, and the spell ends."""
    t = table(PALADIN, "Ogre")
    t.do(Attack(attacker="aldric", target="ogre", attack="Longsword", faces=(14,), damage_faces=(5,)))
    t.do(CastSpell(caster="aldric", spell="Searing Smite", damage_faces=((6,),)))
    events = t.do(GotoTurn(combatant="ogre", turn_start_faces={"searing smite": TurnStartDice(damage=(3,), save=(5,))}))
    assert taken(events) == [("ogre", 3, "fire")] and not of_type(events, SaveMade)[0].success
    t.do(EndTurn(combatant="ogre"))
    events = t.do(PreviousTurn(turn_start_faces={"searing smite": TurnStartDice(damage=(1,), save=(19,))}))
    assert t.state.turn == "ogre" and taken(events) == [("ogre", 1, "fire")]
    assert of_type(events, SaveMade)[0].total == 22 and not t["ogre"].has("searing smite")
