"""Fuzz: bad input always gets a clear RuleError, and nothing is appended or lost.

Every registered ruleset is played through its own demo once; the states it passes through
(after each command) are the starting points. A ruleset without a demo (a plug-in need not
ship one) starts from a new encounter of it. From one of them the fuzzer sends a few
commands built from the command types themselves, with strings drawn mostly from what the
state holds (ids, sides, attack names...) and from the words the ruleset's modules name,
ints from small ranges with zero, negatives and huge values, faces of the wrong length.

A command either raises RuleError (and the state it was decided on is untouched) or gives
events the log's JSON codec reads back, whose state equals both the fold of the whole
history from scratch and the replay of the log as stored (which checks every event after a
change to the past against the rules again: an event the decider accepted must not come back
as a conflict), and which the narrative and state projections can show. Anything else
(KeyError, TypeError...) would be a 500, or a log that disagrees with itself.

CI runs a short, derandomized search; run a long one by hand with e.g.
`FUZZ_EXAMPLES=2000 pytest tests/kernel/test_fuzz_deciders.py`, with FUZZ_SEED=n to search elsewhere.
The JSON boundary (combat.app.catalog.decode_command) gets four times as many examples.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import re
import tempfile
import typing
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest
from hypothesis import HealthCheck, given, note, seed, settings
from hypothesis import strategies as st

from combat.app.application import Encounters
from combat.app.catalog import ALL_COMMAND_TYPES, all_command_types, command_types_of, decode_command, event_decoder, event_types
from combat.app.history import effective, replay
from combat.demos import DEMOS
from combat.kernel.commands import trigger_of
from combat.kernel.decider import decide, fold
from combat.kernel.errors import RuleError
from combat.kernel.records import Recorded
from combat.kernel.state import EncounterState
from combat.rulesets import RULESETS
from projections.narrative import Narrator
from projections.state import state_view

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
SEED = os.environ.get("FUZZ_SEED")


def fuzzing(examples: int):
    """Hypothesis settings with no example database: CI draws the same examples every run
    (derandomized); FUZZ_SEED=n searches elsewhere, by hand."""

    def apply(test):
        chosen = settings(
            max_examples=examples,
            derandomize=SEED is None,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
        return chosen(test if SEED is None else seed(int(SEED))(test))

    return apply


CODE = re.compile(r"^[a-z0-9-]+(/[a-z0-9-]+)+$")
ODD_STRINGS = ("", "nobody", " ", "x" * 300, "Ünïcødé", "null", "-1", "gm")
DICE = ("1d4", "2d6+3", "d20", "1d20+5", "1d0", "0d6", "1d6*1000", "4d6kh3", "1d%", "abc", "1d100000", "999d999", "-1d6")
HUGE = (0, -1, -100, 1000, 10**6, -(10**6), 2**31, 2**63 - 1, -(2**63))
# Fields whose strings name a combatant, group or side: drawn mostly from the state's ids.
ID_FIELDS = frozenset(
    [
        "combatant",
        "combatants",
        "attacker",
        "attackers",
        "target",
        "targets",
        "defenders",
        "rider",
        "mount",
        "caster",
        "grappler",
        "other",
        "foe",
        "winner",
        "a",
        "b",
        "instigators",
        "listeners",
        "order",
        "through",
        "leaves_reach_of",
        "flee_from",
        "away_from",
        "behind_cover",
        "helper",
        "against",
        "dragging",
        "flanking_with",
        "ends_on",
        "source",
        "group",
        "side",
    ]
)
FRESH_IDS = ("newcomer", "orc-9", "wolf_2", "z", "a" * 64, "a" * 65)
ACTOR_FIELDS = frozenset(["combatant", "attacker", "rider", "caster", "speaker"])  # mostly whoever's turn it is
DICE_FIELDS = frozenset(["notation", "damage", "roll_bonus", "die"])


# -- the starting points: every state a ruleset's own demo passes through ---------------------


DEMO_SEEDS = (1, 2, 3)


class Start(msgspec.Struct, frozen=True):
    records: tuple[Recorded, ...]  # the demo's log up to here
    state: EncounterState  # what it replays to
    events: tuple  # its effective history, folded from scratch to check the live state


_TMP = tempfile.TemporaryDirectory()
_LOGS: dict[tuple[str, int], list[Recorded]] = {}
_STARTS: dict[tuple[str, int, int], Start] = {}
_WORDS: dict[str, tuple[str, ...]] = {}
_FIELD_VALUES: dict[str, dict[str, tuple[str, ...]]] = {}


def _demo_log(ruleset_id: str, demo_seed: int) -> list[Recorded]:
    if (ruleset_id, demo_seed) not in _LOGS:
        encounters = Encounters(Path(_TMP.name) / f"{ruleset_id}-{demo_seed}.db")
        try:
            if ruleset_id in DEMOS:
                eid = DEMOS[ruleset_id](encounters, seed=demo_seed, report=lambda outcome: None)
            else:
                eid = encounters.create(ruleset_id, f"fuzz {demo_seed}", seed=demo_seed)
            _LOGS[ruleset_id, demo_seed] = list(encounters.records(eid))
        finally:
            encounters.close()
    return _LOGS[ruleset_id, demo_seed]


def _starting_points(ruleset_id: str) -> list[tuple[int, int]]:
    """(demo seed, prefix length) for every prefix that ends on a whole command: a state a
    table could really be in."""
    points = []
    for demo_seed in DEMO_SEEDS:
        records = _demo_log(ruleset_id, demo_seed)
        ends = [i + 1 for i in range(len(records)) if i + 1 == len(records) or records[i + 1].command_id != records[i].command_id]
        points += [(demo_seed, end) for end in ends]
    return points


def _start(ruleset_id: str, demo_seed: int, length: int) -> Start:
    key = (ruleset_id, demo_seed, length)
    if key not in _STARTS:
        prefix = _demo_log(ruleset_id, demo_seed)[:length]
        _STARTS[key] = Start(
            records=tuple(prefix), state=replay(prefix), events=tuple(rec.event for rec in effective(prefix).order)
        )
    return _STARTS[key]


def _ruleset_modules(ruleset_id: str) -> list[ModuleType]:
    ruleset = RULESETS[ruleset_id]
    names = {fn.__module__ for fn in (*ruleset.handlers.values(), *ruleset.appliers.values(), ruleset.flow)}
    names |= {t.__module__ for t in (*ruleset.commands, *ruleset.events)}
    modules = [importlib.import_module(n) for n in names]
    for module in list(modules):
        package = module.__name__.rsplit(".", 1)[0]
        if package.startswith("combat.rulesets.") and hasattr(importlib.import_module(package), "__path__"):
            pkg = importlib.import_module(package)
            modules += [importlib.import_module(f"{package}.{m.name}") for m in pkgutil.iter_modules(pkg.__path__)]
    return modules


def _strings_in(value: Any, found: set[str]) -> None:
    if isinstance(value, str):
        if 0 < len(value) <= 40:
            found.add(value)
    elif isinstance(value, msgspec.Struct):  # its values, not its field names
        for name in value.__struct_fields__:
            _strings_in(getattr(value, name), found)
    elif isinstance(value, dict):
        for k, v in value.items():
            _strings_in(k, found)
            _strings_in(v, found)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            _strings_in(v, found)
    elif typing.get_origin(value) is typing.Literal:
        _strings_in(typing.get_args(value), found)


def _words(ruleset_id: str) -> tuple[str, ...]:
    """Action, phase and option words the ruleset's modules name (constants, tables, Literals)."""
    if ruleset_id not in _WORDS:
        found: set[str] = set(RULESETS[ruleset_id].phases.phases) | set(RULESETS[ruleset_id].defaults)
        for module in _ruleset_modules(ruleset_id):
            for name, value in vars(module).items():
                if name.startswith("__") or isinstance(value, (ModuleType, type)) or callable(value):
                    continue
                _strings_in(value, found)
        for t in (*all_command_types(), *RULESETS[ruleset_id].events):
            for hint in typing.get_type_hints(t).values():
                _literals(hint, found)
        _WORDS[ruleset_id] = tuple(sorted(w for w in found if w.isprintable() and "\n" not in w))
    return _WORDS[ruleset_id]


def _literals(hint: Any, found: set[str]) -> None:
    if typing.get_origin(hint) is typing.Literal:
        found.update(a for a in typing.get_args(hint) if isinstance(a, str))
    for arg in typing.get_args(hint):
        _literals(arg, found)


# -- commands built from their types ---------------------------------------------------------


def _field_values(ruleset_id: str) -> dict[str, tuple[str, ...]]:
    """Every string each field name held in the demo's events (attack names, actions...)."""
    if ruleset_id not in _FIELD_VALUES:
        found: dict[str, set[str]] = {}

        def walk(value: Any, name: str) -> None:
            if isinstance(value, str):
                if 0 < len(value) <= 40:
                    found.setdefault(name, set()).add(value)
            elif isinstance(value, msgspec.Struct):
                for field in value.__struct_fields__:
                    walk(getattr(value, field), field)
            elif isinstance(value, (tuple, list)):
                for item in value:
                    walk(item, name)
            elif isinstance(value, dict):
                for item in value.values():
                    walk(item, name)

        for demo_seed in DEMO_SEEDS:
            for rec in _demo_log(ruleset_id, demo_seed):
                walk(rec.event, "")
        _FIELD_VALUES[ruleset_id] = {name: tuple(sorted(values)) for name, values in found.items()}
    return _FIELD_VALUES[ruleset_id]


class Vocabulary(msgspec.Struct, frozen=True):
    acting: tuple[str, ...]  # whose turn it is, else every combatant
    combatants: tuple[str, ...]
    groups: tuple[str, ...]  # groups and sides
    words: tuple[str, ...]
    fields: dict[str, tuple[str, ...]]  # field name -> what it held in the demo


def _vocabulary(state: EncounterState, words: tuple[str, ...], fields: dict[str, tuple[str, ...]]) -> Vocabulary:
    combatants = tuple(sorted(state.combatants)) or ("nobody",)
    groups = {c.group for c in state.combatants.values() if c.group} | {c.side for c in state.combatants.values()}
    seen: set[str] = set()
    _strings_in(state, seen)
    return Vocabulary(
        acting=(state.turn,) if state.turn in state.combatants else combatants,
        combatants=combatants,
        groups=tuple(sorted(groups)) or ("nobody",),
        words=tuple(sorted(seen | set(words))),
        fields=fields,
    )


def _pick(*pools: tuple[tuple[str, ...], int]) -> st.SearchStrategy[str]:
    """A string from one of `pools`, each chosen in proportion to its weight."""
    weighted = [i for i, (_, weight) in enumerate(pools) for _ in range(weight)]
    return st.sampled_from(weighted).flatmap(lambda i: st.sampled_from(pools[i][0]))


def _string(vocab: Vocabulary, field: str) -> st.SearchStrategy[str]:
    if field in DICE_FIELDS:
        return _pick((DICE, 6), (vocab.words, 2), (ODD_STRINGS, 1))
    if field == "id":  # a newcomer's id
        return _pick((FRESH_IDS, 8), (vocab.combatants, 2), (vocab.groups, 1), (ODD_STRINGS, 1))
    if field in ACTOR_FIELDS:
        return _pick((vocab.acting, 10), (vocab.combatants, 4), (vocab.groups, 1), (vocab.words, 1), (ODD_STRINGS, 1))
    if field in ID_FIELDS:
        return _pick((vocab.acting, 2), (vocab.combatants, 8), (vocab.groups, 2), (vocab.words, 2), (ODD_STRINGS, 1))
    if field in vocab.fields:
        return _pick((vocab.fields[field], 6), (vocab.words, 3), (vocab.combatants, 1), (ODD_STRINGS, 1))
    return _pick((vocab.words, 8), (vocab.combatants, 1), (vocab.groups, 1), (ODD_STRINGS, 1))


def _int(faces: bool) -> st.SearchStrategy[int]:
    if faces:
        return st.one_of(st.integers(1, 20), st.integers(1, 20), st.integers(0, 25), st.sampled_from((1, 20, 30, 90, 100, -1)))
    return st.one_of(st.integers(-3, 30), st.integers(-3, 30), st.sampled_from(HUGE))


def _value(t: mi.Type, vocab: Vocabulary, field: str, faces: bool = False) -> st.SearchStrategy[Any]:
    faces = faces or "faces" in field
    if isinstance(t, mi.StrType):
        return _string(vocab, field)
    if isinstance(t, mi.BoolType):
        return st.booleans()
    if isinstance(t, mi.IntType):
        return _int(faces)
    if isinstance(t, mi.FloatType):
        return st.floats(-10, 100, allow_nan=False)
    if isinstance(t, mi.NoneType):
        return st.none()
    if isinstance(t, mi.LiteralType):
        return st.sampled_from(t.values)
    if isinstance(t, mi.UnionType):
        members = [m for m in t.types if not isinstance(m, mi.NoneType)]
        inner = st.one_of(*[_value(m, vocab, field, faces) for m in members])
        return st.one_of(st.none(), inner, inner) if t.includes_none else inner
    if faces and isinstance(t, mi.VarTupleType) and isinstance(t.item_type, mi.IntType):
        # Most rolls are one die: one face half the time, else 0-6 of them.
        one = st.lists(_int(True), min_size=1, max_size=1)
        return st.one_of(one, one, st.lists(_int(True), max_size=6)).map(tuple)
    if isinstance(t, (mi.VarTupleType, mi.ListType, mi.SetType, mi.FrozenSetType)):
        most = 6 if faces else 3
        items = st.lists(_value(t.item_type, vocab, field, faces), max_size=most)
        return items.map(tuple) if isinstance(t, mi.VarTupleType) else items
    if isinstance(t, mi.TupleType):
        return st.tuples(*[_value(i, vocab, field, faces) for i in t.item_types])
    if isinstance(t, mi.DictType):
        return st.dictionaries(_value(t.key_type, vocab, field), _value(t.value_type, vocab, field), max_size=3)
    if isinstance(t, mi.StructType):
        return _struct(t, vocab)
    if isinstance(t, mi.AnyType):
        return st.one_of(st.none(), st.booleans(), _int(False), _string(vocab, field))
    raise NotImplementedError(f"no strategy for {t!r} in field {field}")


def _struct(t: mi.StructType, vocab: Vocabulary) -> st.SearchStrategy[Any]:
    """A struct with every required field and, half the time each, its optional ones."""
    fields = {}
    for f in t.fields:
        value = _value(f.type, vocab, f.name)
        fields[f.name] = value if f.required else st.one_of(st.just(_DEFAULT), value)
    return st.fixed_dictionaries(fields).map(lambda kw: t.cls(**{k: v for k, v in kw.items() if v is not _DEFAULT}))


_DEFAULT = object()
_INFO: dict[type, mi.StructType] = {}


def _info(command_type: type) -> mi.StructType:
    if command_type not in _INFO:
        _INFO[command_type] = mi.type_info(command_type)  # type: ignore[assignment]
    return _INFO[command_type]


def _command(draw, ruleset_id: str, state: EncounterState):
    """Mostly a command the phase allows now; sometimes any command of any ruleset."""
    own = command_types_of(ruleset_id)
    allowed = [own[t] for t in RULESETS[ruleset_id].phases.commands(state.phase) if t in own]
    if allowed and draw(st.integers(0, 9)) < 8:
        command_type = draw(st.sampled_from(allowed))
    else:
        command_type = draw(st.sampled_from(all_command_types()))  # read now: a plug-in registered late is in it
    vocab = _vocabulary(state, _words(ruleset_id), _field_values(ruleset_id))
    command = draw(_struct(_info(command_type), vocab))
    # Only what the JSON boundary lets through can reach the decider (constraints, types).
    try:
        return msgspec.json.decode(msgspec.json.encode(command), type=command_type)
    except msgspec.ValidationError:
        return None


def _actor(draw, state: EncounterState) -> str:
    players = sorted({c.player for c in state.combatants.values() if c.player})
    if players and draw(st.integers(0, 9)) < 2:
        return draw(st.sampled_from(players))
    return draw(st.sampled_from(("gm",) * 8 + ("nobody",)))


def _recorded(events: list, after: Recorded, command: int) -> list[Recorded]:
    """Events as the store would append them after `after`, as one command."""
    return [
        Recorded(
            originator_id=after.originator_id,
            originator_version=after.originator_version + i + 1,
            timestamp=after.timestamp,
            actor="gm",
            command_id=f"fuzz-{command}",
            event=event,
        )
        for i, event in enumerate(events)
    ]


# -- the property ----------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_every_command_is_decided_or_refused_with_a_rule_error(ruleset_id):
    """Whatever a client sends, the decider answers with events or a RuleError: never a crash."""
    _fuzz(ruleset_id)


def test_a_plugin_without_a_demo_is_fuzzed_from_a_new_encounter():
    """An installed plug-in is parametrized above like any ruleset: with no demo of its own
    (`demo/none`) it is fuzzed from a new encounter of it, not failed."""
    from combat.rulesets import register
    from tests.plugins import twenty_one

    assert twenty_one.RULESET.id not in DEMOS
    register(twenty_one.RULESET)
    try:
        assert _starting_points(twenty_one.RULESET.id) == [(seed, 1) for seed in DEMO_SEEDS]
        _fuzz(twenty_one.RULESET.id)
    finally:
        del RULESETS[twenty_one.RULESET.id]


def _fuzz(ruleset_id: str) -> None:
    points = _starting_points(ruleset_id)
    ruleset = RULESETS[ruleset_id]

    @fuzzing(EXAMPLES)
    @given(data=st.data())
    def run(data):
        draw = data.draw
        start = _start(ruleset_id, *draw(st.sampled_from(points), label="demo seed and prefix"))
        state, records, events = start.state, list(start.records), list(start.events)
        narrator = Narrator()
        for rec in records:
            narrator.line(rec)
        for number in range(draw(st.integers(1, 10), label="commands")):
            command = _command(draw, ruleset_id, state)
            if command is None:
                continue
            actor = _actor(draw, state)
            note(f"{actor}: {msgspec.json.encode(command).decode()}")
            before = msgspec.json.encode(state)
            try:
                new = decide(ruleset, state, command, actor)
            except RuleError as error:
                assert CODE.match(error.code), f"unstable error code {error.code!r}"
                assert error.message and str(error)
                assert msgspec.json.encode(state) == before, "a refused command changed the state it was decided on"
                continue
            assert msgspec.json.encode(state) == before, "deciding changed the state it was decided on"
            for event in new:
                assert type(event) in event_types(), f"{type(event).__name__} is not in the catalog"
                assert event_decoder().decode(msgspec.json.encode(event)) == event
            appended = _recorded(new, records[-1], number)
            live = msgspec.structs.replace(fold(ruleset, new, state), version=appended[-1].seq if appended else state.version)
            records += appended
            events += new
            from_scratch = msgspec.structs.replace(
                fold(ruleset, events), version=live.version, retracted=state.retracted, conflicts=state.conflicts
            )
            assert live == from_scratch, "the live state differs from the log folded from scratch"
            assert live == replay(records), "the live state differs from the stored log replayed"
            for rec in appended:
                assert isinstance(narrator.line(rec), str)
            state_view(live)
            msgspec.json.decode(msgspec.json.encode(live), type=EncounterState)
            state = live

    run()


# -- the JSON boundary -----------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
TAGS = st.sampled_from([trigger_of(c) for c in ALL_COMMAND_TYPES] + ["", "nope", "Attack"])


def _field_names() -> list[str]:
    return sorted({f.name for c in ALL_COMMAND_TYPES for f in _info(c).fields})


@fuzzing(EXAMPLES * 4)
@given(
    payload=st.one_of(
        JSON,
        st.fixed_dictionaries({"type": TAGS}, optional={}).flatmap(
            lambda base: st.dictionaries(st.sampled_from(_field_names()), JSON, max_size=5).map(lambda d: {**d, **base})
        ),
    ),
    as_bytes=st.booleans(),
    ruleset_id=st.sampled_from(sorted(RULESETS)),
)
def test_any_json_becomes_a_command_or_a_rule_error(payload, as_bytes, ruleset_id):
    """decode_command reads what the HTTP layer receives: anything else is a clear RuleError."""
    try:
        decode_command(payload if isinstance(payload, dict) and not as_bytes else json.dumps(payload).encode(), ruleset_id)
    except RuleError as error:
        assert error.code in ("command/invalid", "command/malformed", "command/other-ruleset")


@fuzzing(EXAMPLES * 4)
@given(raw=st.binary(max_size=40) | st.text(max_size=40), ruleset_id=st.sampled_from(sorted(RULESETS)))
def test_any_bytes_become_a_command_or_a_rule_error(raw, ruleset_id):
    """Not JSON, or not UTF-8, or JSON of no command: a clear RuleError too."""
    try:
        decode_command(raw, ruleset_id)
    except RuleError as error:
        assert error.code in ("command/invalid", "command/malformed", "command/other-ruleset")
