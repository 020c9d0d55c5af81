"""Several creatures saving against one effect: `save_effect` (combat/fivee/save_effects.py).

SRD 5.2 (Rule.json, "Saving Throws and Damage"): "When you create a damaging effect that forces
two or more targets to make saving throws against it at the same time, roll the damage once for
all the targets." "Many saving throw effects deal half damage (round down) to a target when the
target succeeds on the saving throw."
Adult Red Dragon, Fire Breath (Recharge 5-6): "Dexterity Saving Throw: DC 21, each creature in
a 60-foot Cone. Failure: 59 (17d6) Fire damage. Success: Half damage."
"""

from __future__ import annotations

import msgspec
import pytest

from combat.characters.sheet import Abilities, CharacterSheet
from combat.common.commands import StartConcentration
from combat.common.events import CombatantDowned, ConcentrationCheckRequired, DamageTaken, SaveMade
from combat.fivee.characters import AddCharacter
from combat.fivee.gm_edit_commands import ChangeStatBlock, GrantAction, StatChanges
from combat.fivee.monster_actions import MonsterActionUsed
from combat.fivee.monster_uses import UseSpent
from combat.fivee.monsters import AddCreature, sheet
from combat.fivee.save_effects import SaveEffect
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionApplied, ConditionSpec, DiceRolled
from tests.helpers import Table, monster, of_type, pc

DRAGON = "adult-red-dragon"
# Vex: Dexterity 16 (+3), proficient in Dexterity saves at level 5 (+3): +6.
VEX = CharacterSheet(
    name="Vex",
    level=5,
    classes={"Rogue": 5},
    abilities=Abilities(dexterity=16, constitution=14),
    save_proficiencies=("dexterity",),
    ac=14,
    max_hp=38,
    hit_dice="5d8",
)
FIRE_BREATH = {"source": DRAGON, "ability": "dex", "dc": 21, "damage": "17d6", "damage_type": "fire", "half_on_success": True}
ALL_FOURS = (4,) * 17  # 68 fire damage


def _lair(ruleset: str = "srd-2024") -> Table:
    """The dragon (first), against Aria (120 HP), Vex (by sheet, Resistance to fire as the GM
    gives it) and Cara (Immunity to fire)."""
    t = Table.as_rolled(ruleset)
    t.do(AddCreature(creature="Adult Red Dragon", side="dragon"))
    t.add(pc("aria", max_hp=120), pc("cara", max_hp=50, immunities=("fire",)))
    t.do(AddCharacter(character=VEX, side="party"))
    t.do(ChangeStatBlock(combatant="vex", changes=StatChanges(resistances=("fire",)), reason="Absorb Elements"))
    t.start({DRAGON: 20, "aria": 10, "vex": 5, "cara": 2})
    assert t.state.turn == DRAGON
    return t


def _breath(**fields: object) -> SaveEffect:
    return msgspec.convert({"type": "save_effect", **FIRE_BREATH, **fields}, SaveEffect)


@pytest.mark.parametrize("ruleset", ("srd-2024", "srd-2024-variant", "a5e"))
def test_fire_breath_rolls_the_damage_once_halves_it_on_a_success_then_resistance_and_immunity(ruleset):
    """68 rolled once. Aria fails (5): 68. Vex succeeds (15 + 6 = 21): half, 34, then halved
    again for her Resistance, 17. Cara fails (2) but is immune: 0."""
    t = _lair(ruleset)
    events = t.do(
        _breath(targets=("aria", "vex", "cara"), faces={"aria": (5,), "vex": (15,), "cara": (2,)}, damage_faces=ALL_FOURS)
    )
    saves = {s.combatant: (s.total, s.success) for s in of_type(events, SaveMade)}
    assert saves == {"aria": (5, False), "vex": (21, True), "cara": (2, False)}
    [damage_roll] = [e for e in of_type(events, DiceRolled) if "damage" in e.purpose]
    assert damage_roll.total == 68 and damage_roll.roller == DRAGON
    taken = {d.target: (d.amount, d.rolled, d.damage_type) for d in of_type(events, DamageTaken)}
    assert taken == {"aria": (68, 68, "fire"), "vex": (17, 68, "fire"), "cara": (0, 68, "fire")}
    assert (t["aria"].hp, t["vex"].hp, t["cara"].hp) == (52, 21, 50)
    assert t.rebuilt() == t.state


def test_naming_the_breath_spends_the_dragons_action_and_its_recharge():
    """`action: Fire Breath` uses it as monster_action does: the action spent, the Recharge too,
    so a second breath is refused until a 5 or 6 brings it back."""
    t = _lair()
    events = t.do(_breath(targets=("aria",), action="fire breath", faces={"aria": (5,)}, damage_faces=ALL_FOURS))
    [used] = of_type(events, MonsterActionUsed)
    assert (used.action, used.uses) == ("Fire Breath", "action")
    assert of_type(events, UseSpent) and sheet(t.state, DRAGON).spent == ("Fire Breath",)
    assert events.index(used) < events.index(of_type(events, SaveMade)[0])
    assert not t[DRAGON].economy.action
    t.rejects(_breath(targets=("aria",), action="Fire Breath"), "economy/action-spent")
    t.do(GrantAction(combatant=DRAGON, kind="action", reason="a ruling"))
    t.rejects(_breath(targets=("aria",), action="Fire Breath"), "creature/recharging")
    t.rejects(_breath(targets=("aria",), source="a trap", action="Fire Breath"), "save-effect/action-source")
    assert t.rebuilt() == t.state


def test_a_success_without_half_damage_takes_none_and_the_condition_falls_on_the_failures():
    """A pit trap: "DC 13 Dexterity save or fall Prone, taking 2d6 bludgeoning; no damage on a success"."""
    t = _lair()
    trap = SaveEffect(
        source="a collapsing floor",
        targets=("aria", "vex"),
        ability="dexterity",
        dc=13,
        damage="2d6",
        damage_type="bludgeoning",
        condition=ConditionSpec(name="prone"),
        faces={"aria": (3,), "vex": (12,)},
        damage_faces=(3, 4),
    )
    events = t.do(trap)
    assert [(d.target, d.amount) for d in of_type(events, DamageTaken)] == [("aria", 7)]
    [applied] = of_type(events, ConditionApplied)
    assert applied.target == "aria" and applied.condition.source == "a collapsing floor"
    assert t["aria"].has("prone") and not t["vex"].has("prone")
    [roll] = [e for e in of_type(events, DiceRolled) if "damage" in e.purpose]
    assert roll.roller == "gm"


def test_a_condition_with_its_durations_on_each_failed_save():
    """A condition that lasts 1 minute and is shaken off by a repeated save, given to every failure."""
    t = _lair()
    condition = msgspec.convert({"name": "frightened", "rounds": 10, "save": {"ability": "wis", "dc": 19}}, ConditionSpec)
    t.do(
        SaveEffect(
            source=DRAGON,
            targets=("aria", "cara"),
            ability="wis",
            dc=19,
            condition=condition,
            faces={"aria": (4,), "cara": (19,)},
        )
    )
    [held] = t["aria"].conditions
    assert (held.ends_on, held.until_round, held.save.ability) == (DRAGON, 11, "wisdom")  # type: ignore[union-attr]
    assert not t["cara"].conditions
    assert t.rebuilt() == t.state


def test_zero_hit_points_a_monster_dies_a_character_falls_and_concentration_is_owed():
    """The 0 HP rules as for any damage: the goblin dies, Cara falls Unconscious, Aria, still
    standing and concentrating, owes a Constitution save (DC 10 for 17)."""
    t = Table().add(pc("aria", max_hp=120), pc("cara", max_hp=10), monster("goblin", max_hp=7), monster("boss", max_hp=70))
    t.start({"aria": 20, "cara": 10, "goblin": 5, "boss": 4})
    t.do(StartConcentration(combatant="aria", effect="Bless"))
    events = t.do(
        SaveEffect(
            source="a fire trap",
            targets=("aria", "cara", "goblin"),
            ability="dex",
            dc=30,
            damage="17",
            damage_type="fire",
            faces={"aria": (1,), "cara": (1,), "goblin": (1,)},
        )
    )
    downed = {d.combatant: d.status for d in of_type(events, CombatantDowned)}
    assert downed == {"cara": "unconscious", "goblin": "dead"}
    [owed] = of_type(events, ConcentrationCheckRequired)
    assert (owed.combatant, owed.dc) == ("aria", 10)
    t.rejects(EndTurn(combatant="aria"), "turn/pending-save")
    assert t.rebuilt() == t.state


def test_the_saves_are_rolled_from_the_seed_for_targets_left_out_of_faces():
    t = _lair()
    events = t.do(_breath(targets=("aria", "vex"), faces={"aria": (5,)}))
    rolled = {e.roller: e.source for e in of_type(events, DiceRolled)}
    assert rolled == {"aria": "entered", "vex": "generated", DRAGON: "generated"}
    assert t.rebuilt() == t.state


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"targets": ()}, "save-effect/no-targets"),
        ({"targets": ("nobody",)}, "combatant/unknown"),
        ({"targets": ("aria", "aria")}, "save-effect/same-target"),
        ({"targets": ("aria",), "ability": "luck"}, "save/ability"),
        ({"targets": ("aria",), "dc": 0}, "save-effect/dc"),
        ({"targets": ("aria",), "faces": {"vex": (3,)}}, "dice/unused-faces"),
        ({"targets": ("aria",), "damage_type": None}, "save-effect/damage-type"),
        ({"targets": ("aria",), "damage": None}, "save-effect/no-damage"),
        ({"targets": ("aria",), "damage_type": "sunlight"}, "damage-type/unknown"),
        ({"targets": ("aria",), "damage": "17d"}, "dice/bad-notation"),
        ({"targets": ("aria",), "condition": {"name": "sleepy"}}, "condition/unknown"),
        ({"targets": ("aria",), "source": "a trap", "condition": {"name": "frightened", "rounds": 10}}, "condition/duration"),
    ],
)
def test_bad_input_is_refused_before_any_die_is_rolled(fields, code):
    t = _lair()
    error = t.rejects(_breath(**fields), code)
    assert error.allowed


def test_a_player_may_not_send_it():
    """A ruling: the GM's. A player's character's area will come from cast_spell."""
    assert SaveEffect.gm_only
