"""srd-2024-variant Cover Δ: cover adds to AC and to Constitution saves.

"Half: +2 bonus to AC and Constitution saves. Three-Quarters: +5 bonus to AC and
Constitution saves. Total: Can't be targeted directly."
"""

from combat.common.events import SaveMade
from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackMade
from combat.kernel.events import DiceRolled
from combat.rulesets.srd2024_variant.cover import SaveBehindCover
from tests.helpers import Table, monster, of_type, pc


def _fight() -> Table:
    t = Table("srd-2024-variant", settings={"initiative_reorder": False})
    return t.add(pc("aria"), monster("goblin", con_save=1)).start({"aria": 18, "goblin": 5})


def test_half_cover_adds_two_to_ac():
    """'Half: +2 bonus to AC': 16 misses a goblin with AC 15 behind half cover."""
    t = _fight()
    [attack] = of_type(t.do(Attack(attacker="aria", target="goblin", cover="half", faces=(11,))), AttackMade)
    assert attack.total == 16 and attack.target_ac == 17 and not attack.hit


def test_half_cover_adds_two_to_a_constitution_save():
    """'+2 bonus to AC and Constitution saves': 10 + 1 + 2 = 13 beats DC 13."""
    t = _fight()
    events = t.do(SaveBehindCover(combatant="goblin", dc=13, cover="half", faces=(10,), reason="Poison Spray"))
    [roll] = of_type(events, DiceRolled)
    [save] = of_type(events, SaveMade)
    assert roll.notation == "1d20+3" and save.total == 13 and save.success and save.ability == "constitution"


def test_three_quarters_cover_adds_five_to_a_constitution_save():
    t = _fight()
    [save] = of_type(t.do(SaveBehindCover(combatant="goblin", dc=16, cover="three-quarters", bonus=0, faces=(10,))), SaveMade)
    assert save.total == 15 and not save.success


def test_cover_gives_nothing_to_a_dexterity_save_in_this_variant():
    """The Δ moves the bonus to Constitution saves; a Dexterity save behind cover is refused."""
    t = _fight()
    error = t.rejects(
        SaveBehindCover(combatant="goblin", dc=13, cover="half", ability="dexterity", faces=(10,)), "cover/constitution-only"
    )
    assert "saving_throw" in error.allowed


def test_total_cover_cannot_be_targeted_directly():
    """'Total: Can't be targeted directly.'"""
    t = _fight()
    t.rejects(SaveBehindCover(combatant="goblin", dc=13, cover="total", faces=(10,)), "cover/total")
    t.rejects(Attack(attacker="aria", target="goblin", cover="total", faces=(20,)), "attack/total-cover")
