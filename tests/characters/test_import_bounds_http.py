"""A Foundry import over HTTP that the sheet cannot hold is refused with 422, saved or not, and
the party still lists: nothing out of bounds is ever stored for the next read to choke on."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tests.characters.foundry_actors import foundry_actor, item_of


def _hp(actor: dict[str, Any]) -> None:
    actor["system"]["attributes"]["hp"]["max"] = 10**12


def _ac(actor: dict[str, Any]) -> None:
    actor["system"]["attributes"]["ac"] = {"calc": "flat", "flat": 10**9}


def _slots(actor: dict[str, Any]) -> None:
    actor["system"]["spells"]["spell1"]["override"] = 5000


def _uses(actor: dict[str, Any]) -> None:
    item_of(actor, "Second Wind")["system"]["uses"]["max"] = "5000"


def _denomination(actor: dict[str, Any]) -> None:
    item_of(actor, "Longsword")["system"]["damage"]["base"]["denomination"] = "eight"


def _parts(actor: dict[str, Any]) -> None:
    item_of(actor, "Dagger")["system"]["damage"]["parts"] = [[4, "piercing"]]


# (fixture, what is changed, the code, what the detail names)
BAD: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    ("fighter-4x", _hp, "character/invalid", "max_hp 1000000000000"),
    ("fighter-4x", _ac, "character/invalid", "ac 1000000000"),
    ("wizard-2x", _slots, "character/invalid", "spellcasting.slots[0] 5000"),
    ("randal-premade", _uses, "character/invalid", "(Second Wind).uses 5000"),
    ("fighter-4x", _denomination, "foundry/unreadable", "item 'Longsword'"),
    ("wizard-2x", _parts, "foundry/unreadable", "item 'Dagger'"),
]


@pytest.mark.parametrize("save", [False, True], ids=["not saved", "saved"])
@pytest.mark.parametrize(("fixture", "change", "code", "named"), BAD, ids=[c.__name__.strip("_") for _, c, _, _ in BAD])
def test_a_foundry_actor_beyond_the_sheets_bounds_is_refused_with_422_and_the_party_still_lists(
    client, fixture, change, code, named, save
):
    """Issue 30: an actor with HP 10^12, AC 10^9, 5,000 slots or uses, or a weapon's damage
    in no shape dnd5e writes, is refused (422, naming the field or item and what is allowed)
    whether or not `?save=true`; a good import saved before is still listed afterwards."""
    assert client.post("/characters/import", params={"save": "true"}, json=foundry_actor("randal-premade")).status_code == 200
    actor = copy.deepcopy(foundry_actor(fixture))
    change(actor)

    reply = client.post("/characters/import", params={"save": str(save).lower()}, json=actor)

    assert reply.status_code == 422, reply.text
    body = reply.json()
    assert body["error"] == code and named in body["detail"] and body["allowed"]
    party = client.get("/characters")
    assert party.status_code == 200 and [c["name"] for c in party.json()] == ["Randal (Human Fighter)"]
