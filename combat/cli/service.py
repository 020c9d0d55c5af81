"""`combat serve`, its tokens and `combat bench`."""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

import click

from combat.cli.output import consoles, one_line_errors
from combat.service.limits import Limits

if TYPE_CHECKING:  # the rest loads when a command needs it: `combat --help` stays quick
    pass
from combat.cli.output import db_option, say, served_db_option
from combat.cli.references import find_encounter, open_store
from combat.stats.settings import FOLLOWER_ENV, FOLLOWER_MODES, SERVE_FOLLOWER

# The interpreter's collector thresholds, which `main` widens for a command's start and the
# long-running commands (serve, bench) put back.
DEFAULT_GC = gc.get_threshold()

_LIMITS = Limits()


@click.command()
@served_db_option
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
    default=SERVE_FOLLOWER,
    show_default=True,
    help=f"Where the statistics' follower runs: a thread of this process, a child process (`combat stats follow`, "
    f"off the writers' interpreter), or off (each answer takes in what is new) (env {FOLLOWER_ENV}; docs/stats.md).",
)
@one_line_errors
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
    gc.set_threshold(*DEFAULT_GC)
    from combat.rulesets import plugin_errors
    from combat.service import serve as run_service

    for error in plugin_errors():
        consoles.err.print(f"error: {error}", markup=False)
    if table:
        if host != "127.0.0.1":
            raise click.UsageError("--table listens on every interface (0.0.0.0): leave out --host")
        host = "0.0.0.0"  # the point: the phones at the table reach it
        if not admin_token:
            import secrets

            admin_token = secrets.token_urlsafe(24)
            say(f"admin token (creates encounters and campaigns; keep it off the table): {admin_token}")
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
        announce=say,
        stats_follower=stats_follower,
    )


@click.command()
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
@one_line_errors
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
    with open_store(db) as encounters:
        eid = find_encounter(encounters, encounter, db)
        encounters.state(eid)
        tokens = Tokens(TokenStore(encounters.log.home))
        if revoke_id is not None:
            if not tokens.store.revoke(eid, revoke_id):
                raise RuleError("token/unknown", f"no token {revoke_id!r} in this encounter", allowed="an id from --list")
            say(f"revoked {revoke_id}")
            return
        if list_tokens:
            now = datetime.now(UTC)
            for row in tokens.store.of_encounter(eid):
                life = row.refusal(now) or (f"expires {row.expires_at.isoformat()}" if row.expires_at else "active")
                who = ",".join(sorted(row.grant.combatants))
                say(f"{row.grant.token_id}  {row.grant.role:<6}  {row.grant.name}  {who}  {life}".rstrip())
            return
        expires_at = datetime.now(UTC) + timedelta(seconds=expires_in) if expires_in else None
        secret, _ = tokens.issue(eid, role or "", name, combatants, expires_at=expires_at)
    say(secret)


@click.command()
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
    gc.set_threshold(*DEFAULT_GC)
    from combat.bench.__main__ import bench as run_bench

    run_bench(quick, as_json, postgres=not no_postgres, only=only)
