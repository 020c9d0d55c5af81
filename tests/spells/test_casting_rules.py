"""Rules of casting beyond a spell's own text (combat/fivee/casting_rules.py,
combat/fivee/one_slot_per_turn.py): one spell slot per turn, Pact Magic slots used without
naming their level, rituals, Advantage on the caster's spell attacks with their reasons, and
Magic Missile's darts striking at once.

Elara is a level 5 Wizard (spell attack +6, DC 14, slots 4/3/2); Morwen a level 5 Warlock
(two level 3 Pact Magic slots)."""

from __future__ import annotations

import msgspec
import pytest

from combat.characters.sheet import CustomSpell
from combat.common.events import DamageTaken, SaveMade
from combat.fivee.attack_events import AttackMade
from combat.fivee.casts import CastSpell, SpellCast
from combat.fivee.characters import AddCharacter, character
from combat.fivee.gm_edit_commands import GrantAction
from combat.fivee.monsters import AddCreature
from combat.kernel.commands import EndTurn
from combat.kernel.errors import RuleError
from combat.kernel.events import DiceRolled
from combat.spells.model import DamageRoll, Save
from tests.helpers import Table, member, of_type, spellcaster

SPELLS = ("Magic Missile", "Misty Step", "Fire Bolt", "Chill Touch", "Detect Magic", "Fireball")
ELARA = member("Elara", 5, *SPELLS)
MORWEN = spellcaster("Morwen", "Warlock", 5, "Charm Person", scores="STR 8 DEX 14 CON 12 INT 10 WIS 12 CHA 16")


def fight(ruleset: str = "srd-2024", sheet=ELARA, goblins: int = 2) -> Table:
    t = Table.as_rolled(ruleset)
    t.do(AddCharacter(character=sheet, side="party", player="sam"))
    t.do(AddCreature(creature="Goblin Warrior", count=goblins, side="goblins"))
    me = sheet.name.lower()
    return t.start({me: 20, ("goblin-warrior" if goblins == 1 else "goblin-warrior-1"): 1})


@pytest.mark.parametrize("ruleset", ["srd-2024", "srd-2024-variant"])
def test_one_spell_slot_per_turn(ruleset):
    """ "On a turn, you can expend only one spell slot to cast a spell. This rule means you
    can't, for example, cast a spell with a spell slot using the Magic action and another one
    using a Bonus Action on the same turn." Magic Missile (a slot) then Misty Step (a Bonus
    Action, another slot) is refused; a cantrip after it is not; on Elara's next turn a slot
    spell is hers again."""
    t = fight(ruleset)
    t.do(CastSpell(caster="elara", spell="Magic Missile", targets=("goblin-warrior-1",) * 3, damage_faces=((1,),) * 3))
    error = t.rejects(CastSpell(caster="elara", spell="Misty Step"), "spell/one-slot-per-turn")
    assert "cantrip" in error.allowed
    assert character(t.state, "elara").slots_spent == (1,)
    t.do(GrantAction(combatant="elara", kind="action", reason="a ruling"))
    t.do(CastSpell(caster="elara", spell="Fire Bolt", targets=("goblin-warrior-2",), attack_faces=((1,),)))
    for cid in ("elara", "goblin-warrior-1", "goblin-warrior-2"):
        t.do(EndTurn(combatant=cid))
    assert t.state.turn == "elara"
    t.do(CastSpell(caster="elara", spell="Misty Step"))
    assert character(t.state, "elara").slots_spent == (1, 1)
    assert t.rebuilt() == t.state


def test_a5e_keeps_its_own_rule_and_casts_two_slot_spells_on_a_turn():
    """The one-slot rule is srd-2024's (and its variant's): a5e does not take it."""
    t = fight("a5e")
    t.do(CastSpell(caster="elara", spell="Magic Missile", targets=("goblin-warrior-1",) * 3, damage_faces=((1,),) * 3))
    t.do(CastSpell(caster="elara", spell="Misty Step"))
    assert character(t.state, "elara").slots_spent == (1, 1)


def test_a_warlocks_first_level_spell_takes_a_pact_slot_without_naming_its_level():
    """Pact Magic: "For example, when you're a level 5 Warlock, you have two level 3 spell
    slots. To cast the level 1 spell Charm Person, you must spend one of those slots, and you
    cast it as a level 3 spell." Charm Person with no slot level named: a Pact Magic slot, the
    spell at level 3, on a Bandit ("One Humanoid you can see within range")."""
    assert (MORWEN.spellcasting.pact_slots, MORWEN.spellcasting.pact_level, MORWEN.spellcasting.slots) == (2, 3, ())
    t = Table()
    t.do(AddCharacter(character=MORWEN, side="party", player="sam"))
    t.do(AddCreature(creature="Bandit", side="bandits"))
    t = t.start({"morwen": 20, "bandit": 1})
    events = t.do(CastSpell(caster="morwen", spell="Charm Person", targets=("bandit",), save_faces={"bandit": (1,)}))
    [cast] = of_type(events, SpellCast)
    assert (cast.level, cast.slot, cast.pact) == (3, 3, True)
    assert character(t.state, "morwen").pact_spent == 1


def test_a_ritual_is_not_cast_in_a_fight():
    """A ritual takes 10 minutes longer than the spell's casting time, and a round is 6
    seconds: Detect Magic (a Ritual) cast as a ritual in a fight is refused, and a spell
    without the Ritual tag can't be cast as one at all; nothing is spent."""
    t = fight()
    error = t.rejects(CastSpell(caster="elara", spell="Detect Magic", ritual=True), "spell/ritual-in-combat")
    assert "spell slot" in error.allowed
    t.rejects(CastSpell(caster="elara", spell="Fireball", ritual=True, targets=("goblin-warrior-1",)), "spell/not-ritual")
    assert character(t.state, "elara").slots_spent == () and t["elara"].economy.action


def test_chill_touch_with_advantage_and_its_reason():
    """Chill Touch: "make a melee spell attack against one creature within reach"; `attack`'s
    Advantage reasons on the caster's spell attack ("the goblin is Prone" - given by the GM):
    2d20, the higher (17) kept: 23 against AC 15, a hit for 2d10 (level 5) Necrotic. A spell
    with no attack roll takes no Advantage."""
    t = fight()
    events = t.do(
        CastSpell(
            caster="elara",
            spell="Chill Touch",
            targets=("goblin-warrior-1",),
            advantage=("the goblin is Prone",),
            attack_faces=((3, 17),),
            damage_faces=((2, 3),),
        )
    )
    [roll] = [e for e in of_type(events, DiceRolled) if e.purpose == "attack"]
    assert roll.notation == "2d20kh1+6"
    made = of_type(events, AttackMade)[0]
    assert (made.total, made.hit, made.damage) == (23, True, 5)
    t.do(GrantAction(combatant="elara", kind="action", reason="a ruling"))
    t.rejects(
        CastSpell(caster="elara", spell="Fireball", targets=("goblin-warrior-2",), advantage=("high ground",)),
        "spell/no-attack-roll",
    )


def test_magic_missiles_darts_strike_at_once_so_a_dropped_target_takes_the_rest():
    """Magic Missile: "The darts all strike simultaneously." Three darts at a goblin (10 HP):
    the first two (5 and 5) drop it, and the third still strikes, instead of the whole spell
    being refused ("target/dead"), as a recorded session found. A target dead before the spell
    is refused."""
    t = fight()
    events = t.do(
        CastSpell(caster="elara", spell="Magic Missile", targets=("goblin-warrior-1",) * 3, damage_faces=((4,), (4,), (1,)))
    )
    assert [d.amount for d in of_type(events, DamageTaken)] == [5, 5, 2]
    assert t["goblin-warrior-1"].status == "dead"
    for cid in ("elara", "goblin-warrior-2"):
        t.do(EndTurn(combatant=cid))
    assert t.state.turn == "elara"
    t.rejects(CastSpell(caster="elara", spell="Magic Missile", targets=("goblin-warrior-1",) * 3), "target/dead")
    assert t.rebuilt() == t.state


FROSTLANCE = CustomSpell(
    name="Frostlance",
    level=2,
    text="A lance of ice: make a ranged spell attack; on a hit, 3d8 Cold damage and the target is Restrained for 1 round.",
    range=60,
    attack="ranged",
    damage=(DamageRoll(dice="3d8", types=("cold",)),),
    targets=1,
    manual="On a hit, the target is Restrained for 1 round.",
)
WITHERING_WORD = CustomSpell(
    name="Withering Word",
    level=1,
    text="Each creature you choose makes a Constitution save: 2d6 Necrotic, half on a success.",
    range=30,
    save=Save(ability="constitution", half_on_success=True),
    damage=(DamageRoll(dice="2d6", types=("necrotic",)),),
)


def test_a_gm_defined_spell_outside_the_srd_is_cast_with_its_own_attack_save_and_damage():
    """A homebrew spell on the sheet, with its own range, attack, save, damage and riders, is
    cast like any other: Frostlance (a 2nd-level ranged spell attack at one creature, 3d8
    Cold) rolls Elara's +6 (14: 20 against AC 15, a hit) for 1+2+3 = 6, spends a 2nd-level
    slot and names its rider for the GM; Withering
    Word on Elara's next turn has both goblins save against DC 14 (one fails with a 4, one
    succeeds with an 18), 2d6 = 7 rolled once: 7 and 3. A custom spell that gives no effect
    is cast as before, its text for the GM."""
    sheet = msgspec.structs.replace(
        ELARA,
        spellcasting=msgspec.structs.replace(ELARA.spellcasting, custom_spells=(FROSTLANCE, WITHERING_WORD)),
    )
    t = fight(sheet=sheet, goblins=2)
    t.rejects(CastSpell(caster="elara", spell="Frostlance", targets=("goblin-warrior-1", "goblin-warrior-2")), "spell/targets")
    events = t.do(
        CastSpell(
            caster="elara", spell="Frostlance", targets=("goblin-warrior-1",), attack_faces=((14,),), damage_faces=((1, 2, 3),)
        )
    )
    made = of_type(events, AttackMade)[0]
    assert (made.attack, made.total, made.hit, made.damage, made.damage_type) == ("Frostlance", 20, True, 6, "cold")
    [cast] = of_type(events, SpellCast)
    assert (cast.slot, cast.manual) == (2, ("On a hit, the target is Restrained for 1 round.",))
    assert character(t.state, "elara").slots_spent == (0, 1)
    for cid in ("elara", "goblin-warrior-1", "goblin-warrior-2"):
        t.do(EndTurn(combatant=cid))
    events = t.do(
        CastSpell(
            caster="elara",
            spell="withering word",
            targets=("goblin-warrior-1", "goblin-warrior-2"),
            save_faces={"goblin-warrior-1": (4,), "goblin-warrior-2": (18,)},
            damage_faces=((3, 4),),
        )
    )
    assert [(s.combatant, s.success) for s in of_type(events, SaveMade)] == [
        ("goblin-warrior-1", False),
        ("goblin-warrior-2", True),
    ]
    assert [(d.target, d.amount, d.damage_type) for d in of_type(events, DamageTaken)] == [
        ("goblin-warrior-1", 7, "necrotic"),
        ("goblin-warrior-2", 3, "necrotic"),
    ]
    assert t.rebuilt() == t.state


def test_a_homebrew_spells_bad_dice_are_refused_with_the_sheet():
    """A custom spell's damage is dice notation like any on the sheet: "3d" is refused when the
    sheet comes in, naming where it is."""
    bad = msgspec.structs.replace(FROSTLANCE, damage=(DamageRoll(dice="3d", types=("cold",)),))
    sheet = msgspec.structs.replace(ELARA, spellcasting=msgspec.structs.replace(ELARA.spellcasting, custom_spells=(bad,)))
    t = Table()
    with pytest.raises(RuleError) as caught:
        t.do(AddCharacter(character=sheet, side="party"))
    assert "custom_spells[0] (Frostlance).damage[0].dice" in str(caught.value)


def before_the_fight(ruleset: str = "srd-2024") -> Table:
    t = Table.as_rolled(ruleset)
    t.do(AddCharacter(character=ELARA, side="party", player="sam"))
    t.do(AddCreature(creature="Mage", count=1, side="foes"))
    return t


@pytest.mark.parametrize("ruleset", ["srd-2024", "srd-2024-variant", "a5e"])
def test_a_ritual_is_cast_before_the_fight_without_a_slot_or_an_action(ruleset):
    """A spell with the Ritual tag may be cast as a ritual, "without expending a spell slot",
    taking 10 minutes longer than its casting time: outside the fight's turns. Elara casts
    Detect Magic as a ritual during set-up: no slot spent, concentrating on it as the fight
    begins, and her action is hers in round 1."""
    t = before_the_fight(ruleset)
    events = t.do(CastSpell(caster="elara", spell="Detect Magic", ritual=True))
    [cast] = of_type(events, SpellCast)
    assert (cast.level, cast.slot, cast.ritual) == (1, None, True)
    assert character(t.state, "elara").slots_spent == () and t["elara"].concentration == "Detect Magic"
    t.start({"elara": 20, "mage": 1})
    assert t.state.turn == "elara" and t["elara"].economy.action and t["elara"].concentration == "Detect Magic"
    assert t.rebuilt() == t.state


def test_a_ritual_is_named_in_the_log_and_a_spell_cast_otherwise_keeps_its_old_json():
    """The narrative says it was a ritual; a SpellCast not cast as one is encoded without the
    field, as every log recorded before rituals were, and an old line still decodes."""
    t = before_the_fight()
    [cast] = of_type(t.do(CastSpell(caster="elara", spell="Detect Magic", ritual=True)), SpellCast)
    assert b'"ritual":true' in msgspec.json.encode(cast)
    plain = SpellCast(caster="elara", spell="Fireball", level=3, slot=3)
    assert b"ritual" not in msgspec.json.encode(plain)
    assert msgspec.json.decode(msgspec.json.encode(plain), type=SpellCast) == plain


def test_before_the_fight_only_a_ritual_is_cast_and_only_by_a_sheet_that_has_it():
    """Set-up is outside the fight's turns: Fireball (no Ritual tag) is refused whether asked
    as a ritual or not; Detect Magic cast with a slot is refused (a ritual is cast without
    one); the Mage casts its block's Detect Magic as the block says, not as a ritual; and a
    ritual Elara has not prepared is refused. Nothing is recorded."""
    t = before_the_fight()
    error = t.rejects(CastSpell(caster="elara", spell="Fireball", targets=("mage",)), "spell/before-the-fight")
    assert "ritual: true" in error.allowed
    t.rejects(CastSpell(caster="elara", spell="Fireball", targets=("mage",), ritual=True), "spell/not-ritual")
    t.rejects(CastSpell(caster="elara", spell="Detect Magic", ritual=True, slot_level=1), "spell/slot-level")
    t.rejects(CastSpell(caster="mage", spell="Detect Magic", ritual=True), "spell/ritual-caster")
    t.rejects(CastSpell(caster="elara", spell="Alarm", ritual=True), "spell/not-known")
    assert character(t.state, "elara").slots_spent == () and t["elara"].concentration is None
