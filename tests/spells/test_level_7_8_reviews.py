"""Level 7 and 8 spells as their reviewed entries cast them (combat/spells/reviewed/level_7.json,
level_8.json), where the review changed what the draft did, each with the SRD 5.2 sentence it
checks and every face entered.

Vesna is a level 17 Wizard (Intelligence 20: spell save DC 19), Ilse a level 17 Cleric (Wisdom
20: DC 19). Bandits are Humanoids of 11 HP (+1 to Dexterity and Constitution saves, +0 to
Charisma's); the Ogre a Giant of 68 HP (+3 to Constitution saves, -2 to Wisdom's)."""

from __future__ import annotations

from combat.common.commands import Damage
from combat.common.condition_effects import speed_of
from combat.common.events import ConcentrationEnded, DamageTaken, SaveMade
from combat.fivee.casts import CastSpell, SpellCast
from combat.fivee.characters import AddCharacter, character
from combat.fivee.dying import CombatantDied
from combat.fivee.monsters import AddCreature
from combat.kernel.commands import AddCombatant, EndTurn
from tests.helpers import Table, against, monster, of_type, spellcaster, turn_of

WIZARD = spellcaster("Vesna", "Wizard", 17, "Delayed Blast Fireball", "Dominate Monster", "Power Word Stun", "Sunburst")
CLERIC = spellcaster(
    "Ilse", "Cleric", 17, "Divine Word", "Earthquake", "Holy Aura", scores="STR 10 DEX 10 CON 14 INT 10 WIS 20 CHA 12"
)


def table(caster=WIZARD, creature: str = "Bandit", count: int = 2) -> Table:
    return against(caster, creature, count)


def test_earthquake_topples_those_who_fail_and_deals_no_damage():
    """Earthquake: "When you cast this spell and at the end of each of your turns for the
    duration, each creature on the ground in the area makes a Dexterity saving throw. On a
    failed save, a creature has the Prone condition, and its Concentration is broken." The 12d6
    Bludgeoning is a collapsing structure's, not the tremor's: Bandit 1 fails (a 2) and is
    Prone, Bandit 2 succeeds (a 19), and no damage is rolled."""
    t = table(CLERIC)
    t.rejects(
        CastSpell(
            caster="ilse",
            spell="Earthquake",
            targets=("bandit-1", "bandit-2"),
            save_faces={"bandit-1": (2,), "bandit-2": (19,)},
            damage_faces=((6,) * 12,),
        ),
        "dice/unused-faces",
    )
    events = t.do(
        CastSpell(
            caster="ilse", spell="Earthquake", targets=("bandit-1", "bandit-2"), save_faces={"bandit-1": (2,), "bandit-2": (19,)}
        )
    )
    assert [s.success for s in of_type(events, SaveMade)] == [False, True] and of_type(events, DamageTaken) == []
    assert t["bandit-1"].has("prone") and not t["bandit-2"].conditions
    assert t["ilse"].concentration == "Earthquake"


def test_sunburst_blinds_until_the_blinded_creature_saves_at_the_end_of_its_turn():
    """Sunburst: "On a failed save, a creature takes 12d6 Radiant damage and has the Blinded
    condition for 1 minute. ... A creature Blinded by this spell makes another Constitution
    saving throw at the end of each of its turns, ending the effect on itself on a success."
    The Ogre fails (a 5 +3 against DC 19), takes 12 (twelve 1s) and is Blinded; at the end of
    its turn it saves (a 20) and sees again."""
    t = table(creature="Ogre", count=1)
    events = t.do(
        CastSpell(caster="vesna", spell="Sunburst", targets=("ogre",), save_faces={"ogre": (5,)}, damage_faces=((1,) * 12,))
    )
    assert [(d.amount, d.damage_type) for d in of_type(events, DamageTaken)] == [(12, "radiant")]
    assert t["ogre"].hp == 56 and t["ogre"].has("blinded")
    t.do(EndTurn(combatant="vesna"))
    events = t.do(EndTurn(combatant="ogre", save_faces=((20,),)))
    assert [s.success for s in of_type(events, SaveMade)] == [True] and not t["ogre"].has("blinded")


def test_power_word_stun_stuns_at_150_hit_points_or_fewer_and_roots_a_bigger_target():
    """Power Word Stun: "If the target has 150 Hit Points or fewer, it has the Stunned
    condition. Otherwise, its Speed is 0 until the start of your next turn. The Stunned target
    makes a Constitution saving throw at the end of each of its turns, ending the condition on
    itself on a success." No save when cast. Bandit 1 (11 HP) is Stunned; at the end of its
    turn it rolls a 2 (+1: 3 against DC 19) and stays Stunned, then a 18 (19) and is free. The
    Colossus (200 HP) has a Speed of 0 until Vesna's next turn starts."""
    t = Table()
    t.do(AddCharacter(character=WIZARD, side="party", player="sam"))
    t.do(AddCreature(creature="Bandit", count=2, side="foes"))
    t.do(AddCombatant(combatant=monster("colossus", max_hp=200, speed=40)))
    t.start({"vesna": 20, "bandit-1": 10, "colossus": 1})
    t.rejects(
        CastSpell(caster="vesna", spell="Power Word Stun", targets=("bandit-1",), save_faces={"bandit-1": (2,)}),
        "dice/unused-faces",
    )
    events = t.do(CastSpell(caster="vesna", spell="Power Word Stun", targets=("bandit-1",)))
    assert of_type(events, SaveMade) == [] and of_type(events, SpellCast)[0].manual == ()
    [stun] = t["bandit-1"].conditions
    assert (stun.name, stun.save.ability, stun.save.dc) == ("stunned", "constitution", 19)
    t.do(EndTurn(combatant="vesna"))
    events = t.do(EndTurn(combatant="bandit-1", save_faces=((2,),)))
    assert [(m.total, m.success) for m in of_type(events, SaveMade)] == [(3, False)] and t["bandit-1"].has("stunned")
    turn_of(t, "vesna")
    t.do(CastSpell(caster="vesna", spell="Power Word Stun", slot_level=9, targets=("colossus",)))
    assert speed_of(t["colossus"]) == 0 and not t["colossus"].has("stunned")
    events = t.do(EndTurn(combatant="vesna"))
    events = t.do(EndTurn(combatant="bandit-1", save_faces=((18,),)))
    assert [m.success for m in of_type(events, SaveMade)] == [True] and not t["bandit-1"].conditions
    turn_of(t, "vesna")
    assert speed_of(t["colossus"]) == 40 and not t["colossus"].conditions


def test_power_word_stun_offers_no_choice_and_a_refusal_spends_nothing():
    """Power Word Stun's effect is its target's Hit Points', not the caster's pick: an option
    is refused, and neither the level 8 slot nor the action is spent."""
    t = table()
    t.rejects(CastSpell(caster="vesna", spell="Power Word Stun", targets=("bandit-1",), option="stunned"), "spell/option")
    assert character(t.state, "vesna").slots_spent == () and t["vesna"].economy.action


def test_delayed_blast_fireball_deals_nothing_until_the_bead_explodes():
    """Delayed Blast Fireball: "When the spell ends, the bead explodes, and each creature in a
    20-foot-radius Sphere centered on that point makes a Dexterity saving throw." Cast, the
    bead only glows: no save, no damage, and Vesna concentrates on it."""
    t = table()
    events = t.do(CastSpell(caster="vesna", spell="Delayed Blast Fireball", targets=("bandit-1", "bandit-2")))
    assert of_type(events, SaveMade) == [] and of_type(events, DamageTaken) == []
    assert t["vesna"].concentration == "Delayed Blast Fireball"


def test_divine_word_sorts_those_who_fail_by_their_current_hit_points():
    """Divine Word: "On a failed save, a target that has 50 Hit Points or fewer suffers an
    effect based on its current Hit Points": 0-20 "The target dies."; 21-30 "Blinded,
    Deafened, and Stunned conditions for 1 hour"; 31-40 "Blinded and Deafened conditions for
    10 minutes"; 41-50 "Deafened condition for 1 minute". The Imp (18 HP), the Brute (60 of 60,
    wounded to 28), the Knight (38), the Guard (48) and the Giant (60) fail (a 3); the Scout (18)
    succeeds (a 19): the Imp dies, the Giant and the Scout have nothing."""
    t = Table()
    t.do(AddCharacter(character=CLERIC, side="party", player="sam"))
    for cid, hp in (("imp", 18), ("brute", 60), ("knight", 38), ("guard", 48), ("giant", 60), ("scout", 18)):
        t.do(AddCombatant(combatant=monster(cid, max_hp=hp)))
    t.start({"ilse": 20, "imp": 6, "brute": 5, "knight": 4, "guard": 3, "giant": 2, "scout": 1})
    t.do(Damage(target="brute", amount=32, damage_type="slashing"))
    failing = ("imp", "brute", "knight", "guard", "giant")
    faces = dict.fromkeys(failing, (3,)) | {"scout": (19,)}
    events = t.do(CastSpell(caster="ilse", spell="Divine Word", targets=(*failing, "scout"), save_faces=faces))
    assert [(s.combatant, s.success) for s in of_type(events, SaveMade)] == [*((c, False) for c in failing), ("scout", True)]
    assert [(e.combatant, e.cause) for e in of_type(events, CombatantDied)] == [
        ("imp", "Divine Word: 18 Hit Points, 20 or fewer")
    ]
    held = {cid: sorted((c.name, c.rounds) for c in t[cid].conditions) for cid in ("brute", "knight", "guard", "giant", "scout")}
    assert held == {
        "brute": [("blinded", 600), ("deafened", 600), ("stunned", 600)],
        "knight": [("blinded", 100), ("deafened", 100)],
        "guard": [("deafened", 10)],
        "giant": [],
        "scout": [],
    }
    assert not t["ilse"].economy.bonus_action and t["ilse"].economy.action
    assert "plane of origin" in of_type(events, SpellCast)[0].manual[0]


def test_holy_aura_blinds_no_one_when_cast():
    """Holy Aura: "when a Fiend or an Undead hits an affected creature with a melee attack
    roll, the attacker must succeed on a Constitution saving throw or have the Blinded
    condition until the end of its next turn." Cast around Ilse, nobody is Blinded (the draft
    blinded whoever it named): her only condition is the aura's own effect."""
    t = table(CLERIC)
    events = t.do(CastSpell(caster="ilse", spell="Holy Aura", targets=("ilse",)))
    assert of_type(events, SaveMade) == [] and [c.name for c in t["ilse"].conditions] == ["holy aura"]
    assert t["ilse"].concentration == "Holy Aura"


def test_dominate_monster_charms_any_creature_and_lapses_when_it_succeeds():
    """Dominate Monster: "One creature you can see within range must succeed on a Wisdom
    saving throw or have the Charmed condition for the duration." The Ogre (a Giant, which
    Dominate Person refuses) fails (a 4 -2) and is Charmed; a Bandit that succeeds (a 19
    +0) leaves nothing to concentrate on."""
    t = table(creature="Ogre", count=1)
    t.do(CastSpell(caster="vesna", spell="Dominate Monster", targets=("ogre",), save_faces={"ogre": (4,)}))
    assert t["ogre"].has("charmed") and t["vesna"].concentration == "Dominate Monster"
    t2 = table()
    events = t2.do(CastSpell(caster="vesna", spell="Dominate Monster", targets=("bandit-1",), save_faces={"bandit-1": (19,)}))
    assert [e.effect for e in of_type(events, ConcentrationEnded)] == ["Dominate Monster"]
