"""srd-2024 bad input found by fuzzing (tests/kernel/test_fuzz_deciders.py), in the shared modules:
each crashed (a 500 over HTTP) or left the log in conflict with the rules, and is now a
RuleError with a stable code that appends nothing."""

from combat.common.commands import Damage, Heal
from combat.kernel.commands import EndCombat
from combat.kernel.events import CombatEnded
from tests.helpers import Table, monster, pc


def _fight() -> Table:
    return Table().add(pc("aria", hp=10), monster("goblin", max_hp=30)).start({"aria": 15, "goblin": 5})


def test_healing_rolled_on_a_zero_sided_die_is_refused():
    """A die needs at least one side: `1d0` cannot be rolled (d20 raised RollValueError)."""
    t = _fight()
    error = t.rejects(Heal(target="aria", notation="1d0"), "dice/impossible")
    assert "1d0" in error.message and error.allowed
    assert t["aria"].hp == 10


def test_damage_that_divides_by_zero_is_refused():
    """`1d6/0` divides by zero (d20 raised RollValueError)."""
    t = _fight()
    t.rejects(Damage(target="goblin", notation="1d6/0", damage_type="fire"), "dice/impossible")
    assert t["goblin"].hp == 30


def test_dice_notation_longer_than_any_table_writes_is_refused():
    """Deeply nested notation exhausted the parser's stack (RecursionError)."""
    t = _fight()
    deep = "(" * 500 + "1d6" + ")" * 500
    error = t.rejects(Damage(target="goblin", notation=deep, damage_type="fire"), "dice/bad-notation")
    assert "100 characters" in error.allowed


def test_the_gm_ending_a_fight_is_marked_apart_from_the_rules_ending_it():
    """'Combat ends when one side or the other is defeated' (the rules' end, `automatic`), or
    when the GM rules it over; the flag, not the words, tells them apart."""
    t = _fight()
    [ended] = [
        e for e in t.do(EndCombat(winner="party", reason="every foe of the party side is down")) if isinstance(e, CombatEnded)
    ]
    assert not ended.automatic and t.state.winner == "party"
