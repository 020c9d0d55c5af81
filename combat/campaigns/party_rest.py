"""The whole party rests at once: every character of a campaign that is not in a fight (and is
alive) takes the same rest, and the summary says what came back to each (HP, spell slots, Pact
Magic slots, limited-use features) and who did not rest and why."""

from __future__ import annotations

from typing import TYPE_CHECKING
from uuid import UUID

import msgspec

from combat.fivee.characters import CharacterStatus

if TYPE_CHECKING:
    from combat.campaigns.party import Campaigns

__all__ = ["PartyRest", "RestSummary", "rest_party"]


class RestSummary(msgspec.Struct, frozen=True, kw_only=True):
    """What one character's rest gave back, or why it did not rest (`skipped`)."""

    name: str
    rested: bool
    skipped: str | None = None  # "in a fight", "dead"
    healed: int = 0
    hp: int = 0
    max_hp: int = 0
    slots_back: dict[str, int] = {}  # spell level ("1", "2", ...) -> slots regained
    pact_back: int = 0
    uses_back: dict[str, int] = {}  # limited-use feature -> uses regained


class PartyRest(msgspec.Struct, frozen=True, kw_only=True):
    kind: str
    characters: list[RestSummary]


def _slots_back(before: CharacterStatus, after: CharacterStatus) -> dict[str, int]:
    out: dict[str, int] = {}
    for level, spent in enumerate(before.slots_spent, start=1):
        left = after.slots_spent[level - 1] if level <= len(after.slots_spent) else 0
        if spent > left:
            out[str(level)] = spent - left
    return out


def rest_party(campaigns: Campaigns, campaign: UUID, kind: str, *, actor: str = "gm") -> PartyRest:
    """Every character of `campaign` not in a fight takes a `kind` rest (a Short Rest spends no
    Hit Point Dice: those are each character's own choice, `combat characters rest NAME`)."""
    campaigns.carry_over()
    out: list[RestSummary] = []
    for found in campaigns.roster(campaign).characters:
        sheet, before = found.sheet, found.status
        hp_before = before.hp if before.hp is not None else sheet.max_hp
        if found.fight is not None or before.dead:
            why = "dead" if before.dead else f"in the fight {found.fight}"
            out.append(RestSummary(name=found.name, rested=False, skipped=why, hp=hp_before, max_hp=sheet.max_hp))
            continue
        stored, done = campaigns.rest(campaign, found.name, kind, actor=actor)
        after = stored.status
        uses = {k: v - after.resources_used.get(k, 0) for k, v in before.resources_used.items()}
        out.append(
            RestSummary(
                name=stored.name,
                rested=True,
                healed=done.healed,
                hp=after.hp if after.hp is not None else sheet.max_hp,
                max_hp=sheet.max_hp,
                slots_back=_slots_back(before, after),
                pact_back=max(0, before.pact_spent - after.pact_spent),
                uses_back={k: v for k, v in uses.items() if v > 0},
            )
        )
    return PartyRest(kind=kind, characters=out)
