"""Group initiative, rolled again every round.

"Once everyone has made their declarations for the round, one player in the group rolls a
d10 for group initiative and the GM rolls a d10 for initiative for each group of creatures
in the combat. ... The highest roll goes first and so on until each group has taken their
actions. Initiative is rolled at the start of each round so initiative order can change
from round to round." "Players can switch the order of who takes their actions each round
during their group initiative."

Readings:
- The players' group is every character of a side; creatures without a named `group` form
  one big group per side, and the GM names other groups (a boss as its own group).
- The surprise round's Advantage and Disadvantage ("roll their dice") apply to these d10s.
- Ties between groups: the players' group first (setting `initiative_ties`:
  `players_first`, or `creatures_first`); tied creature groups in the order they joined.
- Setting `surprise_round_order`: `initiative` (default, the surprise round is ordered by
  the d10s like any other) or `attackers_first` (the side with surprise acts first).
- Within a group, members act in the order they joined unless its players (or the GM, for
  creatures) set another; the order stands until changed and can be changed for members who
  have not yet acted this round.
"""

from __future__ import annotations

from typing import ClassVar

from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState, with_combatant, with_rules
from combat.rulesets.declared_d10.acting import name_of
from combat.rulesets.declared_d10.rolls import die_notation, roll_mode, surprise_reasons
from combat.rulesets.declared_d10.state import group_of, will_act

__all__ = [
    "D10RollGroupInitiative",
    "D10OrderGroup",
    "D10GroupInitiativeRolled",
    "D10GroupOrdered",
    "groups",
    "to_roll",
    "all_rolled",
    "turn_order",
    "roll_problem",
    "already_acted",
    "RULES",
]


class D10RollGroupInitiative(Command, frozen=True, kw_only=True):
    """Roll for one group, or with no group for every group still to roll."""

    group: str | None = None
    faces: tuple[int, ...] | None = None


class D10OrderGroup(Command, frozen=True, kw_only=True):
    """Who in `group` acts first: members from first to last (unlisted ones follow)."""

    actor_fields: ClassVar[tuple[str, ...]] = ("order",)  # players reorder their own characters

    group: str
    order: tuple[str, ...]


class D10GroupInitiativeRolled(Event, frozen=True, kw_only=True):
    group: str
    combatants: tuple[str, ...]
    total: int
    hidden: ClassVar[Hidden] = Hidden.said("total")


class D10GroupOrdered(Event, frozen=True, kw_only=True):
    group: str
    order: tuple[str, ...]
    hidden: ClassVar[Hidden] = PUBLIC


def groups(state: EncounterState) -> dict[str, list[Combatant]]:
    """Every initiative group and its members, in the order they joined."""
    result: dict[str, list[Combatant]] = {}
    for c in state.combatants.values():
        result.setdefault(group_of(c), []).append(c)
    return result


def _players(members: list[Combatant]) -> bool:
    return any(m.kind == "pc" for m in members)


def to_roll(state: EncounterState) -> list[str]:
    """Groups with someone who acts this round and no roll yet."""
    return [
        g
        for g, members in groups(state).items()
        if any(will_act(state, m) for m in members) and all(m.initiative is None for m in members)
    ]


def all_rolled(state: EncounterState) -> bool:
    return not to_roll(state)


def turn_order(state: EncounterState, include_dead: bool = False) -> list[str]:
    """This round's order: groups by their d10, highest first; within a group, those who have
    acted in the order they did, then the rest in the group's chosen order."""
    t = state.rules
    players_win_ties = state.settings.get("initiative_ties", "players_first") == "players_first"
    attackers_first = t.round_kind != "normal" and state.settings.get("surprise_round_order") == "attackers_first"
    rolled = [(g, ms) for g, ms in groups(state).items() if any(m.initiative is not None for m in ms)]
    joined = {g: i for i, (g, _) in enumerate(rolled)}

    def rank(item: tuple[str, list[Combatant]]) -> tuple:
        g, members = item
        total = next(m.initiative for m in members if m.initiative is not None)
        side_first = 0 if not attackers_first or members[0].side == t.attackers else 1
        tie = 0 if _players(members) == players_win_ties else 1
        return (side_first, -total, tie, joined[g])

    order: list[str] = []
    for g, members in sorted(rolled, key=rank):
        preferred = t.group_orders.get(g, ())
        acted = [cid for cid in t.acted if any(m.id == cid for m in members)]
        rest = sorted(
            (m.id for m in members if m.id not in acted),
            key=lambda cid: preferred.index(cid) if cid in preferred else len(preferred),
        )
        order += acted + rest
    hidden = ("dead", "fled")
    return [cid for cid in order if include_dead or state.combatants[cid].status not in hidden]


def roll_problem(state: EncounterState, group: str) -> str | None:
    """'Initiative is rolled at the start of each round': the problem when `group` may not roll
    its d10 now (no such group, rolled already this round, no one in it acts), else None."""
    members = groups(state).get(group)
    if not members:
        return f"there is no group '{group}'"
    if any(m.initiative is not None for m in members):
        return f"group '{group}' has already rolled its d10 this round; it rolls again next round"
    if not any(will_act(state, m) for m in members):
        return f"no one in group '{group}' acts this round: it does not roll"
    return None


def _roll(tx: Tx, cmd: D10RollGroupInitiative) -> None:
    all_groups = groups(tx.state)
    pending = to_roll(tx.state)
    if cmd.group is not None:
        problem = roll_problem(tx.state, cmd.group)
        if problem and cmd.group not in all_groups:
            raise RuleError("initiative/unknown-group", problem, allowed=", ".join(all_groups))
        if problem:
            rolled = any(m.initiative is not None for m in all_groups[cmd.group])
            code = "initiative/already-rolled" if rolled else "initiative/cannot-act"
            raise RuleError(code, problem, allowed=", ".join(pending) or "nobody left to roll")
        chosen = [cmd.group]
    else:
        chosen = pending
        if cmd.faces is not None and len(chosen) > 1:
            raise RuleError(
                "dice/whose-faces",
                f"faces were entered but {len(chosen)} groups still roll",
                allowed="name the group whose d10 was entered",
            )
    t = tx.state.rules
    for g in chosen:
        members = [m for m in all_groups[g] if m.status not in ("dead", "fled")]
        adv, dis = surprise_reasons(t, members[0])
        roll = tx.roll(die_notation(roll_mode(adv, dis), "d10"), purpose="group initiative", roller=g, faces=cmd.faces)
        tx.emit(D10GroupInitiativeRolled(group=g, combatants=tuple(m.id for m in members), total=roll.total))


def _order_group(tx: Tx, cmd: D10OrderGroup) -> None:
    all_groups = groups(tx.state)
    members = all_groups.get(cmd.group)
    if members is None:
        raise RuleError("initiative/unknown-group", f"no group '{cmd.group}'", allowed=", ".join(all_groups))
    players = {m.player for m in members if m.kind == "pc" and m.player}
    if tx.actor != "gm" and (not _players(members) or tx.actor not in players):
        raise RuleError(
            "initiative/not-your-group",
            f"{tx.actor} cannot order group '{cmd.group}'",
            allowed="its players" if _players(members) else "the GM orders creature groups",
        )
    ids = [m.id for m in members]
    stray = [cid for cid in cmd.order if cid not in ids]
    if stray or len(set(cmd.order)) != len(cmd.order) or not cmd.order:
        raise RuleError(
            "initiative/bad-order",
            f"{', '.join(stray) or 'the order'} is not a list of members of '{cmd.group}' each named once",
            allowed=", ".join(ids),
        )
    problem = already_acted(tx.state, cmd.order)
    if problem:
        raise RuleError("initiative/already-acted", problem, allowed="order only the members still to act")
    tx.emit(D10GroupOrdered(group=cmd.group, order=cmd.order))


def already_acted(state: EncounterState, order: tuple[str, ...]) -> str | None:
    """The order can be changed only for members who have not yet acted this round."""
    acted = [name_of(state, cid) for cid in order if cid in state.rules.acted]
    return f"{', '.join(acted)} already acted this round and cannot be reordered" if acted else None


def _on_rolled(state: EncounterState, e: D10GroupInitiativeRolled) -> EncounterState:
    for cid in e.combatants:
        state = with_combatant(state, cid, initiative=e.total)
    return state


def _on_ordered(state: EncounterState, e: D10GroupOrdered) -> EncounterState:
    return with_rules(state, group_orders={**state.rules.group_orders, e.group: e.order})


RULES = Rules(
    handlers={D10RollGroupInitiative: _roll, D10OrderGroup: _order_group},
    appliers={D10GroupInitiativeRolled: _on_rolled, D10GroupOrdered: _on_ordered},
    checks={
        D10GroupInitiativeRolled: lambda state, e, ctx: roll_problem(state, e.group),
        D10GroupOrdered: lambda state, e, ctx: already_acted(state, e.order),
    },
    narration={
        D10GroupInitiativeRolled: lambda n, e: (
            f"group {n.name(e.group)} ({', '.join(n.name(c) for c in e.combatants)}): initiative {e.total}"
        ),
        D10GroupOrdered: lambda n, e: f"group {n.name(e.group)} will act in the order {', '.join(n.name(c) for c in e.order)}",
    },
)
