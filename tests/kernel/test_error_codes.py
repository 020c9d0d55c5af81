"""Every error code the source raises is declared, with its kind, by a room its module sees,
and every declared code is raised somewhere: the rooms' tables, the registry that merges them
and the docs page built from it cannot rot.

A room is the package whose `error_codes.py` declares a code: the kernel, common, fivee, each ruleset
under combat/rulesets, the application side (`app`: combat/app, the store, campaigns,
characters, stats, the CLI, projections/) and the service. A module raises the codes of its
own room and of the rooms it may import (`rooms_seen_from`); a code several rooms raise is
declared in the lowest room they share.

The source is read with `ast`, not run: a code is the string given as the code argument of
`RuleError(code, ...)`, `ApiError(status, code, ...)`, the HTTP layer's `_reply(request,
status, code, ...)` or a `super().__init__(code, ...)` in a subclass of `RuleError`. A code
built by an f-string (`f"economy/{resource}-spent"`) must match at least one declared code,
and each declared code matches a literal or such a pattern. A code passed through a
variable (`raise RuleError(code, ...)`) counts every `area/what` string of its module.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from combat.app.error_registry import error_codes, kind_of
from combat.kernel.error_kinds import CODE_SHAPE, ErrorCode, Kind, declared, merged
from combat.rulesets import BUILT_IN, RULESETS
from combat.service.error_codes import SERVICE_ERROR_CODES
from combat.service.errors import status_of_code
from mkdocs_hooks import error_rooms
from tests.helpers import ROOT

SOURCES = ("combat", "projections")
_PART = "[a-z0-9-]+"


@dataclass
class Found:
    literals: dict[str, list[str]] = field(default_factory=dict)  # code -> where
    patterns: dict[str, list[str]] = field(default_factory=dict)  # regex -> where
    statuses: dict[str, set[int]] = field(default_factory=dict)  # code -> statuses the HTTP layer gives it itself

    def add(self, code: str, where: str) -> None:
        self.literals.setdefault(code, []).append(where)


def _template(node: ast.JoinedStr) -> str:
    return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)


def _pattern(template: str) -> str:
    return "".join(_PART if part == "{}" else re.escape(part) for part in re.split(r"(\{\})", template))


def _module_codes(tree: ast.Module) -> set[str]:
    return {
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and CODE_SHAPE.fullmatch(n.value)
    }


def _rule_error_classes(trees: dict[Path, ast.Module]) -> set[str]:
    bases = {
        n.name: {b.id for b in n.bases if isinstance(b, ast.Name)}
        for t in trees.values()
        for n in ast.walk(t)
        if isinstance(n, ast.ClassDef)
    }
    known = {"RuleError"}
    while grown := {name for name, of in bases.items() if of & known} - known:
        known |= grown
    return known


def _code_argument(call: ast.Call, in_class: str | None, rule_errors: set[str]) -> tuple[ast.expr, ast.expr | None] | None:
    """The node of the call's code argument and of its status argument, if it has one."""
    f = call.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
    if name == "RuleError" and call.args:
        return call.args[0], None
    if name == "ApiError" and len(call.args) > 1:
        return call.args[1], call.args[0]
    if name == "_reply" and len(call.args) > 2:
        return call.args[2], call.args[1]
    is_super = isinstance(f, ast.Attribute) and isinstance(f.value, ast.Call) and getattr(f.value.func, "id", None) == "super"
    if name == "__init__" and is_super and in_class in rule_errors and in_class != "ApiError" and call.args:
        return call.args[0], None  # ApiError's own super() passes its parameter through
    return None


def _classes_of(tree: ast.Module) -> dict[ast.AST, str]:
    owner: dict[ast.AST, str] = {}
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for node in ast.walk(cls):
            owner.setdefault(node, cls.name)
    return owner


def _read(found: Found, node: ast.expr, status: ast.expr | None, tree: ast.Module, where: str) -> None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        found.add(node.value, where)
        if isinstance(status, ast.Constant) and isinstance(status.value, int):
            found.statuses.setdefault(node.value, set()).add(status.value)
    elif isinstance(node, ast.JoinedStr):
        found.patterns.setdefault(_pattern(_template(node)), []).append(where)
    elif isinstance(node, ast.IfExp):
        _read(found, node.body, status, tree, where)
        _read(found, node.orelse, status, tree, where)
    elif isinstance(node, ast.Name) or (isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == "self"):
        for code in _module_codes(tree):
            found.add(code, where)
    # else: another error's code passed on (`exc.code`): counted where it was raised


def extract(root: Path = ROOT) -> Found:
    trees = {
        p: ast.parse(p.read_text(encoding="utf-8"), str(p))
        for d in SOURCES
        for p in sorted((root / d).rglob("*.py"))
        if "bench" not in p.relative_to(root).parts
    }
    rule_errors = _rule_error_classes(trees)
    found = Found()
    for path, tree in trees.items():
        owner = _classes_of(tree)
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            arg = _code_argument(call, owner.get(call), rule_errors)
            if arg is not None:
                _read(found, arg[0], arg[1], tree, f"{path.relative_to(root)}:{call.lineno}")
    return found


FOUND = extract()
ROOMS = error_rooms()  # room -> its declared codes
DECLARED_IN = {error.code: room for room, table in ROOMS.items() for error in table}
DECLARED = {error.code: error for table in ROOMS.values() for error in table}


# They build on the kernel and common, never on fivee (tests/app/test_rooms.py).
OUTSIDE_THE_FIVE_E_FAMILY = ("rulesets/declared_d10", "rulesets/segments_1e")


def room_of(where: str) -> str:
    """The room of the module at `where` (`combat/fivee/dying.py:12`): the kernel, common, fivee,
    a ruleset (`rulesets/a5e`), the service, or else the application side (`app`)."""
    parts = Path(where.partition(":")[0]).parts
    if parts[0] == "combat" and parts[1] in ("kernel", "common", "fivee", "service"):
        return parts[1]
    if parts[0] == "combat" and parts[1] == "rulesets" and len(parts) > 3:
        return f"rulesets/{parts[2]}"
    return "app"


def rooms_seen_from(room: str) -> set[str]:
    """The rooms whose codes a module of `room` may raise: its own and those it may import
    (tests/app/test_rooms.py holds the imports to the same contract)."""
    if room in ("kernel", "common", "fivee", "app", "service"):
        return {
            "kernel": {"kernel"},
            "common": {"kernel", "common"},
            "fivee": {"kernel", "common", "fivee"},
            "app": {"kernel", "app"},
            "service": {"kernel", "app", "service"},
        }[room]
    assert room.startswith("rulesets/"), room
    if room in OUTSIDE_THE_FIVE_E_FAMILY:
        return {"kernel", "common", room}
    return {"kernel", "common", "fivee", room}


def _matches(pattern: str, code: str) -> bool:
    return re.fullmatch(pattern, code.replace("{status}", "400")) is not None


def test_every_room_has_one_table():
    """Each room's `error_codes.py` holds its one table; the five rooms and every ruleset
    package with codes of its own have one."""
    assert {"kernel", "common", "fivee", "app", "service"} <= set(ROOMS)
    assert all(isinstance(e, ErrorCode) for table in ROOMS.values() for e in table)


def test_no_code_is_declared_by_two_rooms():
    """'A code raised by modules of several rulesets goes to the lowest room they share': once."""
    rooms_of: dict[str, list[str]] = {}
    for room, table in ROOMS.items():
        for error in table:
            rooms_of.setdefault(error.code, []).append(room)
    assert {code: rooms for code, rooms in rooms_of.items() if len(rooms) > 1} == {}


def test_every_code_the_source_raises_is_declared_in_a_room_its_module_sees():
    """'Each room owns its error codes': raised in room P, declared in P or a room P imports."""
    undeclared = {code: where[0] for code, where in FOUND.literals.items() if code not in DECLARED}
    assert undeclared == {}, "declare these in the error_codes.py of the room that raises them"
    astray = {
        f"{code} at {w}": DECLARED_IN[code]
        for code, where in FOUND.literals.items()
        for w in where
        if DECLARED_IN[code] not in rooms_seen_from(room_of(w))
    }
    assert astray == {}


def test_every_built_code_matches_a_declared_one_its_module_sees():
    """`f"economy/{resource}-spent"`: the room's table lists its expansions."""
    unmatched = {
        f"{p} at {w}": [code for code in DECLARED if _matches(p, code)]
        for p, where in FOUND.patterns.items()
        for w in where
        if not any(_matches(p, code) and DECLARED_IN[code] in rooms_seen_from(room_of(w)) for code in DECLARED)
    }
    assert unmatched == {}


def test_every_declared_code_is_raised_somewhere_that_sees_its_room():
    def raised(code: str) -> bool:
        sites = FOUND.literals.get(code, []) + [w for p, where in FOUND.patterns.items() if _matches(p, code) for w in where]
        return any(DECLARED_IN[code] in rooms_seen_from(room_of(w)) for w in sites)

    assert [code for code in DECLARED if not raised(code)] == []


def test_the_registry_merges_every_room():
    """The kernel's, the application's and the service's codes, and every ruleset's through its
    `Ruleset.error_codes`: each room's table reaches the registry, as declared."""
    registry = error_codes(SERVICE_ERROR_CODES)
    assert registry.items() >= DECLARED.items()  # and the codes of any plug-in installed here
    for ruleset_id, module in BUILT_IN.items():
        room = "rulesets/" + module.split(".")[2]
        # A ruleset raises the shared rules' codes too (common's, and fivee's in the 5e family):
        # it declares them with its own.
        shared = rooms_seen_from(room) - {"kernel", room}
        expected = set(ROOMS.get(room, ())).union(*(ROOMS[r] for r in shared))
        assert set(RULESETS[ruleset_id].error_codes) == expected, ruleset_id


def test_a_code_declared_twice_differently_is_refused_by_name():
    """'Duplicated code across rooms with different kinds/meanings must fail loudly.'"""
    one = declared(refused={"turn/not-yours": "it is …'s turn, not …'s"})
    assert merged(one, one) == {"turn/not-yours": one[0]}  # the same declaration twice is one code
    with pytest.raises(ValueError, match="turn/not-yours"):
        merged(one, declared(invalid={"turn/not-yours": "it is …'s turn, not …'s"}))
    with pytest.raises(ValueError, match="turn/not-yours"):
        merged(one, declared(refused={"turn/not-yours": "another meaning"}))
    with pytest.raises(ValueError, match="turn/not-yours"):
        declared(refused={"turn/not-yours": "x"}, invalid={"turn/not-yours": "x"})


def test_a_kind_declared_takes_is_one_of_kind():
    """A misspelt kind is refused as the room is declared, not passed over."""
    assert declared(not_found={"campaign/none": "no campaign …"})[0].kind is Kind.NOT_FOUND
    with pytest.raises(TypeError, match="refusd"):
        declared(refusd={"turn/not-yours": "x"})


def test_a_code_needs_its_shape_and_a_one_line_meaning():
    """Every code has a kind by construction (`ErrorCode(code, kind, meaning)`, or its group in
    `declared`); its shape and its meaning are checked as it is made."""
    for code, meaning in (("no-slash", "a meaning"), ("area/what", ""), ("area/what", "two\nlines")):
        with pytest.raises(ValueError):
            ErrorCode(code, Kind.REFUSED, meaning)


# Generated from the service's status tables as they were before each code declared its kind
# (`status_of_code` of every code, by code, area and part after the slash): no status changed.
STATUSES_BEFORE = json.loads((Path(__file__).parent / "data/error_statuses.json").read_text())


def test_every_code_keeps_the_status_it_had():
    assert set(STATUSES_BEFORE) == set(DECLARED)
    assert {code: status_of_code(code) for code in STATUSES_BEFORE} == STATUSES_BEFORE


def test_a_code_no_room_declares_is_refused():
    """A plug-in's own code that it declared nowhere keeps the old default: 409."""
    assert kind_of("plugin-thing/unheard-of") is None
    assert status_of_code("plugin-thing/unheard-of") == 409


# In a path (GET /rulesets/{id}) an unknown ruleset is a missing resource; in a body it is a wrong field.
_BOTH = {"ruleset/unknown": 404}


def test_the_http_layers_own_statuses_are_the_ones_the_docs_give():
    """`ApiError(401, "auth/missing", ...)` carries its status; its kind gives the same."""
    wrong = {
        code: (sorted(statuses), status_of_code(code))
        for code, statuses in FOUND.statuses.items()
        if not statuses <= {status_of_code(code), _BOTH.get(code)}
    }
    assert wrong == {}


def test_the_docs_page_lists_every_code_with_its_room_and_status():
    from mkdocs_hooks import errors_page

    page = errors_page()
    assert [code for code in DECLARED if f"| `{code}` | {DECLARED_IN[code]} | {DECLARED[code].kind.value} | " not in page] == []
    assert "| `auth/missing` | service | unauthenticated | 401 |" in page
    assert "| `economy/action-spent` | common | refused | 409 |" in page
    assert "| `http/{status}` | service | passed-on | its own |" in page
