"""The command reference a GM reads before sending anything: every command of every ruleset
with its fields, who may send it, its phases and an example that works."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from combat.app.catalog import decode_command
from combat.app.interchange import read_jsonl
from combat.app.reference import command_doc, commands_of
from combat.cli import cli
from combat.kernel.commands import trigger_of
from combat.kernel.decider import decide, evolve
from combat.kernel.errors import RuleError
from combat.kernel.state import EncounterState
from combat.rulesets import RULESETS
from tests.helpers import REPLAYS


def _recorded() -> dict[str, Path]:
    """The recorded session of each shipped ruleset, by ruleset id."""
    return {read_jsonl(p.read_bytes().splitlines()[:1])[0].event.ruleset: p for p in sorted(REPLAYS.glob("*.jsonl"))}


SHIPPED = sorted(_recorded())


def _states_by_phase(ruleset_id: str) -> dict[str, EncounterState]:
    """From the ruleset's recorded session: the set-up with everyone added, and the first
    state of every later phase."""
    log = _recorded()[ruleset_id]
    ruleset = RULESETS[ruleset_id]
    state, states = ruleset.initial_state(), {}
    for record in read_jsonl(log.read_bytes().splitlines()):
        state = evolve(ruleset, state, record.event)
        if state.phase not in states or state.phase == ruleset.phases.initial:
            states[state.phase] = state
    return states


def _cast(example: dict, state: EncounterState) -> dict:
    """The example's people played by the session's: whoever's turn it is (or a character),
    a second character, and a foe."""
    pcs = sorted(c.id for c in state.combatants.values() if c.kind == "pc")
    actor = state.turn or pcs[0]
    side = state.combatants[actor].side
    foes = sorted(c.id for c in state.combatants.values() if c.side != side)
    ally = next(p for p in pcs if p != actor)
    text = json.dumps(example)
    for ours, theirs in (("aria", actor), ("lyra", ally), ("goblin-1", foes[0])):
        text = text.replace(json.dumps(ours), json.dumps(theirs))
    return json.loads(text)


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_every_command_has_an_example_that_decodes_and_the_decider_answers_it(ruleset_id):
    """'A command with an unknown or missing field is refused': so every example must be a
    valid command, and in a state of a phase that allows it the decider either accepts it or
    refuses it by a rule (a RuleError), never by crashing."""
    assert len(SHIPPED) >= 5
    ruleset = RULESETS[ruleset_id]
    states = _states_by_phase(ruleset_id)
    docs = commands_of(ruleset)
    assert {d.type for d in docs} == {trigger_of(c) for c in ruleset.handlers}
    accepted = 0
    for doc in docs:
        assert doc.example["type"] == doc.type
        command = decode_command(doc.example, ruleset_id)
        assert trigger_of(type(command)) == doc.type
        required = {f.name for f in doc.fields if f.required}
        assert required <= set(doc.example), doc.type
        phase = next((p for p in doc.phases if p in states), None)
        if phase is None:
            continue
        try:
            decide(ruleset, states[phase], decode_command(_cast(doc.example, states[phase]), ruleset_id))
            accepted += 1
        except RuleError as refused:
            assert refused.code != "command/invalid", (doc.type, refused)
    assert accepted >= 5, f"only {accepted} examples of {ruleset_id} were accepted in their phase"


def test_a_command_lists_its_fields_with_type_default_and_meaning():
    attack = command_doc(RULESETS["srd-2024"], "attack")
    fields = {f.name: f for f in attack.fields}
    assert fields["attacker"].required and fields["attacker"].type == "string"
    assert not fields["cover"].required and fields["cover"].default == "none"
    assert "'three-quarters'" in fields["cover"].type
    assert fields["roll_bonus"].meaning == 'dice added to the attack roll, e.g. "1d4" for Bless'
    assert attack.sent_by == (
        "GM, or the player of the combatant named in `attacker` (only the GM sets `advantage`, `disadvantage`, `roll_bonus`, "
        "`mirror_faces`, `resistance_faces`)"
    )
    assert attack.phases == ("turns",)


def test_who_may_send_and_when_come_from_the_class_and_the_phase_table():
    """'The GM decides the order among tied monsters': order_tie names its actors in `order`;
    add_combatant is the GM's alone, and begin_combat only starts a fight still being set up."""
    srd = RULESETS["srd-2024"]
    assert command_doc(srd, "add_combatant").sent_by == "GM only"
    assert command_doc(srd, "begin_combat").phases == ("setup",)
    assert "`order`" in command_doc(srd, "order_tie").sent_by
    adding = command_doc(srd, "add_combatant")
    assert {f.name for f in adding.nested["CombatantSpec"]} >= {"id", "name", "kind", "side", "max_hp", "ac"}


def test_an_unknown_command_name_is_refused_with_the_rulesets_commands():
    with pytest.raises(RuleError) as refused:
        command_doc(RULESETS["a5e"], "d10_attack")
    assert refused.value.code == "command/unknown" and "make_attack" in refused.value.allowed
    assert "d10_attack" not in refused.value.allowed


def test_a_wrong_field_is_refused_with_that_commands_fields_and_an_example():
    """A GM typing `targt` learns attack's fields, not the list of every command type."""
    with pytest.raises(RuleError) as refused:
        decode_command({"type": "attack", "attacker": "aria", "targt": "goblin"}, "srd-2024")
    assert refused.value.code == "command/invalid" and "`targt`" in refused.value.message
    assert refused.value.allowed.startswith("fields of attack: attacker (string, required), target (string, required)")
    assert '"type":"attack","attacker":"aria","target":"goblin-1"' in refused.value.allowed
    assert "d10_attack" not in refused.value.allowed
    with pytest.raises(RuleError) as missing:
        decode_command('{"type": "move", "combatant": "aria"}', "srd-2024")
    assert "`feet`" in missing.value.message and missing.value.allowed.startswith("fields of move:")


def test_an_unknown_type_is_still_refused_with_the_list_of_the_rulesets_types():
    with pytest.raises(RuleError) as refused:
        decode_command({"type": "smite", "attacker": "aria"}, "srd-2024")
    assert refused.value.allowed.startswith("srd-2024 command types: ") and "attack" in refused.value.allowed
    assert "d10_attack" not in refused.value.allowed


def test_add_creature_is_each_rulesets_own():
    """The 5e rulesets add a creature by bestiary name ("three Goblin Warriors added by name");
    segments-1e adds one from a first-edition stat block the GM enters. One `type`, read as the
    encounter's ruleset reads it."""
    from combat.fivee.monsters import AddCreature as AddByName
    from combat.rulesets.segments_1e.commands import AddCreature as AddFirstEdition

    by_name = decode_command({"type": "add_creature", "creature": "goblin warrior", "side": "goblins"}, "a5e")
    assert isinstance(by_name, AddByName) and by_name.count == 1
    stats = {"id": "orc-1", "name": "Orc", "kind": "monster", "side": "orcs", "ac": 6, "hit_dice": "1"}
    first = decode_command({"type": "add_creature", "creature": stats}, "segments-1e")
    assert isinstance(first, AddFirstEdition) and first.creature.ac == 6
    with pytest.raises(RuleError) as refused:
        decode_command({"type": "add_creature", "creature": "goblin warrior", "side": "goblins"}, "segments-1e")
    assert refused.value.code == "command/other-ruleset"
    assert refused.value.message == ("add_creature as sent is a command of srd-2024, srd-2024-variant, a5e, not of segments-1e")
    assert refused.value.allowed.startswith("fields of add_creature: creature (CreatureStats")
    with pytest.raises(RuleError) as misspelt:
        decode_command({"type": "add_creature", "creatur": "goblin warrior", "side": "goblins"}, "a5e")
    assert misspelt.value.code == "command/invalid" and "`creatur`" in misspelt.value.message


def test_combat_commands_lists_and_shows_one_command():
    runner = CliRunner()
    listing = runner.invoke(cli, ["commands", "--ruleset", "declared-d10"], catch_exceptions=False)
    assert listing.exit_code == 0 and "d10_declare" in listing.stdout and "take_action" not in listing.stdout
    one = runner.invoke(cli, ["commands", "move"], catch_exceptions=False)
    assert "difficult_terrain" in one.stdout and 'example: {"type":"move","combatant":"aria","feet":30}' in one.stdout
    as_json = json.loads(runner.invoke(cli, ["commands", "--json", "--ruleset", "a5e", "tumble"]).stdout)
    assert as_json["type"] == "tumble" and as_json["example"]["type"] == "tumble"
    wrong = runner.invoke(cli, ["commands", "--ruleset", "a5e", "d10_attack"])
    assert wrong.exit_code == 2 and "a5e has no command 'd10_attack'" in wrong.stderr


def test_combat_reference_prints_a_rulesets_whole_page_in_markdown():
    """What a plug-in's author puts in their own docs (docs/write-a-ruleset.md): the same
    builders as the site's ruleset and command pages, on one page."""
    runner = CliRunner()
    page = runner.invoke(cli, ["reference", "--ruleset", "declared-d10"], catch_exceptions=False)
    assert page.exit_code == 0 and page.stdout.startswith("# Declared")
    ruleset = RULESETS["declared-d10"]
    assert "\n## Overview\n" in page.stdout and "```mermaid" in page.stdout
    assert all(f"\n### {d.type}\n" in page.stdout for d in commands_of(ruleset))
    assert ruleset.events and all(f"\n### {t.__name__}\n" in page.stdout for t in ruleset.events)
    assert "\n## The rules, module by module\n" in page.stdout
    wrong = runner.invoke(cli, ["reference", "--ruleset", "nope"])
    assert wrong.exit_code == 2 and "no ruleset 'nope'" in wrong.stderr


def test_the_service_serves_the_same_reference(client):
    listed = client.get("/rulesets/segments-1e/commands")
    assert listed.status_code == 200
    assert [c["type"] for c in listed.json()] == [d.type for d in commands_of(RULESETS["segments-1e"])]
    one = client.get("/rulesets/srd-2024/commands/attack").json()
    assert one["example"] == {"type": "attack", "attacker": "aria", "target": "goblin-1"}
    assert one["sent_by"].startswith("GM, or the player")
    assert client.get("/rulesets/nope/commands").status_code == 404
    unknown = client.get("/rulesets/srd-2024/commands/d10_attack")
    assert unknown.status_code == 404 and unknown.json()["error"] == "command/unknown"


def test_over_http_a_wrong_field_is_refused_with_that_commands_fields(client):
    """The same help when the command comes in a request body: 422, and attack's own fields."""
    opened = client.post("/encounters", json={"ruleset": "srd-2024", "name": "Typo", "seed": 1}).json()
    reply = client.post(
        f"/encounters/{opened['id']}/commands",
        headers={"Authorization": f"Bearer {opened['gm_token']}"},
        json={"command": {"type": "attack", "attacker": "aria", "targt": "goblin"}},
    )
    assert reply.status_code == 422 and "`targt`" in reply.json()["detail"]
    assert reply.json()["allowed"].startswith("fields of attack: attacker (string, required)")
    assert (
        client.get(f"/encounters/{opened['id']}/events", headers={"Authorization": f"Bearer {opened['gm_token']}"}).json()[-1][
            "seq"
        ]
        == 1
    )
