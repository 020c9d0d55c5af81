"""The docs site's generated pages (a mkdocs hook, see mkdocs.yml): the command reference of
every ruleset, the event reference and one page per ruleset, all read from the code (the
msgspec types, their docstrings and field comments, the phase tables and the module
docstrings), so the site says what the code does and cannot drift from it. The builders of a
ruleset's pages are the package's own (combat/reference_pages.py), which a plug-in's author
uses too (`combat reference`)."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

from combat.app.catalog import event_types
from combat.app.interchange import ENVELOPE
from combat.app.reference import nested_structs, struct_doc
from combat.kernel.error_kinds import ErrorCode, Kind
from combat.kernel.events import EVENT_TYPES
from combat.reference_pages import cell, command_page, event_sections, fields_table, ruleset_page, shipped_package
from combat.rulesets import RULESETS

__all__ = ["on_files", "on_page_markdown", "pages", "cli_table", "endpoints_table", "errors_page", "error_rooms"]


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
    return "\n".join(lines + event_sections(shipped_event_types())) + "\n"


def shipped_event_types() -> tuple[type, ...]:
    """The kernel's event types and those of the rulesets this package ships: a plug-in
    installed beside it is documented by its own package, not by this site."""
    shipped = {t for r in RULESETS.values() if shipped_package(r) is not None for t in r.events}
    return tuple(t for t in event_types() if t in EVENT_TYPES or t in shipped)


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
            f"| `combat {name}{' ' + usage if usage else ''}` | {cell(_first_paragraph(command.help))} | "
            f"{cell(', '.join(f'`{o}`' for o in options))} |"
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
                rows.append(f"| `{method} {plain}` | {cell(summary)} |")
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
    lines += fields_table(fields)
    for name, cls in nested_structs(CharacterSheet).items():
        own, nested = struct_doc(cls)
        lines += ["", f"## {name}", ""] + ([own, ""] if own else []) + fields_table(nested)
    return "\n".join(lines) + "\n"


def error_rooms() -> dict[str, tuple[ErrorCode, ...]]:
    """Each room's declared codes by the room's package (`fivee`, `rulesets/a5e`...): every
    `error_codes.py` of the package, each with its table (the one tuple of codes it holds)."""
    rooms = {}
    source = Path(__file__).parent / "combat"
    for path in sorted(source.rglob("error_codes.py")):
        package = path.parent.relative_to(source).as_posix()
        module = importlib.import_module(f"combat.{package.replace('/', '.')}.error_codes")
        (table,) = (getattr(module, name) for name in module.__all__)
        rooms[package] = table
    return rooms


def errors_page() -> str:
    """Every error code with its room, HTTP status and meaning, from each room's `error_codes.py`."""
    from combat.app.error_registry import error_codes
    from combat.service.error_codes import SERVICE_ERROR_CODES
    from combat.service.errors import status_of_kind

    every = error_codes(SERVICE_ERROR_CODES)
    room_of = {error.code: room for room, table in error_rooms().items() for error in table}
    lines = [
        "# Error codes",
        "",
        (
            "Every code a rejection carries, generated from the tables its rooms declare: the kernel, common, fivee, each "
            "ruleset, the application and the service each list the codes their own modules raise in an "
            "`error_codes.py` (a test holds each table to the codes the room raises), each code with its kind, "
            "and the room column names the package that declares it. The CLI prints the code with the message; "
            'the service answers `{"error": code, "detail": ..., "allowed": ...}` with the status its kind gives '
            "([Errors](../service.md#errors) says what each status means). A rejected command appends nothing. "
            "`…` stands for a name or a number the message gives. Codes met only on the command line or when "
            "a store is opened (`cli/…`, `replay/…`, `partitions/…`, `store/bad-url`) never reach HTTP; "
            "their status is the one their kind would give. A plug-in's code that no room declares is refused (409)."
        ),
        "",
    ]
    areas: dict[str, list[str]] = {}
    for code in sorted(every, key=lambda c: c.partition("/")[::2]):
        areas.setdefault(code.partition("/")[0], []).append(code)
    lines += ["Areas: " + ", ".join(f"[{area}](#{area})" for area in areas), ""]
    for area, codes in areas.items():
        lines += ["", f"## {area}", "", "| code | room | kind | status | meaning |", "|---|---|---|---|---|"]
        for code in codes:
            error = every[code]
            status: object = "its own" if error.kind is Kind.PASSED_ON else status_of_kind(error.kind)
            if code == "ruleset/unknown":
                status = "422; 404 in a path"
            lines.append(f"| `{code}` | {room_of.get(code, '')} | {error.kind.value} | {status} | {cell(error.meaning)} |")
    return "\n".join(lines) + "\n"


def pages() -> dict[str, str]:
    """Every generated page by its path under docs/."""
    generated = {
        "reference/events.md": events_page(),
        "reference/character-sheet.md": sheet_page(),
        "reference/errors.md": errors_page(),
    }
    for ruleset in RULESETS.values():
        if shipped_package(ruleset) is None:  # the site documents the rulesets this package ships
            continue
        generated[f"reference/commands/{ruleset.id}.md"] = command_page(ruleset)
        generated[f"rulesets/{ruleset.id}.md"] = ruleset_page(ruleset)
    return generated


def on_files(files: Files, config: Any) -> Files:
    for path, content in pages().items():
        files.append(File.generated(config, path, content=content))
    return files
