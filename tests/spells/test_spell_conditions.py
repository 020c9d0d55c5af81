"""Issue 31, item 4: several conditions from one failed save, and Web's save as a creature
enters the webs, as the reviewed entries cast them, each with the SRD 5.2 sentence it checks
and every face entered.

Vesna is a level 17 Wizard (Intelligence 20: spell save DC 19). Bandits are Humanoids of 11 HP
(+0 to Wisdom saves, +1 to Dexterity's; Speed 30)."""

from __future__ import annotations

from combat.common.commands import Damage, EndConcentration, RemoveCondition
from combat.common.condition_effects import speed_of
from combat.common.events import SaveMade
from combat.fivee.action_commands import BonusAction, UseReaction
from combat.fivee.attack_commands import Attack
from combat.fivee.casts import CastSpell
from combat.fivee.spell_effect_uses import SpellEffect
from combat.fivee.standing import StandUp
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionEnded
from tests.helpers import Table, against, of_type, spellcaster

WIZARD = spellcaster("Vesna", "Wizard", 17, "Hideous Laughter", "Hypnotic Pattern", "Web", "Blindness/Deafness", "Confusion")


def table(count: int = 2) -> Table:
    return against(WIZARD, "Bandit", count, initiative=(20, 10))


def names(t: Table, cid: str) -> list[str]:
    return sorted(c.name for c in t[cid].conditions)


def test_hideous_laughter_lays_the_target_prone_and_incapacitated_with_one_save_a_turn():
    """Hideous Laughter: "On a failed save, it has the Prone and Incapacitated conditions for
    the duration. During that time, ... it can't end the Prone condition on itself. At the end
    of each of its turns ..., it makes another Wisdom saving throw. ... On a successful save,
    the spell ends." Bandit 1 fails (a 2): Prone and Incapacitated, and can't stand up. At the
    end of its turn one save (a 5) fails; at the next, one (a 19) succeeds: both end."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Hideous Laughter", targets=("bandit-1",), save_faces={"bandit-1": (2,)}))
    assert names(t, "bandit-1") == ["incapacitated", "prone"]
    t.do(EndTurn(combatant="vesna"))
    t.rejects(StandUp(combatant="bandit-1"), "combatant/incapacitated")
    events = t.do(EndTurn(combatant="bandit-1", save_faces=((5,),)))
    assert [(s.total, s.success) for s in of_type(events, SaveMade)] == [(5, False)]
    assert names(t, "bandit-1") == ["incapacitated", "prone"]
    t.do(EndTurn(combatant="bandit-2"))
    t.do(EndTurn(combatant="vesna"))
    events = t.do(EndTurn(combatant="bandit-1", save_faces=((19,),)))
    assert [s.success for s in of_type(events, SaveMade)] == [True]
    assert sorted(e.condition for e in of_type(events, ConditionEnded)) == ["incapacitated", "prone"]
    assert t["bandit-1"].conditions == () and t.rebuilt() == t.state


def test_hideous_laughter_ends_both_conditions_with_the_concentration():
    """ "for the duration": Vesna's concentration ends, and the Prone goes with the
    Incapacitated (the Prone holds no concentration of its own to end by)."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Hideous Laughter", targets=("bandit-1",), save_faces={"bandit-1": (2,)}))
    t.do(EndConcentration(combatant="vesna"))
    assert t["bandit-1"].conditions == ()


def test_hypnotic_pattern_charms_incapacitates_and_roots_until_damage_ends_it():
    """Hypnotic Pattern: "must succeed on a Wisdom saving throw or have the Charmed condition
    for the duration. While Charmed, the creature has the Incapacitated condition and a Speed of
    0. The spell ends for an affected creature if it takes any damage". Bandit 1 fails (a 2):
    Charmed, Incapacitated, Speed 0; Bandit 2 succeeds (a 19) and has nothing. 1 Slashing
    damage to Bandit 1 ends all of it: its Speed is 30 again."""
    t = table()
    faces = {"bandit-1": (2,), "bandit-2": (19,)}
    t.do(CastSpell(caster="vesna", spell="Hypnotic Pattern", targets=("bandit-1", "bandit-2"), save_faces=faces))
    assert names(t, "bandit-1") == ["charmed", "incapacitated"] and speed_of(t["bandit-1"]) == 0
    assert t["bandit-2"].conditions == ()
    events = t.do(Damage(target="bandit-1", amount=1, damage_type="slashing"))
    assert sorted(e.condition for e in of_type(events, ConditionEnded)) == ["charmed", "incapacitated"]
    assert t["bandit-1"].conditions == () and speed_of(t["bandit-1"]) == 30
    assert t["vesna"].concentration == "Hypnotic Pattern" and t.rebuilt() == t.state


def test_a_shake_out_of_the_stupor_ends_the_charm_and_what_came_with_it():
    """ "... or if someone else uses an action to shake the creature out of its stupor": the GM
    ends the Charmed (`remove_condition`), and the Incapacitated ends with it."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Hypnotic Pattern", targets=("bandit-1",), save_faces={"bandit-1": (2,)}))
    events = t.do(RemoveCondition(target="bandit-1", condition="charmed", reason="Bandit 2 shakes it"))
    assert sorted(e.condition for e in of_type(events, ConditionEnded)) == ["charmed", "incapacitated"]


def test_a_creature_caught_in_the_pattern_cannot_attack():
    """Incapacitated: "You can't take any action". Bandit 1, caught, is refused its attack."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Hypnotic Pattern", targets=("bandit-1",), save_faces={"bandit-1": (2,)}))
    t.do(EndTurn(combatant="vesna"))
    t.rejects(Attack(attacker="bandit-1", target="vesna", faces=(15,)), "combatant/incapacitated")


def test_web_restrains_a_creature_that_fails_as_it_enters_until_the_concentration_ends():
    """Web: "The first time a creature enters the webs on a turn or starts its turn there, it
    must succeed on a Dexterity saving throw or have the Restrained condition while in the webs
    or until it breaks free." Cast with nobody named; Bandit 1 then walks in and fails (a 2, +1:
    3 against DC 19), Bandit 2 succeeds (an 18: 19). Vesna's concentration ending frees it."""
    t = table()
    t.do(CastSpell(caster="vesna", spell="Web"))
    t.do(EndTurn(combatant="vesna"))
    events = t.do(
        SpellEffect(
            caster="vesna", spell="Web", targets=("bandit-1", "bandit-2"), save_faces={"bandit-1": (2,), "bandit-2": (18,)}
        )
    )
    assert [(s.ability, s.total, s.success) for s in of_type(events, SaveMade)] == [
        ("dexterity", 3, False),
        ("dexterity", 19, True),
    ]
    assert names(t, "bandit-1") == ["restrained"] and t["bandit-2"].conditions == ()
    t.do(EndConcentration(combatant="vesna"))
    assert t["bandit-1"].conditions == ()


def test_web_can_hold_its_own_caster_but_needs_the_caster_concentrating():
    """The webs fill a Cube anywhere in range, its caster's space too: Vesna, starting her turn
    there, saves (a 1: 1 + 2 = 3) and is Restrained. Without the spell, there is no web to save
    against."""
    t = table()
    t.rejects(SpellEffect(caster="vesna", spell="Web", targets=("bandit-1",)), "spell/not-active")
    t.do(CastSpell(caster="vesna", spell="Web"))
    t.do(SpellEffect(caster="vesna", spell="Web", targets=("vesna",), save_faces={"vesna": (1,)}))
    assert names(t, "vesna") == ["restrained", "web"]  # the web: her marker of the spell she concentrates on


def test_blindness_deafness_gives_the_condition_chosen():
    """Blindness/Deafness: "must succeed on a Constitution saving throw, or it has the Blinded or
    Deafened condition (your choice) for the duration." Deafened, chosen: Bandit 1 fails (a 3)."""
    t = table()
    t.rejects(CastSpell(caster="vesna", spell="Blindness/Deafness", targets=("bandit-1",), option="charmed"), "spell/option")
    t.do(
        CastSpell(
            caster="vesna", spell="Blindness/Deafness", targets=("bandit-1",), option="deafened", save_faces={"bandit-1": (3,)}
        )
    )
    assert names(t, "bandit-1") == ["deafened"]


def test_confusion_bars_bonus_actions_and_reactions_until_the_repeated_save():
    """Confusion: "must succeed on a Wisdom saving throw, or that target can't take Bonus
    Actions or Reactions and must roll 1d10 at the start of each of its turns ... At the end of
    each of its turns, an affected target repeats the save, ending the spell on itself on a
    success." Bandit 1 fails (a 2), Bandit 2 succeeds (a 19). On its turn Bandit 1 is refused a
    Bonus Action and a Reaction (the 1d10 is the GM's); its save (a 19) ends the effect."""
    t = table()
    faces = {"bandit-1": (2,), "bandit-2": (19,)}
    t.do(CastSpell(caster="vesna", spell="Confusion", targets=("bandit-1", "bandit-2"), save_faces=faces))
    assert names(t, "bandit-1") == ["confusion"] and t["bandit-2"].conditions == ()
    t.do(EndTurn(combatant="vesna"))
    error = t.rejects(BonusAction(combatant="bandit-1", description="hides"), "economy/barred")
    assert "can't take bonus actions while Confusion lasts" in error.message
    t.rejects(UseReaction(combatant="bandit-1", description="an opportunity attack"), "economy/barred")
    events = t.do(EndTurn(combatant="bandit-1", save_faces=((19,),)))
    assert [(s.ability, s.success) for s in of_type(events, SaveMade)] == [("wisdom", True)]
    assert t["bandit-1"].conditions == () and t.rebuilt() == t.state
    t.do(BonusAction(combatant="bandit-2", description="hides"))  # who saved acts as ever
