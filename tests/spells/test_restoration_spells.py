"""Issue 31, items 1 and 2: spells that end conditions, restore all Hit Points, stabilise and
revive, as their reviewed entries cast them, each with the SRD 5.2 sentence it checks.

Ilse is a level 17 Cleric (Wisdom 20). Brann is a fighter of the party (20 HP, his own turn
last); Bandits are Humanoids of 11 HP that die at 0 HP (Monster Death)."""

from __future__ import annotations

from combat.common.commands import ApplyCondition, Damage
from combat.common.condition_effects import exhaustion_level
from combat.common.events import CombatantRevived, Healed
from combat.fivee.action_events import ReactionTaken
from combat.fivee.casts import CastSpell, SpellCast
from combat.fivee.characters import character
from combat.fivee.dying import CombatantStabilized, DeathSaveOwed
from combat.kernel.commands import AddCombatant, EndTurn
from combat.kernel.events import ConditionEnded, ConditionSpec
from tests.helpers import Table, against, of_type, pc, spellcaster, turn_of

CLERIC = spellcaster(
    "Ilse",
    "Cleric",
    17,
    "Spare the Dying",
    "Healing Word",
    "Lesser Restoration",
    "Revivify",
    "Greater Restoration",
    "Heal",
    "Power Word Heal",
    "Protection from Poison",
    "Mass Heal",
    "Mass Cure Wounds",
    scores="STR 10 DEX 10 CON 14 INT 10 WIS 20 CHA 12",
)


def table() -> Table:
    """Ilse (initiative 20), three Bandits (10), then Brann, a fighter of the party (1)."""
    return against(CLERIC, "Bandit", 3, initiative=(20, 10), ally=pc("brann", max_hp=20))


def give(t: Table, cid: str, *names: str) -> None:
    for name in names:
        t.do(ApplyCondition(target=cid, condition=ConditionSpec(name=name)))


def names(t: Table, cid: str) -> list[str]:
    return sorted(c.name for c in t[cid].conditions)


def nothing_spent(t: Table) -> bool:
    ilse = t["ilse"]
    return character(t.state, "ilse").slots_spent == () and ilse.economy.action and ilse.economy.bonus_action


def next_turn_of_ilse(t: Table) -> None:
    t.do(EndTurn(combatant="ilse"))
    turn_of(t, "ilse")


def test_lesser_restoration_ends_the_one_condition_named():
    """Lesser Restoration: "You touch a creature and end one condition on it: Blinded,
    Deafened, Paralyzed, or Poisoned." Brann is Blinded and Poisoned; Ilse names Poisoned
    (a Bonus Action): it ends, the Blinded stays."""
    t = table()
    give(t, "brann", "blinded", "poisoned")
    events = t.do(CastSpell(caster="ilse", spell="Lesser Restoration", targets=("brann",), option="Poisoned"))
    assert [e.condition for e in of_type(events, ConditionEnded)] == ["poisoned"]
    assert names(t, "brann") == ["blinded"] and not t["ilse"].economy.bonus_action and t["ilse"].economy.action
    assert of_type(events, SpellCast)[0].manual == ()


def test_lesser_restoration_refuses_a_condition_not_listed_or_not_on_the_target():
    """Frightened is not one of the four; Deafened is, but Brann is not Deafened; and a casting
    that names none: each is refused, and neither the slot nor the Bonus Action is spent."""
    t = table()
    give(t, "brann", "frightened", "blinded")
    error = t.rejects(
        CastSpell(caster="ilse", spell="Lesser Restoration", targets=("brann",), option="frightened"), "spell/option"
    )
    assert error.allowed == "option: blinded, deafened, paralyzed, poisoned"
    t.rejects(CastSpell(caster="ilse", spell="Lesser Restoration", targets=("brann",)), "spell/option")
    error = t.rejects(
        CastSpell(caster="ilse", spell="Lesser Restoration", targets=("brann",), option="deafened"), "spell/no-condition"
    )
    assert "Brann has no Deafened condition" in error.message and error.allowed == "option: blinded"
    assert nothing_spent(t) and names(t, "brann") == ["blinded", "frightened"]


def test_greater_restoration_removes_one_exhaustion_level_or_the_charmed_condition():
    """Greater Restoration: "magically remove one of the following effects from it: 1
    Exhaustion level; The Charmed or Petrified condition". Brann has 2 Exhaustion levels and is
    Charmed: the first casting leaves him at level 1, the next (Ilse's next turn: one slot a
    turn) ends the Charmed."""
    t = table()
    give(t, "brann", "exhaustion", "exhaustion", "charmed")
    assert exhaustion_level(t["brann"]) == 2
    t.do(CastSpell(caster="ilse", spell="Greater Restoration", targets=("brann",), option="exhaustion"))
    assert exhaustion_level(t["brann"]) == 1 and t["brann"].has("charmed")
    next_turn_of_ilse(t)
    t.do(CastSpell(caster="ilse", spell="Greater Restoration", targets=("brann",), option="charmed"))
    assert names(t, "brann") == ["exhaustion"] and exhaustion_level(t["brann"]) == 1
    assert t.rebuilt() == t.state


def test_greater_restoration_refuses_what_the_target_does_not_have():
    """Brann is not Petrified and has no Exhaustion; Frightened is not on the list: each is
    refused with what may be named, nothing spent."""
    t = table()
    give(t, "brann", "charmed")
    error = t.rejects(
        CastSpell(caster="ilse", spell="Greater Restoration", targets=("brann",), option="petrified"), "spell/no-condition"
    )
    assert error.allowed == "option: charmed"
    t.rejects(
        CastSpell(caster="ilse", spell="Greater Restoration", targets=("brann",), option="exhaustion"), "spell/no-condition"
    )
    t.rejects(CastSpell(caster="ilse", spell="Greater Restoration", targets=("brann",), option="frightened"), "spell/option")
    assert nothing_spent(t)


def test_greater_restoration_against_a_curse_names_no_condition():
    """ "A curse, including the target's Attunement to a cursed magic item": the engine keeps no
    curse, so the spell cast with no option ends nothing and hands the GM the sentences."""
    t = table()
    give(t, "brann", "charmed")
    events = t.do(CastSpell(caster="ilse", spell="Greater Restoration", targets=("brann",)))
    assert of_type(events, ConditionEnded) == [] and names(t, "brann") == ["charmed"]
    assert "A curse" in of_type(events, SpellCast)[0].manual[0]


def test_heal_also_ends_blinded_deafened_and_poisoned():
    """Heal: "restoring 70 Hit Points. This spell also ends the Blinded, Deafened, and Poisoned
    conditions on the target." Brann (5 of 20 HP) is Blinded, Deafened, Poisoned and Prone: he
    is at 20 HP, and only the Prone stays."""
    t = table()
    t.do(Damage(target="brann", amount=15, damage_type="slashing"))
    give(t, "brann", "blinded", "deafened", "poisoned", "prone")
    events = t.do(CastSpell(caster="ilse", spell="Heal", targets=("brann",)))
    assert [e.amount for e in of_type(events, Healed)] == [70] and t["brann"].hp == 20
    assert sorted(e.condition for e in of_type(events, ConditionEnded)) == ["blinded", "deafened", "poisoned"]
    assert names(t, "brann") == ["prone"]


def test_heal_offers_no_choice():
    """Heal ends all three: naming one is refused, nothing spent."""
    t = table()
    t.rejects(CastSpell(caster="ilse", spell="Heal", targets=("brann",), option="blinded"), "spell/option")
    assert nothing_spent(t)


def test_power_word_heal_restores_all_hit_points_ends_five_conditions_and_lets_him_stand():
    """Power Word Heal: "The target regains all its Hit Points. If the creature has the Charmed,
    Frightened, Paralyzed, Poisoned, or Stunned condition, the condition ends. If the creature
    has the Prone condition, it can use its Reaction to stand up." Brann (3 of 20 HP) is
    Paralyzed, Poisoned, Frightened and Prone, and Deafened: 17 HP regained, the four end, he
    stands up with his Reaction ("stand up"), and the Deafened stays."""
    t = table()
    t.do(Damage(target="brann", amount=17, damage_type="slashing"))
    give(t, "brann", "paralyzed", "poisoned", "frightened", "prone", "deafened")
    events = t.do(CastSpell(caster="ilse", spell="Power Word Heal", targets=("brann",), option="stand up"))
    assert [e.amount for e in of_type(events, Healed)] == [17] and t["brann"].hp == 20
    assert [e.combatant for e in of_type(events, ReactionTaken)] == ["brann"] and not t["brann"].economy.reaction
    assert names(t, "brann") == ["deafened"]


def test_power_word_heal_wakes_a_dying_creature_who_may_stay_prone():
    """At 0 HP Brann regains all 20; he wakes Prone ("When this condition ends, you remain
    Prone") and, without "stand up", stays Prone with his Reaction unspent."""
    t = table()
    t.do(Damage(target="brann", amount=20, damage_type="slashing"))
    events = t.do(CastSpell(caster="ilse", spell="Power Word Heal", targets=("brann",)))
    assert of_type(events, CombatantRevived) and t["brann"].hp == 20 and t["brann"].status == "active"
    assert names(t, "brann") == ["prone"] and t["brann"].economy.reaction


def test_power_word_heal_refuses_standing_up_for_a_creature_not_prone():
    t = table()
    error = t.rejects(CastSpell(caster="ilse", spell="Power Word Heal", targets=("brann",), option="stand up"), "prone/not-prone")
    assert "Brann is not Prone" in error.message and nothing_spent(t)


def test_spare_the_dying_makes_a_dying_creature_stable():
    """Spare the Dying: "Choose a creature within range that has 0 Hit Points and isn't dead.
    The creature becomes Stable." Brann at 0 HP is Stable: his turn starts with no Death Saving
    Throw owed."""
    t = table()
    t.do(Damage(target="brann", amount=20, damage_type="slashing"))
    events = t.do(CastSpell(caster="ilse", spell="Spare the Dying", targets=("brann",)))
    assert [e.combatant for e in of_type(events, CombatantStabilized)] == ["brann"]
    events = []
    t.do(EndTurn(combatant="ilse"))
    for cid in ("bandit-1", "bandit-2", "bandit-3"):
        events += t.do(EndTurn(combatant=cid))
    assert t.state.turn == "brann" and of_type(events, DeathSaveOwed) == []


def test_spare_the_dying_refuses_a_creature_not_dying():
    """A Bandit at full HP, and Brann once Stable, are not "a creature ... that has 0 Hit
    Points and isn't dead" still making Death Saving Throws: refused, the action kept."""
    t = table()
    t.rejects(CastSpell(caster="ilse", spell="Spare the Dying", targets=("bandit-1",)), "spell/not-dying")
    t.do(Damage(target="brann", amount=20, damage_type="slashing"))
    t.do(CastSpell(caster="ilse", spell="Spare the Dying", targets=("brann",)))
    next_turn_of_ilse(t)
    error = t.rejects(CastSpell(caster="ilse", spell="Spare the Dying", targets=("brann",)), "spell/not-dying")
    assert "already Stable" in error.message and t["ilse"].economy.action


def test_healing_word_wakes_a_dying_creature():
    """Healing Word at 0 HP: "A creature of your choice that you can see within range regains
    Hit Points equal to 2d4 plus your spellcasting ability modifier", and regaining any Hit
    Points ends the Unconscious ("until you regain any Hit Points"). 3 + 2 + 5 = 10 HP."""
    t = table()
    t.do(Damage(target="brann", amount=20, damage_type="slashing"))
    events = t.do(CastSpell(caster="ilse", spell="Healing Word", targets=("brann",), damage_faces=((3, 2),)))
    assert of_type(events, CombatantRevived) and t["brann"].hp == 10 and t["brann"].status == "active"


def test_revivify_brings_back_a_creature_dead_within_the_minute_with_1_hit_point():
    """Revivify: "You touch a creature that has died within the last minute. That creature
    revives with 1 Hit Point." Bandit 1 dies in round 1 (Monster Death); in round 11, ten
    rounds on, Ilse revives it: 1 HP, active, Prone where it fell."""
    t = table()
    t.do(Damage(target="bandit-1", amount=11, damage_type="slashing"))
    assert t["bandit-1"].status == "dead"
    while t.state.round < 11:
        next_turn_of_ilse(t)
    events = t.do(CastSpell(caster="ilse", spell="Revivify", targets=("bandit-1",)))
    assert [(e.target, e.amount) for e in of_type(events, Healed)] == [("bandit-1", 1)]
    assert (t["bandit-1"].hp, t["bandit-1"].status) == (1, "active") and t["bandit-1"].has("prone")
    assert t.rebuilt() == t.state


def test_revivify_brings_back_a_character_killed_outright():
    """Massive Damage: "the character dies if the remainder equals or exceeds their Hit Point
    maximum": Brann (20 HP) takes 40 and dies; Revivify the same round: 1 HP, conscious, Prone,
    no Death Saving Throws owed."""
    t = table()
    t.do(Damage(target="brann", amount=40, damage_type="slashing"))
    assert t["brann"].status == "dead"
    t.do(CastSpell(caster="ilse", spell="Revivify", targets=("brann",)))
    assert (t["brann"].hp, t["brann"].status, names(t, "brann")) == (1, "active", ["prone"])


def test_revivify_refuses_the_living_and_those_dead_longer_than_a_minute():
    """Brann is alive; Bandit 1, dead since round 1, has been dead more than a minute in
    round 12: both refused, the level 3 slot and the action kept."""
    t = table()
    t.rejects(CastSpell(caster="ilse", spell="Revivify", targets=("brann",)), "spell/not-dead")
    t.do(Damage(target="bandit-1", amount=11, damage_type="slashing"))
    while t.state.round < 12:
        next_turn_of_ilse(t)
    error = t.rejects(CastSpell(caster="ilse", spell="Revivify", targets=("bandit-1",)), "spell/dead-too-long")
    assert "died in round 1, this is round 12" in error.message and nothing_spent(t)


def test_protection_from_poison_ends_the_poisoned_condition():
    """Protection from Poison: "You touch a creature and end the Poisoned condition on it."
    Brann is Poisoned twice over (two sources): neither is left. "For the duration ... it has
    Resistance to Poison damage": the spell's effect stays on him; the Advantage on saves
    against Poisoned is handed to the GM."""
    t = table()
    give(t, "brann", "poisoned", "poisoned", "blinded")
    events = t.do(CastSpell(caster="ilse", spell="Protection from Poison", targets=("brann",)))
    assert [e.condition for e in of_type(events, ConditionEnded)] == ["poisoned", "poisoned"]
    assert sorted(names(t, "brann")) == ["blinded", "protection from poison"]
    assert t["brann"].conditions[-1].riders.resistances == ("poison",)
    assert "Advantage on saving throws" in of_type(events, SpellCast)[0].manual[0]


def test_protection_from_poison_refuses_a_dead_target():
    """A dead Bandit is no creature to protect: refused, the slot kept."""
    t = table()
    t.do(Damage(target="bandit-2", amount=11, damage_type="slashing"))
    t.rejects(CastSpell(caster="ilse", spell="Protection from Poison", targets=("bandit-2",)), "target/dead")
    assert nothing_spent(t)


def test_mass_heal_clears_blinded_deafened_and_poisoned_from_everyone_named():
    """Mass Heal: "Creatures healed by this spell also have the Blinded, Deafened, and Poisoned
    conditions removed from them." Ilse and Brann, both Poisoned, Brann also Deafened: all of it
    ends; the 700 Hit Points divided as she chooses are the GM's `heal`."""
    t = table()
    give(t, "brann", "poisoned", "deafened")
    give(t, "ilse", "poisoned")
    events = t.do(CastSpell(caster="ilse", spell="Mass Heal", targets=("ilse", "brann")))
    assert sorted((e.target, e.condition) for e in of_type(events, ConditionEnded)) == [
        ("brann", "deafened"),
        ("brann", "poisoned"),
        ("ilse", "poisoned"),
    ]
    assert "700 Hit Points" in of_type(events, SpellCast)[0].manual[0]


def test_mass_cure_wounds_heals_each_of_up_to_six_named():
    """Mass Cure Wounds: "Choose up to six creatures in a 30-foot-radius Sphere centered on that
    point. Each target regains Hit Points equal to 5d8 plus your spellcasting ability modifier."
    Brann (at 0 HP: he wakes) and Ilse (down 30): one roll each, +5."""
    t = table()
    t.do(Damage(target="brann", amount=20, damage_type="slashing"))
    t.do(Damage(target="ilse", amount=30, damage_type="slashing"))
    faces = ((1, 1, 1, 1, 1), (2, 2, 2, 2, 2))
    events = t.do(CastSpell(caster="ilse", spell="Mass Cure Wounds", targets=("brann", "ilse"), damage_faces=faces))
    assert [(e.target, e.amount) for e in of_type(events, Healed)] == [("brann", 10), ("ilse", 15)]
    assert t["brann"].status == "active" and of_type(events, CombatantRevived)


def test_mass_cure_wounds_refuses_a_seventh_creature():
    """ "up to six creatures": seven named are refused, the level 5 slot kept."""
    t = table()
    t.do(AddCombatant(combatant=pc("cara")))
    t.do(AddCombatant(combatant=pc("dov")))
    seven = ("ilse", "brann", "cara", "dov", "bandit-1", "bandit-2", "bandit-3")
    error = t.rejects(CastSpell(caster="ilse", spell="Mass Cure Wounds", targets=seven), "spell/targets")
    assert "up to 6 creature(s)" in error.message and nothing_spent(t)
