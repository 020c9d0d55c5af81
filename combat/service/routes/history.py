"""Changing the past, the GM's alone: undo, retract, amend, override, fork; and the audit,
which anyone at the table may read. Each change is an appended event with its reason."""

from __future__ import annotations

from litestar import Response, get, post
from litestar.di import NamedDependency
from litestar.handlers import HTTPRouteHandler
from litestar.params import JSONBody

from combat.app.application import Outcome
from combat.service.auth import Grant, require_gm
from combat.service.dependencies import Service
from combat.service.idempotency import IdempotencyKey, command_id_of
from combat.service.messages import (
    AmendRequest,
    CommandDone,
    EncounterOpened,
    ForkRequest,
    OverrideRequest,
    RetractRequest,
    UndoRequest,
)
from combat.service.replies import ReplyState, command_done
from combat.service.routes.operation import operation
from projections.audit import Audit, audit
from projections.redaction import Redaction

__all__ = ["ROUTES"]

_ERRORS = (400, 401, 403, 404, 409, 422)
_TAGS = ["history"]


def _change(name: str) -> HTTPRouteHandler:
    """The route of one change to the past: POST /encounters/{id}/`name`, answered as a command is."""
    return operation(post, f"/encounters/{{encounter_id:str}}/{name}", name, _ERRORS, tags=_TAGS, status_code=200)


def done(service: NamedDependency[Service], outcome: Outcome, with_state: bool) -> Response[CommandDone]:
    service.appended(outcome.records[0].originator_id)
    return command_done(outcome, with_state=with_state)


@_change("undo")
def undo(
    grant: NamedDependency[Grant],
    data: JSONBody[UndoRequest],
    service: NamedDependency[Service],
    idempotency_key: IdempotencyKey = None,
    with_state: ReplyState = False,
) -> Response[CommandDone]:
    """Retract everything the last command produced; undoing an undo is a redo. Send a command
    id so that a retried undo is not taken for a redo."""
    require_gm(grant, "undo")
    outcome = service.encounters.undo_last(
        grant.encounter_id,
        reason=data.reason,
        expected_version=data.expected_version,
        command_id=command_id_of(idempotency_key, data.command_id),
    )
    return done(service, outcome, with_state)


@_change("retract")
def retract(
    grant: NamedDependency[Grant],
    data: JSONBody[RetractRequest],
    service: NamedDependency[Service],
    idempotency_key: IdempotencyKey = None,
    with_state: ReplyState = False,
) -> Response[CommandDone]:
    """Retract the events at `seqs` (retracting a retraction brings its events back)."""
    require_gm(grant, "retract events")
    outcome = service.encounters.retract(
        grant.encounter_id,
        data.seqs,
        reason=data.reason,
        expected_version=data.expected_version,
        whole=data.whole,
        command_id=command_id_of(idempotency_key, data.command_id),
    )
    return done(service, outcome, with_state)


@_change("amend")
def amend(
    grant: NamedDependency[Grant],
    data: JSONBody[AmendRequest],
    service: NamedDependency[Service],
    idempotency_key: IdempotencyKey = None,
    with_state: ReplyState = False,
) -> Response[CommandDone]:
    """Replace the ruling at `seqs` by a corrected command, decided where the original stood."""
    require_gm(grant, "amend a ruling")
    corrected = service.command_of(grant.encounter_id, data.command)
    outcome = service.encounters.amend(
        grant.encounter_id,
        data.seqs,
        corrected,
        reason=data.reason,
        expected_version=data.expected_version,
        command_id=command_id_of(idempotency_key, data.command_id),
    )
    return done(service, outcome, with_state)


@_change("override")
def override(
    grant: NamedDependency[Grant],
    data: JSONBody[OverrideRequest],
    service: NamedDependency[Service],
    idempotency_key: IdempotencyKey = None,
    with_state: ReplyState = False,
) -> Response[CommandDone]:
    """Let events that conflict with a changed past stand, by the GM's ruling."""
    require_gm(grant, "override a conflict")
    outcome = service.encounters.override(
        grant.encounter_id,
        data.seqs,
        ruling=data.ruling,
        expected_version=data.expected_version,
        command_id=command_id_of(idempotency_key, data.command_id),
    )
    return done(service, outcome, with_state)


@operation(post, "/encounters/{encounter_id:str}/fork", "fork", (*_ERRORS, 429), tags=_TAGS, status_code=201)
def fork(
    grant: NamedDependency[Grant],
    data: JSONBody[ForkRequest],
    service: NamedDependency[Service],
    idempotency_key: IdempotencyKey = None,
) -> EncounterOpened:
    """A what-if branch from a seq: a new encounter (with its own GM token); the original is untouched.
    A repeat of a command id returns the same branch with a new GM token."""
    require_gm(grant, "fork the encounter")
    # A branch counts against the quota of whoever created the encounter it branches from:
    # its slot is taken after every other check and before anything is written.
    creator = next((r.created_by for r in service.tokens.store.of_encounter(grant.encounter_id) if r.created_by), None)
    fork_id = service.encounters.fork(
        grant.encounter_id,
        data.at,
        name=data.name,
        expected_version=data.expected_version,
        command_id=command_id_of(idempotency_key, data.command_id),
        writing=lambda: service.quota_slot(creator),
    )
    return service.opened(fork_id, creator)


@operation(get, "/encounters/{encounter_id:str}/audit", "getAudit", (400, 401, 403, 404), tags=_TAGS)
def get_audit(grant: NamedDependency[Grant], service: NamedDependency[Service]) -> Audit:
    """Who did what and when, every roll and its source, every undo and amendment, conflicts, dice fairness."""
    shown = Redaction(service.encounters.state(grant.encounter_id), grant)
    return audit(service.encounters.records(grant.encounter_id), shown=shown.record)


ROUTES = [undo, retract, amend, override, fork, get_audit]
