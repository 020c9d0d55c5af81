"""2. Command latency in-process on the SQLite file store: an attack with its rolls, decided
and appended by `Encounters.execute` in fights of about 1,000 events, against the floor of
one bare SQLite insert-and-commit of the same bytes (same table shape, WAL, the same file),
timed just after each attack: the disk's flush time swings from minute to minute, so each
attack and its floor meet the same disk.

The fights are played on as they are measured (move, attack, end turn), spread over several
encounters so that each stays near 1,000 events; only the attacks are timed. Each encounter
is loaded once first, as a running service would have it cached.

Beside the attack, `cast_spell`: a level 5 Wizard's Fireball on four creatures (four saves,
one damage roll, four shares of damage: the heaviest common casting) and Fire Bolt (a spell
attack, as `attack` is), each followed by the turns coming round again, in an encounter of
its own on the same store; only the casts are timed.
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

from combat.app.application import Encounters
from combat.bench.fixtures import TARGETS, long_fight, store_fight
from combat.bench.floors import floor_table
from combat.bench.timing import percentile
from combat.fivee.action_commands import Move
from combat.fivee.attack_commands import Attack
from combat.fivee.gm_edit_commands import GrantAction
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn
from combat.kernel.events import CombatantSpec

__all__ = ["run", "BareCommits"]

ATTACKS_PER_ENCOUNTER = 50
_FIREBALL_SLOTS = (3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 7, 7, 8, 9)


class BareCommits:
    """The floor: BEGIN, INSERT each payload, COMMIT, as eventsourcing does it, on its own
    connection and table in the file the attacks are stored in."""

    def __init__(self, path: Path):
        self.db = floor_table(str(path), "floor_events")

    def time(self, rows: list[bytes]) -> float:
        """Seconds for one transaction of these payloads."""
        originator = uuid.uuid4().hex
        start = time.perf_counter()
        cursor = self.db.cursor()
        cursor.execute("BEGIN")
        for version, state in enumerate(rows, start=1):
            cursor.execute("INSERT INTO floor_events VALUES (?,?,?,?)", (originator, version, "combat.store:Recorded", state))
        self.db.commit()
        return time.perf_counter() - start

    def close(self) -> None:
        self.db.close()


def run(workdir: Path, events: int, samples: int) -> dict[str, Any]:
    fight = long_fight(events)
    encounters = Encounters(workdir / "commands.db")
    mapper = encounters.log.home.mapper
    latencies: list[float] = []
    floor: list[float] = []
    payloads: list[list[bytes]] = []
    stored_events: list[int] = []
    bare = BareCommits(workdir / "commands.db")
    try:
        while len(latencies) < samples:
            eid = store_fight(encounters, fight)
            state = encounters.state(eid)
            stored_events.append(state.version)
            for _ in range(min(ATTACKS_PER_ENCOUNTER, samples - len(latencies))):
                cid = state.turn
                assert cid is not None
                encounters.execute(eid, Move(combatant=cid, feet=5))
                attack = Attack(attacker=cid, target=TARGETS[cid])
                start = time.perf_counter()
                outcome = encounters.execute(eid, attack)
                latencies.append(time.perf_counter() - start)
                payloads.append([mapper.to_stored_event(rec).state for rec in outcome.records])
                floor.append(bare.time(payloads[-1]))
                state = encounters.execute(eid, EndTurn(combatant=cid)).state
            stored_events.append(state.version)
    finally:
        bare.close()
        encounters.close()
    cast = _casts(workdir / "casts.db", samples)
    p50, p99 = percentile(latencies, 50), percentile(latencies, 99)
    f50, f99 = percentile(floor, 50), percentile(floor, 99)
    return {
        **{
            f"cast_spell_{spell}_{p}_ms": percentile(times, q) * 1000
            for spell, times in cast.items()
            for p, q in (("p50", 50), ("p99", 99))
        },
        "samples": len(latencies),
        "fight_events": [min(stored_events), max(stored_events)],
        "events_per_attack": sum(map(len, payloads)) / len(payloads),
        "p50_ms": p50 * 1000,
        "p99_ms": p99 * 1000,
        "floor_p50_ms": f50 * 1000,
        "floor_p99_ms": f99 * 1000,
        "ratio_p50": p50 / f50,
        "ratio_p99": p99 / f99,
        "target": "p99 <= 3x the floor's p99",
        "met": p99 <= 3 * f99,
    }


def _casts(path: Path, samples: int) -> dict[str, list[float]]:
    """Seconds per `cast_spell`: Fireball on four creatures and Fire Bolt on one, by spell."""
    from combat.characters.build import build_sheet
    from combat.fivee.casts import CastSpell
    from combat.fivee.characters import AddCharacter

    wizard = build_sheet(
        name="Elara",
        class_name="Wizard",
        level=20,
        scores="STR 8 DEX 14 CON 12 INT 20 WIS 12 CHA 10",
        spells=("Fireball", "Fire Bolt"),
    )
    foes = tuple(f"ogre-{i}" for i in range(4))
    times: dict[str, list[float]] = {"fireball": [], "fire_bolt": []}
    encounters = Encounters(path)
    try:
        while len(times["fire_bolt"]) < samples:
            eid = encounters.create("srd-2024", "bench casts", seed=1)
            encounters.execute(eid, AddCharacter(character=wizard, side="party"))
            for foe in foes:
                spec = CombatantSpec(id=foe, name=foe, kind="monster", side="ogres", max_hp=10**9, ac=11, con_save=2)
                encounters.execute(eid, AddCombatant(combatant=spec))
            encounters.execute(eid, BeginCombat())
            for cid, face in (("elara", 20), *((foe, 2 + i) for i, foe in enumerate(foes))):
                encounters.execute(eid, RollInitiative(combatant=cid, faces=(face,)))
            for i in range(min(ATTACKS_PER_ENCOUNTER, samples - len(times["fire_bolt"]))):
                casts = [("fire_bolt", CastSpell(caster="elara", spell="Fire Bolt", targets=(foes[0],)))]
                if i < len(_FIREBALL_SLOTS):  # a level 20 Wizard's slots of level 3 and above, one a round
                    casts.append(
                        ("fireball", CastSpell(caster="elara", spell="Fireball", slot_level=_FIREBALL_SLOTS[i], targets=foes))
                    )
                for spell, cast in casts:
                    start = time.perf_counter()
                    encounters.execute(eid, cast)
                    times[spell].append(time.perf_counter() - start)
                    encounters.execute(eid, GrantAction(combatant="elara", kind="action"))
                for cid in ("elara", *reversed(foes)):
                    encounters.execute(eid, EndTurn(combatant=cid))
    finally:
        encounters.close()
    return times
