"""`combat verify`: the hash chain of a stored encounter, an export, or every campaign's log."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from combat.cli.output import consoles, one_line_errors
from combat.store.settings import DB_ENV, DEFAULT_DB

if TYPE_CHECKING:  # the rest loads when a command needs it: `combat --help` stays quick
    from combat.app.chain import Undecoded
    from combat.kernel.records import Recorded
from combat.cli.output import say, visible_line
from combat.cli.references import find_encounter, open_store


@click.command()
@click.argument("source", metavar="FILE|ENCOUNTER", required=False)
@click.option(
    "--head",
    default=None,
    help="The head hash the GM published (from export): a log cut short, extended or re-hashed after an edit then fails too.",
)
@click.option(
    "--allow-unchained",
    is_flag=True,
    help="Pass a log in which no event carries a hash (written before hashes existed), checking only its seqs and dice.",
)
@click.option(
    "--campaigns",
    "campaigns",
    is_flag=True,
    help="Check the store's campaigns instead: every campaign's and character's log, its chain and its rows (docs/campaigns.md).",
)
@click.option(
    "--db",
    type=str,
    envvar=DB_ENV,
    default=DEFAULT_DB,
    show_default=True,
    help=f"The store of ENCOUNTER: an SQLite file, or postgresql://user@host:port/dbname (or set {DB_ENV}).",
)
@one_line_errors
def verify(source: str | None, head: str | None, allow_unchained: bool, campaigns: bool, db: str) -> None:
    """Check a JSONL log (or a stored encounter) for tampering: every event's hash against
    its content and the event before it, seqs 1, 2, 3... with none repeated or missing, and
    every roll's dice against its notation and total; for a stored encounter, also its latest
    snapshot against the log. Prints the first seq that breaks and exits 1; prints the head
    hash and exits 0 when all holds.

    It proves the log is the one whose head hash you hold, unchanged, in order and complete,
    and that every roll adds up. It does not prove the dice were rolled fairly, that entered
    faces are what lay on the table, or that the rulings were right; without --head, someone
    who rewrote the whole chain after an edit goes unnoticed. A log in which no event carries
    a hash fails (nothing vouches for it: it was written before hashes, or they were
    stripped) unless --allow-unchained. See docs/trust.md.

    An event of a ruleset not installed here (a plug-in) is not decoded: its hash is checked
    over its fields as stored, and the output says so. One whose hash those fields do not
    bear out (it held a field at its default, which the hashed bytes leave out and only its
    ruleset knows) is reported as unchecked, exit 1, until the ruleset is installed.
    """
    from combat.app import chain

    if campaigns:
        _verify_campaigns(db)
        return
    path = Path(source) if source is not None else None
    if path is not None and path.is_file():
        report = chain.verify(_lenient_lines(path), head=head)
        where, stored = path.name, False
    else:
        with open_store(db) as encounters:
            eid = find_encounter(encounters, source, db)
            report = encounters.verify(eid, head=head)
        where, stored = f"encounter {eid}", True
    if report.broken is not None:
        consoles.err.print(visible_line(f"broken: {where} at seq {report.broken.seq}: {report.broken.problem}"), markup=False)
        sys.exit(1)
    for snapshot in report.snapshots:
        consoles.err.print(visible_line(f"broken: {where}: snapshot at seq {snapshot.seq}: {snapshot.problem}"), markup=False)
    if report.snapshots:
        sys.exit(1)
    if report.unchecked:
        consoles.err.print(visible_line(f"unchecked: {where}: {_unchecked(report)}"), markup=False)
        sys.exit(1)
    if report.unchained == report.events and not allow_unchained:
        consoles.err.print(
            visible_line(
                f"unchained: {where}: no event carries a hash, so nothing vouches for its content "
                "(a log written before hashes existed, or one whose hashes were stripped); "
                "--allow-unchained checks only its seqs and dice"
            ),
            markup=False,
        )
        sys.exit(1)
    chained = (
        "no event carries a hash (written before hashes): only the seqs and dice were checked"
        if report.unchained == report.events
        else f"chained from seq {report.unchained + 1}"
        + (f" (seq 1-{report.unchained} written before hashes)" if report.unchained else "")
    )
    say(f"ok: {where}: {report.events} events, {chained}; every roll adds up; head {report.head}{_not_decoded(report, stored)}")


def _not_installed(report: Any) -> str:
    from combat.rulesets import RULESETS

    return "" if report.ruleset in RULESETS else f"its ruleset '{report.ruleset}' is not installed"


def _not_decoded(report: Any, stored: bool) -> str:
    """What `ok` could not look at when the log's ruleset, or some of its event types, are not installed."""
    said = ""
    if report.undecoded:
        said = f"; events of {', '.join(report.undecoded)} not decoded: their hashes checked over their fields as stored"
    if _not_installed(report):
        said += f"; {_not_installed(report)}" + (", so its snapshot was not compared" if stored else "")
    return said


def _unchecked(report: Any) -> str:
    seqs = ", ".join(map(str, report.unchecked))
    missing = f"; {_not_installed(report)}" if _not_installed(report) else ""
    return (
        f"seq {seqs} not checked: events of {', '.join(report.undecoded)} are not decoded{missing}, and the hash "
        "does not match the fields as stored, as it would if none of them held its default (the hashed bytes leave "
        "those out, and only the ruleset knows them); the chain holds around it. Install the ruleset and verify again"
    )


def _verify_campaigns(db: str) -> None:
    """Every stored campaign's and character's log: exits 1 naming each whose chain or rows do not hold."""
    with open_store(db) as encounters:
        broken = encounters.campaigns.verify()
        count = len(encounters.campaigns.log.originators())
    for bad in broken:
        consoles.err.print(visible_line(f"broken: log {bad.id}: {bad.problem}"), markup=False)
    if broken:
        sys.exit(1)
    say(f"ok: {count} campaign and character logs, every chain holds")


def _lenient_lines(path: Path) -> Iterator[Recorded | Undecoded]:
    """Each line as written, seqs unchecked (verify reports them), blank lines skipped; an
    event whose type no installed ruleset reads is not decoded (combat.app.undecoded)."""
    from combat.app.undecoded import known_types, read_line

    known = known_types()
    for lineno, line in enumerate(path.read_bytes().splitlines(), start=1):
        if line.strip():
            yield read_line(line, lineno, known)
