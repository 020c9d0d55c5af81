"""`combat monsters`: list and show stat blocks, and import the GM's own into the local store.

Registered on the `combat` group in combat/cli/__init__.py."""

from __future__ import annotations

import click

from combat.bestiary.settings import DEFAULT_STORE, STORE_ENV
from combat.cli.output import one_line_errors

__all__ = ["monsters"]


@click.command()
@click.argument("words", nargs=-1)
@click.option(
    "--import",
    "import_file",
    type=click.Path(exists=True, dir_okay=False),
    help="Add the stat blocks in this JSON file (Open5e records or stat blocks) to the local store.",
)
@click.option(
    "--store",
    type=click.Path(dir_okay=False),
    envvar=STORE_ENV,
    default=None,
    help=f"The local store of imported stat blocks [default: {DEFAULT_STORE}].",
)
@click.option("--json", "as_json", is_flag=True, help="Print stat blocks as JSON.")
@one_line_errors
def monsters(words: tuple[str, ...], import_file: str | None, store: str | None, as_json: bool) -> None:
    """List the bestiary's creatures matching WORDS (name or type), or show the one WORDS name."""
    import json

    import msgspec

    from combat.bestiary import library
    from combat.bestiary.importing import blocks_from_json
    from combat.bestiary.text import describe
    from combat.cli.output import consoles, print_block, rich_table, say
    from combat.kernel.errors import RuleError

    query = " ".join(words)
    if import_file is not None:
        with open(import_file, encoding="utf-8") as f:
            try:
                data = json.load(f)
            except json.JSONDecodeError as exc:
                raise RuleError("stat-block/malformed", f"{import_file} is not JSON: {exc}") from None
        blocks = blocks_from_json(data)
        path = library.save_local(blocks, store)
        say(f"imported {len(blocks)} stat block(s) into {path}: " + ", ".join(b.name for b in blocks))
        return
    exact = library.everything(store).get(" ".join(query.lower().split()))
    if exact is not None:
        print_block(msgspec.json.format(msgspec.json.encode(exact)).decode() if as_json else describe(exact))
        return
    found = library.search(query, store)
    if not found:
        library.find(query, store)  # raises with the closest names
    if as_json:
        print_block(msgspec.json.format(msgspec.json.encode(found)).decode())
        return
    table = rich_table("Name", "CR", "Size", "Type", "AC", "HP", "Source")
    for b in found:
        table.add_row(b.name, b.cr, b.size, b.type, str(b.ac), str(b.hp), b.source)
    consoles.out.print(table)
