"""The `combat` command line: a thin shell that parses, calls the application and prints.

One module a group of commands: encounters.py (one fight: create, do, show, log, replay...),
verify.py, history.py (the GM's moves on the past), service.py (serve, tokens, bench),
characters.py and stats.py (campaigns), monsters.py, spells.py, reference.py (the command
reference); what they all print through is output.py, how they name an encounter
references.py."""

from __future__ import annotations

import atexit
import gc

import click

from combat.cli import characters, encounters, history, monsters, reference, service, spells, stats, verify

__all__ = ["main", "cli"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Run tabletop fights as an append-only log of every roll and ruling."""


for command in (
    encounters.rulesets,
    encounters.demo,
    encounters.new,
    encounters.list_encounters,
    encounters.use,
    encounters.do_command,
    encounters.show,
    encounters.log,
    encounters.export,
    verify.verify,
    encounters.replay,
    encounters.schema,
    service.serve,
    service.token,
    service.bench,
    encounters.diagram,
    history.undo,
    history.retract,
    history.amend,
    history.override,
    history.fork,
    encounters.audit_command,
    reference.commands,
    reference.reference,
    monsters.monsters,
    characters.characters,
    characters.campaigns,
    spells.spells,
    stats.stats,
):
    cli.add_command(command)


def main() -> None:
    # A command's start is mostly imports (most of them made when the command runs): thousands
    # of objects made and kept, hardly a cycle among them, walked again by the collector's pass
    # every 700 allocations, a twentieth of `combat do`. A wider first generation walks them
    # far less often and still frees cycles. Set here, not at import: a program that imports
    # the CLI (the tests) keeps its own.
    gc.set_threshold(100_000, *service.DEFAULT_GC[1:])
    # At exit the interpreter's last collection walks every object the command made (the
    # rules, their types, the dice parser): as long again as a quick command's own work. They
    # go with the process; frozen, that collection passes them over. Nothing is left to a
    # collector to close: each command closes its store itself.
    atexit.register(gc.freeze)
    cli(prog_name="combat")
