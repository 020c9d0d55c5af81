"""The `combat` command line: a thin shell that parses, calls the application and prints."""

from __future__ import annotations

import atexit
import gc
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from combat.cli_output import _consoles, _one_line_errors
from combat.reference_cli import commands
from combat.service.limits import Limits
from combat.stats.settings import DEFAULT_FOLLOWER, FOLLOWER_ENV, FOLLOWER_MODES
from combat.store.settings import DB_ENV, DEFAULT_DB

if TYPE_CHECKING:  # the rest loads when a command needs it: `combat --help` stays quick
    from uuid import UUID

    from rich.table import Column, Table

    from combat.app.application import Encounters, Outcome
    from combat.kernel.records import Recorded
    from combat.kernel.state import EncounterState
    from projections.narrative import Narrator

__all__ = ["main", "cli"]

# The interpreter's collector thresholds, which `main` widens for a command's start and the
# long-running commands (serve, bench) put back.
_DEFAULT_GC = gc.get_threshold()

PROGRESS_FROM = 5000  # lines; below this a replay is instant

F = TypeVar("F", bound=Callable[..., Any])


def _say(text: str) -> None:
    """One line that may hold players' and GMs' words: control characters are shown as
    escapes, so no newline forges a line and no escape sequence reaches the terminal."""
    from projections.visible import visible

    click.echo(visible(text))


# Every line the CLI prints may hold a name someone typed: one line is always escaped.
_print = _say


def _print_block(text: str) -> None:
    """Text of several lines the CLI wrote itself (indented JSON, a diagram): each line
    escaped as `_say` escapes one, the line breaks kept."""
    from projections.visible import visible

    click.echo("\n".join(visible(line) for line in text.split("\n")))


def _table(*columns: str | Column, **options: Any) -> Table:
    """A rich table whose cells show their text as it is: control characters as escapes
    (`visible`), square brackets as brackets, not rich markup."""
    from rich.table import Table
    from rich.text import Text

    from projections.visible import visible

    class _Escaped(Table):
        def add_row(self, *cells: Any, **kwargs: Any) -> None:
            super().add_row(*(Text(visible(c)) if isinstance(c, str) else c for c in cells), **kwargs)

    return _Escaped(*columns, **options)


def _print_json(value: Any) -> None:
    import json

    _print_block(json.dumps(value, indent=2, sort_keys=True, default=str))


db_option = click.option(
    "--db",
    type=click.Path(dir_okay=False),
    envvar=DB_ENV,
    default=DEFAULT_DB,
    show_default=True,
    help=f"SQLite file of the event log (or set {DB_ENV}).",
)


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


@contextmanager
def _store(db: str) -> Iterator[Encounters]:
    from combat.app.application import Encounters

    encounters = Encounters(db)
    try:
        yield encounters
    finally:
        encounters.close()


def _current_file(db: str) -> Path:
    return Path(f"{db}.current")


ENCOUNTER_ENV = "COMBAT_ENCOUNTER"


def _remembered(db: str) -> str | None:
    """The encounter `combat use` remembered for this store (COMBAT_ENCOUNTER wins)."""
    if os.environ.get(ENCOUNTER_ENV):
        return os.environ[ENCOUNTER_ENV]
    path = _current_file(db)
    return path.read_text().strip() or None if path.exists() else None


def _encounter_id(encounters: Encounters, reference: str | None, db: str) -> UUID:
    """The encounter meant: a name, an id or its unique start, or the one `combat use` chose."""
    from combat.app.directory import resolve
    from combat.kernel.errors import RuleError

    reference = reference or _remembered(db)
    if not reference:
        raise RuleError(
            "encounter/none",
            "which encounter? none given and none chosen with `combat use`",
            allowed="an encounter's name or id start (see `combat list`), or `combat use ENCOUNTER` first",
        )
    return resolve(encounters, reference)


def _encounter_and_seqs(args: tuple[str, ...], db: str) -> tuple[str | None, tuple[str, ...]]:
    """[ENCOUNTER] SEQS...: the encounter may be left out once `combat use` has chosen one;
    with one remembered, arguments that are all whole numbers (seqs) name no encounter."""
    from combat.kernel.errors import RuleError

    if _remembered(db) and args and all(a.isdigit() for a in args):
        return None, args
    if len(args) < 2:
        raise RuleError(
            "cli/arguments", "missing SEQS...", allowed="[ENCOUNTER] SEQS... (the encounter may be left out after `combat use`)"
        )
    return args[0], args[1:]


def _seqs(values: Iterable[str]) -> list[int]:
    from combat.kernel.errors import RuleError

    try:
        return [int(v) for v in values]
    except ValueError:
        raise RuleError("cli/seq", f"seqs are whole numbers, not {' '.join(values)}", allowed="e.g. 12 13") from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Run tabletop fights as an append-only log of every roll and ruling."""


@cli.command()
@json_option
def rulesets(as_json: bool) -> None:
    """List the rulesets, the installed plug-ins' among them (a plug-in that did not load is
    named on stderr, with why)."""

    from combat.rulesets import RULESETS, plugin_errors

    for error in plugin_errors():
        _consoles.err.print(f"error: {error}", markup=False)
    if as_json:
        _print_json([{"id": r.id, "title": r.title, "summary": r.summary} for r in RULESETS.values()])
        return
    table = _table("id", "ruleset", "what makes it different")
    for r in RULESETS.values():
        table.add_row(r.id, r.title, r.summary)
    _consoles.out.print(table)


@cli.command()
@click.option("--ruleset", "ruleset_id", default="srd-2024", show_default=True, help="Ruleset to play.")
@click.option("--seed", type=int, default=1, show_default=True, help="Dice seed: the same seed plays the same fight.")
@db_option
@click.option("--export", "export_to", type=click.Path(dir_okay=False), help="Also write the JSONL log here.")
@_one_line_errors
def demo(ruleset_id: str, seed: int, db: str, export_to: str | None) -> None:
    """Play a complete scripted fight and print its narrative and final table."""
    from combat.demos import get_demo
    from combat.rulesets import get_ruleset
    from projections.narrative import Narrator

    run_demo = get_demo(get_ruleset(ruleset_id).id)
    narrator = Narrator()

    def report(outcome: Outcome) -> None:
        for rec in outcome.records:
            _print(narrator.line(rec))

    with _store(db) as encounters:
        encounter_id = run_demo(encounters, seed=seed, report=report)
        state = encounters.state(encounter_id)
        _consoles.out.print()
        _print_table(state)
        if export_to:
            _write_export(encounters.records(encounter_id), Path(export_to))
    _consoles.err.print(
        f"encounter {encounter_id} in {db}" + (f", log written to {export_to}" if export_to else ""), markup=False
    )


@cli.command()
@click.option("--ruleset", "ruleset_id", default="srd-2024", show_default=True)
@click.option("--name", default="Encounter", show_default=True)
@click.option("--seed", type=int, default=None, help="Dice seed (random if not given).")
@click.option("--settings", "settings_json", default=None, help="Ruleset settings as a JSON object.")
@click.option("--use", "use_it", is_flag=True, help="Also make it the current encounter (as `combat use`).")
@click.option(
    "--campaign",
    default=None,
    help="A campaign (name or id): the fight adds its characters by name and carries its outcome to them.",
)
@click.option("--practice", is_flag=True, help="With --campaign: a practice fight, whose outcome is not carried back.")
@db_option
@_one_line_errors
def new(
    ruleset_id: str,
    name: str,
    seed: int | None,
    settings_json: str | None,
    use_it: bool,
    campaign: str | None,
    practice: bool,
    db: str,
) -> None:
    """Create an encounter and print its id."""
    import json

    settings = json.loads(settings_json) if settings_json else None
    with _store(db) as encounters:
        in_campaign = encounters.campaigns.named(campaign).id if campaign is not None else None
        eid = encounters.create(ruleset_id, name, seed=seed, settings=settings, campaign=in_campaign, practice=practice)
    if use_it:
        _current_file(db).write_text(str(eid))
    _print(str(eid))


@cli.command(name="list")
@json_option
@db_option
@_one_line_errors
def list_encounters(as_json: bool, db: str) -> None:
    """List the encounters in the store, the most recently active first."""

    from combat.app.directory import summaries

    with _store(db) as encounters:
        found = summaries(encounters)
    current = _remembered(db)
    if as_json:
        _print_json([s.as_json() for s in found])
        return
    table = _table("", "id", "name", "ruleset", "phase", "round", "events", "last activity")
    for s in found:
        mark = ">" if current and (current == str(s.id) or current == s.name) else ""
        table.add_row(
            mark,
            s.id.hex[:8],
            s.name,
            s.ruleset,
            s.phase,
            str(s.round),
            str(s.version),
            s.last_activity.strftime("%Y-%m-%d %H:%M"),
        )
    _consoles.out.print(table)


@cli.command()
@click.argument("encounter", required=False)
@click.option("--clear", is_flag=True, help="Forget the current encounter.")
@db_option
@_one_line_errors
def use(encounter: str | None, clear: bool, db: str) -> None:
    """Remember ENCOUNTER (a name or the start of its id) for the commands that follow, so
    they can leave it out; with no argument, say which one is remembered."""
    path = _current_file(db)
    if clear:
        path.unlink(missing_ok=True)
        _print("no current encounter")
        return
    if encounter is None:
        _print(_remembered(db) or "no current encounter (combat use ENCOUNTER)")
        return
    with _store(db) as encounters:
        eid = _encounter_id(encounters, encounter, db)
        name = encounters.state(eid).name
    path.write_text(str(eid))
    _print(f"using {eid} ({name})")


@cli.command(name="do")
@click.argument("args", nargs=-1, required=True, metavar="[ENCOUNTER] COMMAND_JSON")
@click.option("--actor", default="gm", show_default=True, help="Who sends it: gm or a player's name.")
@click.option("--expected-version", type=int, default=None, help="Reject unless the log is at this seq.")
@db_option
@_one_line_errors
def do_command(args: tuple[str, ...], actor: str, expected_version: int | None, db: str) -> None:
    """Send one command (JSON, e.g. '{"type": "end_turn", "combatant": "aria"}')."""
    from combat.kernel.errors import RuleError

    if len(args) > 2:
        raise RuleError("cli/arguments", f"{len(args)} arguments", allowed="[ENCOUNTER] COMMAND_JSON (quote the JSON)")
    encounter, command_json = (None, args[0]) if len(args) == 1 else args
    with _store(db) as encounters:
        eid = _encounter_id(encounters, encounter, db)
        command = encounters.read_command(eid, command_json)
        before = encounters.state(eid).version
        outcome = encounters.execute(eid, command, actor=actor, expected_version=expected_version)
        _print_outcome(encounters, eid, before, outcome)


def _narrator_at(records: Iterable[Recorded]) -> Narrator:
    from projections.narrative import Narrator

    narrator = Narrator()
    for rec in records:
        narrator.line(rec)
    return narrator


def _print_outcome(encounters: Encounters, eid: UUID, before: int, outcome: Outcome) -> None:
    narrator = _narrator_at(encounters.records(eid, upto=before))
    for rec in outcome.records:
        _print(f"{rec.seq:>5}  {narrator.line(rec)}")
    for conflict in outcome.state.conflicts:
        _say(f"conflict at seq {conflict.seq} ({conflict.type}): {conflict.problem}")


@cli.command()
@click.argument("encounter", required=False)
@click.option("--at", "at", type=int, default=None, help="The state as it was at this seq.")
@json_option
@db_option
@_one_line_errors
def show(encounter: str | None, at: int | None, as_json: bool, db: str) -> None:
    """Show an encounter's current state (or its state at a seq)."""
    with _store(db) as encounters:
        state = encounters.state(_encounter_id(encounters, encounter, db), at=at)
    _print_state(state, as_json)


@cli.command()
@click.argument("encounter", required=False)
@json_option
@db_option
@_one_line_errors
def log(encounter: str | None, as_json: bool, db: str) -> None:
    """Print an encounter's narrative log, one line per event."""
    from projections.narrative import narrate

    with _store(db) as encounters:
        records = list(encounters.records(_encounter_id(encounters, encounter, db)))
    lines = narrate(records)
    if as_json:
        _print_json(
            [
                {"seq": rec.seq, "type": type(rec.event).__name__, "actor": rec.actor, "line": line}
                for rec, line in zip(records, lines)
            ]
        )
        return
    for rec, line in zip(records, lines):
        _print(f"{rec.seq:>5}  {line}")


@cli.command()
@click.argument("encounter", required=False)
@db_option
@_one_line_errors
def export(encounter: str | None, db: str) -> None:
    """Write an encounter's log as JSON Lines to stdout; its head hash goes to stderr, for
    the GM to publish so a recipient can check the copy with `combat verify FILE --head`."""
    from combat.app import chain
    from combat.app.interchange import to_line

    head, last = chain.GENESIS, 0
    with _store(db) as encounters:
        for rec in encounters.records(_encounter_id(encounters, encounter, db)):
            head, last = chain.link(head, rec), rec.seq
            sys.stdout.buffer.write(to_line(rec) + b"\n")
    _consoles.err.print(f"head {head} (seq {last})", markup=False)


@cli.command()
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
@_one_line_errors
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
    """
    from combat.app import chain

    if campaigns:
        _verify_campaigns(db)
        return
    path = Path(source) if source is not None else None
    if path is not None and path.is_file():
        report = chain.verify(_lenient_lines(path), head=head)
        where = path.name
    else:
        with _store(db) as encounters:
            eid = _encounter_id(encounters, source, db)
            report = encounters.verify(eid, head=head)
        where = f"encounter {eid}"
    if report.broken is not None:
        _consoles.err.print(visible_line(f"broken: {where} at seq {report.broken.seq}: {report.broken.problem}"), markup=False)
        sys.exit(1)
    for snapshot in report.snapshots:
        _consoles.err.print(visible_line(f"broken: {where}: snapshot at seq {snapshot.seq}: {snapshot.problem}"), markup=False)
    if report.snapshots:
        sys.exit(1)
    if report.unchained == report.events and not allow_unchained:
        _consoles.err.print(
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
    _say(f"ok: {where}: {report.events} events, {chained}; every roll adds up; head {report.head}")


def _verify_campaigns(db: str) -> None:
    """Every stored campaign's and character's log: exits 1 naming each whose chain or rows do not hold."""
    with _store(db) as encounters:
        broken = encounters.campaigns.verify()
        count = len(encounters.campaigns.log.originators())
    for bad in broken:
        _consoles.err.print(visible_line(f"broken: log {bad.id}: {bad.problem}"), markup=False)
    if broken:
        sys.exit(1)
    _say(f"ok: {count} campaign and character logs, every chain holds")


def visible_line(text: str) -> str:
    from projections.visible import visible

    return visible(text)


def _lenient_lines(path: Path) -> Iterator[Recorded]:
    """Each line as written, seqs unchecked (verify reports them), blank lines skipped."""
    from combat.app.interchange import from_line

    for lineno, line in enumerate(path.read_bytes().splitlines(), start=1):
        if line.strip():
            yield from_line(line, lineno=lineno)


@cli.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--at", "at", type=int, default=None, help="Stop after this seq.")
@json_option
@click.option("--step", is_flag=True, help="Walk the log event by event: the line, the state hash, what changed.")
@click.option("--verify", is_flag=True, help="Compare with the expected state stored beside the log (FILE.expected.json).")
@_one_line_errors
def replay(file: str, at: int | None, as_json: bool, step: bool, verify: bool) -> None:
    """Rebuild the state from a JSONL log, at its end or at any seq. Never rolls dice.
    Refuses a log whose hash chain or dice arithmetic breaks (see `combat verify`)."""
    from combat.app import chain, history
    from projections.steps import steps

    path = Path(file)
    records = _read_log(path, at)
    broken = chain.verify(records).broken
    if broken is not None:
        raise chain.TamperedLog(broken, where=path.name)
    if step:
        walked = steps(records)
        if as_json:
            _print_json(
                [
                    {"seq": s.seq, "state_hash": s.state_hash, "line": s.line, "changes": [list(c) for c in s.changes]}
                    for s in walked
                ]
            )
            return
        for s in walked:
            _print(f"{s.seq:>5}  {s.state_hash[:12]}  {s.line}")
            for key, before, after in s.changes:
                _print(f"{'':>21}{key}: {_short(before)} -> {_short(after)}")
        return
    state = history.replay(records)
    if verify:
        _verify(path, state)
        return
    _print_state(state, as_json)


@cli.command()
def schema() -> None:
    """Print the JSON Schema of every event (one line of the JSONL log)."""
    import json

    from combat.app.interchange import event_schema

    _print_block(json.dumps(event_schema(), indent=2, sort_keys=True))


_LIMITS = Limits()


@cli.command()
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    envvar=DB_ENV,
    default=None,
    help=f"SQLite file of the event log [default: {DEFAULT_DB}, or PostgreSQL when "
    "PERSISTENCE_MODULE=eventsourcing.postgres and POSTGRES_* are set].",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=int, default=8000, show_default=True, help="Port to listen on.")
@click.option(
    "--table",
    is_flag=True,
    help="Serve the table: listen on every interface (the players' phones on the LAN), with an admin "
    "token (a new one, printed, unless --admin-token gives one).",
)
@click.option(
    "--admin-token",
    envvar="COMBAT_ADMIN_TOKEN",
    default=None,
    help="The token that creates encounters (env COMBAT_ADMIN_TOKEN); needed beyond loopback.",
)
@click.option(
    "--open/--no-open",
    "open_creation",
    default=None,
    help="Let anyone create encounters, or only the admin token [default: open on 127.0.0.1 only].",
)
@click.option(
    "--cors-origin",
    "cors_origins",
    multiple=True,
    envvar="COMBAT_CORS_ORIGINS",
    help="A browser origin allowed to call the service, e.g. https://overlay.example (repeat; "
    "env COMBAT_CORS_ORIGINS, space-separated) [default: none].",
)
@click.option(
    "--max-body", type=click.IntRange(1024), default=_LIMITS.max_body, show_default=True, help="Bytes of one request body."
)
@click.option(
    "--max-depth", type=click.IntRange(2), default=_LIMITS.max_depth, show_default=True, help="How deep a body's JSON may nest."
)
@click.option(
    "--max-text", type=click.IntRange(16), default=_LIMITS.max_text, show_default=True, help="Characters of one text in a body."
)
@click.option(
    "--max-events", type=click.IntRange(1), default=_LIMITS.max_events, show_default=True, help="Events one command may append."
)
@click.option(
    "--max-encounters",
    type=click.IntRange(1),
    default=_LIMITS.max_encounters,
    show_default=True,
    help="Encounters (forks included) one credential may create.",
)
@click.option(
    "--stats-follower",
    type=click.Choice(FOLLOWER_MODES),
    envvar=FOLLOWER_ENV,
    default=DEFAULT_FOLLOWER,
    show_default=True,
    help=f"Where the statistics' follower runs: a thread of this process, a child process (`combat stats follow`, "
    f"off the writers' interpreter), or off (each answer takes in what is new) (env {FOLLOWER_ENV}; docs/stats.md).",
)
@_one_line_errors
def serve(
    db: str | None,
    host: str,
    port: int,
    table: bool,
    admin_token: str | None,
    open_creation: bool | None,
    cors_origins: tuple[str, ...],
    max_body: int,
    max_depth: int,
    max_text: int,
    max_events: int,
    max_encounters: int,
    stats_follower: str,
) -> None:
    """Run the HTTP service (OpenAPI at /schema, the table screen at /app/, whose addresses are
    printed first); JSON log lines on stderr."""
    gc.set_threshold(*_DEFAULT_GC)
    from combat.rulesets import plugin_errors
    from combat.service import serve as run_service

    for error in plugin_errors():
        _consoles.err.print(f"error: {error}", markup=False)
    if table:
        if host != "127.0.0.1":
            raise click.UsageError("--table listens on every interface (0.0.0.0): leave out --host")
        host = "0.0.0.0"  # the point: the phones at the table reach it
        if not admin_token:
            import secrets

            admin_token = secrets.token_urlsafe(24)
            _print(f"admin token (creates encounters and campaigns; keep it off the table): {admin_token}")
    limits = Limits(
        max_body=max_body, max_depth=max_depth, max_text=max_text, max_events=max_events, max_encounters=max_encounters
    )
    run_service(
        db,
        host,
        port,
        limits=limits,
        admin_token=admin_token or None,
        open_creation=open_creation,
        cors_origins=cors_origins,
        announce=_print,
        stats_follower=stats_follower,
    )


@cli.command()
@click.argument("encounter", required=False)
@click.option("--role", type=click.Choice(["gm", "player", "viewer"]))
@click.option("--name", default="", help="The player's or viewer's name (recorded as the actor of their commands).")
@click.option("--combatant", "combatants", multiple=True, help="A combatant the player commands (repeat for several).")
@click.option("--expires-in", type=click.IntRange(60), default=None, help="Seconds until the token expires [default: never].")
@click.option(
    "--revoke",
    "revoke_id",
    metavar="TOKEN_ID",
    default=None,
    help="Revoke the encounter's token with this id (from --list) instead of issuing one.",
)
@click.option("--list", "list_tokens", is_flag=True, help="List the encounter's tokens (ids, roles, names; never secrets).")
@db_option
@_one_line_errors
def token(
    encounter: str | None,
    role: str | None,
    name: str,
    combatants: tuple[str, ...],
    expires_in: int | None,
    revoke_id: str | None,
    list_tokens: bool,
    db: str,
) -> None:
    """Issue an HTTP token for an encounter made here (e.g. by demo or new); printed once, stored hashed.
    With --revoke or --list, manage the tokens issued (a revocation holds at once on every server)."""
    from datetime import UTC, datetime, timedelta

    from combat.kernel.errors import RuleError
    from combat.service.auth import Tokens
    from combat.store.tokens import TokenStore

    if sum((role is not None, revoke_id is not None, list_tokens)) != 1:
        raise click.UsageError("give one of --role (issue), --revoke TOKEN_ID or --list")
    with _store(db) as encounters:
        eid = _encounter_id(encounters, encounter, db)
        encounters.state(eid)
        tokens = Tokens(TokenStore(encounters.log.home))
        if revoke_id is not None:
            if not tokens.store.revoke(eid, revoke_id):
                raise RuleError("token/unknown", f"no token {revoke_id!r} in this encounter", allowed="an id from --list")
            _print(f"revoked {revoke_id}")
            return
        if list_tokens:
            now = datetime.now(UTC)
            for row in tokens.store.of_encounter(eid):
                life = row.refusal(now) or (f"expires {row.expires_at.isoformat()}" if row.expires_at else "active")
                who = ",".join(sorted(row.grant.combatants))
                _print(f"{row.grant.token_id}  {row.grant.role:<6}  {row.grant.name}  {who}  {life}".rstrip())
            return
        expires_at = datetime.now(UTC) + timedelta(seconds=expires_in) if expires_in else None
        secret, _ = tokens.issue(eid, role or "", name, combatants, expires_at=expires_at)
    _print(secret)


@cli.command()
@click.option("--quick", is_flag=True, help="Small sizes, under a minute: a smoke check (no thresholds).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--no-postgres", is_flag=True, help="Leave out the PostgreSQL service runs.")
@click.option(
    "--only",
    multiple=True,
    type=click.Choice(("replay", "commands", "loading", "service", "memory", "startup", "folding", "stats")),
    help="Measure this section only (repeat for more), e.g. --only startup.",
)
def bench(quick: bool, as_json: bool, no_postgres: bool, only: tuple[str, ...]) -> None:
    """Measure replay, commands, loading, the HTTP service, memory and stream lag, each
    against a floor or a peer measured in the same run (see docs/benchmarks.md)."""
    gc.set_threshold(*_DEFAULT_GC)
    from combat.bench.__main__ import bench as run_bench

    run_bench(quick, as_json, postgres=not no_postgres, only=only)


@cli.command()
@click.argument("ruleset_id", metavar="RULESET")
@_one_line_errors
def diagram(ruleset_id: str) -> None:
    """Print the ruleset's phase machine as a mermaid state diagram."""
    from combat.rulesets import get_ruleset

    _print_block(get_ruleset(ruleset_id).phases.mermaid())


# -- changing the past ---------------------------------------------------------------------


def _history_command(name: str, encounter: str | None, db: str, *args: Any, **kwargs: Any) -> None:
    with _store(db) as encounters:
        eid = _encounter_id(encounters, encounter, db)
        before = encounters.state(eid).version
        outcome = getattr(encounters, name)(eid, *args, **kwargs)
        _print_outcome(encounters, eid, before, outcome)


@cli.command()
@click.argument("encounter", required=False)
@click.option("--reason", required=True, help="Why: it stays in the log.")
@click.option("--actor", default="gm", show_default=True)
@db_option
@_one_line_errors
def undo(encounter: str | None, reason: str, actor: str, db: str) -> None:
    """Retract everything the last command produced (undo an undo to redo)."""
    _history_command("undo_last", encounter, db, reason=reason, actor=actor)


@cli.command()
@click.argument("args", nargs=-1, required=True, metavar="[ENCOUNTER] SEQS...")
@click.option("--reason", required=True, help="Why: it stays in the log.")
@click.option("--whole", is_flag=True, help="Take the whole command of each seq named, not only those events.")
@click.option("--actor", default="gm", show_default=True)
@db_option
@_one_line_errors
def retract(args: tuple[str, ...], reason: str, whole: bool, actor: str, db: str) -> None:
    """Retract what the commands at SEQS did (retracting a retraction brings its events back).
    A command's events go together: naming part of them is refused unless --whole (or the
    part is what a changed past put in conflict)."""
    encounter, seqs = _encounter_and_seqs(args, db)
    _history_command("retract", encounter, db, _seqs(seqs), reason=reason, actor=actor, whole=whole)


@cli.command()
@click.argument("args", nargs=-1, required=True, metavar="[ENCOUNTER] SEQS...")
@click.option("--command", "command_json", required=True, help="The corrected command as JSON.")
@click.option("--reason", required=True, help="Why the ruling changed.")
@click.option("--actor", default="gm", show_default=True)
@db_option
@_one_line_errors
def amend(args: tuple[str, ...], command_json: str, reason: str, actor: str, db: str) -> None:
    """Replace the ruling at SEQS by a corrected command, decided where the original stood."""
    encounter, seqs = _encounter_and_seqs(args, db)
    _history_command("amend", encounter, db, _seqs(seqs), command_json, reason=reason, actor=actor)


@cli.command()
@click.argument("args", nargs=-1, required=True, metavar="[ENCOUNTER] SEQS...")
@click.option("--ruling", required=True, help="Why the conflicting events stand.")
@db_option
@_one_line_errors
def override(args: tuple[str, ...], ruling: str, db: str) -> None:
    """Let events that conflict with a changed past stand, by the GM's ruling."""
    encounter, seqs = _encounter_and_seqs(args, db)
    _history_command("override", encounter, db, _seqs(seqs), ruling=ruling)


@cli.command()
@click.argument("encounter", required=False)
@click.option("--at", "at", type=int, required=True, help="Branch from the state at this seq.")
@click.option("--name", default=None)
@db_option
@_one_line_errors
def fork(encounter: str | None, at: int, name: str | None, db: str) -> None:
    """Start a what-if branch from a seq; the original is untouched. Prints the new id."""
    with _store(db) as encounters:
        _print(str(encounters.fork(_encounter_id(encounters, encounter, db), at, name=name)))


@cli.command(name="audit")
@click.argument("encounter", required=False)
@json_option
@db_option
@_one_line_errors
def audit_command(encounter: str | None, as_json: bool, db: str) -> None:
    """Who did what and when, every roll, every undo and amendment, conflicts, dice fairness."""
    import msgspec

    from projections.audit import MIN_ROLLS_FOR_FAIRNESS, audit
    from projections.visible import visible

    with _store(db) as encounters:
        report = audit(encounters.records(_encounter_id(encounters, encounter, db)))
    if as_json:
        _print_block(msgspec.json.format(msgspec.json.encode(report), indent=2).decode())
        return
    for entry in report.entries:
        mark = "" if entry.counts else f"  [retracted by {entry.retracted_by}]"
        _say(f"{entry.seq:>5}  {entry.at}  {entry.actor:<8} {entry.line}{mark}")
    for change in report.changes:
        _say(f"{change.kind} at seq {change.seq} by {change.actor}: {change.reason} (touched {_seq_list(change.touched)})")
    for conflict in report.conflicts:
        _say(f"conflict at seq {conflict['seq']}: {conflict['problem']}")
    dice = _table("roller", "d20s", "entered", *(str(f) for f in range(1, 21)), "p (fair die)")
    for d in report.dice:
        p = f"{d.p_value:.3f}" if d.p_value is not None else f"n/a (< {MIN_ROLLS_FOR_FAIRNESS} d20s)"
        dice.add_row(visible(d.roller), str(d.d20s), str(d.entered), *(str(c) for c in d.faces), p)
    _consoles.out.print(dice)


# -- helpers -------------------------------------------------------------------------------


def _seq_list(seqs: Iterable[int]) -> str:
    return ", ".join(map(str, seqs))


def _short(value: Any) -> str:
    import json

    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


def _verify(path: Path, state: EncounterState) -> None:
    import json

    from combat.kernel.errors import RuleError
    from projections.state import render_state_json
    from projections.steps import differences, flatten, state_hash

    expected_path = path.with_name(path.name.removesuffix(".jsonl") + ".expected.json")
    if not expected_path.exists():
        raise RuleError(
            "replay/no-expected",
            f"no expected state beside the log ({expected_path.name})",
            allowed="write it with: combat replay FILE --json > FILE.expected.json",
        )
    expected = json.loads(expected_path.read_text())
    actual = json.loads(render_state_json(state))
    diffs = differences(flatten(expected), flatten(actual))
    if not diffs:
        _print(f"ok: {path.name} rebuilds to its expected state (seq {state.version}, hash {state_hash(state)[:12]})")
        return
    for key, want, got in diffs:
        _consoles.err.print(f"differs: {key}: expected {_short(want)}, got {_short(got)}", markup=False)
    _consoles.err.print(f"error: {path.name} does not rebuild to {expected_path.name} ({len(diffs)} differences)", markup=False)
    sys.exit(1)


def _read_log(path: Path, at: int | None) -> list[Recorded]:
    from combat.app.interchange import read_jsonl
    from combat.kernel.errors import RuleError

    lines = path.read_bytes().splitlines()
    if at is not None:
        if at < 1 or at > len(lines):
            raise RuleError("replay/at", f"--at {at} is outside the log", allowed=f"1 to {len(lines)}")
        lines = lines[:at]
    if len(lines) >= PROGRESS_FROM and _consoles.err.is_terminal:
        from rich.progress import track

        # The bar advances as each line is decoded and checked, which is where the time goes.
        return read_jsonl(track(lines, description="reading log", console=_consoles.err, transient=True))
    return read_jsonl(lines)


def _write_export(records: Iterable[Recorded], path: Path) -> None:
    from combat.app.interchange import to_jsonl

    with path.open("wb") as fh:
        fh.writelines(to_jsonl(records))


def _print_state(state: EncounterState, as_json: bool) -> None:
    from projections.state import render_state_json

    if as_json:
        _print_block(render_state_json(state))
        return
    _say(f"{state.name} [{state.ruleset}] - phase {state.phase}, round {state.round}, seq {state.version}")
    _print_table(state)
    # Open conflicts stay in view until amended, retracted or overridden.
    for conflict in state.conflicts:
        _say(
            f"conflict at seq {conflict.seq} ({conflict.type}): {conflict.problem} - `combat override {conflict.seq} --ruling ...`, amend or retract"
        )


def _print_table(state: EncounterState) -> None:
    """One row per combatant in initiative order, with the id every command names it by; a
    column of spell slots left when someone has slots, of death saves when someone is dying."""
    from projections.board import death_saves, slots_left
    from projections.initiative import initiative_order
    from projections.visible import visible

    order = initiative_order(state)
    slots = {e.combatant: ", ".join(map(str, slots_left(state, e.combatant))) for e in order}
    saves = {e.combatant: death_saves(state, e.combatant) or "" for e in order}
    extra = {name: cells for name, cells in (("slots left", slots), ("death saves", saves)) if any(cells.values())}
    from rich.table import Column

    ids = Column("id", no_wrap=True)  # whole on every board: each command names a combatant by it
    table = _table("", "init", ids, "combatant", "side", "HP", "AC", "status", "conditions", "left this turn", *extra)
    for entry in order:
        c = state.combatants[entry.combatant]
        hp = f"{c.hp}/{c.max_hp}" + (f" +{c.temp_hp}" if c.temp_hp else "")
        conditions = ", ".join(x.name for x in c.conditions)
        if c.concentration:
            conditions = ", ".join(filter(None, [conditions, f"concentrating: {c.concentration}"]))
        left = ""
        if entry.current:
            e = c.economy
            left = (
                ", ".join(
                    name
                    for name, has in (("action", e.action or e.attacks_left), ("bonus", e.bonus_action), ("reaction", e.reaction))
                    if has
                )
                + f", {max(0, e.movement - e.moved)} ft"
            )
        table.add_row(
            ">" if entry.current else "",
            "" if entry.initiative is None else str(entry.initiative) + ("*" if entry.tied else ""),
            visible(c.id),
            visible(c.name),
            visible(c.side),
            hp,
            str(c.ac),
            c.status,
            visible(conditions),
            left,
            *(cells[c.id] for cells in extra.values()),
        )
    _consoles.out.print(table)
    if state.phase == "ended":
        _say(f"Ended: {state.ended_reason}" + (f" - {state.winner} win" if state.winner else ""))


cli.add_command(commands)  # the command reference lives in its own module

from combat.cli_monsters import monsters  # noqa: E402  (it uses the helpers above)

cli.add_command(monsters)

from combat.cli_characters import campaigns, characters  # noqa: E402  (it uses the helpers above)

cli.add_command(characters)
cli.add_command(campaigns)

from combat.cli_spells import spells  # noqa: E402  (it uses the helpers above)

cli.add_command(spells)

from combat.cli_stats import stats  # noqa: E402  (it uses the helpers above)

cli.add_command(stats)


def main() -> None:
    # A command's start is mostly imports (most of them made when the command runs): thousands
    # of objects made and kept, hardly a cycle among them, walked again by the collector's pass
    # every 700 allocations, a twentieth of `combat do`. A wider first generation walks them
    # far less often and still frees cycles. Set here, not at import: a program that imports
    # the CLI (the tests) keeps its own.
    gc.set_threshold(100_000, *_DEFAULT_GC[1:])
    # At exit the interpreter's last collection walks every object the command made (the
    # rules, their types, the dice parser): as long again as a quick command's own work. They
    # go with the process; frozen, that collection passes them over. Nothing is left to a
    # collector to close: each command closes its store itself.
    atexit.register(gc.freeze)
    cli(prog_name="combat")


if __name__ == "__main__":
    main()
