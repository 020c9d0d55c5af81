"""The GM's moves on the past: undo, retract, amend, override, fork (combat/app/history_moves.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from combat.cli.output import one_line_errors

if TYPE_CHECKING:  # the rest loads when a command needs it: `combat --help` stays quick
    pass
from combat.cli.encounters import print_outcome
from combat.cli.output import db_option, say
from combat.cli.references import encounter_and_seqs, find_encounter, open_store, parse_seqs


def _history_command(name: str, encounter: str | None, db: str, *args: Any, **kwargs: Any) -> None:
    with open_store(db) as encounters:
        eid = find_encounter(encounters, encounter, db)
        before = encounters.state(eid).version
        outcome = getattr(encounters, name)(eid, *args, **kwargs)
        print_outcome(encounters, eid, before, outcome)


@click.command()
@click.argument("encounter", required=False)
@click.option("--reason", required=True, help="Why: it stays in the log.")
@click.option("--actor", default="gm", show_default=True)
@db_option
@one_line_errors
def undo(encounter: str | None, reason: str, actor: str, db: str) -> None:
    """Retract everything the last command produced (undo an undo to redo)."""
    _history_command("undo_last", encounter, db, reason=reason, actor=actor)


@click.command()
@click.argument("args", nargs=-1, required=True, metavar="[ENCOUNTER] SEQS...")
@click.option("--reason", required=True, help="Why: it stays in the log.")
@click.option("--whole", is_flag=True, help="Take the whole command of each seq named, not only those events.")
@click.option("--actor", default="gm", show_default=True)
@db_option
@one_line_errors
def retract(args: tuple[str, ...], reason: str, whole: bool, actor: str, db: str) -> None:
    """Retract what the commands at SEQS did (retracting a retraction brings its events back).
    A command's events go together: naming part of them is refused unless --whole (or the
    part is what a changed past put in conflict)."""
    encounter, seqs = encounter_and_seqs(args, db)
    _history_command("retract", encounter, db, parse_seqs(seqs), reason=reason, actor=actor, whole=whole)


@click.command()
@click.argument("args", nargs=-1, required=True, metavar="[ENCOUNTER] SEQS...")
@click.option("--command", "command_json", required=True, help="The corrected command as JSON.")
@click.option("--reason", required=True, help="Why the ruling changed.")
@click.option("--actor", default="gm", show_default=True)
@db_option
@one_line_errors
def amend(args: tuple[str, ...], command_json: str, reason: str, actor: str, db: str) -> None:
    """Replace the ruling at SEQS by a corrected command, decided where the original stood."""
    encounter, seqs = encounter_and_seqs(args, db)
    _history_command("amend", encounter, db, parse_seqs(seqs), command_json, reason=reason, actor=actor)


@click.command()
@click.argument("args", nargs=-1, required=True, metavar="[ENCOUNTER] SEQS...")
@click.option("--ruling", required=True, help="Why the conflicting events stand.")
@db_option
@one_line_errors
def override(args: tuple[str, ...], ruling: str, db: str) -> None:
    """Let events that conflict with a changed past stand, by the GM's ruling."""
    encounter, seqs = encounter_and_seqs(args, db)
    _history_command("override", encounter, db, parse_seqs(seqs), ruling=ruling)


@click.command()
@click.argument("encounter", required=False)
@click.option("--at", "at", type=int, required=True, help="Branch from the state at this seq.")
@click.option("--name", default=None)
@db_option
@one_line_errors
def fork(encounter: str | None, at: int, name: str | None, db: str) -> None:
    """Start a what-if branch from a seq; the original is untouched. Prints the new id."""
    with open_store(db) as encounters:
        say(str(encounters.fork(find_encounter(encounters, encounter, db), at, name=name)))
