"""Hidden information by construction (issue 25, finding 1: "Hidden information leaks to
players and viewers"). Each event type declares once what a player or viewer sees of it
when the combatant it concerns is hidden (`hidden`, combat/kernel/hidden.py), and one
Redaction applies those declarations on every read path. Each scenario below is one leak
the issue found, read as a player at the table: its docstring says what they must not learn."""

from __future__ import annotations

import json
import re

import httpx
import jsonschema_rs
import msgspec
import pytest

from combat.app.catalog import ALL_EVENT_TYPES
from combat.characters.build import build_sheet
from combat.common.commands import ApplyCondition, Damage, RemoveCondition, SavingThrow, StartConcentration
from combat.fivee.attack_commands import Attack
from combat.fivee.characters import AddCharacter
from combat.fivee.gm_edit_commands import ChangeStatBlock, SetHp, StatChanges
from combat.fivee.initiative import RollInitiative
from combat.fivee.monsters import AddCreature
from combat.kernel.commands import AddCombatant, BeginCombat, RemoveCombatant
from combat.kernel.decider import Rules, Ruleset
from combat.kernel.encounter import ENCOUNTER
from combat.kernel.events import AttackProfile, ConditionSpec, Event
from combat.kernel.hidden import Hidden, undeclared
from combat.kernel.phases import PhaseTable
from combat.rulesets import register
from combat.service.schemas import state_schema
from tests.helpers import REPLAYS, Table, monster, pc
from tests.plugins.twenty_one import Counted
from tests.service.helpers import LiveServer, bearer, open_fight, read_events, set_the_scene

CLAW = AttackProfile(name="Hiddenclaw", bonus=7, damage="2d9+11", damage_type="piercing")


def _texts(fight, token) -> str:
    """Everything a reader can fetch about the fight's past, as one text (compact JSON: a
    number reads `:78`; the narrative lines as they are)."""
    compact = [
        fight.get("/events", token=token).json(),
        [json.loads(line) for line in fight.get("/events", token=token, format="jsonl").text.splitlines()],
        fight.get("/audit", token=token).json(),
        fight.get(token=token).json(),
    ]
    log = [line["text"] for line in fight.get("/log", token=token).json()]
    return json.dumps(compact, separators=(",", ":")) + "\n" + "\n".join(log)


def _imp_fight(client):
    """Aria (Sam's) and an unrevealed imp whose Hiddenclaw is +7, 2d9+11; the imp acts first."""
    fight = open_fight(client)
    fight.do(AddCombatant(combatant=pc("aria", player="Sam", max_hp=30)))
    fight.do(AddCombatant(combatant=monster("imp", max_hp=40, ac=13, attacks=(CLAW,))))
    fight.do(BeginCombat())
    fight.do(RollInitiative(combatant="imp", faces=(20,)))
    fight.do(RollInitiative(combatant="aria", faces=(2,)))
    return fight


# -- by construction -------------------------------------------------------------------------


def test_every_event_type_of_every_ruleset_declares_what_a_player_sees():
    """A new event type cannot leak by being forgotten: each says it, on its own class."""
    assert undeclared(ALL_EVENT_TYPES) == []
    assert undeclared([Counted]) == []  # the plug-in ruleset's own event
    assert all(isinstance(vars(t)["hidden"], Hidden) for t in ALL_EVENT_TYPES)


def test_a_plug_in_whose_event_says_nothing_is_refused_at_registration():
    class Whispered(Event, frozen=True, kw_only=True):
        secret: str

    rules = Rules(appliers={Whispered: lambda state, e: state})
    from combat.kernel.decider import assemble

    quiet = Ruleset.of(
        assemble(ENCOUNTER, rules),
        id="whispers",
        title="Whispers",
        summary="",
        phases=PhaseTable("whispers", ("setup",), [], "setup"),
        turn_order=lambda s, i: [],
    )
    with pytest.raises(TypeError, match="Whispered"):
        register(quiet)


# -- the leaks the issue lists ------------------------------------------------------------------


def test_set_hp_and_a_changed_stat_block_of_a_hidden_monster(client):
    """The GM sets the goblin's HP and its AC mid-fight: a player does not learn 4000, 4321 or 78."""
    fight = set_the_scene(open_fight(client))
    fight.do(ChangeStatBlock(combatant="goblin", changes=StatChanges(ac=78, max_hp=4321)))
    fight.do(SetHp(combatant="goblin", hp=4000))
    sam = fight.token("player", "Sam", ("aria",))
    seen = _texts(fight, sam)
    assert ":4000" not in seen and ":4321" not in seen and ":78" not in seen
    log = seen.rpartition("[")[2]
    assert "4000" not in log and "4321" not in log and "78" not in log
    events = fight.get("/events", token=sam).json()
    hp_set = [e for e in events if e["type"] == "HitPointsSet"][-1]
    assert hp_set["hp"] is None and hp_set["previous"] is None and hp_set["combatant"] == "goblin"
    assert next(e for e in events if e["type"] == "StatBlockChanged")["changes"] is None
    log = [line["text"] for line in fight.get("/log", token=sam).json()]
    assert "The GM sets Goblin's HP" in log[-1]
    gm = _texts(fight, None)
    assert '"hp":4000' in gm and '"ac":78' in gm


def test_an_attack_in_two_steps_on_a_hidden_monster_shows_no_ac(client):
    """Aria's d20 first, damage later: Sam sees that she hit, not the goblin's AC (no "vs AC 15")."""
    fight = set_the_scene(open_fight(client))
    sam = fight.token("player", "Sam", ("aria",))
    fight.do(Attack(attacker="aria", target="goblin", faces=(17,)), token=sam)
    rolled = [e for e in fight.get("/events", token=sam).json() if e["type"] == "AttackRolled"]
    assert rolled and rolled[0]["target_ac"] is None and rolled[0]["damage_dice"] == "1d8+3"  # her own dice
    log = [line["text"] for line in fight.get("/log", token=sam).json()]
    assert not [line for line in log if "AC" in line and "Aria attacks Goblin" in line]
    assert any("vs AC 15" in line["text"] for line in fight.get("/log").json())


def test_a_hidden_monsters_hit_gives_neither_its_dice_nor_its_bonus(client):
    """The imp's Hiddenclaw hits Aria: Sam hears its total, as at the table, but not the attack's
    name (it names the imp's stat block's profile, issue 30), its damage dice (2d9+11) or its
    natural roll (total minus natural is its +7): not in the events, the log, his state's
    `pending_damage` (the 5e block's, now or `?at=`), nor the refusal he gets."""
    fight = _imp_fight(client)
    fight.do(Attack(attacker="imp", target="aria", faces=(12,)))
    sam = fight.token("player", "Sam", ("aria",))
    version = fight.state()["version"]
    rolled = next(e for e in fight.get("/events", token=sam).json() if e["type"] == "AttackRolled")
    assert rolled["attack"] is None and rolled["total"] == 19
    assert rolled["natural"] is None and rolled["damage_dice"] is None
    state = fight.get(token=sam).json()
    [pending] = state["srd_2024"]["pending_damage"]
    assert pending["damage_dice"] is None and pending["natural"] is None and pending["attack"] is None
    assert fight.get(token=sam, at=version).json()["srd_2024"]["pending_damage"] == state["srd_2024"]["pending_damage"]
    refused = fight.send(Attack(attacker="aria", target="imp", faces=(10,)), token=sam)
    assert refused.status_code == 409 and refused.json()["error"] == "attack/damage-pending"
    assert "Hiddenclaw" not in refused.text and "2d9+11" not in refused.text and "+11" not in refused.text
    seen = _texts(fight, sam)
    assert (
        "Hiddenclaw" not in seen and "2d9+11" not in seen and '"natural":12' not in seen and "1d20+7" not in seen
    )  # (hashes are hex: "2d9" alone may occur)
    assert fight.state()["srd_2024"]["pending_damage"][0]["damage_dice"] == "2d9+11"  # the GM's


def test_an_open_reaction_window_shows_a_player_neither_the_hidden_attackers_dice_nor_its_held_damage():
    """A hidden goblin's hit on Elara waits for her Shield. Sam reads the window that offers
    it, and the hit's total (said aloud), but not the goblin's damage faces the window holds,
    its attack's dice or name, or its natural roll; the GM reads them all. Both sit in the 5e
    block of the state (`srd_2024`), and a fresh state has neither."""
    from projections.redaction import Redaction
    from projections.state import state_view

    elara = build_sheet(
        name="Elara", class_name="Wizard", level=5, scores="STR 8 DEX 14 CON 12 INT 16 WIS 12 CHA 10", spells=("Shield",)
    )
    t = Table("srd-2024")
    assert "srd_2024" not in state_view(t.state)
    t.do(AddCharacter(character=elara, side="party", player="sam"))
    t.do(AddCreature(creature="Goblin Warrior", count=1, side="goblins"))
    t.start({"elara": 5, "goblin-warrior": 15})
    t.do(Attack(attacker="goblin-warrior", target="elara", faces=(10,), damage_faces=(3,)))

    class Sam:
        role, combatants = "player", frozenset({"elara"})

    gm = json.loads(msgspec.json.encode(state_view(t.state)))
    sam = json.loads(msgspec.json.encode(Redaction(t.state, Sam()).view(state_view(t.state))))["srd_2024"]
    assert "pending_damage" not in gm and "reaction_window" not in gm
    gm = gm["srd_2024"]
    assert gm["reaction_window"]["held"]["damage_faces"] == [3] and gm["pending_damage"][0]["damage_dice"] == "1d6+2"
    assert sam["reaction_window"]["reactors"] == {"elara": ["Shield"]} and sam["reaction_window"]["held"] == {}
    [pending] = sam["pending_damage"]
    assert pending["total"] == 14 and pending["target_ac"] == 12
    assert (pending["natural"], pending["damage_dice"], pending["attack"]) == (None, None, None)


def test_a_hidden_creatures_save_awaiting_its_dc_shows_a_player_no_natural_roll():
    """The hidden goblin's Dexterity save waits for the GM's DC: Sam may not learn its natural
    roll (total minus natural is its bonus), in the state view as the projection hands it over
    (a tuple slot still a tuple) as in its JSON; the GM reads it."""
    from projections.redaction import Redaction
    from projections.state import state_view

    t = Table("srd-2024")
    t.do(AddCombatant(combatant=pc("aria", player="Sam")))
    t.do(AddCreature(creature="Goblin Warrior", count=1, side="goblins"))
    t.start({"aria": 5, "goblin-warrior": 15})
    t.do(SavingThrow(combatant="goblin-warrior", ability="dexterity", faces=(11,)))

    class Sam:
        role, combatants = "player", frozenset({"aria"})

    [gm] = state_view(t.state)["srd_2024"]["rolled_saves"]
    [seen] = Redaction(t.state, Sam()).view(state_view(t.state))["srd_2024"]["rolled_saves"]
    assert gm["natural"] == 11 and seen["natural"] is None and seen["total"] == gm["total"]


def test_a_hidden_creatures_concentration_save_owed_shows_a_player_no_dc():
    """The hidden goblin concentrates and takes 24 damage: it owes a DC 12 Constitution save
    ("10 or half the damage you take"). Sam may not learn the damage it took after its
    resistances (nor the DC, which gives the damage away): both blank, as
    `ConcentrationCheckRequired` declares, and the redacted state schema allows them blank;
    the GM reads both."""
    from projections.redaction import Redaction
    from projections.state import state_view

    t = Table("srd-2024")
    t.do(AddCombatant(combatant=pc("aria", player="Sam")))
    t.do(AddCombatant(combatant=monster("goblin", max_hp=30)))
    t.start({"aria": 5, "goblin": 15})
    t.do(StartConcentration(combatant="goblin", effect="Bless"))
    t.do(Damage(target="goblin", amount=24, damage_type="fire"))

    class Sam:
        role, combatants = "player", frozenset({"aria"})

    [gm] = state_view(t.state)["srd_2024"]["pending_checks"]
    sams = json.loads(msgspec.json.encode(Redaction(t.state, Sam()).view(state_view(t.state))))
    assert (gm["dc"], gm["damage"]) == (12, 24)
    assert sams["srd_2024"]["pending_checks"] == [{"combatant": "goblin", "dc": None, "damage": None}]
    # ... and what Sam reads is what GET /schemas/state?view=redacted promises (it once was not).
    assert jsonschema_rs.validator_for(state_schema("redacted")).is_valid(sams)


def test_a_hidden_conditions_end_read_apart_from_its_start(client):
    """The goblin's hidden poison ends; a player reading only the events after its start
    (`?after=N`) learns nothing of "poisoned": the name is judged from the state, not the read."""
    fight = set_the_scene(open_fight(client))
    fight.do(ApplyCondition(target="goblin", condition=ConditionSpec(name="poisoned", hidden=True)))
    after = fight.state()["version"]
    fight.do(RemoveCondition(target="goblin", condition="poisoned"))
    sam = fight.token("player", "Sam", ("aria",))
    tail = fight.get("/events", token=sam, after=after).json()
    assert [e["condition"] for e in tail if e["type"] == "ConditionEnded"] == ["a hidden condition"]
    assert "poisoned" not in fight.get("/events", token=sam, after=after, format="jsonl").text
    assert "poisoned" not in _texts(fight, sam)
    assert "poisoned" in fight.get("/events", after=after).text  # the GM's


def test_a_removed_monsters_dice_and_stat_block_stay_hidden(client):
    """The GM adds an ogre from the bestiary with rolled HP, then removes it: it is gone from
    the state, but its HP dice and its stat block stay in the log, and stay hidden from a player."""
    fight = open_fight(client)
    fight.do(AddCombatant(combatant=pc("aria", player="Sam", max_hp=30)))
    fight.do({"type": "add_creature", "creature": "Ogre", "side": "monsters", "hp": "rolled"})
    [ogre] = [cid for cid in fight.state()["combatants"] if cid != "aria"]
    fight.do(RemoveCombatant(combatant=ogre, reason="fled"))
    sam = fight.token("player", "Sam", ("aria",))
    events = fight.get("/events", token=sam).json()
    added = next(e for e in events if e["type"] == "CombatantAdded" and e["combatant"]["id"] == ogre)
    assert added["combatant"]["ac"] is None and added["combatant"]["max_hp"] is None and added["combatant"]["attacks"] == []
    assert next(e for e in events if e["type"] == "StatBlockAttached")["stat_block"] is None
    rolls = [e for e in events if e["type"] == "DiceRolled" and e["roller"] == ogre]
    assert rolls and all(r["notation"] is None and r["dice"] == [] for r in rolls)
    seen = _texts(fight, sam)
    hp_dice = re.compile(r"\b8d10\b")  # as a word: a chain hash's hex digits may hold "8d10" by chance
    assert "Greatclub" not in seen and not hp_dice.search(seen)
    gms = _texts(fight, None)
    assert "Greatclub" in gms and hp_dice.search(gms)


def test_the_stream_after_n_without_state_keeps_a_hidden_condition_hidden(encounters):
    """Both stream modes, resumed after the condition's start: no "poisoned"."""
    from combat.service import create_app

    with LiveServer(create_app(encounters)) as server, httpx.Client(base_url=server.url, timeout=10) as http:
        fight = set_the_scene(open_fight(http))
        fight.do(ApplyCondition(target="goblin", condition=ConditionSpec(name="poisoned", hidden=True)))
        after = fight.state()["version"]
        fight.do(RemoveCondition(target="goblin", condition="poisoned"))
        viewer = fight.token("viewer", "Table display")
        for with_state in ("false", "true"):
            with http.stream(
                "GET", fight.url("/stream"), headers=bearer(viewer), params={"after": after, "state": with_state}
            ) as reply:
                messages = read_events(reply.iter_lines(), fight.state()["version"] - after)
            assert messages and "poisoned" not in json.dumps(messages), with_state


# -- the redacted views' own schema ----------------------------------------------------------------


def test_a_players_and_a_viewers_state_match_the_redacted_state_schema(client):
    """The full schema requires `ac`, `hp`, `max_hp`; a hidden imp has them left out (and its
    `health` word instead), so the redacted views are checked against their own schema."""
    fight = _imp_fight(client)
    fight.do(Attack(attacker="imp", target="aria", faces=(12,)))
    redacted = jsonschema_rs.validator_for(client.get("/schemas/state", params={"view": "redacted"}).json())
    assert jsonschema_rs.validator_for(state_schema()).is_valid(fight.state())
    for token in (fight.token("player", "Sam", ("aria",)), fight.token("viewer", "Table display")):
        view = fight.get(token=token).json()
        assert "hp" not in view["combatants"]["imp"] and view["combatants"]["imp"]["health"] == "unhurt"
        assert redacted.is_valid(view), list(redacted.iter_errors(view))[:3]
        assert not jsonschema_rs.validator_for(state_schema()).is_valid(view)
    line_schema = jsonschema_rs.validator_for(client.get("/schemas/events", params={"view": "redacted"}).json())
    for line in fight.get("/events", token=fight.token("viewer", "Screen")).json():
        assert line_schema.is_valid(line), line


def test_the_health_word_follows_the_hit_points():
    from projections.redaction import health

    assert [health(hp, 40) for hp in (40, 21, 20, 1)] == ["unhurt", "hurt", "bloodied", "bloodied"]


def test_declarations_blank_only_fields_their_type_has():
    """A declaration naming a field its event does not have would blank nothing, silently."""
    for t in ALL_EVENT_TYPES:
        rule = vars(t)["hidden"]
        fields = set(t.__struct_fields__)
        for about, names in rule.blanks:
            assert about in fields and set(names) <= fields, (t.__name__, about, names)
        assert msgspec.json.schema(t)  # still a published type


@pytest.mark.parametrize("log", sorted(REPLAYS.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_recorded_session_read_as_a_viewer_narrates_and_matches_the_redacted_schemas(log):
    """Each blanked field is read by its narrator without a crash, and each redacted line and
    the redacted state match their published schemas."""
    from combat.app.application import fold_records
    from combat.app.interchange import event_schema, read_jsonl, to_line
    from combat.service.schemas import redacted
    from projections.narrative import narrate
    from projections.redaction import Redaction
    from projections.state import state_view

    class Viewer:
        role, combatants = "viewer", frozenset()

    records = list(read_jsonl(log.read_bytes().splitlines()))
    state = fold_records(records)
    shown = Redaction(state, Viewer())
    seen = list(shown.records(records))
    assert len(list(narrate(seen))) == len(records)
    lines = jsonschema_rs.validator_for(redacted(event_schema()))
    for rec in seen:
        line = json.loads(to_line(rec))
        assert lines.is_valid(line), line
    view = json.loads(msgspec.json.encode(shown.view(state_view(state))))
    assert jsonschema_rs.validator_for(state_schema("redacted")).is_valid(view)
