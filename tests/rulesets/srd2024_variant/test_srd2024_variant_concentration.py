"""srd-2024-variant Concentration: broken by damage unless a Constitution save succeeds.

"If you take damage, you must succeed on a Constitution saving throw to maintain
Concentration. The DC equals 10 or half the damage taken (round down), whichever number is
higher, up to a maximum DC of 30."
"""

import pytest

from combat.common.commands import ConcentrationSave, Damage, StartConcentration
from combat.common.events import ConcentrationCheckRequired, ConcentrationEnded
from combat.kernel.commands import EndTurn
from tests.helpers import Table, monster, of_type, pc


def _concentrating() -> Table:
    t = Table("srd-2024-variant", settings={"initiative_reorder": False})
    t.add(pc("tomas", max_hp=200, con_save=2), monster("goblin")).start({"tomas": 18, "goblin": 5})
    t.do(StartConcentration(combatant="tomas", effect="Bless"))
    return t


@pytest.mark.parametrize(("damage", "dc"), [(7, 10), (23, 11), (61, 30), (90, 30)])
def test_the_save_dc_is_ten_or_half_the_damage_up_to_thirty(damage, dc):
    t = _concentrating()
    [check] = of_type(t.do(Damage(target="tomas", damage_type="fire", amount=damage)), ConcentrationCheckRequired)
    assert check.dc == dc


def test_a_failed_save_ends_concentration_and_the_turn_waits_for_the_save():
    t = _concentrating()
    t.do(Damage(target="tomas", damage_type="fire", amount=24))  # DC 12
    t.rejects(EndTurn(combatant="tomas"), "turn/pending-save")
    events = t.do(ConcentrationSave(combatant="tomas", faces=(9,)))  # 9 + 2 = 11
    assert of_type(events, ConcentrationEnded)[0].effect == "Bless" and t["tomas"].concentration is None
