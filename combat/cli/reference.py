"""`combat commands`: the command reference at the terminal (combat/app/reference.py reads it
from the code); `combat reference`: a ruleset's whole reference page in Markdown
(combat/reference_pages.py), for a plug-in's own documentation. Their own module so the CLI
loads them, and the rulesets, only when they are used."""

from __future__ import annotations

import sys

import click

__all__ = ["commands", "reference"]


@click.command()
@click.argument("name", required=False)
@click.option("--ruleset", "ruleset_id", default="srd-2024", show_default=True, help="Whose commands.")
@click.option("--json", "as_json", is_flag=True, help="Print the reference as JSON.")
def commands(name: str | None, ruleset_id: str, as_json: bool) -> None:
    """List a ruleset's commands, or show one: its fields, who may send it, when, an example."""
    import msgspec
    from rich.console import Console
    from rich.table import Table

    from combat.app.reference import command_doc, commands_of
    from combat.kernel.errors import RuleError
    from combat.rulesets import get_ruleset

    out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 140)
    try:
        ruleset = get_ruleset(ruleset_id)
        docs = [command_doc(ruleset, name)] if name else commands_of(ruleset)
    except RuleError as exc:
        Console(stderr=True, highlight=False).print(f"error: {exc}", markup=False)
        sys.exit(2)
    if as_json:
        click.echo(msgspec.json.encode(docs[0] if name else docs))
        return
    if not name:
        table = Table(title=f"{ruleset.id} commands (`combat commands --ruleset {ruleset.id} NAME` for one)")
        for column in ("type", "sent by", "phases", "what it does"):
            table.add_column(column)
        for doc in docs:
            table.add_row(doc.type, doc.sent_by, ", ".join(doc.phases), doc.summary.split("\n\n")[0].replace("\n", " "))
        out.print(table)
        return
    doc = docs[0]
    out.print(f"[bold]{doc.type}[/bold] ({ruleset.id})")
    if doc.summary:
        out.print(doc.summary, markup=False)
    out.print(f"sent by: {doc.sent_by}", markup=False)
    out.print(f"phases: {', '.join(doc.phases) or 'none (sent by the flow, never by hand)'}", markup=False)
    for title, field_docs in [("fields", doc.fields), *((f"fields of {n}", fs) for n, fs in doc.nested.items())]:
        fields = Table(title=title)
        for column in ("field", "type", "required / default", "meaning"):
            fields.add_column(column)
        for f in field_docs:
            fields.add_row(
                f.name, f.type, "required" if f.required else f"default {msgspec.json.encode(f.default).decode()}", f.meaning
            )
        out.print(fields)
    out.print("example:", msgspec.json.encode(doc.example).decode(), markup=False)


@click.command()
@click.option("--ruleset", "ruleset_id", default="srd-2024", show_default=True, help="Whose reference.")
def reference(ruleset_id: str) -> None:
    """Print a ruleset's reference page in Markdown: its overview, phases, settings, commands,
    own events and rule modules, read from its code (a plug-in's included)."""
    from combat.kernel.errors import RuleError
    from combat.reference_pages import reference_page
    from combat.rulesets import get_ruleset

    try:
        ruleset = get_ruleset(ruleset_id)
    except RuleError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    click.echo(reference_page(ruleset), nl=False)
