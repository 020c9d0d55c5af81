"""What the routes are handed: the service's parts, the encounter named in the path and
the grant of the request's token. Routes only parse, check the grant and call `Encounters`."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import anyio
from litestar import Request
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath

from combat.app.application import Encounters, Outcome, run_sync
from combat.app.follower_process import FollowerProcess
from combat.app.followers import FollowerThread
from combat.campaigns.naming import names_a_stored_character
from combat.kernel.commands import Command, check_service_only
from combat.kernel.errors import RuleError
from combat.service.addresses import Listening
from combat.service.admission import Admission
from combat.service.auth import Grant, Tokens
from combat.service.checks import whole_numbers
from combat.service.errors import ApiError
from combat.service.feed import Hub
from combat.service.logging import annotate
from combat.service.messages import EncounterOpened
from combat.service.workers import Workers
from combat.stats.settings import DEFAULT_FOLLOWER
from combat.store import Commits
from combat.store.follow import Follower, follower_for
from combat.store.tokens import TokenStore, store_kind

__all__ = ["Service", "DEPENDENCIES", "parse_encounter_id"]

# Commands decided at once where the store's writes stay in threads (PostgreSQL, SQLite in
# memory): more threads only wait on each other for the GIL (16 cost a fifth more CPU per
# command than 4, and were no faster). Threads of our own (combat.service.workers): anyio's
# worker threads, and then asyncio's executor, cost a tenth of a command's CPU in hand-offs.
WRITERS = 4


@dataclass
class Service:
    encounters: Encounters
    owns_encounters: bool = False
    admission: Admission = field(default_factory=Admission)
    max_encounters: int | None = None  # per credential
    listening: Listening = field(default_factory=Listening)  # where the table's phones reach it
    stats_follower: str = DEFAULT_FOLLOWER  # thread, process or off (combat.stats.settings)
    tokens: Tokens = field(init=False)
    hub: Hub = field(init=False)
    writers: Workers = field(init=False)  # joined when the service stops
    follower: Follower | None = field(init=False, default=None)
    followers: FollowerThread | None = field(init=False, default=None)
    stats_process: FollowerProcess | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.tokens = Tokens(TokenStore(self.encounters.log.home))
        self.hub = Hub()
        self.writers = Workers(WRITERS, "combat-command")

    @property
    def store(self) -> str:
        return store_kind(self.encounters.log.home)

    def command_of(self, encounter_id: UUID, data: dict[str, Any]) -> Command:
        """A body's `command`, read as the encounter's ruleset reads it. A command not of that
        ruleset's schema is a body not matching the schema: 422 request/invalid, its field
        named from the body (`command.feet`), with that command's fields as what is allowed."""
        try:
            return self.encounters.read_command(encounter_id, data)
        except RuleError:
            pass  # read again with 12.0 as 12, as JSON Schema counts it: only a refused body pays the walk
        try:
            return self.encounters.read_command(encounter_id, whole_numbers(data))
        except RuleError as exc:
            if exc.code != "command/invalid":
                raise
            message, _, path = exc.message.rpartition(" - at `$")
            where = "command" + path.rstrip("`") if message else "command"
            raise ApiError(422, "request/invalid", f"{where}: {message or exc.message}", allowed=exc.allowed) from None

    def start(self) -> None:
        # The followers (the campaigns' carry-over, and the statistics unless they run apart)
        # on a thread of their own: woken by each append of this process, and every second
        # for the others'; a read of a campaign or of statistics waits for them
        # (combat.app.followers). The statistics' follower may instead be a child process
        # (its work off the writers' interpreter) or not run here at all; their answers then
        # take in what is new themselves (combat.stats.settings).
        # On SQLite in memory (one process, one locked cache shared by its threads) a thread
        # of their own would only wait on the writers: each write carries its fight over
        # itself, and a statistics answer takes in what is new, as in the CLI.
        if self.followers is None and not self.encounters.log.in_memory:
            campaigns, stats = self.encounters.campaigns, self.encounters.stats
            passes: list[tuple[Callable[[], object], Callable[[], bool]]] = [(campaigns.carry_over, campaigns.behind)]
            if self.stats_follower == "thread":
                passes.append((stats.fresh, stats.behind))
            self.followers = FollowerThread(passes)
            campaigns.runner = self.followers
            stats.runner = self.followers if self.stats_follower == "thread" else None
            followers = self.followers
            self.encounters.on_appended = lambda encounter_id, state: followers.poke()
            if self.stats_follower == "process":
                self.stats_process = FollowerProcess(self.encounters.settings)
        if self.follower is None:
            self.follower = follower_for(self.encounters.log, self.hub)

    def stop(self) -> None:
        self.writers.close()  # the commands in hand finish before the store closes
        self.encounters.on_appended = None
        if self.stats_process is not None:
            self.stats_process.stop()
            self.stats_process = None
        if self.followers is not None:
            self.followers.stop()
            self.encounters.campaigns.runner = self.encounters.stats.runner = None
            self.followers = None
        self.hub.close()
        if self.follower is not None:
            self.follower.stop()
            self.follower = None
        if self.owns_encounters:
            self.encounters.close()

    async def send(
        self, read: Callable[[], tuple[Grant, Command]], expected_version: int | None, command_id: str | None
    ) -> tuple[Grant, Outcome]:
        """A command from its request to its commit. `read` checks the token and reads the
        command. Where the store commits on this event loop (an SQLite file) all of it is done
        here and the commit is made with this turn's other writes (combat.store.group_commit);
        elsewhere all of it goes to a worker thread in one trip (each hop between threads cost
        as much as the rules)."""
        commits = self.encounters.log.commits(asyncio.get_running_loop())
        if commits is None:
            blocking = self.encounters.log.commits()
            return await self.writers.run(lambda: run_sync(self._sending(read, blocking, expected_version, command_id)))
        return await self._sending(read, commits, expected_version, command_id)

    async def _sending(
        self, read: Callable[[], tuple[Grant, Command]], commits: Commits, expected_version: int | None, command_id: str | None
    ) -> tuple[Grant, Outcome]:
        """Without expected_version, `Encounters` decides again until the command is stored
        or refused by the rules: such a command never meets a version conflict."""
        grant, command = read()
        actor = _actor(grant)
        asked = self.encounters.asked(command, command_id)  # as sent, before a party character is filled in
        check_service_only(command)
        if names_a_stored_character(command):
            resolve = functools.partial(self.encounters.resolving, grant.encounter_id, command, actor)
            # The campaigns' store is not the loop's: from the loop it is read in a thread.
            command = resolve() if commits.blocking else await anyio.to_thread.run_sync(resolve)
        outcome = await self.encounters.executing(
            grant.encounter_id,
            command,
            commits,
            actor=actor,
            expected_version=expected_version,
            command_id=command_id,
            request=asked,
        )
        self.appended(grant.encounter_id)
        return grant, outcome

    @contextmanager
    def quota_slot(self, credential: str | None) -> Iterator[None]:
        """Around the write of a new encounter (a creation or a fork): one of the credential's
        slots is taken first, atomically on every process (429 if none is left), and given
        back if the write fails (combat.store.tokens)."""
        if self.max_encounters is None or credential is None:
            yield
            return
        if not self.tokens.store.take_slot(credential, self.max_encounters):
            raise ApiError(
                429,
                "limits/encounters",
                f"this credential has created {self.max_encounters} encounters",
                allowed=f"at most {self.max_encounters} per credential (combat serve --max-encounters)",
            )
        try:
            yield
        except BaseException:
            self.tokens.store.give_back_slot(credential)
            raise

    def opened(self, encounter_id: UUID, created_by: str | None) -> EncounterOpened:
        """The reply to a creation or fork: the encounter and its GM's new token (shown once)."""
        token, grant = self.tokens.issue(encounter_id, "gm", created_by=created_by)
        state = self.encounters.state(encounter_id)
        return EncounterOpened(
            id=encounter_id,
            ruleset=state.ruleset,
            name=state.name,
            version=state.version,
            gm_token=token,
            gm_token_id=grant.token_id,
        )

    def appended(self, encounter_id: UUID) -> None:
        """Tell this process's streams at once (other processes hear it from the store)."""
        if self.follower is not None:
            self.follower.poke(encounter_id)

    def authorize(self, request: Request, encounter_id: UUID) -> Grant:
        try:
            grant = self.tokens.grant_for(request, encounter_id)
        except ApiError:
            self.encounters.state(encounter_id)  # an unknown encounter is a 404 first
            raise
        annotate(request, encounter=encounter_id, role=grant.role)
        return grant


def _actor(grant: Grant) -> str:
    return "gm" if grant.role == "gm" else grant.name


def parse_encounter_id(value: str) -> UUID:
    try:
        return UUID(value)
    except ValueError:
        raise RuleError(
            "encounter/bad-id", f"'{value[:80]}' is not an encounter id", allowed="the id returned by POST /encounters (a UUID)"
        ) from None


async def _grant(request: Request, encounter_id: FromPath[str], service: NamedDependency[Service]) -> Grant:
    eid = parse_encounter_id(encounter_id)
    annotate(request, encounter=eid)
    # Every request asks the store: a token revoked by any process is refused at once.
    return await anyio.to_thread.run_sync(service.authorize, request, eid)


DEPENDENCIES = {"grant": Provide(_grant)}
