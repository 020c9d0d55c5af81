"""`combat stats`: what the store's fights add up to (docs/stats.md), `combat stats export`
the read model's tables as files for notebooks, `combat stats rebuild` the model from the logs.
Registered on the `combat` group in combat/cli/__init__.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from combat.cli.output import db_file_option, one_line_errors, served_db_option
from combat.stats.settings import INTERVAL_ENV, LISTEN_FALLBACK, POLL_SECONDS

if TYPE_CHECKING:
    from pathlib import Path

    from combat.stats.answers import CharacterStats, Stats

__all__ = ["stats", "character_line"]

_db = db_file_option("the store whose fights are counted")
PARQUET_HINT = "Parquet files need pyarrow: pip install 'combat-log[stats]' (or use --format csv)"


def character_line(c: CharacterStats) -> str:
    """One combatant's numbers, on one line."""
    d = c.d20
    dealt = f"dealt {c.damage_dealt}" + (f" (+{c.damage_dealt_withheld} hits not shown)" if c.damage_dealt_withheld else "")
    slots = ", ".join(f"level {k} x{v}" for k, v in c.slots.items()) or "none"
    median = f"{c.median_turn_seconds:g} s" if c.median_turn_seconds is not None else "-"
    fit = f"chi-square {d.chi_square:g}, p {d.p_value:g}" + ("" if d.trusted else " (under 100 rolls: says little)")
    return (
        f"{c.name} ({c.kind}, {c.side}): {dealt}, rolled {c.damage_rolled}, taken {c.damage_taken}; "
        f"attacks {c.attacks}: {c.hits} hit, {c.misses} missed, {c.criticals} critical; "
        f"d20 {d.rolls} rolls, {d.ones} ones, {d.twenties} twenties, {fit}; "
        f"spells {c.spells}, slots {slots}; turns {c.turns}, median {median}"
    )


def _print_stats(found: Stats) -> None:
    from combat.cli.output import say

    say(f"{len(found.encounters)} encounter(s): " + ", ".join(e["name"] for e in found.encounters))
    for c in found.characters:
        say(character_line(c))
    for r in found.rounds:
        say(f"round {r.round} of {r.encounter[:8]}: {r.side} dealt {r.damage}")
    rulings = ", ".join(f"{k} {v}" for k, v in found.rulings.items()) or "none"
    say(f"history moves: {rulings}")
    for h in found.history:
        say(f"  {h.kind} at seq {h.seq} of {h.encounter[:8]} by {h.actor}: {h.reason}")


@click.group(invoke_without_command=True)
@click.option("--campaign", help="A campaign (name or id): its fights, not practice fights or what-if forks.")
@click.option("--encounter", help="One encounter (its id).")
@click.option("--character", help="One character or combatant, by name.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@_db
@click.pass_context
@one_line_errors
def stats(ctx: click.Context, campaign: str | None, encounter: str | None, character: str | None, as_json: bool, db: str) -> None:
    """Per character damage, hits, criticals, the d20's faces and how fair they look, spell
    slots and turns; the rulings undone and amended (docs/stats.md)."""
    if ctx.invoked_subcommand is not None:
        return
    from combat.cli.output import print_json
    from combat.cli.references import open_store
    from combat.stats.answers import Scope

    with open_store(db) as encounters:
        in_campaign = str(encounters.campaigns.named(campaign).id) if campaign is not None else None
        found = encounters.stats.gm(Scope(campaign=in_campaign, encounter=encounter, character=character))
    if as_json:
        import msgspec  # here, not at the top: every CLI command's start would pay for it

        print_json(msgspec.to_builtins(found))
    else:
        _print_stats(found)


@stats.command()
@click.option("--format", "fmt", type=click.Choice(["csv", "parquet"]), default="csv", show_default=True)
@click.option("--to", "folder", type=click.Path(file_okay=False), default="stats-export", show_default=True)
@_db
@one_line_errors
def export(fmt: str, folder: str, db: str) -> None:
    """Every table of the read model as one file each (TABLE.csv or TABLE.parquet), for pandas,
    DuckDB or a spreadsheet; the rows that no longer count are in them, with counted = 0."""
    from combat.cli.output import say
    from combat.cli.references import open_store
    from combat.store.stats_tables import COLUMNS, EVENT_TABLES

    if fmt == "parquet":
        try:
            import pyarrow as pa  # noqa: F401
            import pyarrow.parquet  # noqa: F401
        except ImportError:
            raise click.ClickException(PARQUET_HINT) from None
    from pathlib import Path

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    with open_store(db) as encounters:
        encounters.stats.fresh()
        tables = {t: encounters.stats.tables.select(t, counted=False) for t in COLUMNS}
    for table, rows in tables.items():
        columns = [*COLUMNS[table], *(("counted",) if table in EVENT_TABLES else ())]
        path = out / f"{table}.{fmt}"
        if fmt == "csv":
            _write_csv(path, columns, rows)
        else:
            _write_parquet(path, columns, rows)
        say(f"{path}: {len(rows)} rows")


def _write_csv(path: Path, columns: list[str], rows: list[dict[str, Any]]) -> None:
    import csv

    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows({k: (int(v) if isinstance(v, bool) else v) for k, v in r.items()} for r in rows)


def _write_parquet(path: Path, columns: list[str], rows: list[dict[str, Any]]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    from combat.store.stats_tables import INTEGER_COLUMNS

    schema = pa.schema([(c, pa.int64() if c in INTEGER_COLUMNS or c == "counted" else pa.string()) for c in columns])
    data = {c: [(int(r[c]) if isinstance(r.get(c), bool) else r.get(c)) for r in rows] for c in columns}
    pq.write_table(pa.table(data, schema=schema), path)


@stats.command()
@_db
@one_line_errors
def rebuild(db: str) -> None:
    """Drop the read model and build it again from every encounter's log."""
    from combat.cli.output import say
    from combat.cli.references import open_store

    with open_store(db) as encounters:
        read, seconds = encounters.stats.rebuild()
    say(f"rebuilt from {read} events in {seconds:.2f} s")


@stats.command()
@served_db_option
@click.option(
    "--interval",
    type=click.FloatRange(0.001, 3600),
    envvar=INTERVAL_ENV,
    default=None,
    help=f"Seconds between looks for new events (env {INTERVAL_ENV}, which a `combat serve --stats-follower "
    f"process` passes on) [default: {POLL_SECONDS:g} on SQLite; {LISTEN_FALLBACK:g} on PostgreSQL, where each "
    "append's NOTIFY wakes it at once].",
)
@click.option(
    "--until-stdin-closes", is_flag=True, hidden=True, help="Stop when stdin closes (the service that started it died)."
)
@one_line_errors
def follow(db: str | None, interval: float | None, until_stdin_closes: bool) -> None:
    """Keep the statistics tables up to date in this process until stopped: SIGTERM or Ctrl-C
    stop it between two batches, each committed with its position, so a restart (after a
    kill -9 too) reads on and counts nothing twice. `combat serve --stats-follower process`
    runs it as a child process (docs/stats.md)."""
    import signal
    import sys
    import threading

    from combat.cli.output import say
    from combat.cli.references import open_store
    from combat.stats.follower import StatsFollower

    with open_store(db) as encounters:  # type: ignore[arg-type]  # None: the environment's store, as `combat serve`
        follower = StatsFollower(encounters, interval=interval, ready=lambda n: say(f"following: {n} events taken in"))
        # The follower runs on a thread and this one only waits: a signal handler then never
        # interrupts the follower inside a lock it would need to take.
        stopping = (signal.SIGTERM, signal.SIGINT)
        before = {s: signal.signal(s, lambda *_: follower.stop()) for s in stopping}
        try:
            if until_stdin_closes:  # a child of `combat serve`: not left running when that is killed

                def stop_at_eof() -> None:
                    sys.stdin.read()
                    follower.stop()

                threading.Thread(target=stop_at_eof, daemon=True).start()
            thread = threading.Thread(target=follower.run, name="combat-stats-follow")
            thread.start()
            while thread.is_alive():
                thread.join(0.5)
        finally:
            for s, handler in before.items():
                signal.signal(s, handler)
    say(f"stopped: {follower.read} events taken in")
