"""The docs site's generated pages (a mkdocs hook, see mkdocs.yml): the command reference of
every ruleset, the event reference and one page per ruleset, all read from the code (the
msgspec types, their docstrings and field comments, the phase tables and the module
docstrings), so the site says what the code does and cannot drift from it."""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import json
import pkgutil
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

import combat.fivee
import combat.rulesets
from combat.app.catalog import event_types
from combat.app.interchange import ENVELOPE
from combat.app.reference import FieldDoc, commands_of, nested_structs, struct_doc
from combat.kernel.decider import Ruleset
from combat.kernel.events import EVENT_TYPES
from combat.rulesets import RULESETS

__all__ = ["on_files", "on_page_markdown", "pages", "as_markdown", "cli_table", "endpoints_table"]


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _fields_table(fields: tuple[FieldDoc, ...]) -> list[str]:
    if not fields:
        return ["No fields."]
    rows = ["| field | type | required / default | meaning |", "|---|---|---|---|"]
    for f in fields:
        need = "required" if f.required else f"`{json.dumps(f.default)}`"
        rows.append(f"| `{f.name}` | {_cell(f.type)} | {need} | {_cell(f.meaning)} |")
    return rows


def command_page(ruleset: Ruleset) -> str:
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
    lines += ["| command | sent by | phases |", "|---|---|---|"]
    docs = commands_of(ruleset)
    lines += [f"| [`{d.type}`](#{d.type}) | {_cell(d.sent_by)} | {', '.join(d.phases)} |" for d in docs]
    for d in docs:
        lines += ["", f"## {d.type}", ""]
        if d.summary:
            lines += [d.summary, ""]
        lines += [f"**Sent by:** {d.sent_by}. **Phases:** {', '.join(d.phases) or 'none'}.", ""]
        lines += _fields_table(d.fields)
        for name, fields in d.nested.items():
            lines += ["", f"Fields of `{name}`:", ""] + _fields_table(fields)
        lines += ["", "```json", json.dumps(d.example), "```"]
    return "\n".join(lines) + "\n"


def events_page() -> str:
    lines = [
        "# Events",
        "",
        (
            "Every event type of every ruleset, generated from the msgspec types. One line of the log "
            f"(the JSONL export, `GET /encounters/{{id}}/events`) is one event with the envelope fields "
            f"{', '.join(f'`{f}`' for f in ENVELOPE)} first; `type` is the class name below. "
            "`GET /schemas/events` serves the JSON Schema of a line."
        ),
        "",
    ]
    nested: dict[str, type] = {}
    for cls in shipped_event_types():
        summary, fields = struct_doc(cls)
        lines += ["", f"## {cls.__name__}", ""]
        if summary:
            lines += [summary, ""]
        lines += _fields_table(fields)
        nested.update(nested_structs(cls))
    if nested:
        lines += ["", "## Types inside events", ""]
        for name, cls in nested.items():
            summary, fields = struct_doc(cls)
            lines += ["", f"### {name}", ""] + ([summary, ""] if summary else []) + _fields_table(fields)
    return "\n".join(lines) + "\n"


def _docstring(path: Path) -> str:
    return as_markdown(ast.get_docstring(ast.parse(path.read_text())) or "")


def as_markdown(docstring: str) -> str:
    """Docstrings start lists right under a line of text; Markdown needs a blank line there."""
    lines: list[str] = []
    for line in docstring.splitlines():
        if line.startswith("- ") and lines and lines[-1].strip() and not lines[-1].startswith((" ", "- ")):
            lines.append("")
        lines.append(line)
    return "\n".join(lines)


def shipped_event_types() -> tuple[type, ...]:
    """The kernel's event types and those of the rulesets this package ships: a plug-in
    installed beside it is documented by its own package, not by this site."""
    shipped = {t for r in RULESETS.values() if _package_of(r) is not None for t in r.events}
    return tuple(t for t in event_types() if t in EVENT_TYPES or t in shipped)


def _package_of(ruleset: Ruleset) -> Any:
    """The package under combat/rulesets that ships `ruleset` (None for one registered from elsewhere)."""
    for info in pkgutil.iter_modules(combat.rulesets.__path__):
        package = importlib.import_module(f"combat.rulesets.{info.name}")
        if getattr(package, "RULESET", None) is ruleset:
            return package
    return None


def _modules_section(title: str, package: Any, only: set[str] | None = None) -> list[str]:
    folder = Path(package.__file__).parent
    lines: list[str] = []
    for path in sorted(folder.glob("*.py")):
        module = f"{package.__name__}.{path.stem}"
        if path.name == "__init__.py" or not _docstring(path) or (only is not None and module not in only):
            continue
        lines += ["", f"### {path.stem}", "", f"`{module}`", "", _docstring(path)]
    return ["", f"## {title}"] + lines if lines else []


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


def ruleset_page(ruleset: Ruleset) -> str:
    package = _package_of(ruleset)
    lines = [
        f"# {ruleset.title} (`{ruleset.id}`)",
        "",
        ruleset.summary,
        "",
        (
            "This page is generated from the ruleset's module docstrings: what the rules text says, "
            "quoted, and what the engine does where it is silent. "
            f"Its commands: [{ruleset.id} commands](../reference/commands/{ruleset.id}.md)."
        ),
        "",
        "## Overview",
        "",
        _docstring(Path(package.__file__)),
        "",
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
    lines += _modules_section("The rules, module by module", package)
    handled_in = set().union(*(_modules_of(h) for h in ruleset.handlers.values()))
    lines += _modules_section("Shared 5e rules it uses", combat.fivee, only=handled_in)
    return "\n".join(lines) + "\n"


def _first_paragraph(text: str | None) -> str:
    return " ".join(inspect.cleandoc(text or "").split("\n\n")[0].split())


def cli_table() -> str:
    """Every `combat` command with its arguments, what it does and its options, from click."""
    import click

    from combat.cli import cli

    root = click.Context(cli, info_name="combat")
    rows = ["| command | what it does | options |", "|---|---|---|"]
    for name in cli.list_commands(root):
        command = cli.get_command(root, name)
        assert command is not None
        ctx = click.Context(command, info_name=name, parent=root)
        usage = " ".join(p for p in command.collect_usage_pieces(ctx) if p != "[OPTIONS]")
        options = [
            record[0]
            for p in command.params
            if isinstance(p, click.Option) and not p.hidden
            if (record := p.get_help_record(ctx))
        ]
        rows.append(
            f"| `combat {name}{' ' + usage if usage else ''}` | {_cell(_first_paragraph(command.help))} | "
            f"{_cell(', '.join(f'`{o}`' for o in options))} |"
        )
    return "\n".join(rows)


def endpoints_table() -> str:
    """Every route of the service with the first line of its docstring."""
    from combat.service import routes, stream

    rows = ["| method and path | what it answers |", "|---|---|"]
    for handler in [*routes.ROUTES, *stream.ROUTES]:
        summary = _first_paragraph(handler.fn.__doc__)
        for path in sorted(handler.paths):
            plain = re.sub(r":\w+}", "}", path)
            for method in sorted(handler.http_methods):
                rows.append(f"| `{method} {plain}` | {_cell(summary)} |")
    return "\n".join(rows)


MARKERS = {"<!-- generated: cli-commands -->": cli_table, "<!-- generated: endpoints -->": endpoints_table}


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    for marker, table in MARKERS.items():
        if marker in markdown:
            markdown = markdown.replace(marker, table())
    return markdown


def sheet_page() -> str:
    """The character sheet's fields and those of the objects it holds, from the msgspec types."""
    from combat.characters.sheet import CharacterSheet

    summary, fields = struct_doc(CharacterSheet)
    lines = [
        "# Character sheet",
        "",
        summary,
        "",
        (
            "Generated from the code; `GET /schemas/character` and `combat characters schema` give its JSON Schema. "
            "[Characters](../characters.md) says how sheets are built, stored and played."
        ),
        "",
    ]
    lines += _fields_table(fields)
    for name, cls in nested_structs(CharacterSheet).items():
        own, nested = struct_doc(cls)
        lines += ["", f"## {name}", ""] + ([own, ""] if own else []) + _fields_table(nested)
    return "\n".join(lines) + "\n"


def errors_page() -> str:
    """Every error code with its HTTP status and meaning, from `combat.kernel.error_codes`."""
    from combat.kernel.error_codes import ERROR_CODES
    from combat.service.errors import status_of_code

    lines = [
        "# Error codes",
        "",
        (
            "Every code a rejection carries, generated from `combat/kernel/error_codes.py` (a test holds that "
            "table to the codes the source raises). The CLI prints the code with the message; the service "
            'answers `{"error": code, "detail": ..., "allowed": ...}` with the status below '
            "([Errors](../service.md#errors) says what each status means). A rejected command appends nothing. "
            "`…` stands for a name or a number the message gives. Codes met only on the command line or when "
            "a store is opened (`cli/…`, `replay/…`, `partitions/…`, `store/bad-url`) never reach HTTP; "
            "their status is the one the mapping would give."
        ),
        "",
    ]
    areas: dict[str, list[str]] = {}
    for code in sorted(ERROR_CODES, key=lambda c: c.partition("/")[::2]):
        areas.setdefault(code.partition("/")[0], []).append(code)
    lines += ["Areas: " + ", ".join(f"[{area}](#{area})" for area in areas), ""]
    for area, codes in areas.items():
        lines += ["", f"## {area}", "", "| code | status | meaning |", "|---|---|---|"]
        for code in codes:
            status = "its own" if "{" in code else status_of_code(code)
            if code == "ruleset/unknown":
                status = "422; 404 in a path"
            lines.append(f"| `{code}` | {status} | {_cell(ERROR_CODES[code])} |")
    return "\n".join(lines) + "\n"


def pages() -> dict[str, str]:
    """Every generated page by its path under docs/."""
    generated = {
        "reference/events.md": events_page(),
        "reference/character-sheet.md": sheet_page(),
        "reference/errors.md": errors_page(),
    }
    for ruleset in RULESETS.values():
        if _package_of(ruleset) is None:  # the site documents the rulesets this package ships
            continue
        generated[f"reference/commands/{ruleset.id}.md"] = command_page(ruleset)
        generated[f"rulesets/{ruleset.id}.md"] = ruleset_page(ruleset)
    return generated


def on_files(files: Files, config: Any) -> Files:
    for path, content in pages().items():
        files.append(File.generated(config, path, content=content))
    return files
