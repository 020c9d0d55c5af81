from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackMade
from combat.kernel.commands import EndTurn
from tests.helpers import Table, monster, of_type, pc


def test_a_goblin_hit_by_a_longsword_loses_hit_points():
    """'On a hit, you roll damage' - 1d8+3 with a 5 on the die is 8."""
    t = Table().add(pc("aria"), monster("goblin", max_hp=10)).start({"aria": 15, "goblin": 3})
    events = t.do(Attack(attacker="aria", target="goblin", faces=(12,), damage_faces=(5,)))
    [attack] = of_type(events, AttackMade)
    assert attack.hit and attack.damage == 8
    assert t["goblin"].hp == 2
    t.do(EndTurn(combatant="aria"))
    assert t.state.turn == "goblin"
    assert t.rebuilt() == t.state
