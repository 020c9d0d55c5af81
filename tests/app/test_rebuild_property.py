"""Property: whatever a table does, the live state equals the state rebuilt from the stored log."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat.app.application import Encounters, fold_records
from combat.app.interchange import read_jsonl, to_jsonl
from combat.common.commands import Damage, Heal
from combat.fivee.action_commands import Move, TakeAction
from combat.fivee.attack_commands import Attack, OpportunityAttack
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn, MarkSurprised
from combat.kernel.errors import RuleError
from tests.helpers import monster, pc, random_turns

ACTIONS = ("dash", "disengage", "dodge", "hide", "ready", "search", "magic")


def _commands(state, draw):
    """A command a GM might plausibly send now; some will be rejected, which must change nothing."""
    ids = list(state.combatants)
    cid = state.turn or draw(st.sampled_from(ids))
    other = draw(st.sampled_from(ids))
    d20 = st.integers(1, 20)
    options = [
        Attack(attacker=cid, target=other, faces=(draw(d20),), damage_faces=None),
        Attack(attacker=cid, target=other, advantage=("flanking",)),
        Move(combatant=cid, feet=draw(st.sampled_from([5, 10, 30, 45])), leaves_reach_of=(other,)),
        OpportunityAttack(attacker=other, target=cid),
        TakeAction(combatant=cid, action=draw(st.sampled_from(ACTIONS)), concentration=True, detail="spell"),
        Damage(target=other, damage_type="fire", amount=draw(st.integers(0, 25))),
        Heal(target=other, amount=draw(st.integers(1, 10))),
        EndTurn(combatant=cid),
        EndTurn(combatant=cid),
        RollInitiative(),
    ]
    return draw(st.sampled_from(options))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_sequence_of_commands_leaves_live_state_equal_to_the_stored_log(data):
    draw = data.draw
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "combat.db"
        live = Encounters(db)
        eid = live.create("srd-2024", "property", seed=draw(st.integers(0, 2**31 - 1)))
        specs = [
            pc("aria", max_hp=12),
            pc("bron", max_hp=9),
            monster("goblin-1", group="goblins"),
            monster("goblin-2", group="goblins"),
            monster("ogre", max_hp=15),
        ]
        for spec in specs[: draw(st.integers(2, len(specs)))]:
            live.execute(eid, AddCombatant(combatant=spec))
        try:
            live.execute(eid, BeginCombat())
        except RuleError:
            live.execute(eid, AddCombatant(combatant=monster("wolf")))
            live.execute(eid, BeginCombat())
        if draw(st.booleans()):
            live.execute(eid, MarkSurprised(combatants=("aria",)))
        random_turns(live, eid, draw(st.integers(5, 40)), lambda state: _commands(state, draw))
        final = live.state(eid)
        live.close()

        cold = Encounters(db)
        try:
            assert cold.state(eid) == final
            records = list(cold.records(eid))
            assert [r.seq for r in records] == list(range(1, final.version + 1))
            assert fold_records(read_jsonl(b"".join(to_jsonl(records)).splitlines())) == final
        finally:
            cold.close()
