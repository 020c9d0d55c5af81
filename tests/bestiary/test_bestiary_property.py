"""Properties of monsters played by stat block: whatever the GM sends, a refused command
changes nothing, the counters stay within the block's numbers, and the stored log (JSON
Lines, stat blocks and all) rebuilds the same state."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat.app.application import Encounters, fold_records
from combat.app.interchange import read_jsonl, to_jsonl
from combat.bestiary import library
from combat.common.commands import SavingThrow
from combat.fivee.action_commands import Move
from combat.fivee.attack_commands import Attack
from combat.fivee.legendary import LegendaryAction
from combat.fivee.legendary_resistance import UseLegendaryResistance
from combat.fivee.monster_actions import MonsterAction, Multiattack, Recharge
from combat.fivee.monsters import AddCreature, sheet
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn
from tests.helpers import Table, pc, random_turns

DRAGON = "adult-red-dragon"


def _command(state, draw):
    """A command a GM might send in a dragon fight now; many will be refused."""
    turn = state.turn
    target = draw(st.sampled_from(["aria", "bram"]))
    d20, d6 = st.integers(1, 20), st.integers(1, 6)
    return draw(
        st.sampled_from(
            [
                Multiattack(attacker=DRAGON),
                Attack(attacker=DRAGON, target=target, faces=(draw(d20),)),
                MonsterAction(combatant=DRAGON, action="Fire Breath"),
                Recharge(combatant=DRAGON, faces=(draw(d6),)),
                LegendaryAction(
                    combatant=DRAGON,
                    action=draw(st.sampled_from(["Pounce", "Fiery Rays", "Commanding Presence"])),
                    target=target if draw(st.booleans()) else None,
                ),
                SavingThrow(combatant=DRAGON, ability="dexterity", dc=18, bonus=6, faces=(draw(d20),)),
                UseLegendaryResistance(combatant=DRAGON),
                Move(combatant=turn or "aria", feet=5),
                Attack(attacker=turn or "aria", target=DRAGON, faces=(draw(d20),)),
                EndTurn(combatant=turn or "aria"),
                EndTurn(combatant=turn or "aria"),
            ]
        )
    )


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_dragon_fight_keeps_its_counters_and_rebuilds_from_the_stored_log(data):
    draw = data.draw
    block = library.find("Adult Red Dragon")
    with tempfile.TemporaryDirectory() as tmp:
        live = Encounters(Path(tmp) / "combat.db")
        eid = live.create("srd-2024", "property", seed=draw(st.integers(0, 2**31 - 1)))
        live.execute(eid, AddCombatant(combatant=pc("aria", max_hp=300)))
        live.execute(eid, AddCombatant(combatant=pc("bram", max_hp=300)))
        live.execute(eid, AddCreature(creature="adult red dragon", side="dragon", lair=draw(st.booleans())))
        live.execute(eid, BeginCombat())

        def counters_hold(state) -> None:
            s = sheet(state, DRAGON)
            assert 0 <= s.legendary_left <= block.legendary_action_uses
            assert 0 <= s.resistance_left <= (block.legendary_resistance_in_lair or 0)
            assert set(s.spent) <= {"Fire Breath"} and set(s.recharge_due) <= set(s.spent)

        random_turns(live, eid, draw(st.integers(5, 40)), lambda state: _command(state, draw), counters_hold)
        records = list(live.records(eid))
        assert fold_records(read_jsonl(list(to_jsonl(records)))) == live.state(eid)
        live.close()


@given(
    st.sampled_from([b.name for b in library.srd()]), st.integers(1, 4), st.sampled_from(["srd-2024", "srd-2024-variant", "a5e"])
)
@settings(max_examples=60, deadline=None)
def test_every_srd_creature_joins_a_fight_by_name_in_every_5e_ruleset(name, count, ruleset):
    """Any of the 331 creatures, any number: one initiative group, the block's AC and HP."""
    t = Table(ruleset).add(pc("aria"))
    t.do(AddCreature(creature=name.upper(), count=count, side="monsters"))
    block = library.find(name)
    added = [c for c in t.state.combatants.values() if c.side == "monsters"]
    assert len(added) == count and {(c.ac, c.max_hp) for c in added} == {(block.ac, block.hp)}
    assert len({c.unit for c in added}) == 1
    assert t.rebuilt() == t.state
