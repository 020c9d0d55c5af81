"""The registry of rulesets: adding one is a module and a line here, or, from outside the
package, an entry point in the `combat.rulesets` group (discovered here, once, before the
registry is first read) or one call to `register`.

Whatever is built from every ruleset's types (the event union, the log's decoder, the
command parsers: combat.app.catalog) is keyed by `RULESETS.version`, which each change to
the registry moves on, so a ruleset registered at any time is read back from the log.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass

from combat.kernel.decider import Ruleset
from combat.kernel.errors import RuleError
from combat.kernel.hidden import undeclared
from combat.rulesets import a5e, declared_d10, segments_1e, srd2024, srd2024_variant

__all__ = ["ENTRY_POINTS", "RULESETS", "PluginError", "Registry", "get_ruleset", "plugin_errors", "register"]

# The entry-point group a plug-in names its ruleset in (`pyproject.toml`:
# `[project.entry-points."combat.rulesets"] twenty-one = "combat_twenty_one:RULESET"`).
ENTRY_POINTS = "combat.rulesets"


@dataclass(frozen=True)
class PluginError:
    """A plug-in that did not load: its entry point, what it names, and why. It is skipped."""

    name: str
    value: str
    why: str

    def __str__(self) -> str:
        return f"plug-in {self.name} ({self.value}) not loaded: {self.why}"


class Registry(MutableMapping[str, Ruleset]):
    """The rulesets by id. The installed plug-ins are loaded the first time it is read;
    `version` counts the changes, so what is built from it knows when to build again."""

    def __init__(self, rulesets: tuple[Ruleset, ...]):
        self._rulesets = {r.id: r for r in rulesets}
        self._version = 0
        self._discovered = False
        self.errors: list[PluginError] = []

    @property
    def version(self) -> int:
        self._discover()
        return self._version

    def _discover(self) -> None:
        if self._discovered:
            return
        self._discovered = True  # first: a plug-in reading the registry as it loads sees the built-in ones
        for entry in importlib.metadata.entry_points(group=ENTRY_POINTS):
            try:
                ruleset = _ruleset_of(entry.load())
                if ruleset.id != entry.name:
                    raise ValueError(f"its entry point is named {entry.name!r} but the ruleset's id is {ruleset.id!r}")
                register(ruleset)
            except Exception as exc:  # a broken plug-in is named and skipped, never a crash
                self.errors.append(PluginError(entry.name, entry.value, f"{type(exc).__name__}: {exc}"))

    def __getitem__(self, ruleset_id: str) -> Ruleset:
        self._discover()
        return self._rulesets[ruleset_id]

    def __setitem__(self, ruleset_id: str, ruleset: Ruleset) -> None:
        self._rulesets[ruleset_id] = ruleset
        self._version += 1

    def __delitem__(self, ruleset_id: str) -> None:
        del self._rulesets[ruleset_id]
        self._version += 1

    def __iter__(self) -> Iterator[str]:
        self._discover()
        return iter(self._rulesets)

    def __len__(self) -> int:
        self._discover()
        return len(self._rulesets)

    def __contains__(self, ruleset_id: object) -> bool:
        self._discover()
        return ruleset_id in self._rulesets


def _ruleset_of(loaded: object) -> Ruleset:
    """An entry point names a Ruleset, or a callable returning one."""
    if not isinstance(loaded, Ruleset) and callable(loaded):
        loaded = loaded()
    if not isinstance(loaded, Ruleset):
        raise TypeError(f"it names a {type(loaded).__name__}, not a combat.kernel.decider.Ruleset")
    return loaded


RULESETS = Registry((srd2024.RULESET, srd2024_variant.RULESET, declared_d10.RULESET, a5e.RULESET, segments_1e.RULESET))


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise RuleError("ruleset/unknown", f"no ruleset '{ruleset_id}'", allowed=", ".join(RULESETS)) from None


def plugin_errors() -> tuple[PluginError, ...]:
    """The installed plug-ins that did not load, and why (`combat rulesets` shows them)."""
    RULESETS._discover()
    return tuple(RULESETS.errors)


def register(ruleset: Ruleset) -> Ruleset:
    """Make `ruleset` playable by its id, at any time: a plug-in (or a test) adds itself in
    one line. Each of its event types must say what players and viewers see of it
    (combat/kernel/hidden.py), and its id must be new."""
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"register takes a combat.kernel.decider.Ruleset, not a {type(ruleset).__name__}")
    missing = undeclared(ruleset.events)
    if missing:
        raise TypeError(
            f"{ruleset.id}: event types without a `hidden` declaration (combat/kernel/hidden.py): " + ", ".join(missing)
        )
    known = RULESETS.get(ruleset.id)  # the installed plug-ins first: one of them may hold the id
    if known is ruleset:
        return ruleset
    if known is not None:
        raise RuleError("ruleset/duplicate", f"a ruleset '{ruleset.id}' is already registered", allowed="a new id")
    RULESETS[ruleset.id] = ruleset
    return ruleset
