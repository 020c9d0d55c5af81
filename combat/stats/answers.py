"""The answers: per character damage dealt and taken, hits and misses, criticals, the d20's
faces with a goodness-of-fit test, spell slots, turns and their median length; per campaign the
rulings undone, amended and overridden. Computed from the read model's rows (the GM's, from
the SQL tables) or from the rows of the log as a player may read it (combat.stats.reads): the
same arithmetic for both, so a number a player may not see is None in the rows and counted
as withheld here, never guessed.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import msgspec

from combat.stats.fit import MIN_EXPECTED, chi_square, chi_square_tail

__all__ = ["D20", "CharacterStats", "RoundDamage", "HistoryMove", "Stats", "Scope", "answer"]

Rows = Mapping[str, Sequence[Mapping[str, Any]]]


class D20(msgspec.Struct, kw_only=True):
    """Every d20 face a combatant rolled (kept or dropped: advantage's other die is a roll of
    the die too), with Pearson's chi-square against a fair die (combat.stats.fit)."""

    rolls: int
    faces: list[int]  # faces[i]: how many times i + 1 came up
    ones: int
    twenties: int
    chi_square: float
    p_value: float
    trusted: bool  # every face expected at least 5 times (100 rolls): below that the test says little


class CharacterStats(msgspec.Struct, kw_only=True):
    name: str
    kind: str | None
    side: str | None
    encounters: int
    damage_dealt: int  # after resistances, of the hits whose result this reader may see
    damage_rolled: int
    damage_dealt_withheld: int  # hits on a hidden creature: what it took is its sheet's
    damage_taken: int
    damage_taken_withheld: int
    attacks: int
    hits: int
    misses: int
    criticals: int
    d20: D20
    spells: int
    slots: dict[str, int]  # slot level -> slots spent
    turns: int
    median_turn_seconds: float | None


class RoundDamage(msgspec.Struct, kw_only=True):
    encounter: str
    round: int
    side: str
    damage: int


class HistoryMove(msgspec.Struct, kw_only=True):
    encounter: str
    seq: int
    kind: str  # retract (undo, retract), amend, override, fork
    reason: str
    actor: str
    seqs: list[int | None]


class Scope(msgspec.Struct, kw_only=True):
    campaign: str | None = None
    encounter: str | None = None
    character: str | None = None


class Stats(msgspec.Struct, kw_only=True):
    scope: Scope
    encounters: list[dict[str, Any]]
    characters: list[CharacterStats]
    rounds: list[RoundDamage]
    rulings: dict[str, int]  # history moves by kind
    history: list[HistoryMove]
    viewer: str  # "gm", or "player": numbers of hidden creatures left out


def _label(combatants: Mapping[tuple[str, str], Mapping[str, Any]], encounter: str, cid: str | None) -> str | None:
    if cid is None:
        return None
    c = combatants.get((encounter, cid))
    if c is None:
        return cid
    return c.get("character") or c.get("name") or cid


def answer(rows: Rows, scope: Scope, viewer: str = "gm") -> Stats:
    combatants = {(c["encounter"], c["combatant"]): c for c in rows.get("stats_combatants", ())}
    label = lambda e, cid: _label(combatants, e, cid)  # noqa: E731
    people: dict[str, dict[str, Any]] = {}

    def person(name: str, encounter: str, cid: str) -> dict[str, Any]:
        c = combatants.get((encounter, cid), {})
        p = people.setdefault(
            name,
            {
                "kind": c.get("kind"),
                "side": c.get("side"),
                "encounters": set(),
                "dealt": 0,
                "rolled": 0,
                "dealt_withheld": 0,
                "taken": 0,
                "taken_withheld": 0,
                "attacks": 0,
                "hits": 0,
                "criticals": 0,
                "faces": Counter(),
                "spells": 0,
                "slots": Counter(),
                "turns": [],
            },
        )
        p["encounters"].add(encounter)
        return p

    for (e, cid), _c in combatants.items():
        person(label(e, cid) or cid, e, cid)
    for a in rows.get("stats_attacks", ()):
        p = person(label(a["encounter"], a["attacker"]) or "?", a["encounter"], a["attacker"])
        p["attacks"] += 1
        p["hits"] += bool(a["hit"])
        p["criticals"] += bool(a["critical"])
    rounds: Counter[tuple[str, int, str]] = Counter()
    for d in rows.get("stats_damage", ()):
        e = d["encounter"]
        target = person(label(e, d["target"]) or "?", e, d["target"])
        if d["dealt"] is None:
            target["taken_withheld"] += 1
        else:
            target["taken"] += d["dealt"]
        side = "gm"
        if d["source"] is not None:
            source = person(label(e, d["source"]) or "?", e, d["source"])
            side = combatants.get((e, d["source"]), {}).get("side") or "gm"
            source["rolled"] += d["rolled"] or 0
            if d["dealt"] is None:
                source["dealt_withheld"] += 1
            else:
                source["dealt"] += d["dealt"]
        amount = d["dealt"] if d["dealt"] is not None else d["rolled"]
        rounds[(e, d["round"] or 0, side)] += amount or 0
    for r in rows.get("stats_rolls", ()):
        faces = msgspec.json.decode(r["faces"] or "[]")
        sides = msgspec.json.decode(r["sides"] or "[]")
        d20s = [f for s, f in zip(sides, faces, strict=False) if s == 20]
        if d20s:
            person(label(r["encounter"], r["roller"]) or "?", r["encounter"], r["roller"])["faces"].update(d20s)
    for s in rows.get("stats_spells", ()):
        p = person(label(s["encounter"], s["caster"]) or "?", s["encounter"], s["caster"])
        p["spells"] += 1
        if s["slot"]:
            p["slots"][str(s["slot"])] += 1
    opened: dict[tuple[str, str], datetime] = {}
    for t in rows.get("stats_turns", ()):
        key = (t["encounter"], t["combatant"])
        at = datetime.fromisoformat(t["at"])
        if t["change"] == "start":
            opened[key] = at
        elif key in opened:
            person(label(*key) or "?", *key)["turns"].append((at - opened.pop(key)).total_seconds())

    characters = []
    for name, p in people.items():
        if scope.character and name.lower() != scope.character.lower():
            continue
        counts = [p["faces"][i] for i in range(1, 21)]
        stat, df = chi_square(counts)
        n = sum(counts)
        characters.append(
            CharacterStats(
                name=name,
                kind=p["kind"],
                side=p["side"],
                encounters=len(p["encounters"]),
                damage_dealt=p["dealt"],
                damage_rolled=p["rolled"],
                damage_dealt_withheld=p["dealt_withheld"],
                damage_taken=p["taken"],
                damage_taken_withheld=p["taken_withheld"],
                attacks=p["attacks"],
                hits=p["hits"],
                misses=p["attacks"] - p["hits"],
                criticals=p["criticals"],
                d20=D20(
                    rolls=n,
                    faces=counts,
                    ones=counts[0],
                    twenties=counts[19],
                    chi_square=round(stat, 4),
                    p_value=round(chi_square_tail(stat, df), 4) if n else 1.0,
                    trusted=n >= MIN_EXPECTED * 20,
                ),
                spells=p["spells"],
                slots=dict(sorted(p["slots"].items())),
                turns=len(p["turns"]),
                median_turn_seconds=round(statistics.median(p["turns"]), 3) if p["turns"] else None,
            )
        )
    history = [
        HistoryMove(
            encounter=h["encounter"],
            seq=h["seq"],
            kind=h["kind"],
            reason=h["reason"] or "",
            actor=h["actor"] or "",
            seqs=msgspec.json.decode(h["seqs"] or "[]"),
        )
        for h in rows.get("stats_history", ())
    ]
    return Stats(
        scope=scope,
        encounters=[
            {"id": e["encounter"], "name": e["name"], "kind": e["kind"], "rounds": e["round"]}
            for e in rows.get("stats_encounters", ())
        ],
        characters=sorted(characters, key=lambda c: (c.kind != "pc", c.name)),
        rounds=[RoundDamage(encounter=e, round=r, side=s, damage=v) for (e, r, s), v in sorted(rounds.items())],
        rulings=dict(sorted(Counter(h.kind for h in history).items())),
        history=history,
        viewer=viewer,
    )


def by_table(pairs: Sequence[tuple[str, Sequence[Mapping[str, Any]]]]) -> dict[str, list[Mapping[str, Any]]]:
    out: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for table, rows in pairs:
        out[table].extend(rows)
    return out
