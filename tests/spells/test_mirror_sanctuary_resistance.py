"""Issue 31: Mirror Image, Sanctuary and Resistance as the SRD 5.2 text says, every face
entered, and the refusals of faces no roll used.

Vesna is a level 5 Wizard (AC 12, 32 HP; spell save DC 15, spell attack +7), Ilse a level 5
Cleric (Wisdom 18: spell save DC 15). Brann is a fighter of the party (AC 15, 20 HP, Longsword
+5, 1d8+3). Bandits (Scimitar +3, 1d6+1 Slashing; Wisdom 10: +0) are the foes."""

from __future__ import annotations

import msgspec
import pytest

from combat.common.commands import ApplyCondition, Damage
from combat.common.events import DamageTaken, SaveMade
from combat.fivee.action_commands import Move
from combat.fivee.attack_commands import Attack, OpportunityAttack, RollDamage
from combat.fivee.attack_events import AttackDamageRolled, AttackMade, AttackRolled
from combat.fivee.casts import CastSpell, SpellCast
from combat.fivee.characters import AddCharacter
from combat.fivee.damage_reduction import DamageReduced
from combat.fivee.held_open import opportunities_of
from combat.fivee.mirror_image import DuplicateStruck
from combat.fivee.monsters import AddCreature
from combat.fivee.reaction_windows import ReactionWindowOpened
from combat.fivee.reactions import PassReaction
from combat.fivee.sanctuary import TurnedAway
from combat.fivee.spell_effect_uses import SpellEffect
from combat.kernel.commands import AddCombatant, EndTurn
from combat.kernel.events import ConditionEnded, ConditionSpec, DiceRolled
from combat.kernel.riders import Riders
from tests.helpers import Table, monster, next_turn, of_type, pc, spellcaster

WIZARD = spellcaster(
    "Vesna", "Wizard", 5, "Mirror Image", "Fire Bolt", "Scorching Ray", scores="STR 8 DEX 14 CON 14 INT 18 WIS 12 CHA 10"
)
SHIELDED = spellcaster("Vesna", "Wizard", 5, "Mirror Image", "Shield", scores="STR 8 DEX 14 CON 14 INT 18 WIS 12 CHA 10")
CLERIC = spellcaster("Ilse", "Cleric", 5, "Sanctuary", "Resistance", "Sacred Flame", "Spiritual Weapon")


def table(*foes: str, wizard=WIZARD) -> Table:
    """Vesna (initiative 20), Ilse (18), Brann (15), then each foe (10, 9, ...)."""
    t = Table()
    t.do(AddCharacter(character=wizard, side="party", player="sam"))
    t.do(AddCharacter(character=CLERIC, side="party", player="kim"))
    t.do(AddCombatant(combatant=pc("brann")))
    return t.start({"vesna": 20, "ilse": 18, "brann": 15, **t.foes(*(foes or ("Bandit", "Bandit")))})


def duplicates(t: Table) -> int | None:
    cond = next((c for c in t["vesna"].conditions if c.name == "mirror image"), None)
    return None if cond is None else cond.riders.duplicates


# -- Mirror Image ------------------------------------------------------------------------------


def test_mirror_image_duplicates_take_the_hits_until_all_three_are_destroyed():
    """Mirror Image: "Each time a creature hits you with an attack roll during the spell's
    duration, roll a d6 for each of your remaining duplicates. If any of the d6s rolls a 3 or
    higher, one of the duplicates is hit instead of you, and the duplicate is destroyed. ... The
    spell ends when all three duplicates are destroyed."

    Bandit 1's 15 (18) hits AC 12: d6s 1, 2, 5: the 5 strikes a duplicate (2 left), no damage.
    Bandit 2's 14 hits: d6s 2, 1: none 3 or higher, Vesna takes 4 + 1. Bandit 1 again: 6, 1
    (1 left); Bandit 2: 3 (none left: the spell ends). Bandit 1's next hit rolls no d6."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Mirror Image"))
    assert duplicates(t) == 3
    hp = t["vesna"].hp
    next_turn(t, "bandit-1")
    events = t.do(Attack(attacker="bandit-1", target="vesna", faces=(15,), damage_faces=(4,), mirror_faces=(1, 2, 5)))
    d6s = next(e for e in of_type(events, DiceRolled) if e.purpose.startswith("Mirror Image"))
    assert ([d.face for d in d6s.dice], d6s.roller, d6s.source) == ([1, 2, 5], "vesna", "entered")
    assert of_type(events, DuplicateStruck) == [DuplicateStruck(attacker="bandit-1", target="vesna", left=2)]
    made = of_type(events, AttackMade)[0]
    assert (made.total, made.target_ac, made.hit, made.damage) == (18, 12, False, 0)
    assert not of_type(events, DamageTaken) and t["vesna"].hp == hp and duplicates(t) == 2
    next_turn(t, "bandit-2")
    events = t.do(Attack(attacker="bandit-2", target="vesna", faces=(14,), damage_faces=(4,), mirror_faces=(2, 1)))
    assert not of_type(events, DuplicateStruck) and of_type(events, AttackMade)[0].damage == 5
    assert t["vesna"].hp == hp - 5 and duplicates(t) == 2
    next_turn(t, "bandit-1")
    t.do(Attack(attacker="bandit-1", target="vesna", faces=(14,), damage_faces=(4,), mirror_faces=(6, 1)))
    assert duplicates(t) == 1
    next_turn(t, "bandit-2")
    events = t.do(Attack(attacker="bandit-2", target="vesna", faces=(14,), damage_faces=(4,), mirror_faces=(3,)))
    ended = of_type(events, ConditionEnded)
    assert [(e.condition, e.reason) for e in ended] == [("mirror image", "all three duplicates are destroyed")]
    assert not t["vesna"].has("mirror image") and t["vesna"].hp == hp - 5
    next_turn(t, "bandit-1")
    events = t.do(Attack(attacker="bandit-1", target="vesna", faces=(14,), damage_faces=(4,)))
    assert not [e for e in of_type(events, DiceRolled) if e.purpose.startswith("Mirror Image")]
    assert t["vesna"].hp == hp - 10
    assert t.rebuilt() == t.state


def test_mirror_image_d6s_refused_when_unused_or_miscounted():
    """The d6s are "for each of your remaining duplicates", only when a creature "hits you":
    three faces for three duplicates, none for a miss, none once the spell is gone."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Mirror Image"))
    next_turn(t, "bandit-1")
    t.rejects(
        Attack(attacker="bandit-1", target="vesna", faces=(15,), damage_faces=(4,), mirror_faces=(5, 1)), "dice/too-few-faces"
    )
    refused = t.rejects(
        Attack(attacker="bandit-1", target="vesna", faces=(2,), damage_faces=(4,), mirror_faces=(5, 1, 1)), "dice/unused-faces"
    )
    assert "mirror_faces" in str(refused)
    t.rejects(
        Attack(attacker="bandit-1", target="brann", faces=(19,), damage_faces=(4,), mirror_faces=(5, 1, 1)), "dice/unused-faces"
    )


def test_mirror_image_leaves_a_blinded_attacker_unaffected():
    """Mirror Image: "A creature is unaffected by this spell if it has the Blinded condition":
    a Blinded Bandit's natural 20 hits Vesna herself, no d6 rolled (entered ones refused)."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Mirror Image"))
    t.do(ApplyCondition(target="bandit-1", condition=ConditionSpec(name="blinded")))
    next_turn(t, "bandit-1")
    t.rejects(
        Attack(attacker="bandit-1", target="vesna", faces=(20, 20), damage_faces=(1, 1), mirror_faces=(6, 6, 6)),
        "dice/unused-faces",
    )
    events = t.do(Attack(attacker="bandit-1", target="vesna", faces=(20, 20), damage_faces=(1, 1)))
    assert of_type(events, AttackMade)[0].hit and duplicates(t) == 3


def test_mirror_image_d6s_come_before_shield():
    """The d6s are rolled when the attack "hits you", before any reaction to the hit: a
    duplicate struck leaves no hit to Shield against (no window opens); a hit on Vesna herself
    (d6s 1, 2) offers her Shield as before."""
    t = table(wizard=SHIELDED)
    t.do(CastSpell(caster="vesna", spell="Mirror Image"))
    next_turn(t, "bandit-1")
    events = t.do(Attack(attacker="bandit-1", target="vesna", faces=(15,), damage_faces=(4,), mirror_faces=(1, 1, 3)))
    assert not of_type(events, ReactionWindowOpened) and duplicates(t) == 2
    next_turn(t, "bandit-2")
    events = t.do(Attack(attacker="bandit-2", target="vesna", faces=(15,), damage_faces=(4,), mirror_faces=(1, 2)))
    assert of_type(events, ReactionWindowOpened)[0].reactors == {"vesna": ("Shield",)}
    events = t.do(PassReaction(combatant="vesna"))
    assert of_type(events, AttackDamageRolled)[0].damage == 5 and duplicates(t) == 2


def test_a_spell_attack_takes_one_list_of_d6s_per_hit_on_a_creature_with_duplicates():
    """Each time a creature hits "with an attack roll": Scorching Ray's rays at a Bandit with
    Mirror Image (the GM's effect on it, for the test) take one d6 list per hit, in order: ray 1
    (d20 15, hit) 4 4 4 strikes a duplicate; ray 2 (15) 1 1 hits the Bandit, 2d6 of 1 and 1;
    ray 3 at Bandit 2 misses and rolls none."""
    t = table()
    t.do(
        ApplyCondition(target="bandit-1", condition=ConditionSpec(name="mirror image", riders=Riders(duplicates=3)), custom=True)
    )
    hp = t["bandit-1"].hp
    events = t.do(
        CastSpell(
            caster="vesna",
            spell="Scorching Ray",
            targets=("bandit-1", "bandit-1", "bandit-2"),
            attack_faces=((15,), (15,), (1,)),
            damage_faces=((3, 3), (1, 1), (2, 2)),
            mirror_faces=((4, 4, 4), (1, 1)),
        )
    )
    assert [e.left for e in of_type(events, DuplicateStruck)] == [2]
    assert [m.hit for m in of_type(events, AttackMade)] == [False, True, False]
    assert t["bandit-1"].hp == hp - 2
    next_turn(t, "vesna")
    t.rejects(
        CastSpell(caster="vesna", spell="Fire Bolt", targets=("bandit-2",), attack_faces=((15,),), mirror_faces=((4, 4),)),
        "dice/unused-faces",
    )


# -- Sanctuary ---------------------------------------------------------------------------------


def ward(t: Table) -> None:
    """Ilse wards Brann (DC 15)."""
    next_turn(t, "ilse")
    t.do(CastSpell(caster="ilse", spell="Sanctuary", targets=("brann",)))
    assert t["brann"].has("sanctuary")


def test_sanctuary_asks_the_attacker_for_a_wisdom_save_before_the_attack():
    """Sanctuary: "any creature who targets the warded creature with an attack roll or a
    damaging spell must succeed on a Wisdom saving throw or either choose a new target or lose
    the attack or spell." Bandit 1's save (14 + 0 against DC 15) fails and its attack is lost,
    spent; Bandit 2's fails too and goes at Vesna instead (its one attack, spent once); a
    later 15 succeeds and the attack at Brann is rolled."""
    t = table()
    ward(t)
    next_turn(t, "bandit-1")
    events = t.do(Attack(attacker="bandit-1", target="brann", faces=(19,), damage_faces=(4,), sanctuary_faces=(14,)))
    save = of_type(events, SaveMade)[0]
    assert (save.combatant, save.ability, save.dc, save.total, save.success) == ("bandit-1", "wisdom", 15, 14, False)
    assert of_type(events, TurnedAway) == [TurnedAway(attacker="bandit-1", target="brann", uses="action")]
    assert not of_type(events, AttackMade) and not t["bandit-1"].economy.action
    t.rejects(Attack(attacker="bandit-1", target="vesna", faces=(19,), damage_faces=(4,)), "economy/action-spent")
    next_turn(t, "bandit-2")
    events = t.do(
        Attack(attacker="bandit-2", target="brann", faces=(19,), damage_faces=(4,), sanctuary_faces=(3,), new_target="vesna")
    )
    made = of_type(events, AttackMade)[0]
    assert (made.target, made.hit, made.damage) == ("vesna", True, 5)
    next_turn(t, "bandit-1")
    events = t.do(Attack(attacker="bandit-1", target="brann", faces=(19,), damage_faces=(4,), sanctuary_faces=(15,)))
    assert of_type(events, SaveMade)[0].success and of_type(events, AttackMade)[0].target == "brann"
    assert t.rebuilt() == t.state


def test_sanctuary_refusals_name_what_is_wrong():
    """Faces for a save that never comes, a new target for a creature not warded, or a new
    target that is the warded creature or the attacker, are refused, nothing appended."""
    t = table()
    next_turn(t, "bandit-1")
    t.rejects(
        Attack(attacker="bandit-1", target="brann", faces=(19,), damage_faces=(4,), sanctuary_faces=(3,)), "dice/unused-faces"
    )
    t.rejects(
        Attack(attacker="bandit-1", target="brann", faces=(19,), damage_faces=(4,), new_target="vesna"), "sanctuary/new-target"
    )
    ward(t)
    next_turn(t, "bandit-1")
    for other in ("brann", "bandit-1"):
        t.rejects(
            Attack(attacker="bandit-1", target="brann", faces=(19,), damage_faces=(4,), sanctuary_faces=(3,), new_target=other),
            "sanctuary/new-target",
        )


def test_sanctuary_ends_when_the_warded_creature_attacks():
    """Sanctuary: "The spell ends if the warded creature makes an attack roll, casts a spell, or
    deals damage." Brann attacks: the ward ends; the Bandit's next attack asks no save."""
    t = table()
    ward(t)
    next_turn(t, "brann")
    events = t.do(Attack(attacker="brann", target="bandit-1", faces=(2,), damage_faces=(4,)))
    assert [e.condition for e in of_type(events, ConditionEnded)] == ["sanctuary"]
    next_turn(t, "bandit-1")
    events = t.do(Attack(attacker="bandit-1", target="brann", faces=(19,), damage_faces=(4,)))
    assert not of_type(events, SaveMade) and of_type(events, AttackMade)[0].hit


def test_sanctuary_against_a_damaging_spell_lost_or_sent_at_a_new_target():
    """Sanctuary: "any creature who targets the warded creature with an attack roll or a
    damaging spell must succeed on a Wisdom saving throw or either choose a new target or lose
    the attack or spell." Ilse wards Vesna, then (the GM's test of the rule) aims Sacred Flame
    at her: Ilse's save (2 + 4 = 6 against her own DC 15) fails and the cantrip is lost, cast
    and spent; again, with `new_targets`, it goes at Bandit 1 instead (its Dexterity save
    1 + 1 fails: 2d8 of 2 and 3). Faces for a save against a creature not warded are refused."""
    t = table()
    next_turn(t, "ilse")
    t.do(CastSpell(caster="ilse", spell="Sanctuary", targets=("vesna",)))
    next_turn(t, "ilse")
    events = t.do(CastSpell(caster="ilse", spell="Sacred Flame", targets=("vesna",), sanctuary_faces={"vesna": (2,)}))
    assert of_type(events, SpellCast) and of_type(events, TurnedAway) == [
        TurnedAway(attacker="ilse", target="vesna", spell="Sacred Flame")
    ]
    assert not of_type(events, DamageTaken)
    next_turn(t, "ilse")
    hp = t["bandit-1"].hp
    events = t.do(
        CastSpell(
            caster="ilse",
            spell="Sacred Flame",
            targets=("vesna",),
            sanctuary_faces={"vesna": (2,)},
            new_targets={"vesna": "bandit-1"},
            save_faces={"bandit-1": (1,)},
            damage_faces=((2, 3),),
        )
    )
    assert [(e.target, e.amount) for e in of_type(events, DamageTaken)] == [("bandit-1", 5)]
    assert t["bandit-1"].hp == hp - 5
    next_turn(t, "ilse")
    t.rejects(
        CastSpell(caster="ilse", spell="Sacred Flame", targets=("bandit-1",), sanctuary_faces={"bandit-1": (2,)}),
        "dice/unused-faces",
    )


# -- Resistance --------------------------------------------------------------------------------


def resist(t: Table, kind: str = "slashing") -> None:
    """Ilse touches Brann: Resistance to `kind`."""
    next_turn(t, "ilse")
    t.do(CastSpell(caster="ilse", spell="Resistance", targets=("brann",), damage_type=kind))


def test_resistance_reduces_damage_of_the_chosen_type_by_1d4_once_per_turn():
    """Resistance: "When the target takes damage of the chosen type before the spell ends, the
    target reduces the total damage taken by 1d4. A creature can benefit from this spell only
    once per turn." Slashing chosen: the Bandit's 4 + 1 less the d4's 3 is 2; the GM's 6 Fire
    the same turn is not reduced; a second Slashing blow that turn is not; on the next
    Bandit's turn the d4's 4 takes all of a 3 away."""
    t = table()
    resist(t)
    hp = t["brann"].hp
    next_turn(t, "bandit-1")
    events = t.do(Attack(attacker="bandit-1", target="brann", faces=(19,), damage_faces=(4,), resistance_faces={"brann": (3,)}))
    assert of_type(events, DamageReduced) == [DamageReduced(target="brann", amount=3, damage_type="slashing")]
    made = of_type(events, AttackMade)[0]
    assert (made.damage_rolled, made.damage) == (5, 2) and t["brann"].hp == hp - 2
    t.do(Damage(target="brann", damage_type="fire", amount=6))
    assert t["brann"].hp == hp - 8
    t.rejects(Damage(target="brann", damage_type="slashing", amount=4, resistance_faces={"brann": (2,)}), "dice/unused-faces")
    t.do(Damage(target="brann", damage_type="slashing", amount=4))
    assert t["brann"].hp == hp - 12
    next_turn(t, "bandit-2")
    events = t.do(Attack(attacker="bandit-2", target="brann", faces=(19,), damage_faces=(2,), resistance_faces={"brann": (4,)}))
    assert of_type(events, AttackMade)[0].damage == 0 and of_type(events, DamageReduced)[0].amount == 3
    assert t["brann"].hp == hp - 12
    assert t.rebuilt() == t.state


def test_resistance_d4_in_roll_damage_and_refusals():
    """The d4 comes where the damage lands: with `roll_damage` when the attack's damage is
    rolled in two steps (entered with the attack, it is refused). A type outside the eleven,
    or none, is refused as cast."""
    t = table()
    next_turn(t, "ilse")
    t.rejects(CastSpell(caster="ilse", spell="Resistance", targets=("brann",), damage_type="force"), "spell/damage-type")
    t.rejects(CastSpell(caster="ilse", spell="Resistance", targets=("brann",)), "spell/damage-type")
    resist(t)
    hp = t["brann"].hp
    next_turn(t, "bandit-1")
    t.rejects(Attack(attacker="bandit-1", target="brann", faces=(19,), resistance_faces={"brann": (2,)}), "dice/unused-faces")
    events = t.do(Attack(attacker="bandit-1", target="brann", faces=(19,)))
    assert of_type(events, AttackRolled)
    events = t.do(RollDamage(attacker="bandit-1", faces=(5,), resistance_faces={"brann": (2,)}))
    assert of_type(events, DamageReduced)[0].amount == 2 and t["brann"].hp == hp - 4


@pytest.mark.parametrize("field", ["mirror_faces", "resistance_faces"])
def test_a_player_may_not_enter_another_creatures_defence_dice(field):
    """The d6s and the d4 are the defender's: a player's attack that enters them is refused."""
    t = table()
    next_turn(t, "vesna")
    value = (6, 6, 6) if field == "mirror_faces" else {"bandit-1": (4,)}
    t.rejects(Attack(attacker="vesna", target="bandit-1", **{field: value}), "command/gm-field", actor="sam")


def test_resistance_d4_entered_with_the_attack_waits_with_a_hit_held_for_shield():
    """The d4 entered with an attack whose hit waits for its target's reaction is rolled when
    the damage lands: Ilse gives Vesna Resistance (Slashing); a Bandit hits her (15 + 3 against
    AC 12), she passes on Shield, and its 4 + 1 less the entered 2 is 3."""
    t = table(wizard=SHIELDED)
    next_turn(t, "ilse")
    t.do(CastSpell(caster="ilse", spell="Resistance", targets=("vesna",), damage_type="slashing"))
    hp = t["vesna"].hp
    next_turn(t, "bandit-1")
    events = t.do(Attack(attacker="bandit-1", target="vesna", faces=(15,), damage_faces=(4,), resistance_faces={"vesna": (2,)}))
    assert of_type(events, ReactionWindowOpened) and not of_type(events, DamageReduced)
    events = t.do(PassReaction(combatant="vesna"))
    assert of_type(events, DamageReduced)[0].amount == 2 and of_type(events, AttackDamageRolled)[0].damage == 3
    assert t["vesna"].hp == hp - 3


def test_sanctuary_asks_a_later_spell_attack_and_an_opportunity_attack_too():
    """ "any creature who targets the warded creature with an attack roll": Spiritual Weapon's
    Bonus Action attack again (`spell_effect`) and an Opportunity Attack ask the save as well.
    Ilse wards Bandit 1 (the GM's test), then her Spiritual Weapon's save (4 + 4 = 8) fails and,
    with `new_targets`, strikes Bandit 2 (d20 15 + 7; 1d8 + 4 of 3). Bandit 1 leaves Brann's
    reach: his Opportunity Attack's save (2 + 0) fails and, no new target, is lost: his reaction
    spent, the opportunity gone."""
    t = table()
    next_turn(t, "ilse")
    t.do(CastSpell(caster="ilse", spell="Sanctuary", targets=("bandit-1",)))
    next_turn(t, "ilse")
    t.do(CastSpell(caster="ilse", spell="Spiritual Weapon", targets=("bandit-2",), attack_faces=((1,),)))
    next_turn(t, "ilse")
    hp = t["bandit-2"].hp
    events = t.do(
        SpellEffect(
            caster="ilse",
            spell="Spiritual Weapon",
            targets=("bandit-1",),
            attack_faces=((15,),),
            damage_faces=((3,),),
            sanctuary_faces={"bandit-1": (4,)},
            new_targets={"bandit-1": "bandit-2"},
        )
    )
    assert not of_type(events, SaveMade)[0].success
    assert [(m.target, m.hit) for m in of_type(events, AttackMade)] == [("bandit-2", True)]
    assert t["bandit-2"].hp == hp - 7
    next_turn(t, "bandit-1")
    t.do(Move(combatant="bandit-1", feet=10, leaves_reach_of=("brann",)))
    events = t.do(OpportunityAttack(attacker="brann", target="bandit-1", faces=(19,), damage_faces=(4,), sanctuary_faces=(2,)))
    assert of_type(events, TurnedAway) == [TurnedAway(attacker="brann", target="bandit-1", uses="reaction", opportunity=True)]
    assert not t["brann"].economy.reaction and ("brann", "bandit-1") not in opportunities_of(t.state)


def test_a5e_make_attack_takes_the_same_defence_dice():
    """a5e's `make_attack` is `attack` with a5e's positions: Mirror Image's d6s entered with it
    (1, 1, 3: the 3 strikes a duplicate) and a Sanctuary save."""
    from combat.rulesets.a5e.attacks import MakeAttack

    t = Table(ruleset="a5e")
    t.do(AddCharacter(character=WIZARD, side="party", player="sam"))
    t.do(AddCharacter(character=CLERIC, side="party", player="kim"))
    t.do(AddCreature(creature="Bandit", side="foes", id_prefix="bandit-1"))
    t.start({"vesna": 20, "ilse": 18, "bandit-1": 10})
    t.do(CastSpell(caster="vesna", spell="Mirror Image"))
    next_turn(t, "ilse")
    t.do(CastSpell(caster="ilse", spell="Sanctuary", targets=("ilse",)))
    next_turn(t, "bandit-1")
    events = t.do(MakeAttack(attacker="bandit-1", target="vesna", faces=(15,), damage_faces=(4,), mirror_faces=(1, 1, 3)))
    assert of_type(events, DuplicateStruck) == [DuplicateStruck(attacker="bandit-1", target="vesna", left=2)]
    next_turn(t, "bandit-1")
    events = t.do(MakeAttack(attacker="bandit-1", target="ilse", faces=(15,), damage_faces=(4,), sanctuary_faces=(1,)))
    assert of_type(events, TurnedAway) and not of_type(events, AttackMade)


def test_resistance_reduces_a_spells_damage_with_the_d4_entered_in_cast_spell():
    """A save spell's damage lands the same way: Brann, given Resistance to Radiant, fails
    Sacred Flame's save (3 + 0) and its 2d8 of 2 and 3 less the d4's 4 is 1. A d4 for a creature
    the spell does not damage is refused."""
    t = table()
    resist(t, "radiant")
    hp = t["brann"].hp
    next_turn(t, "ilse")
    cast = CastSpell(
        caster="ilse",
        spell="Sacred Flame",
        targets=("brann",),
        save_faces={"brann": (3,)},
        damage_faces=((2, 3),),
        resistance_faces={"vesna": (4,)},
    )
    t.rejects(cast, "dice/unused-faces")
    events = t.do(msgspec.structs.replace(cast, resistance_faces={"brann": (4,)}))
    assert [(e.target, e.rolled, e.amount) for e in of_type(events, DamageTaken)] == [("brann", 5, 1)]
    assert t["brann"].hp == hp - 1


def test_the_recheck_after_a_changed_past_allows_for_resistances_d4():
    """An undo or amendment re-checks each recorded attack's damage against the target's
    defences: a hit Resistance reduced (5 rolled, 2 taken) still fits; 0 taken does not
    (more than the d4's largest face)."""
    from combat.fivee.consistency import CHECKS

    t = table()
    resist(t)
    next_turn(t, "bandit-1")
    before = t.state
    events = t.do(Attack(attacker="bandit-1", target="brann", faces=(19,), damage_faces=(4,), resistance_faces={"brann": (3,)}))
    made = of_type(events, AttackMade)[0]
    assert made.damage == 2 and CHECKS[AttackMade](before, made, {}) is None
    assert CHECKS[AttackMade](before, msgspec.structs.replace(made, damage=0), {}) is not None


def test_sanctuary_and_mirror_image_ask_a_legendary_actions_attack_too():
    """Sanctuary: "any creature who targets the warded creature with an attack roll ... must
    succeed on a Wisdom saving throw or either choose a new target or lose the attack"; a
    legendary action's attack is an attack roll like any other. Right after Ilse wards Aria
    (DC 15), the Adult Red Dragon's Pounce at her fails its save (3 + 7 = 10): the attack is lost, the legendary action spent. After Bram's turn it Pounces at
    Bram instead of her on a failed save (`new_target`)."""
    from combat.fivee.legendary import LegendaryAction, LegendaryActionUsed

    t = Table()
    t.do(AddCharacter(character=CLERIC, side="party", player="kim"))
    t.do(AddCombatant(combatant=pc("aria", max_hp=120)))
    t.do(AddCombatant(combatant=pc("bram", max_hp=60)))
    t.do(AddCreature(creature="Adult Red Dragon", side="dragon"))
    t.start({"ilse": 20, "aria": 19, "adult-red-dragon": 1, "bram": 1})  # the dragon's 1 + 12: after Aria
    t.do(CastSpell(caster="ilse", spell="Sanctuary", targets=("aria",)))
    t.do(EndTurn(combatant="ilse"))  # right after Ilse's turn, before Aria acts, the dragon may act
    events = t.do(
        LegendaryAction(combatant="adult-red-dragon", action="Pounce", target="aria", faces=(19,), sanctuary_faces=(3,))
    )
    save = of_type(events, SaveMade)[0]
    assert (save.combatant, save.dc, save.success) == ("adult-red-dragon", 15, False)
    assert of_type(events, LegendaryActionUsed) and of_type(events, TurnedAway)
    assert not of_type(events, AttackMade) and not of_type(events, AttackRolled)
    t.rejects(
        LegendaryAction(combatant="adult-red-dragon", action="Pounce", target="bram", faces=(19,), sanctuary_faces=(3,)),
        "dice/unused-faces",
    )
    for cid in ("aria", "adult-red-dragon", "bram"):
        t.do(EndTurn(combatant=cid))
    events = t.do(
        LegendaryAction(
            combatant="adult-red-dragon", action="Pounce", target="aria", faces=(19,), damage_faces=(5,),
            extra_damage_faces=(1, 1), sanctuary_faces=(3,), new_target="bram",
        )
    )  # fmt: skip
    made = of_type(events, AttackMade)[0]
    assert (made.target, made.hit) == ("bram", True) and t["aria"].hp == 120
    assert t.rebuilt() == t.state


@pytest.mark.parametrize("kind", ["attack", "opportunity_attack"])
def test_a5e_attacks_take_the_defenders_dice_as_entered(kind: str):
    """The defenders' dice an `attack` or `opportunity_attack` carries count in a5e as in the
    2024 rulesets (a5e reads `attack` as its own `make_attack`, and rebuilds an opportunity
    attack with its own advantages): Mirror Image's d6s 1, 2, 5 as entered, so the 5 strikes a
    duplicate and two are left; none is rolled from the seed in their place. The goblin is a
    combatant the GM made, with no stat block, so its attack is a5e's own rule."""
    t = Table("a5e")
    t.do(AddCharacter(character=WIZARD, side="party", player="sam"))
    t.do(AddCombatant(combatant=monster("goblin")))
    t.start({"vesna": 20, "goblin": 10})
    t.do(CastSpell(caster="vesna", spell="Mirror Image"))
    if kind == "attack":
        next_turn(t, "goblin")
        sent = Attack(attacker="goblin", target="vesna", faces=(15,), damage_faces=(4,), mirror_faces=(1, 2, 5))
    else:
        t.do(Move(combatant="vesna", feet=10, leaves_reach_of=("goblin",)))
        sent = OpportunityAttack(attacker="goblin", target="vesna", faces=(15,), damage_faces=(4,), mirror_faces=(1, 2, 5))
    events = t.do(sent)
    assert [e.left for e in of_type(events, DuplicateStruck)] == [2]
    assert [d.source for d in of_type(events, DiceRolled) if "Mirror" in d.purpose] == ["entered"]
    assert duplicates(t) == 2
