"""The srd-2024-variant demo fight and recorded session, played through the application."""

import pytest
from click.testing import CliRunner

from combat.app.application import fold_records
from combat.cli import cli
from combat.demos import get_demo
from combat.rulesets import get_ruleset
from projections.narrative import narrate
from tests.helpers import REPLAYS


@pytest.mark.parametrize("seed", range(1, 11))
def test_the_demo_plays_a_complete_fight_for_any_seed(encounters, seed):
    """The ford skirmish ends by itself, and the log alone rebuilds the live state."""
    encounter_id = get_demo("srd-2024-variant")(encounters, seed=seed, report=lambda outcome: None)
    state = encounters.state(encounter_id)
    assert state.phase == "ended" and state.ruleset == "srd-2024-variant"
    records = list(encounters.records(encounter_id))
    assert fold_records(records) == state
    own = {t.__name__ for t in get_ruleset("srd-2024-variant").events}
    # Every event the variant adds reads as a sentence, not as its type name.
    assert not [line for line in narrate(records) if line.split(" - ")[-1] in own]


def test_combat_rulesets_lists_the_variant():
    result = CliRunner().invoke(cli, ["rulesets"], catch_exceptions=False)
    assert result.exit_code == 0 and "srd-2024-variant" in result.stdout


def test_there_is_a_recorded_session_for_the_variant():
    """tests/app/test_replays.py replays it against its expected state."""
    logs = sorted(REPLAYS.glob("srd-2024-variant-*.jsonl"))
    assert logs and all(log.with_suffix(".expected.json").exists() for log in logs)


def test_the_phase_diagram_shows_the_reorder_step():
    result = CliRunner().invoke(cli, ["diagram", "srd-2024-variant"], catch_exceptions=False)
    assert "reorder" in result.stdout and "open_reorder" in result.stdout
