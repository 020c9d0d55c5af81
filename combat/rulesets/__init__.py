"""The registry of rulesets: adding one is a module and a line in `BUILT_IN` here, or, from
outside the package, an entry point in the `combat.rulesets` group or one call to `register`.

Each ruleset loads when it is first needed, so a command pays only for the ruleset of its
encounter (`combat do` on an srd-2024 fight never imports the first-edition rules): a
built-in one when its id is looked up, the installed plug-ins (found through their entry
points, once) when an id that is not built in is looked up or the whole registry is read.

Whatever is built from the rulesets' types (the event union, the log's decoder, the command
parsers: combat.app.catalog) is keyed by `RULESETS.version`, which each change to the
registry, a ruleset loaded included, moves on: a ruleset registered or loaded at any time is
read back from the log. A reader that meets an event of a ruleset not loaded yet loads the
encounter's ruleset, then every ruleset, before it calls the event unreadable
(combat.store.log).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass

from combat.kernel.decider import Ruleset
from combat.kernel.errors import RuleError
from combat.kernel.hidden import undeclared

__all__ = [
    "BUILT_IN",
    "ENTRY_POINTS",
    "RULESETS",
    "PluginError",
    "Registry",
    "RulesetNotInstalled",
    "get_ruleset",
    "installed_ruleset",
    "plugin_errors",
    "register",
]

# The built-in rulesets by id, each the module whose `RULESET` it is, in the order they are listed.
BUILT_IN: Mapping[str, str] = {
    "srd-2024": "combat.rulesets.srd2024",
    "srd-2024-variant": "combat.rulesets.srd2024_variant",
    "declared-d10": "combat.rulesets.declared_d10",
    "a5e": "combat.rulesets.a5e",
    "segments-1e": "combat.rulesets.segments_1e",
}

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
    """The rulesets by id, each loaded when first looked up (`built_in`: id to module). The
    installed plug-ins are loaded the first time an id that is not built in is looked up,
    or every id is read; `version` counts the changes, loads included, so what is built
    from the registry knows when to build again."""

    def __init__(self, built_in: Mapping[str, str]):
        self._ids: dict[str, None] = dict.fromkeys(built_in)  # every id, loaded or not, in order
        self._rulesets: dict[str, Ruleset] = {}
        self._unloaded = dict(built_in)
        self._version = 0
        self._discovered = False
        self.errors: list[PluginError] = []

    @property
    def version(self) -> int:
        return self._version

    def loaded(self) -> tuple[Ruleset, ...]:
        """The rulesets loaded so far, in the registry's order: an event or a state exists
        only of one of these."""
        return tuple(self._rulesets[i] for i in self._ids if i in self._rulesets)

    def load_all(self) -> None:
        """Every ruleset: the built-in ones and the installed plug-ins."""
        self._discover()
        for ruleset_id in list(self._unloaded):
            self._load(ruleset_id)

    def _load(self, ruleset_id: str) -> Ruleset:
        module = importlib.import_module(self._unloaded[ruleset_id])
        ruleset: Ruleset = module.RULESET
        if ruleset.id != ruleset_id:
            raise TypeError(f"{module.__name__}.RULESET has the id {ruleset.id!r}, not {ruleset_id!r} (combat.rulesets.BUILT_IN)")
        del self._unloaded[ruleset_id]
        self._rulesets[ruleset_id] = ruleset
        self._version += 1
        return ruleset

    def _discover(self) -> None:
        if self._discovered:
            return
        self._discovered = True  # first: a plug-in reading the registry as it loads sees the built-in ones
        import importlib.metadata  # a tenth of `combat --help`'s start: only when a plug-in may be asked for

        for entry in importlib.metadata.entry_points(group=ENTRY_POINTS):
            try:
                ruleset = _ruleset_of(entry.load())
                if ruleset.id != entry.name:
                    raise ValueError(f"its entry point is named {entry.name!r} but the ruleset's id is {ruleset.id!r}")
                register(ruleset)
            except Exception as exc:  # a broken plug-in is named and skipped, never a crash
                self.errors.append(PluginError(entry.name, entry.value, f"{type(exc).__name__}: {exc}"))

    def __getitem__(self, ruleset_id: str) -> Ruleset:
        ruleset = self._rulesets.get(ruleset_id)
        if ruleset is not None:
            return ruleset
        if ruleset_id in self._unloaded:
            return self._load(ruleset_id)
        self._discover()
        return self._rulesets[ruleset_id]

    def __setitem__(self, ruleset_id: str, ruleset: Ruleset) -> None:
        self._unloaded.pop(ruleset_id, None)
        self._ids[ruleset_id] = None
        self._rulesets[ruleset_id] = ruleset
        self._version += 1

    def __delitem__(self, ruleset_id: str) -> None:
        if ruleset_id not in self._ids:
            raise KeyError(ruleset_id)
        del self._ids[ruleset_id]
        self._rulesets.pop(ruleset_id, None)
        self._unloaded.pop(ruleset_id, None)
        self._version += 1

    def __iter__(self) -> Iterator[str]:
        self._discover()
        return iter(list(self._ids))

    def __len__(self) -> int:
        self._discover()
        return len(self._ids)

    def __contains__(self, ruleset_id: object) -> bool:
        if ruleset_id in self._ids:
            return True
        self._discover()
        return ruleset_id in self._ids


def _ruleset_of(loaded: object) -> Ruleset:
    """An entry point names a Ruleset, or a callable returning one."""
    if not isinstance(loaded, Ruleset) and callable(loaded):
        loaded = loaded()
    if not isinstance(loaded, Ruleset):
        raise TypeError(f"it names a {type(loaded).__name__}, not a combat.kernel.decider.Ruleset")
    return loaded


RULESETS = Registry(BUILT_IN)


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise RuleError("ruleset/unknown", f"no ruleset '{ruleset_id}'", allowed=", ".join(RULESETS)) from None


class RulesetNotInstalled(RuleError):
    """A stored encounter of a ruleset this installation does not have (a plug-in removed, or
    a store copied from another machine, or a plug-in that fails to load): its log is as it
    was stored, only unreadable here, so it is never refused as tampered; `combat verify`
    still checks its chain without the ruleset."""

    def __init__(self, ruleset_id: str, encounter_id: object = None):
        failed = [e for e in plugin_errors() if e.name == ruleset_id]
        what = f"whose plug-in did not load ({failed[0].why})" if failed else "which is not installed here"
        # Named when known: a follower carrying every fight meets it on another's behalf.
        which = "this encounter" if encounter_id is None else f"encounter {encounter_id}"
        super().__init__(
            "ruleset/not-installed",
            f"{which} is of the ruleset '{ruleset_id}', {what}: "
            "its log is kept as stored, and read once the ruleset is installed",
            allowed=f"install the plug-in that provides '{ruleset_id}' (an entry point named '{ruleset_id}' in the "
            f"'{ENTRY_POINTS}' group: `pip install` its package into this environment; `combat rulesets` lists "
            "what is installed), or open the store where it is installed",
        )
        self.ruleset_id = ruleset_id


def installed_ruleset(ruleset_id: str, encounter_id: object = None) -> Ruleset:
    """The ruleset a stored encounter names: RulesetNotInstalled if there is none (the
    encounter exists, so an id no ruleset answers to is one not installed, not a typo)."""
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise RulesetNotInstalled(ruleset_id, encounter_id) from None


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
