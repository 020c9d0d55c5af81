"""An action or bonus action granted before the creature's turn, kept for that turn.

Haste is cast on the caster's turn: "the target ... gains an additional action on each of its
turns", its own turn; a GM grants Action Surge as the fighter's turn comes round. `grant_action`
sent outside the creature's turn records an `ActionBanked`:

- the grant waits for the creature's next turn to start (a turn passed over, by death or
  `goto_turn`, starts nothing and the grant keeps waiting);
- on that turn, once the creature has spent its own action (or bonus action), the banked one is
  made available (`BankedActionGranted`), as `grant_action` would on its own turn;
- unused when that turn ends, it lapses: a grant is for one turn, as Action Surge's "one
  additional action" is (a GM grants Haste's action again for each later turn). A turn taken
  back by `previous_turn` will come again, so the grant waits for it once more.

A reaction granted outside the creature's turn is given back at once, as before: reactions
are taken on anyone's turn.

The slot is unset, and so absent from the state's JSON, while nothing is banked: logs from
before `ActionBanked` fold as they did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Literal

import msgspec

from combat.kernel.decider import Rules, Tx
from combat.kernel.events import Event, TurnEnded, TurnStarted
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import EncounterState, with_combatant, with_rules

if TYPE_CHECKING:
    from combat.fivee.state import FiveEState

__all__ = ["Banked", "BankedGrant", "BankedSlot", "banked_of", "redeem", "RULES", "ActionBanked", "BankedActionGranted"]


# -- the events of an action kept for the next turn ------------------------------------------


class ActionBanked(Event, frozen=True, kw_only=True):
    """An action or bonus action granted outside the creature's turn (Haste cast on the
    caster's turn, a GM's grant before the turn starts): kept for its next turn."""

    combatant: str
    kind: Literal["action", "bonus_action"]
    reason: str = ""
    hidden: ClassVar[Hidden] = PUBLIC


class BankedActionGranted(Event, frozen=True, kw_only=True):
    """On the turn it was kept for, the creature has spent its own action (or bonus action):
    the banked one is available now."""

    combatant: str
    kind: Literal["action", "bonus_action"]
    reason: str = ""
    hidden: ClassVar[Hidden] = PUBLIC


class BankedGrant(msgspec.Struct, frozen=True, kw_only=True):
    combatant: str
    kind: str
    reason: str = ""
    armed: bool = False  # its turn has started: usable once its own is spent


class Banked(msgspec.Struct, frozen=True, kw_only=True):
    grants: tuple[BankedGrant, ...] = ()


# The 5e slice (combat/fivee/state.py) holds it as `banked`, unset until a grant is banked.
BankedSlot = Banked | msgspec.UnsetType


def banked_of(state: EncounterState[FiveEState]) -> tuple[BankedGrant, ...]:
    held = state.rules.banked
    return () if held is msgspec.UNSET else held.grants


def _with_grants(state: EncounterState, grants: tuple[BankedGrant, ...]) -> EncounterState:
    if not grants and banked_of(state) == ():
        return state
    return with_rules(state, banked=Banked(grants=grants) if grants else msgspec.UNSET)


def redeem(tx: Tx) -> None:
    """After each command: on the turn a grant was kept for, the banked action (or bonus
    action) becomes available once the creature's own is spent."""
    cid = tx.state.turn
    for grant in banked_of(tx.state):
        c = tx.state.combatants.get(grant.combatant)
        if grant.armed and grant.combatant == cid and c is not None and not getattr(c.economy, grant.kind):
            tx.emit(BankedActionGranted(combatant=cid, kind=grant.kind, reason=grant.reason))  # type: ignore[arg-type]


def on_banked(state: EncounterState, e: ActionBanked) -> EncounterState:
    return _with_grants(state, (*banked_of(state), BankedGrant(combatant=e.combatant, kind=e.kind, reason=e.reason)))


def on_granted(state: EncounterState, e: BankedActionGranted) -> EncounterState:
    grants = list(banked_of(state))
    used = next((i for i, g in enumerate(grants) if g.combatant == e.combatant and g.kind == e.kind and g.armed), None)
    if used is not None:
        del grants[used]
    c = state.combatants[e.combatant]
    state = with_combatant(state, c.id, economy=msgspec.structs.replace(c.economy, **{e.kind: True}))
    return _with_grants(state, tuple(grants))


def _armed_at_turn_start(state: EncounterState, e: TurnStarted) -> EncounterState:
    cid = e.combatant
    grants = banked_of(state)
    if not any(g.combatant == cid and not g.armed for g in grants):
        return state
    return _with_grants(state, tuple(msgspec.structs.replace(g, armed=True) if g.combatant == cid else g for g in grants))


def _lapsed_at_turn_end(state: EncounterState, e: TurnEnded) -> EncounterState:
    """An armed grant unused lapses, or waits again for a turn taken back."""
    cid = e.combatant
    grants = banked_of(state)
    if not any(g.combatant == cid and g.armed for g in grants):
        return state
    if e.taken_back:
        return _with_grants(state, tuple(msgspec.structs.replace(g, armed=False) if g.combatant == cid else g for g in grants))
    return _with_grants(state, tuple(g for g in grants if not (g.combatant == cid and g.armed)))


RULES = Rules(
    appliers={ActionBanked: on_banked, BankedActionGranted: on_granted},
    # Its own books, after whichever applier the ruleset has for a turn's start and end.
    after={TurnStarted: (_armed_at_turn_start,), TurnEnded: (_lapsed_at_turn_end,)},
)
