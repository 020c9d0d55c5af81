"""Hostile and careless bodies (findings 4, 9 and 10 of issue 14): each is refused with a
4xx that says what was wrong and what is allowed, before any token is looked at where the
body cannot be read, and nothing is appended."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from combat.service import create_app
from combat.service.checks import too_deep
from combat.service.limits import Limits
from tests.service.helpers import bearer, open_fight, set_the_scene

DEEP = b'{"command":' + b"[" * 1000 + b"]" * 1000 + b"}"  # about 2 KB, 1,000 levels


def test_a_deeply_nested_body_is_a_400_with_or_without_a_token(client):
    fight = set_the_scene(open_fight(client))
    version = fight.state()["version"]
    json = {"content-type": "application/json"}
    for path, headers in (
        ("/encounters", json),
        (fight.url("/commands"), json),
        (fight.url("/commands"), {**json, **bearer(fight.gm)}),
        (fight.url("/undo"), json),
    ):
        reply = client.post(path, content=DEEP, headers=headers)
        fight.rejects(reply, 400, "request/too-deep")
    assert fight.state()["version"] == version


def test_a_body_over_the_size_limit_is_a_413(encounters):
    with TestClient(create_app(encounters, limits=Limits(max_body=2000))) as http:
        fight = open_fight(http)
        reply = fight.send({"type": "ruling", "text": "x" * 1990})
        fight.rejects(reply, 413, "request/too-large")
        assert "2000 bytes" in reply.json()["allowed"]
        assert fight.state()["version"] == 1


def test_a_text_over_the_length_limit_is_refused_and_nothing_is_appended(client):
    fight = set_the_scene(open_fight(client))
    version = fight.state()["version"]
    error = fight.rejects(fight.send({"type": "ruling", "text": "the ogre " * 300}), 422, "limits/text")
    assert "command.text" in error["detail"] and "2000 characters" in error["allowed"]
    assert fight.state()["version"] == version


def test_a_command_may_append_only_so_many_events(client, encounters):
    """'On a hit, you roll damage': the dice, the attack, the goblin dropping and the fight
    ending are more events than this server allows one command."""
    fight = set_the_scene(open_fight(client))
    with TestClient(create_app(encounters, limits=Limits(max_events=2))) as http:
        fight.http = http
        version = fight.state()["version"]
        attack = {"type": "attack", "attacker": "aria", "target": "goblin", "faces": [12], "damage_faces": [6]}
        error = fight.rejects(fight.send(attack), 422, "limits/events")
        assert "at most 2" in error["allowed"]
        assert fight.state()["version"] == version


@pytest.mark.parametrize(
    ("command", "where"),
    [
        ({"type": "damage", "target": "goblin", "damage_type": "fire", "amount": "7"}, "amount"),
        ({"type": "take_action", "combatant": "aria", "action": "Dash", "bonus_action": "true"}, "bonus_action"),
        ({"type": "move", "combatant": "aria", "feet": 2**60}, "feet"),
        ({"type": "damage", "target": "goblin", "damage_type": "fire", "amount": -(2**70)}, "amount"),
    ],
)
def test_loose_types_are_refused(client, command, where):
    fight = set_the_scene(open_fight(client))
    version = fight.state()["version"]
    error = fight.rejects(fight.send(command), 422, "request/invalid")
    assert where in error["detail"]
    assert fight.state()["version"] == version


def test_a_negative_number_of_dice_is_refused(client):
    fight = set_the_scene(open_fight(client))
    for notation in ("-1d6", "-(2d6)", "0d6"):
        reply = fight.send({"type": "damage", "target": "goblin", "damage_type": "fire", "notation": notation})
        fight.rejects(reply, 422, "dice/bad-notation")
    assert fight.state()["combatants"]["goblin"]["hp"] == 7


def test_a_version_sent_as_a_string_is_refused(client):
    fight = set_the_scene(open_fight(client))
    reply = client.post(
        fight.url("/commands"),
        json={"command": {"type": "ruling", "text": "x"}, "expected_version": "8"},
        headers=bearer(fight.gm),
    )
    fight.rejects(reply, 422, "request/invalid")


@pytest.mark.parametrize("query", [{"at": "1e3"}, {"at": "1.0"}, {"at": " 2"}, {"at": "0x2"}])
def test_query_numbers_are_plain_digits(client, query):
    fight = set_the_scene(open_fight(client))
    fight.rejects(fight.get(**query), 400, "request/bad-parameter")
    fight.rejects(fight.get("/events", after=query["at"]), 400, "request/bad-parameter")
    assert fight.get(at="2").status_code == 200


def test_the_stream_flag_is_true_or_false(client):
    fight = open_fight(client)
    fight.rejects(fight.get("/stream", state="1"), 400, "request/bad-parameter")


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.integers() | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
        max_leaves=30,
    )
)
def test_the_depth_count_agrees_with_a_parser(value):
    import json

    body = json.dumps(value).encode()

    def depth(v) -> int:
        if isinstance(v, list):
            return 1 + max((depth(x) for x in v), default=0)
        if isinstance(v, dict):
            return 1 + max((depth(x) for x in v.values()), default=0)
        return 0

    for limit in range(6):
        assert too_deep(body, limit) == (depth(value) > limit)
