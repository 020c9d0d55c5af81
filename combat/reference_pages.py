"""A ruleset's reference pages in Markdown, read from its code: its commands (the msgspec
types, their docstrings and field comments, who may send each, in which phases, an example),
its own events, and its page (its package's docstring, its phase table drawn, its settings,
the docstrings of its rule modules). The documentation site builds its pages of the shipped
rulesets with them (mkdocs_hooks.py); a plug-in's author gets the same in one page from
`combat reference --ruleset ID` (`reference_page`), so both read what the code says."""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from combat.app.reference import FieldDoc, commands_of, nested_structs, struct_doc
from combat.kernel.decider import Ruleset
from combat.rulesets import BUILT_IN

__all__ = [
    "as_markdown",
    "cell",
    "command_page",
    "command_sections",
    "event_sections",
    "fields_table",
    "home_package",
    "reference_page",
    "ruleset_page",
    "shipped_package",
]


def cell(text: Any) -> str:
    """`text` as one cell of a Markdown table."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def fields_table(fields: tuple[FieldDoc, ...]) -> list[str]:
    if not fields:
        return ["No fields."]
    rows = ["| field | type | required / default | meaning |", "|---|---|---|---|"]
    for f in fields:
        need = "required" if f.required else f"`{json.dumps(f.default)}`"
        rows.append(f"| `{f.name}` | {cell(f.type)} | {need} | {cell(f.meaning)} |")
    return rows


def command_sections(ruleset: Ruleset, level: int = 2) -> list[str]:
    """A table of the ruleset's commands, then one section (heading `level`) for each."""
    docs = commands_of(ruleset)
    lines = ["| command | sent by | phases |", "|---|---|---|"]
    lines += [f"| [`{d.type}`](#{d.type}) | {cell(d.sent_by)} | {', '.join(d.phases)} |" for d in docs]
    for d in docs:
        lines += ["", f"{'#' * level} {d.type}", ""]
        if d.summary:
            lines += [d.summary, ""]
        lines += [f"**Sent by:** {d.sent_by}. **Phases:** {', '.join(d.phases) or 'none'}.", ""]
        lines += fields_table(d.fields)
        for name, fields in d.nested.items():
            lines += ["", f"Fields of `{name}`:", ""] + fields_table(fields)
        lines += ["", "```json", json.dumps(d.example), "```"]
    return lines


def command_page(ruleset: Ruleset) -> str:
    """The site's page of a shipped ruleset's commands."""
    lines = [
        f"# {ruleset.id} commands",
        "",
        (
            f"Every command [{ruleset.id}](../../rulesets/{ruleset.id}.md) takes, generated from the code. "
            f"`combat commands --ruleset {ruleset.id} [NAME]` and `GET /rulesets/{ruleset.id}/commands[/NAME]` "
            "give the same. A command is a JSON object whose `type` is its name; send it with `combat do "
            "ENCOUNTER 'JSON'` or `POST /encounters/{id}/commands` (`{\"command\": JSON}`)."
        ),
        "",
    ]
    return "\n".join(lines + command_sections(ruleset)) + "\n"


def event_sections(types: Iterable[type], level: int = 2) -> list[str]:
    """One section (heading `level`) per event type, then the types inside them."""
    lines: list[str] = []
    nested: dict[str, type] = {}
    for cls in types:
        summary, fields = struct_doc(cls)
        lines += ["", f"{'#' * level} {cls.__name__}", ""]
        if summary:
            lines += [summary, ""]
        lines += fields_table(fields)
        nested.update(nested_structs(cls))
    if nested:
        lines += ["", f"{'#' * level} Types inside events", ""]
        for name, cls in nested.items():
            summary, fields = struct_doc(cls)
            lines += ["", f"{'#' * (level + 1)} {name}", ""] + ([summary, ""] if summary else []) + fields_table(fields)
    return lines


def as_markdown(docstring: str) -> str:
    """Docstrings start lists right under a line of text; Markdown needs a blank line there."""
    lines: list[str] = []
    for line in docstring.splitlines():
        if line.startswith("- ") and lines and lines[-1].strip() and not lines[-1].startswith((" ", "- ")):
            lines.append("")
        lines.append(line)
    return "\n".join(lines)


def _docstring(path: Path) -> str:
    return as_markdown(ast.get_docstring(ast.parse(path.read_text())) or "")


def shipped_package(ruleset: Ruleset) -> ModuleType | None:
    """The package under combat/rulesets that ships `ruleset` (None for one from elsewhere)."""
    name = BUILT_IN.get(ruleset.id)
    if name is None:
        return None
    package = importlib.import_module(name)
    return package if getattr(package, "RULESET", None) is ruleset else None


def home_package(ruleset: Ruleset) -> ModuleType | None:
    """The package whose docstring and modules say what `ruleset` is: the one that ships it,
    or, for a plug-in, the package its own types are defined in."""
    shipped = shipped_package(ruleset)
    if shipped is not None:
        return shipped
    for cls in (ruleset.state_type, *ruleset.commands, *ruleset.events):
        module = sys.modules.get(cls.__module__)
        if module is not None and module.__package__ and not module.__package__.startswith("combat.kernel"):
            return importlib.import_module(module.__package__)
    return None


def _modules_section(title: str, package: ModuleType, only: set[str] | None = None, level: int = 2) -> list[str]:
    folder = Path(package.__file__ or "").parent
    lines: list[str] = []
    for path in sorted(folder.glob("*.py")):
        module = f"{package.__name__}.{path.stem}"
        if path.name == "__init__.py" or not _docstring(path) or (only is not None and module not in only):
            continue
        lines += ["", f"{'#' * (level + 1)} {path.stem}", "", f"`{module}`", "", _docstring(path)]
    return ["", f"{'#' * level} {title}"] + lines if lines else []


def _modules_of(handler: Any, seen: set[int] | None = None) -> set[str]:
    """The modules a handler's code comes from: its own, and those of the handlers it wraps
    or binds (a shared rule a ruleset guards, or the bestiary's `partial` of it, is still that rule)."""
    seen = set() if seen is None else seen
    if id(handler) in seen or not callable(handler):
        return set()
    seen.add(id(handler))
    module = inspect.getmodule(handler)
    found = {module.__name__} if module else set()
    if isinstance(handler, functools.partial):
        return set().union(*(_modules_of(f, seen) for f in (handler.func, *handler.args, *handler.keywords.values())))
    inner = [getattr(handler, "__wrapped__", None)] + [
        c.cell_contents
        for c in getattr(handler, "__closure__", None) or ()
        if inspect.isfunction(c.cell_contents) or isinstance(c.cell_contents, functools.partial)
    ]
    for wrapped in inner:
        if wrapped is not None:
            found |= _modules_of(wrapped, seen)
    return found


def _about(ruleset: Ruleset, commands: str) -> list[str]:
    """The head of a ruleset's page, up to its settings: what it is, its phases, its settings."""
    package = home_package(ruleset)
    lines = [
        f"# {ruleset.title} (`{ruleset.id}`)",
        "",
        ruleset.summary,
        "",
        (
            "This page is generated from the ruleset's module docstrings: what the rules text says, "
            f"quoted, and what the engine does where it is silent. {commands}"
        ),
        "",
    ]
    if package is not None:
        lines += ["## Overview", "", _docstring(Path(package.__file__ or "")), ""]
    lines += [
        "## Phases",
        "",
        f"`combat diagram {ruleset.id}` draws the same.",
        "",
        "```mermaid",
        ruleset.phases.mermaid(),
        "```",
        "",
    ]
    if ruleset.defaults:
        lines += [
            "## Settings",
            "",
            "Given when the encounter is created (`settings`); the defaults:",
            "",
            "| setting | default |",
            "|---|---|",
        ]
        lines += [f"| `{k}` | `{json.dumps(v)}` |" for k, v in ruleset.defaults.items()]
    return lines


def _rule_modules(ruleset: Ruleset) -> list[str]:
    """Its rule modules' docstrings, and those of the shared rules its handlers come from: the
    rules every ruleset with hit points and conditions shares (combat.common), and the 5e
    family's (combat.fivee)."""
    package = home_package(ruleset)
    lines = _modules_section("The rules, module by module", package) if package is not None else []
    handled_in = set().union(*(_modules_of(h) for h in ruleset.handlers.values()))
    for room, title in (("combat.common", "Shared rules it uses"), ("combat.fivee", "Shared 5e rules it uses")):
        if any(m.startswith(f"{room}.") for m in handled_in):
            lines += _modules_section(title, importlib.import_module(room), only=handled_in)
    return lines


def ruleset_page(ruleset: Ruleset) -> str:
    """The site's page of a shipped ruleset (its commands have a page of their own)."""
    lines = _about(ruleset, f"Its commands: [{ruleset.id} commands](../reference/commands/{ruleset.id}.md).")
    return "\n".join(lines + _rule_modules(ruleset)) + "\n"


def reference_page(ruleset: Ruleset) -> str:
    """One page for any ruleset, a plug-in's included: what `ruleset_page` says, then its
    commands and its own events (`combat reference --ruleset ID`)."""
    lines = _about(ruleset, "Its commands and its own events follow.")
    lines += [""] if lines[-1] else []
    lines += ["## Commands", "", f"`combat commands --ruleset {ruleset.id} [NAME]` gives the same.", ""]
    lines += command_sections(ruleset, level=3)
    if ruleset.events:
        lines += ["", "## Events", "", "The events of its own, beside those every ruleset shares."]
        lines += event_sections(ruleset.events, level=3)
    return "\n".join(lines + _rule_modules(ruleset)) + "\n"
