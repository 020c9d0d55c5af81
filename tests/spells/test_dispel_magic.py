"""Dispel Magic (SRD 5.2, level 3), every face entered: "Choose one creature, object, or magical
effect within range. Any ongoing spell of level 3 or lower on the target ends. For each ongoing
spell of level 4 or higher on the target, make an ability check using your spellcasting ability
(DC 10 plus that spell's level). On a successful check, the spell ends." Using a Higher-Level
Spell Slot: "You automatically end a spell on the target if the spell's level is equal to or less
than the level of the spell slot you use."

Vesper is a level 9 Wizard of the foes (Intelligence 18: spell save DC 16), Elara a level 7 Wizard
(Intelligence 16: Intelligence checks +3), Bram a level 5 Fighter. Vesper acts first, then Elara,
then Bram.
"""

from __future__ import annotations

import msgspec

from combat.characters.build import build_sheet
from combat.common.commands import ApplyCondition, StartConcentration
from combat.common.events import ConcentrationEnded
from combat.common.rider_reads import base_ac
from combat.fivee.casts import CastSpell
from combat.fivee.characters import AddCharacter
from combat.fivee.check_events import CheckMade
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionEnded, ConditionSpec
from combat.kernel.riders import Riders
from tests.helpers import Table, of_type, spellcaster

VESPER = spellcaster(
    "Vesper",
    "Wizard",
    9,
    "Hold Person",
    "Greater Invisibility",
    "Mage Armor",
    "Hold Monster",
    scores="STR 8 DEX 14 CON 14 INT 18 WIS 12 CHA 10",
)
ELARA = spellcaster("Elara", "Wizard", 7, "Dispel Magic", "Fire Bolt", scores="STR 8 DEX 14 CON 14 INT 16 WIS 12 CHA 10")
BRAM = build_sheet(
    name="Bram", class_name="Fighter", level=5, scores="STR 16 DEX 12 CON 14 INT 10 WIS 10 CHA 10", weapons=("Longsword",)
)


def table() -> Table:
    t = Table()
    t.do(AddCharacter(character=VESPER, side="foes", player="gm"))
    t.do(AddCharacter(character=ELARA, side="party", player="sam"))
    t.do(AddCharacter(character=BRAM, side="party", player="kim"))
    return t.start({"vesper": 20, "elara": 15, "bram": 10})


def held(t: Table, *who: str, slot: int = 2) -> None:
    """Vesper's Hold Person on `who`, each failing its save with a 1; then Elara's turn."""
    t.do(CastSpell(caster="vesper", spell="Hold Person", slot_level=slot, targets=who, save_faces=dict.fromkeys(who, (1,))))
    assert all(t[w].has("paralyzed") for w in who)
    t.do(EndTurn(combatant="vesper"))


def test_a_spell_of_level_3_or_lower_on_the_target_ends_and_so_does_its_casters_concentration():
    """ "Any ongoing spell of level 3 or lower on the target ends": Hold Person (level 2) on Bram
    ends with no check. The text ends the spell, not only its effect on Bram: Vesper's
    concentration on it ends."""
    t = table()
    held(t, "bram")
    events = t.do(CastSpell(caster="elara", spell="Dispel Magic", targets=("bram",)))
    assert of_type(events, CheckMade) == []
    assert not t["bram"].has("paralyzed") and t["vesper"].concentration is None
    assert [e.effect for e in of_type(events, ConcentrationEnded)] == ["Hold Person"]


def test_the_spell_ends_on_every_creature_it_holds():
    """ "the spell ends": Hold Person cast with a 3rd-level slot on Bram and Cole (one more target
    per slot level above 2), a level 3 spell. Dispelled on Bram with no check ("level 3 or
    lower"), it ends on Cole too, as Vesper's concentration ends."""
    t = Table()
    t.do(AddCharacter(character=VESPER, side="foes", player="gm"))
    t.do(AddCharacter(character=ELARA, side="party", player="sam"))
    t.do(AddCharacter(character=BRAM, side="party", player="kim"))
    t.do(AddCharacter(character=msgspec.structs.replace(BRAM, name="Cole"), side="party", player="lou"))
    t.start({"vesper": 20, "elara": 15, "bram": 10, "cole": 5})
    held(t, "bram", "cole", slot=3)
    events = t.do(CastSpell(caster="elara", spell="Dispel Magic", targets=("bram",)))
    assert of_type(events, CheckMade) == []
    assert not t["bram"].has("paralyzed") and not t["cole"].has("paralyzed")
    assert sorted(e.target for e in of_type(events, ConditionEnded)) == ["bram", "cole"]


def test_a_spell_cast_with_a_higher_slot_is_of_that_level_and_takes_a_check():
    """ "For each ongoing spell of level 4 or higher on the target, make an ability check using
    your spellcasting ability (DC 10 plus that spell's level). On a successful check, the spell
    ends." Hold Person cast with a 4th-level slot is a level 4 spell: DC 14. Elara's Intelligence
    check, 10 + 3 = 13, fails, and Bram stays Paralyzed; next round 11 + 3 = 14 succeeds."""
    t = table()
    held(t, "bram", slot=4)
    assert next(c for c in t["bram"].conditions if c.name == "paralyzed").spell_level == 4
    events = t.do(CastSpell(caster="elara", spell="Dispel Magic", targets=("bram",), check_faces={"Hold Person": (10,)}))
    check = of_type(events, CheckMade)[0]
    assert (check.combatant, check.skill, check.total, check.dc, check.success) == ("elara", "intelligence", 13, 14, False)
    assert t["bram"].has("paralyzed") and t["vesper"].concentration == "Hold Person"
    t.do(EndTurn(combatant="elara"))
    t.do(EndTurn(combatant="bram", save_faces=((1,),)))
    t.do(EndTurn(combatant="vesper"))
    events = t.do(CastSpell(caster="elara", spell="Dispel Magic", targets=("bram",), check_faces={"hold person": (11,)}))
    assert of_type(events, CheckMade)[0].total == 14 and not t["bram"].has("paralyzed")
    assert t["vesper"].concentration is None


def test_a_higher_slot_ends_a_spell_of_its_level_without_a_check():
    """ "You automatically end a spell on the target if the spell's level is equal to or less than
    the level of the spell slot you use": Vesper's Greater Invisibility (level 4) on herself ends
    under Elara's 4th-level Dispel Magic, with no check."""
    t = table()
    t.do(CastSpell(caster="vesper", spell="Greater Invisibility", targets=("vesper",)))
    assert t["vesper"].has("invisible")
    t.do(EndTurn(combatant="vesper"))
    events = t.do(CastSpell(caster="elara", spell="Dispel Magic", slot_level=4, targets=("vesper",)))
    assert of_type(events, CheckMade) == []
    assert not t["vesper"].has("invisible") and t["vesper"].concentration is None


def test_a_spell_without_concentration_ends_on_the_target():
    """Mage Armor (level 1, 8 hours, no concentration): "Any ongoing spell of level 3 or lower on
    the target ends", and Vesper's AC goes back from 13 + 2 to her unarmored 12."""
    t = table()
    t.do(CastSpell(caster="vesper", spell="Mage Armor", targets=("vesper",)))
    assert base_ac(t["vesper"]) == 15
    t.do(EndTurn(combatant="vesper"))
    events = t.do(CastSpell(caster="elara", spell="Dispel Magic", targets=("vesper",)))
    assert [e.condition for e in of_type(events, ConditionEnded)] == ["mage armor"]
    assert not t["vesper"].has("mage armor") and base_ac(t["vesper"]) == 12


def test_an_effect_recorded_without_its_level_reads_the_spells_own():
    """An effect applied by hand (or recorded before the level was kept) is of the spell's own
    level: Hold Monster's Paralyzed is level 5, DC 15; Elara's 12 + 3 = 15 ends it."""
    t = table()
    t.do(StartConcentration(combatant="vesper", effect="Hold Monster"))
    t.do(
        ApplyCondition(
            target="bram",
            condition=ConditionSpec(name="paralyzed", source="vesper", concentration="vesper", effect="Hold Monster"),
        )
    )
    t.do(EndTurn(combatant="vesper"))
    events = t.do(CastSpell(caster="elara", spell="Dispel Magic", targets=("bram",), check_faces={"Hold Monster": (12,)}))
    check = of_type(events, CheckMade)[0]
    assert (check.dc, check.total, check.success) == (15, 15, True)
    assert not t["bram"].has("paralyzed") and t["vesper"].concentration is None


def test_check_faces_that_no_check_uses_are_refused():
    """Faces are entered for the checks the spell calls for: not for a spell that ends without
    one, not for a spell the target does not have, and not for a spell that makes no check."""
    t = table()
    held(t, "bram")
    err = t.rejects(
        CastSpell(caster="elara", spell="Dispel Magic", targets=("bram",), check_faces={"Hold Person": (15,)}),
        "dice/unused-faces",
    )
    assert "none: every spell ends" in err.allowed
    t.rejects(
        CastSpell(caster="elara", spell="Dispel Magic", targets=("bram",), check_faces={"Bless": (15,)}), "dice/unused-faces"
    )
    t.rejects(
        CastSpell(caster="elara", spell="Fire Bolt", targets=("vesper",), attack_faces=((15,),), check_faces={"x": (3,)}),
        "dice/unused-faces",
    )
    t.rejects(CastSpell(caster="elara", spell="Dispel Magic"), "spell/targets")  # "Choose one creature"
    assert t["bram"].has("paralyzed") and t["elara"].economy.action


def test_an_effect_applied_after_the_casting_reads_the_level_on_its_casters_marker():
    """Arcane Hand cast with a 6th-level slot grapples later (its follow-up): the Grappled
    condition comes after the casting, and the caster's marker of the spell keeps the level it
    was cast at. "DC 10 plus that spell's level": 16, not the spell's own 15."""
    t = table()
    t.do(StartConcentration(combatant="vesper", effect="Arcane Hand"))
    marker = ConditionSpec(
        name="arcane hand", source="vesper", concentration="vesper", effect="Arcane Hand", riders=Riders(cast_at=6)
    )
    t.do(ApplyCondition(target="vesper", condition=marker, custom=True))
    grip = ConditionSpec(name="grappled", source="vesper", concentration="vesper", effect="Arcane Hand")
    t.do(ApplyCondition(target="bram", condition=grip))
    t.do(EndTurn(combatant="vesper"))
    events = t.do(CastSpell(caster="elara", spell="Dispel Magic", targets=("bram",), check_faces={"Arcane Hand": (13,)}))
    check = of_type(events, CheckMade)[0]
    assert (check.dc, check.total, check.success) == (16, 16, True)
    assert not t["bram"].has("grappled") and not t["vesper"].has("arcane hand")
