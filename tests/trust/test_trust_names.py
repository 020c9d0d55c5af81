"""Look-alike names (issue 14, finding 8): "player names `ɡm` (U+0261), `g\\u200bm`, `ｇｍ`
are issued and show as actor in the audit." Names are now NFKC-normalised and refused when
they could be mistaken for `gm` or for another name issued in the encounter."""

from __future__ import annotations

import pytest

from combat.fivee.action_commands import Move
from tests.service.helpers import open_fight, set_the_scene


def ask(fight, name: str, combatants=("aria",)):
    return fight.http.post(
        fight.url("/tokens"),
        json={"role": "player", "name": name, "combatants": list(combatants)},
        headers={"Authorization": f"Bearer {fight.gm}"},
    )


@pytest.mark.parametrize(
    "name",
    ["ɡm", "g\u200bm", "ｇｍ", "GM", "Gm ", "g\u202em"],
    ids=["latin-script-g", "zero-width-space", "fullwidth", "capitals", "trailing-space", "bidi"],
)
def test_a_name_that_reads_as_gm_is_refused(client, name):
    fight = open_fight(client)
    error = fight.rejects(ask(fight, name), 422, "token/bad-name")
    assert error["allowed"]


def test_a_name_like_one_already_issued_is_refused_but_the_same_name_is_the_same_person(client):
    fight = set_the_scene(open_fight(client))
    fight.token("player", "aria", ("aria",))
    fight.rejects(ask(fight, "arla", ("brom",)), 422, "token/bad-name")  # l for i
    fight.rejects(ask(fight, "ARIA", ("brom",)), 422, "token/bad-name")
    assert ask(fight, "aria").status_code == 201  # a second device for the same player


def test_a_fullwidth_name_is_recorded_in_its_ordinary_form(client):
    fight = set_the_scene(open_fight(client))
    sam = fight.token("player", "Ｓａｍ", ("aria",))
    done = fight.do(Move(combatant="aria", feet=5), token=sam)
    assert {e["actor"] for e in done["events"]} == {"Sam"}
    audit = fight.get("/audit").json()
    assert audit["entries"][-1]["actor"] == "Sam"
