"""Every error code the source raises is in `combat.kernel.error_codes.ERROR_CODES`, and every
code there is raised somewhere: the registry, and the docs page built from it, cannot rot.

The source is read with `ast`, not run: a code is the string given as the code argument of
`RuleError(code, ...)`, `ApiError(status, code, ...)`, the HTTP layer's `_reply(request,
status, code, ...)` or a `super().__init__(code, ...)` in a subclass of `RuleError`. A code
built by an f-string (`f"economy/{resource}-spent"`) must match at least one registered code,
and each registered code matches a literal or such a pattern. A code passed through a
variable (`raise RuleError(code, ...)`) counts every `area/what` string of its module.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

from combat.kernel.error_codes import ERROR_CODES
from combat.service.errors import status_of_code
from tests.helpers import ROOT

SOURCES = ("combat", "projections")
CODE_SHAPE = re.compile(r"[a-z][a-z0-9-]*/[a-z0-9{][a-z0-9{}-]*")
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


def _used(code: str) -> bool:
    if code in FOUND.literals:
        return True
    concrete = code.replace("{status}", "400")
    return any(re.fullmatch(p, concrete) for p in FOUND.patterns)


def test_every_code_the_source_raises_is_registered():
    missing = {code: where[0] for code, where in FOUND.literals.items() if code not in ERROR_CODES}
    assert missing == {}, "add these to combat/kernel/error_codes.py"


def test_every_built_code_matches_a_registered_one():
    """`f"economy/{resource}-spent"`: the registry lists its expansions."""
    unmatched = {
        p: where[0]
        for p, where in FOUND.patterns.items()
        if not any(re.fullmatch(p, code.replace("{status}", "400")) for code in ERROR_CODES)
    }
    assert unmatched == {}


def test_every_registered_code_is_raised_somewhere():
    assert [code for code in ERROR_CODES if not _used(code)] == []


def test_each_code_has_a_one_line_meaning():
    assert [code for code, meaning in ERROR_CODES.items() if not meaning.strip() or "\n" in meaning] == []
    assert [code for code in ERROR_CODES if not CODE_SHAPE.fullmatch(code)] == []


# In a path (GET /rulesets/{id}) an unknown ruleset is a missing resource; in a body it is a wrong field.
_BOTH = {"ruleset/unknown": 404}


def test_the_http_layers_own_statuses_are_the_ones_the_docs_give():
    """`ApiError(401, "auth/missing", ...)` carries its status; `status_of_code` says it too."""
    wrong = {
        code: (sorted(statuses), status_of_code(code))
        for code, statuses in FOUND.statuses.items()
        if not statuses <= {status_of_code(code), _BOTH.get(code)}
    }
    assert wrong == {}


def test_the_docs_page_lists_every_code_with_its_status():
    from mkdocs_hooks import errors_page

    page = errors_page()
    assert [code for code in ERROR_CODES if f"| `{code}` | " not in page] == []
    assert "| `auth/missing` | 401 |" in page and "| `economy/action-spent` | 409 |" in page
