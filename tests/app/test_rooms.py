"""The rooms' contracts (issue 32), read from the source with `ast`: which package may import
which. The kernel is the framework every ruleset builds on, so it imports nothing else of
combat; the application, the store, the service and the projections serve every ruleset, so
they ask the `Ruleset` (its phases, its `views`: combat/kernel/views.py) and import no ruleset
package; and no package's modules import each other in a circle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import ROOT

# combat.rulesets itself is the registry: asked, not a ruleset.
RULESET_PACKAGES = (
    "combat.fivee",
    *(f"combat.rulesets.{p.name}" for p in (ROOT / "combat/rulesets").iterdir() if (p / "__init__.py").exists()),
)


def _modules(package: str) -> dict[str, Path]:
    found = {}
    for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        found[name] = path
    return found


def _imports(module: str, path: Path, *, top_level_only: bool = False) -> set[str]:
    """Every module `module` imports (`from a import b` gives a and, when b is a module, a.b)."""
    tree = ast.parse(path.read_text())
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")[: -node.level + (1 if path.name == "__init__.py" else 0)] or [""]
                base = ".".join([*package, *([node.module] if node.module else [])])
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


def test_the_kernel_imports_nothing_of_combat_but_itself() -> None:
    """'kernel imports nothing of combat'."""
    strays = {
        module: sorted(m for m in _imports(module, path) if m.startswith("combat.") and not m.startswith("combat.kernel"))
        for module, path in _modules("combat.kernel").items()
    }
    assert not {m: s for m, s in strays.items() if s}


@pytest.mark.parametrize("package", ["combat.app", "combat.store", "combat.service", "projections"])
def test_the_readers_of_every_ruleset_import_no_ruleset(package: str) -> None:
    """'app, store, service and projections import no ruleset package (they ask the Ruleset)'."""
    strays = {
        module: sorted(m for m in _imports(module, path) if m.startswith(RULESET_PACKAGES))
        for module, path in _modules(package).items()
    }
    assert not {m: s for m, s in strays.items() if s}


@pytest.mark.parametrize("package", ["combat.kernel", "combat.app", "combat.cli", "projections"])
def test_no_import_circle_inside_the_package(package: str) -> None:
    """'No import circle inside a package': a module's top-level imports never lead back to it."""
    modules = _modules(package)
    graph = {m: {i for i in _imports(m, p, top_level_only=True) if i in modules and i != m} for m, p in modules.items()}

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), list(graph[start])
        while todo:
            m = todo.pop()
            if m == goal:
                return True
            if m not in seen:
                seen.add(m)
                todo.extend(graph[m])
        return False

    assert not [m for m in modules if reaches(m, m)]
