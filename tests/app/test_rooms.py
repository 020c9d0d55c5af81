"""The rooms' contracts (issue 32), read from the source with `ast`: which package may import
which.

- combat/kernel: the framework every ruleset builds on; it imports nothing else of combat.
- combat/common: what every ruleset with hit points and conditions shares; it imports the
  kernel alone. What a shared rule leaves to each ruleset it asks through a port
  (`Rules.ports`), never by importing the ruleset.
- combat/fivee: the 5e family's rules; kernel, common and the SRD's data (combat.characters,
  combat.spells, combat.bestiary, which import neither fivee nor a ruleset).
- combat/rulesets/<id>: one ruleset each. declared-d10 and segments-1e never import fivee.
- The application, the store, the service and the projections serve every ruleset, so they
  ask the `Ruleset` (its phases, its `views`: combat/kernel/views.py) and import no rules room.
- No package's modules import each other in a circle, counting the imports inside functions
  (an import put off to run time to dodge a circle is still one); those under
  `if TYPE_CHECKING:` are for the type checker alone and do not count."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import ROOT

# combat.rulesets itself is the registry: asked, not a ruleset.
RULESETS = tuple(
    f"combat.rulesets.{p.name}" for p in sorted((ROOT / "combat/rulesets").iterdir()) if (p / "__init__.py").exists()
)
RULE_ROOMS = ("combat.common", "combat.fivee", *RULESETS)
SRD_DATA = ("combat.characters", "combat.spells", "combat.bestiary")
OUTSIDE_THE_FIVE_E_FAMILY = ("combat.rulesets.declared_d10", "combat.rulesets.segments_1e")


def _modules(package: str) -> dict[str, Path]:
    found = {}
    for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        found[name] = path
    return found


def _is_module(name: str) -> bool:
    where = ROOT / name.replace(".", "/")
    return where.with_suffix(".py").exists() or (where / "__init__.py").exists()


def _imports(module: str, path: Path) -> set[str]:
    """Every module `module` imports, at the top or inside a function, leaving out those under
    `if TYPE_CHECKING:` (`from a import b` gives a.b where b is a module, else a)."""
    tree = ast.parse(path.read_text())
    for_types = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for outer in node.body
        for inner in ast.walk(outer)
    }
    found = set()
    for node in ast.walk(tree):
        if id(node) in for_types:
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")[: -node.level + (1 if path.name == "__init__.py" else 0)] or [""]
                base = ".".join([*package, *([node.module] if node.module else [])])
            # `from a import b`: the module a.b where b is one, else a (b a name in it).
            for alias in node.names:
                named = f"{base}.{alias.name}"
                found.add(named if _is_module(named) else base)
    return found


def test_the_kernel_imports_nothing_of_combat_but_itself() -> None:
    """'kernel imports nothing of combat'."""
    strays = {
        module: sorted(m for m in _imports(module, path) if m.startswith("combat.") and not m.startswith("combat.kernel"))
        for module, path in _modules("combat.kernel").items()
    }
    assert not {m: s for m, s in strays.items() if s}


def _strays(package: str, allowed: tuple[str, ...]) -> dict[str, list[str]]:
    """The modules of `package` importing something of combat outside `allowed` (and itself)."""
    found = {}
    for module, path in _modules(package).items():
        outside = sorted(
            m
            for m in _imports(module, path)
            if m.startswith("combat.") and not m.startswith((package, *allowed)) and m != "combat"
        )
        if outside:
            found[module] = outside
    return found


def test_common_imports_the_kernel_alone() -> None:
    """'common imports kernel only'."""
    assert _strays("combat.common", ("combat.kernel",)) == {}


def test_fivee_imports_the_kernel_common_and_the_srd_data() -> None:
    """'fivee imports kernel and common' (and the SRD's sheets, spells and stat blocks it reads)."""
    assert _strays("combat.fivee", ("combat.kernel", "combat.common", *SRD_DATA)) == {}


@pytest.mark.parametrize("package", SRD_DATA)
def test_the_srd_data_imports_no_rules_room_but_common(package: str) -> None:
    """The sheets, spells and stat blocks fivee reads are data: they name the six abilities
    (combat.common.abilities) and the kernel's types, and no rules room imports them back in
    a circle."""
    assert _strays(package, ("combat.kernel", "combat.common", *SRD_DATA)) == {}


@pytest.mark.parametrize("package", OUTSIDE_THE_FIVE_E_FAMILY)
def test_declared_d10_and_segments_1e_never_import_fivee(package: str) -> None:
    """'declared-d10 and segments-1e never import fivee': they build on the kernel and common."""
    assert _strays(package, ("combat.kernel", "combat.common")) == {}


@pytest.mark.parametrize("package", sorted(set(RULESETS) - set(OUTSIDE_THE_FIVE_E_FAMILY)))
def test_a_five_e_ruleset_imports_the_rooms_below_it(package: str) -> None:
    """A 5e-family ruleset builds on kernel, common, fivee and the SRD's data; the variant on
    srd-2024 besides (its initiative, its state)."""
    below = ("combat.kernel", "combat.common", "combat.fivee", *SRD_DATA, "combat.rulesets.srd2024")
    assert _strays(package, below) == {}


@pytest.mark.parametrize("package", ["combat.app", "combat.store", "combat.service", "projections"])
def test_the_readers_of_every_ruleset_import_no_ruleset(package: str) -> None:
    """'app, store, service and projections import no ruleset package (they ask the Ruleset)'."""
    strays = {
        module: sorted(m for m in _imports(module, path) if m.startswith(RULE_ROOMS))
        for module, path in _modules(package).items()
    }
    assert not {m: s for m, s in strays.items() if s}


PACKAGES = sorted(
    {
        ".".join(p.relative_to(ROOT).parts)
        for root in ("combat", "projections")
        for p in [ROOT / root, *(ROOT / root).rglob("*")]
        if p.is_dir() and (p / "__init__.py").exists()
    }
)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circle_inside_the_package(package: str) -> None:
    """'No import circle inside a package': a module's imports never lead back to it."""
    modules = {m: p for m, p in _modules(package).items() if m.count(".") == package.count(".") + 1 or m == package}
    graph = {m: {i for i in _imports(m, p) if i in modules and i != m} for m, p in modules.items()}

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
