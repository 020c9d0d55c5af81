"""The commands of one fight: create, list, use, do, show, log, export, replay, audit, the
rulesets, their demos, schemas and phase diagrams."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from combat.cli.output import consoles, one_line_errors

if TYPE_CHECKING:  # the rest loads when a command needs it: `combat --help` stays quick
    from uuid import UUID

    from combat.app.application import Encounters, Outcome
    from combat.kernel.records import Recorded
    from combat.kernel.state import EncounterState
    from projections.narrative import Narrator
from combat.cli.output import db_option, json_option, print_block, print_json, rich_table, say, visible_line
from combat.cli.references import current_file, find_encounter, open_store, remembered, seq_words

PROGRESS_FROM = 5000  # lines; below this a replay is instant


@click.command()
@json_option
def rulesets(as_json: bool) -> None:
    """List the rulesets, the installed plug-ins' among them (a plug-in that did not load is
    named on stderr, with why)."""

    from combat.rulesets import RULESETS, plugin_errors

    for error in plugin_errors():
        consoles.err.print(f"error: {error}", markup=False)
    if as_json:
        print_json([{"id": r.id, "title": r.title, "summary": r.summary} for r in RULESETS.values()])
        return
    table = rich_table("id", "ruleset", "what makes it different")
    for r in RULESETS.values():
        table.add_row(r.id, r.title, r.summary)
    consoles.out.print(table)


@click.command()
@click.option("--ruleset", "ruleset_id", default="srd-2024", show_default=True, help="Ruleset to play.")
@click.option("--seed", type=int, default=1, show_default=True, help="Dice seed: the same seed plays the same fight.")
@db_option
@click.option("--export", "export_to", type=click.Path(dir_okay=False), help="Also write the JSONL log here.")
@one_line_errors
def demo(ruleset_id: str, seed: int, db: str, export_to: str | None) -> None:
    """Play a complete scripted fight and print its narrative and final table."""
    from combat.demos import get_demo
    from combat.rulesets import get_ruleset
    from projections.narrative import Narrator

    run_demo = get_demo(get_ruleset(ruleset_id).id)
    narrator = Narrator()

    def report(outcome: Outcome) -> None:
        for rec in outcome.records:
            say(narrator.line(rec))

    with open_store(db) as encounters:
        encounter_id = run_demo(encounters, seed=seed, report=report)
        state = encounters.state(encounter_id)
        consoles.out.print()
        _print_table(state)
        if export_to:
            _write_export(encounters.records(encounter_id), Path(export_to))
    consoles.err.print(f"encounter {encounter_id} in {db}" + (f", log written to {export_to}" if export_to else ""), markup=False)


@click.command()
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
@one_line_errors
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
    with open_store(db) as encounters:
        in_campaign = encounters.campaigns.named(campaign).id if campaign is not None else None
        eid = encounters.create(ruleset_id, name, seed=seed, settings=settings, campaign=in_campaign, practice=practice)
    if use_it:
        current_file(db).write_text(str(eid))
    say(str(eid))


@click.command(name="list")
@json_option
@db_option
@one_line_errors
def list_encounters(as_json: bool, db: str) -> None:
    """List the encounters in the store, the most recently active first. One whose ruleset
    is not installed is listed as such (its state unread), with how to install it."""

    from combat.app.directory import summaries

    with open_store(db) as encounters:
        found = summaries(encounters)
    current = remembered(db)
    if as_json:
        print_json([s.as_json() for s in found])
        return
    table = rich_table("", "id", "name", "ruleset", "phase", "round", "events", "last activity")
    for s in found:
        mark = ">" if current and (current == str(s.id) or current == s.name) else ""
        table.add_row(
            mark,
            s.id.hex[:8],
            s.name,
            s.ruleset,
            s.phase if s.missing is None else "ruleset not installed",
            "" if s.round is None else str(s.round),
            str(s.version),
            s.last_activity.strftime("%Y-%m-%d %H:%M"),
        )
    consoles.out.print(table)
    missing = {s.ruleset: s.missing for s in found if s.missing is not None}
    for error in missing.values():  # once per ruleset: how to read those encounters again
        consoles.err.print(visible_line(f"note: {error.code}: {error}"), markup=False)


@click.command()
@click.argument("encounter", required=False)
@click.option("--clear", is_flag=True, help="Forget the current encounter.")
@db_option
@one_line_errors
def use(encounter: str | None, clear: bool, db: str) -> None:
    """Remember ENCOUNTER (a name or the start of its id) for the commands that follow, so
    they can leave it out; with no argument, say which one is remembered."""
    path = current_file(db)
    if clear:
        path.unlink(missing_ok=True)
        say("no current encounter")
        return
    if encounter is None:
        say(remembered(db) or "no current encounter (combat use ENCOUNTER)")
        return
    with open_store(db) as encounters:
        eid = find_encounter(encounters, encounter, db)
        name = encounters.state(eid).name
    path.write_text(str(eid))
    say(f"using {eid} ({name})")


@click.command(name="do")
@click.argument("args", nargs=-1, required=True, metavar="[ENCOUNTER] COMMAND_JSON")
@click.option("--actor", default="gm", show_default=True, help="Who sends it: gm or a player's name.")
@click.option("--expected-version", type=int, default=None, help="Reject unless the log is at this seq.")
@db_option
@one_line_errors
def do_command(args: tuple[str, ...], actor: str, expected_version: int | None, db: str) -> None:
    """Send one command (JSON, e.g. '{"type": "end_turn", "combatant": "aria"}')."""
    from combat.kernel.errors import RuleError

    if len(args) > 2:
        raise RuleError("cli/arguments", f"{len(args)} arguments", allowed="[ENCOUNTER] COMMAND_JSON (quote the JSON)")
    encounter, command_json = (None, args[0]) if len(args) == 1 else args
    with open_store(db) as encounters:
        eid = find_encounter(encounters, encounter, db)
        command = encounters.read_command(eid, command_json)
        before = encounters.state(eid).version
        outcome = encounters.execute(eid, command, actor=actor, expected_version=expected_version)
        print_outcome(encounters, eid, before, outcome)


def narrator_at(records: Iterable[Recorded]) -> Narrator:
    from projections.narrative import Narrator

    narrator = Narrator()
    for rec in records:
        narrator.line(rec)
    return narrator


def print_outcome(encounters: Encounters, eid: UUID, before: int, outcome: Outcome) -> None:
    narrator = narrator_at(encounters.records(eid, upto=before))
    for rec in outcome.records:
        say(f"{rec.seq:>5}  {narrator.line(rec)}")
    for conflict in outcome.state.conflicts:
        say(f"conflict at seq {conflict.seq} ({conflict.type}): {conflict.problem}")


@click.command()
@click.argument("encounter", required=False)
@click.option("--at", "at", type=int, default=None, help="The state as it was at this seq.")
@json_option
@db_option
@one_line_errors
def show(encounter: str | None, at: int | None, as_json: bool, db: str) -> None:
    """Show an encounter's current state (or its state at a seq)."""
    with open_store(db) as encounters:
        state = encounters.state(find_encounter(encounters, encounter, db), at=at)
    print_state(state, as_json)


def _records(db: str, encounter: str | None) -> list[Recorded]:
    """Every record of `encounter` (by name or the start of its id; the current one unless given) in the store at `db`."""
    with open_store(db) as encounters:
        return list(encounters.records(find_encounter(encounters, encounter, db)))


@click.command()
@click.argument("encounter", required=False)
@json_option
@db_option
@one_line_errors
def log(encounter: str | None, as_json: bool, db: str) -> None:
    """Print an encounter's narrative log, one line per event."""
    from projections.narrative import narrate

    records = _records(db, encounter)
    lines = narrate(records)
    if as_json:
        print_json(
            [
                {"seq": rec.seq, "type": type(rec.event).__name__, "actor": rec.actor, "line": line}
                for rec, line in zip(records, lines)
            ]
        )
        return
    for rec, line in zip(records, lines):
        say(f"{rec.seq:>5}  {line}")


@click.command()
@click.argument("encounter", required=False)
@db_option
@one_line_errors
def export(encounter: str | None, db: str) -> None:
    """Write an encounter's log as JSON Lines to stdout; its head hash goes to stderr, for
    the GM to publish so a recipient can check the copy with `combat verify FILE --head`."""
    from combat.app import chain
    from combat.app.interchange import to_line

    head, last = chain.GENESIS, 0
    with open_store(db) as encounters:
        for rec in encounters.records(find_encounter(encounters, encounter, db)):
            head, last = chain.link(head, rec), rec.seq
            sys.stdout.buffer.write(to_line(rec) + b"\n")
    consoles.err.print(f"head {head} (seq {last})", markup=False)


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--at", "at", type=int, default=None, help="Stop after this seq.")
@json_option
@click.option("--step", is_flag=True, help="Walk the log event by event: the line, the state hash, what changed.")
@click.option("--verify", is_flag=True, help="Compare with the expected state stored beside the log (FILE.expected.json).")
@one_line_errors
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
            print_json(
                [
                    {"seq": s.seq, "state_hash": s.state_hash, "line": s.line, "changes": [list(c) for c in s.changes]}
                    for s in walked
                ]
            )
            return
        for s in walked:
            say(f"{s.seq:>5}  {s.state_hash[:12]}  {s.line}")
            for key, before, after in s.changes:
                say(f"{'':>21}{key}: {_short(before)} -> {_short(after)}")
        return
    state = history.replay(records)
    if verify:
        _verify(path, state)
        return
    print_state(state, as_json)


@click.command()
def schema() -> None:
    """Print the JSON Schema of every event (one line of the JSONL log)."""
    import json

    from combat.app.interchange import event_schema

    print_block(json.dumps(event_schema(), indent=2, sort_keys=True))


@click.command()
@click.argument("ruleset_id", metavar="RULESET")
@one_line_errors
def diagram(ruleset_id: str) -> None:
    """Print the ruleset's phase machine as a mermaid state diagram."""
    from combat.rulesets import get_ruleset

    print_block(get_ruleset(ruleset_id).phases.mermaid())


@click.command(name="audit")
@click.argument("encounter", required=False)
@json_option
@db_option
@one_line_errors
def audit_command(encounter: str | None, as_json: bool, db: str) -> None:
    """Who did what and when, every roll, every undo and amendment, conflicts, dice fairness."""
    import msgspec

    from projections.audit import MIN_ROLLS_FOR_FAIRNESS, audit
    from projections.visible import visible

    report = audit(_records(db, encounter))
    if as_json:
        print_block(msgspec.json.format(msgspec.json.encode(report), indent=2).decode())
        return
    for entry in report.entries:
        mark = "" if entry.counts else f"  [retracted by {entry.retracted_by}]"
        say(f"{entry.seq:>5}  {entry.at}  {entry.actor:<8} {entry.line}{mark}")
    for change in report.changes:
        say(f"{change.kind} at seq {change.seq} by {change.actor}: {change.reason} (touched {seq_words(change.touched)})")
    for conflict in report.conflicts:
        say(f"conflict at seq {conflict['seq']}: {conflict['problem']}")
    dice = rich_table("roller", "d20s", "entered", *(str(f) for f in range(1, 21)), "p (fair die)")
    for d in report.dice:
        p = f"{d.p_value:.3f}" if d.p_value is not None else f"n/a (< {MIN_ROLLS_FOR_FAIRNESS} d20s)"
        dice.add_row(visible(d.roller), str(d.d20s), str(d.entered), *(str(c) for c in d.faces), p)
    consoles.out.print(dice)


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
        say(f"ok: {path.name} rebuilds to its expected state (seq {state.version}, hash {state_hash(state)[:12]})")
        return
    for key, want, got in diffs:
        consoles.err.print(f"differs: {key}: expected {_short(want)}, got {_short(got)}", markup=False)
    consoles.err.print(f"error: {path.name} does not rebuild to {expected_path.name} ({len(diffs)} differences)", markup=False)
    sys.exit(1)


def _read_log(path: Path, at: int | None) -> list[Recorded]:
    from combat.app.interchange import read_jsonl
    from combat.kernel.errors import RuleError

    lines = path.read_bytes().splitlines()
    if at is not None:
        if at < 1 or at > len(lines):
            raise RuleError("replay/at", f"--at {at} is outside the log", allowed=f"1 to {len(lines)}")
        lines = lines[:at]
    if len(lines) >= PROGRESS_FROM and consoles.err.is_terminal:
        from rich.progress import track

        # The bar advances as each line is decoded and checked, which is where the time goes.
        return read_jsonl(track(lines, description="reading log", console=consoles.err, transient=True))
    return read_jsonl(lines)


def _write_export(records: Iterable[Recorded], path: Path) -> None:
    from combat.app.interchange import to_jsonl

    with path.open("wb") as fh:
        fh.writelines(to_jsonl(records))


def print_state(state: EncounterState, as_json: bool) -> None:
    from projections.state import render_state_json

    if as_json:
        print_block(render_state_json(state))
        return
    say(f"{state.name} [{state.ruleset}] - phase {state.phase}, round {state.round}, seq {state.version}")
    _print_table(state)
    # Open conflicts stay in view until amended, retracted or overridden.
    for conflict in state.conflicts:
        say(
            f"conflict at seq {conflict.seq} ({conflict.type}): {conflict.problem} - `combat override {conflict.seq} --ruling ...`, amend or retract"
        )


def _print_table(state: EncounterState) -> None:
    """One row per combatant in initiative order, with the id every command names it by; a
    column of spell slots left when someone has slots, of death saves when someone is dying."""
    from combat.rulesets import get_ruleset
    from projections.initiative import initiative_order
    from projections.visible import visible

    order = initiative_order(state)
    views = get_ruleset(state.ruleset).views
    slots = {e.combatant: ", ".join(views.slots_left(state, e.combatant)) for e in order}
    saves = {e.combatant: views.death_saves(state, e.combatant) or "" for e in order}
    extra = {name: cells for name, cells in (("slots left", slots), ("death saves", saves)) if any(cells.values())}
    from rich.table import Column

    ids = Column("id", no_wrap=True)  # whole on every board: each command names a combatant by it
    table = rich_table("", "init", ids, "combatant", "side", "HP", "AC", "status", "conditions", "left this turn", *extra)
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
    consoles.out.print(table)
    if state.phase == "ended":
        say(f"Ended: {state.ended_reason}" + (f" - {state.winner} win" if state.winner else ""))


def _short(value: Any) -> str:
    import json

    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."
