"""The projection's policy: each record of an encounter's log in, the read model's rows out.

Pure: it reads nothing but the records and what it was told of the encounter before them
(`Context`, which the tables keep between batches), so the same function fills the SQL tables
(the follower, on the GM's full log) and a player's answer (on the log as that player may read
it: projections/redaction.py blanks a hidden monster's numbers to None before they get here).

Every row names its encounter and the seq of the event it came from; whether that event still
counts (not undone, not replaced by an amendment) is not decided here but from the whole
log's history (combat.app.history.effective) each time a history move arrives (`moves`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import msgspec

from combat.common.events import DamageTaken, SaveMade
from combat.fivee.attack_events import AttackDamageRolled, AttackMade, AttackRolled
from combat.fivee.casts import SpellCast
from combat.fivee.characters import SheetAttached
from combat.fivee.reactions import AttackDeflected
from combat.kernel.events import (
    CombatantAdded,
    ConditionApplied,
    ConditionEnded,
    ConflictOverridden,
    DiceRolled,
    EncounterCreated,
    EventsRetracted,
    RoundStarted,
    RulingAmended,
    TurnEnded,
    TurnStarted,
)
from combat.kernel.records import Recorded
from combat.store.stats_tables import COLUMNS

__all__ = ["Context", "Rows", "rows_of", "encounter_kind"]

HISTORY_KINDS: dict[type, str] = {EventsRetracted: "retract", RulingAmended: "amend", ConflictOverridden: "override"}
_json = msgspec.json.Encoder()


def encounter_kind(created: EncounterCreated) -> str:
    """'fork' (a what-if branch, whose copied events are the original's), 'practice', or 'fight'."""
    if created.forked_from is not None:
        return "fork"
    return "practice" if created.practice else "fight"


@dataclass
class Context:
    """What the rows of an encounter need from before a batch: its campaign and round, and
    which names are combatants (a DamageTaken's `source` is a combatant or a spell's name)."""

    encounter: dict[str, Any] | None = None  # its stats_encounters row
    combatants: dict[str, dict[str, Any]] = field(default_factory=dict)  # its stats_combatants rows
    # The attack row of each attacker's last hit on each target: a reaction (Shield, Parry) may
    # still turn it into a miss (`AttackDeflected`, in a later command).
    hits: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)

    @property
    def campaign(self) -> str | None:
        return self.encounter["campaign"] if self.encounter else None

    @property
    def round(self) -> int:
        return int(self.encounter["round"]) if self.encounter else 0

    def acting(self, command: str, combatant: str, out: Rows) -> None:
        """The combatant whose attack or spell a command is: damage later in that command (a
        Fireball's, an attack's extra dice) is theirs, also when a batch ends between the two."""
        if self.encounter is not None and (self.encounter.get("command"), self.encounter.get("actor")) != (command, combatant):
            self.encounter = {**self.encounter, "command": command, "actor": combatant}
            out.add("stats_encounters", **self.encounter)

    def actor_of(self, command: str) -> str | None:
        if self.encounter is not None and self.encounter.get("command") == command:
            return self.encounter.get("actor")
        return None


@dataclass
class Rows:
    """One batch's output: rows by table, and the encounters whose history moved (their rows'
    `counted` is decided again from the whole log)."""

    tables: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: {t: [] for t in COLUMNS})
    moves: dict[UUID, int] = field(default_factory=dict)  # encounter -> seq of its last history move

    def add(self, table: str, **row: Any) -> None:
        self.tables[table].append(row)

    def __len__(self) -> int:
        return sum(map(len, self.tables.values()))


def rows_of(records: list[Recorded], contexts: dict[UUID, Context], out: Rows | None = None) -> Rows:
    """The rows of a batch of records (any encounters, in log order); `contexts` is updated."""
    out = out if out is not None else Rows()
    for rec in records:
        eid = rec.originator_id
        ctx = contexts.setdefault(eid, Context())
        e = rec.event
        base: dict[str, Any] = {"encounter": str(eid), "seq": rec.seq, "n": 0, "campaign": ctx.campaign, "round": ctx.round}
        if isinstance(e, EncounterCreated):
            ctx.encounter = {
                "encounter": str(eid), "campaign": str(e.campaign) if e.campaign else None, "name": e.name,
                "ruleset": e.ruleset, "kind": encounter_kind(e), "round": 0, "command": None, "actor": None,
            }  # fmt: skip
            out.add("stats_encounters", **ctx.encounter)
            if e.forked_from is not None:
                out.add(
                    "stats_history", **{**base, "campaign": ctx.campaign}, kind="fork", seqs=_json.encode([e.forked_at]).decode(),
                    reason="", actor=rec.actor, at=rec.timestamp.isoformat(), about=e.forked_from,
                )  # fmt: skip
            continue
        if isinstance(e, (RoundStarted, TurnStarted)) and ctx.encounter is not None and e.round != ctx.round:
            ctx.encounter = {**ctx.encounter, "round": e.round}  # kept with its row for the next batch
            out.add("stats_encounters", **ctx.encounter)
            base["round"] = e.round
        if isinstance(e, CombatantAdded):
            c = e.combatant
            row = ctx.combatants[c.id] = {
                "encounter": str(eid), "combatant": c.id, "name": c.name, "kind": c.kind, "side": c.side,
                "player": c.player, "character": None,
            }  # fmt: skip
            out.add("stats_combatants", **row)
        elif isinstance(e, SheetAttached) and e.combatant in ctx.combatants:
            row = ctx.combatants[e.combatant] = {**ctx.combatants[e.combatant], "character": e.character}
            out.add("stats_combatants", **row)
        elif isinstance(e, DiceRolled):
            d20 = [d.face for d in e.dice if d.sides == 20 and d.kept]
            out.add(
                "stats_rolls", **base, roller=e.roller, purpose=e.purpose, notation=e.notation,
                sides=_list([d.sides for d in e.dice]), faces=_list([d.face for d in e.dice]),
                kept=_list([d.kept for d in e.dice]), total=e.total, natural_d20=d20[0] if len(d20) == 1 else None,
                source=e.source,
            )  # fmt: skip
        elif isinstance(e, (AttackMade, AttackRolled)):
            ctx.acting(rec.command_id, e.attacker, out)
            hit = e.hit if isinstance(e, AttackMade) else True
            attack = {
                **base, "attacker": e.attacker, "target": e.target, "attack": e.attack, "hit": hit,
                "critical": e.critical, "roll_mode": e.roll_mode, "natural": e.natural, "total": e.total,
                "target_ac": e.target_ac,
            }  # fmt: skip
            out.add("stats_attacks", **attack)
            if hit:
                ctx.hits[(e.attacker, e.target)] = attack
            if isinstance(e, AttackMade) and hit:
                out.add(
                    "stats_damage", **base, source=e.attacker, via=e.attack, target=e.target, damage_type=e.damage_type,
                    rolled=e.damage_rolled, dealt=e.damage,
                )  # fmt: skip
        elif isinstance(e, AttackDeflected):
            # The hit it was is a miss: its own row (the attack's seq) says so, at the AC it faced.
            deflected = ctx.hits.pop((e.attacker, e.target), None)
            if deflected is not None:
                out.add("stats_attacks", **{**deflected, "hit": False, "critical": False, "target_ac": e.target_ac})
        elif isinstance(e, AttackDamageRolled):
            ctx.hits.pop((e.attacker, e.target), None)
            ctx.acting(rec.command_id, e.attacker, out)
            out.add(
                "stats_damage", **base, source=e.attacker, via=e.attack, target=e.target, damage_type=e.damage_type,
                rolled=e.damage_rolled, dealt=e.damage,
            )  # fmt: skip
        elif isinstance(e, DamageTaken):
            source = e.source if e.source in ctx.combatants else ctx.actor_of(rec.command_id)
            out.add(
                "stats_damage", **base, source=source, via=e.source, target=e.target, damage_type=e.damage_type,
                rolled=e.rolled, dealt=e.amount,
            )  # fmt: skip
        elif isinstance(e, SpellCast):
            ctx.acting(rec.command_id, e.caster, out)
            out.add("stats_spells", **base, caster=e.caster, spell=e.spell, level=e.level, slot=e.slot)
        elif isinstance(e, SaveMade):
            out.add(
                "stats_saves", **base, combatant=e.combatant, ability=e.ability, dc=e.dc, total=e.total, success=e.success,
                source=e.source if isinstance(e.source, str) else None,
            )  # fmt: skip
        elif isinstance(e, ConditionApplied):
            out.add(
                "stats_conditions", **base, target=e.target, condition=e.condition.name if e.condition else None,
                change="applied", source=e.condition.source if e.condition else None, reason="",
            )  # fmt: skip
        elif isinstance(e, ConditionEnded):
            out.add(
                "stats_conditions", **base, target=e.target, condition=e.condition, change="ended", source=None, reason=e.reason
            )
        elif isinstance(e, (TurnStarted, TurnEnded)):
            change = "start" if isinstance(e, TurnStarted) else "end"
            out.add("stats_turns", **base, combatant=e.combatant, change=change, at=rec.timestamp.isoformat())
        elif isinstance(e, (EventsRetracted, RulingAmended, ConflictOverridden)):
            reason = e.ruling if isinstance(e, ConflictOverridden) else e.reason
            out.add(
                "stats_history", **base, kind=HISTORY_KINDS[type(e)], seqs=_list(list(e.seqs)), reason=reason,
                actor=rec.actor, at=rec.timestamp.isoformat(), about=None,
            )  # fmt: skip
            out.moves[eid] = rec.seq
    return out


def _list(values: list[Any]) -> str:
    return _json.encode(values).decode()
