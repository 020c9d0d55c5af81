"""The `combat` command line: a thin shell that parses, calls the application and prints."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID

import click
import msgspec
from rich.console import Console
from rich.progress import track
from rich.table import Table

from combat.app import chain, history
from combat.app.application import Encounters, Outcome
from combat.app.catalog import decode_command
from combat.kernel.errors import RuleError
from combat.app.interchange import event_schema, from_line, read_jsonl, to_jsonl
from combat.rulesets import RULESETS, get_ruleset
from combat.kernel.state import EncounterState
from combat.app.store import DB_ENV, DEFAULT_DB, Recorded
from projections.initiative import initiative_order
from projections.narrative import Narrator, narrate
from projections.audit import audit
from projections.state import render_state_json
from projections.steps import differences, flatten, state_hash, steps
from projections.visible import visible

__all__ = ["main", "cli"]

# Piped output gets a fixed, wide width so tables do not wrap and the same fight prints the same.
out = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 140)
err = Console(stderr=True, highlight=False, soft_wrap=True)
PROGRESS_FROM = 5000  # lines; below this a replay is instant

F = TypeVar("F", bound=Callable[..., Any])


def _one_line_errors(fn: F) -> F:
    """Errors print one clear line, not a traceback, and exit non-zero."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except RuleError as exc:
            err.print(visible(f"error: {exc}"), markup=False)
            sys.exit(2)
        except (OSError, ValueError) as exc:
            err.print(visible(f"error: {exc}"), markup=False)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


db_option = click.option(
    "--db",
    type=click.Path(dir_okay=False),
    envvar=DB_ENV,
    default=DEFAULT_DB,
    show_default=True,
    help=f"SQLite file of the event log (or set {DB_ENV}).",
)


def _encounter_id(value: str) -> UUID:
    try:
        return UUID(value)
    except ValueError:
        raise RuleError("encounter/bad-id", f"'{value}' is not an encounter id", allowed="the UUID printed by demo or new") from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Run tabletop fights as an append-only log of every roll and ruling."""


@cli.command()
def rulesets() -> None:
    """List the rulesets."""
    table = Table("id", "ruleset", "what makes it different")
    for r in RULESETS.values():
        table.add_row(r.id, r.title, r.summary)
    out.print(table)


@cli.command()
@click.option("--ruleset", "ruleset_id", default="srd-2024", show_default=True, help="Ruleset to play.")
@click.option("--seed", type=int, default=1, show_default=True, help="Dice seed: the same seed plays the same fight.")
@db_option
@click.option("--export", "export_to", type=click.Path(dir_okay=False), help="Also write the JSONL log here.")
@_one_line_errors
def demo(ruleset_id: str, seed: int, db: str, export_to: str | None) -> None:
    """Play a complete scripted fight and print its narrative and final table."""
    from combat.demos import get_demo

    run_demo = get_demo(get_ruleset(ruleset_id).id)
    narrator = Narrator()

    def report(outcome: Outcome) -> None:
        for rec in outcome.records:
            out.print(narrator.line(rec), markup=False)

    encounters = Encounters(db)
    try:
        encounter_id = run_demo(encounters, seed=seed, report=report)
        state = encounters.state(encounter_id)
        out.print()
        _print_table(state)
        if export_to:
            _write_export(encounters.records(encounter_id), Path(export_to))
    finally:
        encounters.close()
    err.print(f"encounter {encounter_id} in {db}" + (f", log written to {export_to}" if export_to else ""), markup=False)


@cli.command()
@click.option("--ruleset", "ruleset_id", default="srd-2024", show_default=True)
@click.option("--name", default="Encounter", show_default=True)
@click.option("--seed", type=int, default=None, help="Dice seed (random if not given).")
@click.option("--settings", "settings_json", default=None, help="Ruleset settings as a JSON object.")
@db_option
@_one_line_errors
def new(ruleset_id: str, name: str, seed: int | None, settings_json: str | None, db: str) -> None:
    """Create an encounter and print its id."""
    settings = json.loads(settings_json) if settings_json else None
    encounters = Encounters(db)
    try:
        out.print(str(encounters.create(ruleset_id, name, seed=seed, settings=settings)))
    finally:
        encounters.close()


@cli.command(name="do")
@click.argument("encounter")
@click.argument("command_json")
@click.option("--actor", default="gm", show_default=True, help="Who sends it: gm or a player's name.")
@click.option("--expected-version", type=int, default=None, help="Reject unless the log is at this seq.")
@db_option
@_one_line_errors
def do_command(encounter: str, command_json: str, actor: str, expected_version: int | None, db: str) -> None:
    """Send one command (JSON, e.g. '{"type": "end_turn", "combatant": "aria"}')."""
    command = decode_command(command_json)
    encounters = Encounters(db)
    try:
        eid = _encounter_id(encounter)
        before = encounters.state(eid).version
        outcome = encounters.execute(eid, command, actor=actor, expected_version=expected_version)
        narrator = _narrator_at(encounters.records(eid, upto=before))
        for rec in outcome.records:
            out.print(f"{rec.seq:>5}  {narrator.line(rec)}", markup=False)
    finally:
        encounters.close()


def _narrator_at(records: Iterable[Recorded]) -> Narrator:
    narrator = Narrator()
    for rec in records:
        narrator.line(rec)
    return narrator


@cli.command()
@click.argument("encounter")
@click.option("--at", "at", type=int, default=None, help="The state as it was at this seq.")
@click.option("--json", "as_json", is_flag=True, help="Print the state projection as JSON.")
@db_option
@_one_line_errors
def show(encounter: str, at: int | None, as_json: bool, db: str) -> None:
    """Show an encounter's current state (or its state at a seq)."""
    encounters = Encounters(db)
    try:
        state = encounters.state(_encounter_id(encounter), at=at)
    finally:
        encounters.close()
    _print_state(state, as_json)


@cli.command()
@click.argument("encounter")
@db_option
@_one_line_errors
def log(encounter: str, db: str) -> None:
    """Print an encounter's narrative log, one line per event."""
    encounters = Encounters(db)
    try:
        records = list(encounters.records(_encounter_id(encounter)))
    finally:
        encounters.close()
    for rec, line in zip(records, narrate(records)):
        out.print(f"{rec.seq:>5}  {line}", markup=False)


@cli.command()
@click.argument("encounter")
@db_option
@_one_line_errors
def export(encounter: str, db: str) -> None:
    """Write an encounter's log as JSON Lines to stdout; its head hash goes to stderr, for
    the GM to publish so a recipient can check the copy with `combat verify FILE --head`."""
    encounters = Encounters(db)
    head, last = chain.GENESIS, 0
    try:
        for rec in encounters.records(_encounter_id(encounter)):
            head, last = chain.link(head, rec), rec.seq
            sys.stdout.buffer.writelines(to_jsonl([rec]))
    finally:
        encounters.close()
    err.print(f"head {head} (seq {last})", markup=False)


@cli.command()
@click.argument("source", metavar="FILE|ENCOUNTER")
@click.option("--head", default=None, help="The head hash the GM published (from export): a log cut short, "
                                           "extended or re-hashed after an edit then fails too.")
@db_option
@_one_line_errors
def verify(source: str, head: str | None, db: str) -> None:
    """Check a JSONL log (or a stored encounter) for tampering: every event's hash against
    its content and the event before it, seqs 1, 2, 3... with none repeated or missing, and
    every roll's dice against its notation and total. Prints the first seq that breaks and
    exits 1; prints the head hash and exits 0 when all holds.

    It proves the log is the one whose head hash you hold, unchanged, in order and complete,
    and that every roll adds up. It does not prove the dice were rolled fairly, that entered
    faces are what lay on the table, or that the rulings were right; without --head, someone
    who rewrote the whole chain after an edit goes unnoticed. Events written before hashes
    existed are reported as unchained. See docs/trust.md.
    """
    path = Path(source)
    if path.exists():
        report = chain.verify(_lenient_lines(path), head=head)
        where = path.name
    else:
        encounters = Encounters(db)
        try:
            report = encounters.verify(_encounter_id(source), head=head)
        finally:
            encounters.close()
        where = f"encounter {source}"
    if report.broken is not None:
        err.print(f"broken: {where} at seq {report.broken.seq}: {report.broken.problem}", markup=False)
        sys.exit(1)
    chained = ("no event carries a hash (written before hashes): only the seqs and dice were checked"
               if report.unchained == report.events
               else f"chained from seq {report.unchained + 1}" + (f" (seq 1-{report.unchained} written before hashes)"
                                                                   if report.unchained else ""))
    out.print(f"ok: {where}: {report.events} events, {chained}; every roll adds up; head {report.head}", markup=False)


def _lenient_lines(path: Path) -> Iterable[Recorded]:
    """Each line as written, seqs unchecked (verify reports them), blank lines skipped."""
    for lineno, line in enumerate(path.read_bytes().splitlines(), start=1):
        if line.strip():
            yield from_line(line, lineno=lineno)


@cli.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--at", "at", type=int, default=None, help="Stop after this seq.")
@click.option("--json", "as_json", is_flag=True, help="Print the state projection as JSON.")
@click.option("--step", is_flag=True, help="Walk the log event by event: the line, the state hash, what changed.")
@click.option("--verify", is_flag=True, help="Compare with the expected state stored beside the log (FILE.expected.json).")
@_one_line_errors
def replay(file: str, at: int | None, as_json: bool, step: bool, verify: bool) -> None:
    """Rebuild the state from a JSONL log, at its end or at any seq. Never rolls dice.
    Refuses a log whose hash chain or dice arithmetic breaks (see `combat verify`)."""
    path = Path(file)
    records = _read_log(path, at)
    broken = chain.verify(records).broken
    if broken is not None:
        raise chain.TamperedLog(broken, where=path.name)
    if step:
        for s in steps(records):
            out.print(f"{s.seq:>5}  {s.state_hash[:12]}  {s.line}", markup=False)
            for key, before, after in s.changes:
                out.print(f"{'':>21}{key}: {_short(before)} -> {_short(after)}", markup=False)
        return
    state = history.replay(records)
    if verify:
        _verify(path, state)
        return
    _print_state(state, as_json)


@cli.command()
def schema() -> None:
    """Print the JSON Schema of every event (one line of the JSONL log)."""
    out.print(json.dumps(event_schema(), indent=2, sort_keys=True), markup=False)


@cli.command()
@click.option("--db", type=click.Path(dir_okay=False), envvar=DB_ENV, default=None,
              help=f"SQLite file of the event log [default: {DEFAULT_DB}, or PostgreSQL when "
                   "PERSISTENCE_MODULE=eventsourcing.postgres and POSTGRES_* are set].")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=int, default=8000, show_default=True, help="Port to listen on.")
@_one_line_errors
def serve(db: str | None, host: str, port: int) -> None:
    """Run the HTTP service (OpenAPI at /schema); JSON log lines on stderr."""
    from combat.service import serve as run_service

    run_service(db, host, port)


@cli.command()
@click.argument("encounter")
@click.option("--role", type=click.Choice(["gm", "player", "viewer"]), required=True)
@click.option("--name", default="", help="The player's or viewer's name (recorded as the actor of their commands).")
@click.option("--combatant", "combatants", multiple=True, help="A combatant the player commands (repeat for several).")
@db_option
@_one_line_errors
def token(encounter: str, role: str, name: str, combatants: tuple[str, ...], db: str) -> None:
    """Issue an HTTP token for an encounter made here (e.g. by demo or new); printed once, stored hashed."""
    from combat.service.auth import Tokens
    from combat.service.token_store import TokenStore

    encounters = Encounters(db)
    try:
        eid = _encounter_id(encounter)
        encounters.state(eid)
        secret, _ = Tokens(TokenStore(encounters.log)).issue(eid, role, name, combatants)
    finally:
        encounters.close()
    out.print(secret, markup=False)


@cli.command()
@click.option("--quick", is_flag=True, help="Small sizes, under a minute: a smoke check (no thresholds).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--no-postgres", is_flag=True, help="Leave out the PostgreSQL service runs.")
def bench(quick: bool, as_json: bool, no_postgres: bool) -> None:
    """Measure replay, commands, loading, the HTTP service, memory and stream lag, each
    against a floor or a peer measured in the same run (see docs/benchmarks.md)."""
    from combat.bench.__main__ import bench as run_bench

    run_bench(quick, as_json, postgres=not no_postgres)


@cli.command()
@click.argument("ruleset_id", metavar="RULESET")
@_one_line_errors
def diagram(ruleset_id: str) -> None:
    """Print the ruleset's phase machine as a mermaid state diagram."""
    out.print(get_ruleset(ruleset_id).phases.mermaid(), markup=False)


# -- changing the past ---------------------------------------------------------------------


def _history_command(fn: Callable[..., Outcome], *args: Any, db: str, **kwargs: Any) -> None:
    encounters = Encounters(db)
    try:
        eid = _encounter_id(args[0])
        before = encounters.state(eid).version
        outcome = fn(encounters, eid, *args[1:], **kwargs)
        narrator = _narrator_at(encounters.records(eid, upto=before))
        for rec in outcome.records:
            out.print(f"{rec.seq:>5}  {narrator.line(rec)}", markup=False)
        for conflict in outcome.state.conflicts:
            out.print(visible(f"conflict at seq {conflict.seq} ({conflict.type}): {conflict.problem}"), markup=False)
    finally:
        encounters.close()


@cli.command()
@click.argument("encounter")
@click.option("--reason", required=True, help="Why: it stays in the log.")
@click.option("--actor", default="gm", show_default=True)
@db_option
@_one_line_errors
def undo(encounter: str, reason: str, actor: str, db: str) -> None:
    """Retract everything the last command produced (undo an undo to redo)."""
    _history_command(Encounters.undo_last, encounter, db=db, reason=reason, actor=actor)


@cli.command()
@click.argument("encounter")
@click.argument("seqs", nargs=-1, type=int, required=True)
@click.option("--reason", required=True, help="Why: it stays in the log.")
@click.option("--actor", default="gm", show_default=True)
@db_option
@_one_line_errors
def retract(encounter: str, seqs: tuple[int, ...], reason: str, actor: str, db: str) -> None:
    """Retract the events at SEQS (retracting a retraction brings its events back)."""
    _history_command(Encounters.retract, encounter, list(seqs), db=db, reason=reason, actor=actor)


@cli.command()
@click.argument("encounter")
@click.argument("seqs", nargs=-1, type=int, required=True)
@click.option("--command", "command_json", required=True, help="The corrected command as JSON.")
@click.option("--reason", required=True, help="Why the ruling changed.")
@click.option("--actor", default="gm", show_default=True)
@db_option
@_one_line_errors
def amend(encounter: str, seqs: tuple[int, ...], command_json: str, reason: str, actor: str, db: str) -> None:
    """Replace the ruling at SEQS by a corrected command, decided where the original stood."""
    command = decode_command(command_json)
    _history_command(Encounters.amend, encounter, list(seqs), command, db=db, reason=reason, actor=actor)


@cli.command()
@click.argument("encounter")
@click.argument("seqs", nargs=-1, type=int, required=True)
@click.option("--ruling", required=True, help="Why the conflicting events stand.")
@db_option
@_one_line_errors
def override(encounter: str, seqs: tuple[int, ...], ruling: str, db: str) -> None:
    """Let events that conflict with a changed past stand, by the GM's ruling."""
    _history_command(Encounters.override, encounter, list(seqs), db=db, ruling=ruling)


@cli.command()
@click.argument("encounter")
@click.option("--at", "at", type=int, required=True, help="Branch from the state at this seq.")
@click.option("--name", default=None)
@db_option
@_one_line_errors
def fork(encounter: str, at: int, name: str | None, db: str) -> None:
    """Start a what-if branch from a seq; the original is untouched. Prints the new id."""
    encounters = Encounters(db)
    try:
        out.print(str(encounters.fork(_encounter_id(encounter), at, name=name)))
    finally:
        encounters.close()


@cli.command(name="audit")
@click.argument("encounter")
@click.option("--json", "as_json", is_flag=True, help="The whole audit as JSON.")
@db_option
@_one_line_errors
def audit_command(encounter: str, as_json: bool, db: str) -> None:
    """Who did what and when, every roll, every undo and amendment, conflicts, dice fairness."""
    encounters = Encounters(db)
    try:
        report = audit(encounters.records(_encounter_id(encounter)))
    finally:
        encounters.close()
    if as_json:
        out.print(msgspec.json.format(msgspec.json.encode(report), indent=2).decode(), markup=False)
        return
    for entry in report.entries:
        mark = "" if entry.counts else f"  [retracted by {entry.retracted_by}]"
        out.print(f"{entry.seq:>5}  {entry.at}  {visible(entry.actor):<8} {entry.line}{mark}", markup=False)
    for change in report.changes:
        out.print(visible(f"{change.kind} at seq {change.seq} by {change.actor}: {change.reason} (touched {_seq_list(change.touched)})"), markup=False)
    for conflict in report.conflicts:
        out.print(visible(f"conflict at seq {conflict['seq']}: {conflict['problem']}"), markup=False)
    dice = Table("roller", "d20s", "entered", *(str(f) for f in range(1, 21)), "p (fair die)")
    for d in report.dice:
        dice.add_row(visible(d.roller), str(d.d20s), str(d.entered), *(str(c) for c in d.faces), f"{d.p_value:.3f}" if d.p_value is not None else "")
    out.print(dice)


# -- helpers -------------------------------------------------------------------------------


def _seq_list(seqs: Iterable[int]) -> str:
    return ", ".join(map(str, seqs))


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


def _verify(path: Path, state: EncounterState) -> None:
    expected_path = path.with_name(path.name.removesuffix(".jsonl") + ".expected.json")
    if not expected_path.exists():
        raise RuleError("replay/no-expected", f"no expected state beside the log ({expected_path.name})",
                        allowed="write it with: combat replay FILE --json > FILE.expected.json")
    expected = json.loads(expected_path.read_text())
    actual = json.loads(render_state_json(state))
    diffs = differences(flatten(expected), flatten(actual))
    if not diffs:
        out.print(f"ok: {path.name} rebuilds to its expected state (seq {state.version}, hash {state_hash(state)[:12]})", markup=False)
        return
    for key, want, got in diffs:
        err.print(f"differs: {key}: expected {_short(want)}, got {_short(got)}", markup=False)
    err.print(f"error: {path.name} does not rebuild to {expected_path.name} ({len(diffs)} differences)", markup=False)
    sys.exit(1)




def _read_log(path: Path, at: int | None) -> list[Recorded]:
    lines = path.read_bytes().splitlines()
    if at is not None:
        if at < 1 or at > len(lines):
            raise RuleError("replay/at", f"--at {at} is outside the log", allowed=f"1 to {len(lines)}")
        lines = lines[:at]
    if len(lines) >= PROGRESS_FROM and err.is_terminal:
        # The bar advances as each line is decoded and checked, which is where the time goes.
        return read_jsonl(track(lines, description="reading log", console=err, transient=True))
    return read_jsonl(lines)


def _write_export(records: Iterable[Recorded], path: Path) -> None:
    with path.open("wb") as fh:
        fh.writelines(to_jsonl(records))


def _print_state(state: EncounterState, as_json: bool) -> None:
    if as_json:
        out.print(render_state_json(state), markup=False)
        return
    out.print(
        visible(f"{state.name} [{state.ruleset}] - phase {state.phase}, round {state.round}, seq {state.version}"),
        markup=False,
    )
    _print_table(state)


def _print_table(state: EncounterState) -> None:
    table = Table("", "init", "combatant", "side", "HP", "AC", "status", "conditions", "left this turn")
    for entry in initiative_order(state):
        c = state.combatants[entry.combatant]
        hp = f"{c.hp}/{c.max_hp}" + (f" +{c.temp_hp}" if c.temp_hp else "")
        conditions = ", ".join(x.name for x in c.conditions)
        if c.concentration:
            conditions = ", ".join(filter(None, [conditions, f"concentrating: {c.concentration}"]))
        left = ""
        if entry.current:
            e = c.economy
            left = ", ".join(
                name for name, has in (("action", e.action or e.attacks_left), ("bonus", e.bonus_action), ("reaction", e.reaction)) if has
            ) + f", {max(0, e.movement - e.moved)} ft"
        table.add_row(
            ">" if entry.current else "",
            "" if entry.initiative is None else str(entry.initiative) + ("*" if entry.tied else ""),
            visible(c.name),
            visible(c.side),
            hp,
            str(c.ac),
            c.status,
            visible(conditions),
            left,
        )
    out.print(table)
    if state.phase == "ended":
        out.print(visible(f"Ended: {state.ended_reason}" + (f" - {state.winner} win" if state.winner else "")), markup=False)


def main() -> None:
    cli(prog_name="combat")


if __name__ == "__main__":
    main()
