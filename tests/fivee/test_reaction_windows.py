"""Reaction windows (issue 31, item 5): a hit waits for Shield, Uncanny Dodge and Parry before
its damage, a spell being cast waits for Counterspell, damage from a creature waits for
Hellish Rebuke; the fight goes on only once the window closes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat.characters.build import build_sheet
from combat.common.events import DamageTaken, SaveMade
from combat.fivee.attack_commands import Attack, RollDamage
from combat.fivee.attack_events import AttackDamageRolled
from combat.fivee.casts import CastSpell, SpellCast
from combat.fivee.characters import AddCharacter
from combat.fivee.held_open import pending_damage_of, reaction_window_of
from combat.fivee.initiative import RollInitiative
from combat.fivee.monsters import AddCreature
from combat.fivee.reaction_windows import ReactionWindowOpened
from combat.fivee.reactions import (
    AttackDeflected,
    CloseReactionWindow,
    HitHalved,
    PassReaction,
    React,
    ReactionWindowClosed,
    SpellCountered,
)
from combat.kernel.commands import BeginCombat, EndTurn
from combat.kernel.errors import RuleError
from combat.kernel.events import TurnStarted
from tests.helpers import Table, against, member, of_type, spellcaster

WIZARD = member("Elara", 5, "Shield", "Fireball", "Counterspell", "Fire Bolt", "Misty Step")
FIGHTER = build_sheet(
    name="Brom", class_name="Fighter", level=5, scores="STR 16 DEX 12 CON 14 INT 10 WIS 10 CHA 8", weapons=("Longsword",)
)
WARLOCK = spellcaster("Zariel", "Warlock", 3, "Hellish Rebuke", scores="STR 8 DEX 14 CON 14 INT 10 WIS 10 CHA 16")


def elara_and_a_goblin() -> Table:
    """Elara (AC 12, 27 HP, played by Sam) and a Goblin Warrior (+4, 1d6+2), the goblin first."""
    return against(WIZARD, "Goblin Warrior", 1, side="goblins", initiative=(5, 15))


def test_shield_counts_against_the_triggering_attack_and_turns_the_hit_into_a_miss():
    """Shield: "which you take when you are hit by an attack roll ... Until the start of your
    next turn, you have a +5 bonus to AC, including against the triggering attack." The goblin's
    14 hits AC 12; with Shield Elara's AC is 17, so it misses and its damage never comes."""
    t = elara_and_a_goblin()
    events = t.do(Attack(attacker="goblin-warrior", target="elara", faces=(10,), damage_faces=(3,)))
    [opened] = of_type(events, ReactionWindowOpened)
    assert (opened.kind, opened.reactors) == ("hit", {"elara": ("Shield",)})
    assert t.state.phase == "reaction" and t["elara"].hp == 27 and not of_type(events, DamageTaken)

    events = t.do(CastSpell(caster="elara", spell="Shield"), actor="sam")
    [missed] = of_type(events, AttackDeflected)
    assert (missed.total, missed.target_ac) == (14, 17)
    assert t.state.phase == "turns" and pending_damage_of(t.state) == () and reaction_window_of(t.state) is None
    assert t["elara"].hp == 27 and not t["elara"].economy.reaction
    assert t.state.rules.characters.sheets["elara"].slots_spent[0] == 1  # type: ignore[attr-defined]


def test_a_hit_that_still_meets_the_shielded_ac_deals_its_entered_damage_as_the_window_closes():
    """A natural 14 + 4 = 18 still meets AC 17: the Shield is spent, the hit stands, and the
    damage entered with the attack (3 + 2 = 5) lands as the window closes."""
    t = elara_and_a_goblin()
    t.do(Attack(attacker="goblin-warrior", target="elara", faces=(14,), damage_faces=(3,)))
    events = t.do(React(combatant="elara", reaction="shield"), actor="sam")
    assert not of_type(events, AttackDeflected)
    assert [d.damage for d in of_type(events, AttackDamageRolled)] == [5]
    assert t["elara"].hp == 22 and t.state.phase == "turns"


def test_passing_lets_the_damage_through_and_nothing_else_happens_while_the_window_is_open():
    """The window holds the fight: the goblin's turn cannot end until Elara reacts or passes;
    passing keeps her reaction and lets the hit's damage land."""
    t = elara_and_a_goblin()
    t.do(Attack(attacker="goblin-warrior", target="elara", faces=(10,), damage_faces=(3,)))
    t.rejects(EndTurn(combatant="goblin-warrior"), "phase/not-allowed")
    t.rejects(React(combatant="elara", reaction="Counterspell"), "reaction/not-offered", actor="sam")
    t.rejects(PassReaction(combatant="goblin-warrior"), "reaction/not-offered")
    events = t.do(PassReaction(combatant="elara"), actor="sam")
    assert [d.damage for d in of_type(events, AttackDamageRolled)] == [5]
    assert t["elara"].economy.reaction and t["elara"].hp == 22


def test_to_hit_faces_entered_alone_leave_the_damage_for_roll_damage_after_the_window():
    """Faces entered without damage faces: "On a hit, you roll damage" once the window closes."""
    t = elara_and_a_goblin()
    t.do(Attack(attacker="goblin-warrior", target="elara", faces=(12,)))
    t.do(PassReaction(combatant="elara"), actor="sam")
    assert t.state.phase == "turns" and len(pending_damage_of(t.state)) == 1
    t.do(RollDamage(attacker="goblin-warrior", faces=(4,)))
    assert t["elara"].hp == 21


def test_the_gm_closes_a_window_and_a_spent_reaction_opens_none():
    """The GM may close the window (everyone left passes); a creature whose reaction is spent
    is offered nothing, so the next goblin's hit deals its damage at once."""
    t = Table("srd-2024")
    t.do(AddCharacter(character=WIZARD, side="party", player="sam"))
    t.do(AddCreature(creature="Goblin Warrior", count=2, side="goblins"))
    t.start({"elara": 5, "goblin-warrior-1": 15})
    t.do(Attack(attacker="goblin-warrior-1", target="elara", faces=(10,), damage_faces=(3,)))
    t.do(CloseReactionWindow())
    assert t["elara"].hp == 22 and t.state.phase == "turns"
    t.do(CastSpell(caster="elara", spell="Shield"), actor="sam")  # her reaction, spent before the next hit
    t.do(EndTurn(combatant="goblin-warrior-1"))
    events = t.do(Attack(attacker="goblin-warrior-2", target="elara", faces=(19,), damage_faces=(1,)))
    assert not of_type(events, ReactionWindowOpened) and t["elara"].hp == 19


def test_a_mages_protective_magic_casts_shield_against_a_hit():
    """Mage: "Protective Magic (3/Day). The mage casts Counterspell or Shield in response to the
    spell's trigger": Shield is outside its Spellcasting list, and a use of the day is spent.
    Brom's 16 hits the Mage's AC 15; with Shield it is 20, a miss."""
    t = against(FIGHTER, "Mage", 1, initiative=(15, 5), player="kim")
    events = t.do(Attack(attacker="brom", target="mage", faces=(10,), damage_faces=(4,)), actor="kim")
    assert of_type(events, ReactionWindowOpened)[0].reactors == {"mage": ("Shield",)}
    events = t.do(CastSpell(caster="mage", spell="Shield"))
    assert of_type(events, AttackDeflected)[0].target_ac == 20
    assert t.state.rules.monsters.sheets["mage"].used_today == {"Protective Magic": 1}  # type: ignore[attr-defined]
    assert t["mage"].hp == t["mage"].max_hp


def test_parry_adds_its_ac_against_the_melee_hit():
    """Knight: "Parry. Trigger: The knight is hit by a melee attack roll while holding a weapon.
    Response: The knight adds 2 to its AC against that attack, possibly causing it to miss."
    Brom's 19 meets AC 18; parried, it faces 20 and misses."""
    t = against(FIGHTER, "Knight", 1, initiative=(15, 5), player="kim")
    events = t.do(Attack(attacker="brom", target="knight", faces=(13,), damage_faces=(4,)), actor="kim")
    assert of_type(events, ReactionWindowOpened)[0].reactors == {"knight": ("Parry",)}
    events = t.do(React(combatant="knight", reaction="Parry"))
    assert of_type(events, AttackDeflected)[0].target_ac == 20 and t["knight"].hp == t["knight"].max_hp


def mage_against_elara() -> Table:
    """Elara acts first against a Mage (Protective Magic: Counterspell, DC 14)."""
    return against(WIZARD, "Mage", 1, initiative=(15, 5))


def test_counterspell_on_a_failed_save_dissipates_the_spell_and_the_slot_is_not_expended():
    """Counterspell: "The creature makes a Constitution saving throw. On a failed save, the spell
    dissipates with no effect, and the action, Bonus Action, or Reaction used to cast it is
    wasted. If that spell was cast with a spell slot, the slot isn't expended." Elara's Con save
    is +1: 5 + 1 = 6 against the Mage's DC 14 fails."""
    t = mage_against_elara()
    events = t.do(
        CastSpell(caster="elara", spell="Fireball", targets=("mage",), save_faces={"mage": (2,)}, damage_faces=((6,) * 8,))
    )
    assert of_type(events, ReactionWindowOpened)[0].reactors == {"mage": ("Counterspell",)}
    assert of_type(events, SpellCast)[0].slot == 3 and not of_type(events, SaveMade)
    events = t.do(React(combatant="mage", reaction="Counterspell", save_faces={"elara": (5,)}))
    [save] = of_type(events, SaveMade)
    assert (save.combatant, save.total, save.success) == ("elara", 6, False)
    assert of_type(events, SpellCountered)[0].slot == 3
    assert t.state.rules.characters.sheets["elara"].slots_spent[2] == 0  # type: ignore[attr-defined]
    assert not t["elara"].economy.action and t["mage"].hp == t["mage"].max_hp
    assert t.state.phase == "turns"


def test_a_countered_spells_slot_is_not_this_turns_one_slot():
    """ "If that spell was cast with a spell slot, the slot isn't expended", and "On a turn, you
    can expend only one spell slot to cast a spell": with her Fireball countered, Elara may
    still expend a slot on Misty Step with her Bonus Action."""
    t = mage_against_elara()
    t.do(CastSpell(caster="elara", spell="Fireball", targets=("mage",), save_faces={"mage": (2,)}, damage_faces=((6,) * 8,)))
    t.do(React(combatant="mage", reaction="Counterspell", save_faces={"elara": (5,)}))
    events = t.do(CastSpell(caster="elara", spell="Misty Step"))
    assert of_type(events, SpellCast)[0].slot == 2


def test_a_counterspell_the_caster_saves_against_lets_the_spell_take_effect():
    """On a success the spell goes on: Fireball's 8d6 (all 3s: 24) on the Mage, who fails its
    Dexterity save (+2: 2 + 2 = 4 against DC 14)."""
    t = mage_against_elara()
    t.do(CastSpell(caster="elara", spell="Fireball", targets=("mage",), save_faces={"mage": (2,)}, damage_faces=((3,) * 8,)))
    events = t.do(React(combatant="mage", reaction="Counterspell", save_faces={"elara": (19,)}))
    assert not of_type(events, SpellCountered)
    assert t["mage"].hp == t["mage"].max_hp - 24
    assert t.state.rules.characters.sheets["elara"].slots_spent[2] == 1  # type: ignore[attr-defined]


def test_hellish_rebuke_answers_the_damage_of_the_creature_that_dealt_it():
    """Hellish Rebuke: "which you take in response to taking damage from a creature ... The
    creature that damaged you ... makes a Dexterity saving throw, taking 2d10 Fire damage on a
    failed save ... The damage increases by 1d10 for each spell slot level above 1." The goblin's
    hit opens the window; cast with Zariel's 2nd-level Pact slot, 3d10 = 10 on a failed save
    (3 + 2 = 5 against DC 13) drops the goblin's 10 HP."""
    t = Table("srd-2024")
    t.do(AddCharacter(character=WARLOCK, side="party", player="ana"))
    t.do(AddCreature(creature="Goblin Warrior", count=1, side="goblins"))
    t.start({"zariel": 5, "goblin-warrior": 15})
    events = t.do(Attack(attacker="goblin-warrior", target="zariel", faces=(15,), damage_faces=(3,)))
    [opened] = of_type(events, ReactionWindowOpened)
    assert (opened.kind, opened.reactors, opened.source) == ("damage", {"zariel": ("Hellish Rebuke",)}, "goblin-warrior")
    events = t.do(
        CastSpell(
            caster="zariel", spell="Hellish Rebuke", slot_level=2, save_faces={"goblin-warrior": (3,)}, damage_faces=((5, 4, 1),)
        )
    )
    assert [d.amount for d in of_type(events, DamageTaken)] == [10]
    assert t["goblin-warrior"].status == "dead" and t.state.phase in ("turns", "ended")


def test_an_undone_hit_leaves_the_pass_that_answered_its_window_as_a_conflict(encounters):
    """ "An undo or amend re-checks them like any other consequence": with the goblin's hit
    undone, Elara's pass answers no window."""
    eid = encounters.create("srd-2024", "window", seed=3)
    encounters.execute(eid, AddCharacter(character=WIZARD, side="party", player="sam"))
    encounters.execute(eid, AddCreature(creature="Goblin Warrior", count=1, side="goblins"))
    encounters.execute(eid, BeginCombat())
    encounters.execute(eid, RollInitiative(combatant="elara", faces=(5,)))
    encounters.execute(eid, RollInitiative(combatant="goblin-warrior", faces=(15,)))
    hit = encounters.execute(eid, Attack(attacker="goblin-warrior", target="elara", faces=(10,), damage_faces=(3,)))
    encounters.execute(eid, PassReaction(combatant="elara"))
    encounters.retract(eid, [r.seq for r in hit.records], reason="the goblin was asleep")
    conflicts = encounters.state(eid).conflicts
    assert [c.type for c in conflicts][:1] == ["ReactionPassed"]
    assert "no reaction window is open" in conflicts[0].problem


ACTIONS = st.sampled_from(["attack", "pass", "shield", "close", "end_turn", "fire_bolt"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ACTIONS, max_size=14), st.lists(st.integers(1, 20), min_size=14, max_size=14))
def test_a_window_always_closes_before_the_next_turn_begins(plan, faces):
    """Whatever is sent, no turn starts while a window is open: a window closes by a reaction,
    a pass or the GM before anything moves the fight on."""
    t = elara_and_a_goblin()
    for step, face in zip(plan, faces):
        turn = t.state.turn or ""
        command = {
            "attack": Attack(
                attacker=turn, target="goblin-warrior" if turn == "elara" else "elara", faces=(face,), damage_faces=(1,)
            ),
            "pass": PassReaction(combatant="elara"),
            "shield": CastSpell(caster="elara", spell="Shield"),
            "close": CloseReactionWindow(),
            "end_turn": EndTurn(combatant=turn),
            "fire_bolt": CastSpell(caster="elara", spell="Fire Bolt", targets=("goblin-warrior",)),
        }[step]
        is_open = reaction_window_of(t.state) is not None
        try:
            events = t.do(command)
        except RuleError:
            continue
        for e in events:
            if isinstance(e, (ReactionWindowOpened, ReactionWindowClosed)):
                is_open = isinstance(e, ReactionWindowOpened)
            elif isinstance(e, TurnStarted):
                assert not is_open, "a turn began while a reaction window was open"
        assert (reaction_window_of(t.state) is not None) == (t.state.phase == "reaction")
        if reaction_window_of(t.state) is not None:
            with pytest.raises(RuleError):
                t.do(EndTurn(combatant=t.state.turn or ""))


def test_uncanny_dodge_halves_a_rogues_damage_from_the_hit():
    """Rogue, level 5, Uncanny Dodge: "When an attacker that you can see hits you with an attack
    roll, you can take a Reaction to halve the attack's damage against you (round down)." Vex,
    built as a Rogue 5 (AC 14: Leather 11 + Dex 3), is hit by the goblin's 15 + 4 = 19; its
    5 + 2 = 7 damage is halved to 3."""
    rogue = member("Vex", armor="Leather", weapons=("Rapier",))
    assert rogue.features.uncanny_dodge
    t = Table("srd-2024")
    t.do(AddCharacter(character=rogue, side="party", player="jo"))
    t.do(AddCreature(creature="Goblin Warrior", count=1, side="goblins"))
    t.start({"vex": 5, "goblin-warrior": 15})
    full = t["vex"].hp
    events = t.do(Attack(attacker="goblin-warrior", target="vex", faces=(15,), damage_faces=(5,)))
    assert of_type(events, ReactionWindowOpened)[0].reactors == {"vex": ("Uncanny Dodge",)}
    assert t["vex"].hp == full
    events = t.do(React(combatant="vex", reaction="Uncanny Dodge"), actor="jo")
    assert [(h.attacker, h.target) for h in of_type(events, HitHalved)] == [("goblin-warrior", "vex")]
    assert [(d.damage, d.damage_rolled) for d in of_type(events, AttackDamageRolled)] == [(3, 7)]
    assert t["vex"].hp == full - 3 and not t["vex"].economy.reaction and t.state.phase == "turns"
