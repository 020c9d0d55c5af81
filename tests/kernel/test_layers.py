"""The layers the tree shows hold: the kernel knows no ruleset, and the folds need no store."""

from __future__ import annotations

import re
import subprocess
import sys

from combat.rulesets import RULESETS
from tests.helpers import ROOT

KERNEL = ROOT / "combat" / "kernel"


def test_history_and_the_projections_load_without_the_stores_library():
    """A fold reads `Recorded` from the kernel: a tool that only replays logs needs no eventsourcing."""
    code = (
        "import sys, combat.app.history, projections.state, projections.audit, projections.steps, projections.narrative\n"
        "print('eventsourcing' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_the_kernels_state_and_decider_name_no_ruleset():
    """Each ruleset's own state is its `state_type`; the kernel only holds the slot."""
    names = {r.id for r in RULESETS.values()} | {r.state_key for r in RULESETS.values() if r.state_key}
    names |= {r.state_type.__name__ for r in RULESETS.values() if r.state_type.__module__ != "combat.kernel.state"}
    for module in ("state.py", "decider.py"):
        text = (KERNEL / module).read_text().lower()
        assert [n for n in sorted(names) if n.lower() in text] == [], module


def test_the_cli_loads_the_bench_package_only_for_combat_bench():
    """`combat` starts without the measuring harness: only `combat bench` imports `combat.bench`."""
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from combat.cli import cli\n"
        "for args in (['--help'], ['rulesets'], ['bench', '--help']):\n"
        "    assert CliRunner().invoke(cli, args).exit_code == 0, args\n"
        "print(any(m == 'combat.bench' or m.startswith('combat.bench.') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_the_store_is_an_adapter_the_use_cases_call_and_never_the_other_way():
    """combat.store holds the storage adapters (issue 24: 'in a storage package of its own
    (adapters) apart from the application's use cases'): it imports nothing of combat.app or
    combat.service, and the use cases, the service and the rules import no database driver
    and nothing of eventsourcing (the store's foundation, behind the adapters)."""
    root = KERNEL.parent
    for path in sorted((root / "store").glob("*.py")):
        text = path.read_text()
        assert not re.search(r"^\s*(from|import) combat\.(app|service)\b", text, flags=re.MULTILINE), path.name
    for package in ("app", "service", "kernel", "fivee", "rulesets"):
        for path in sorted((root / package).rglob("*.py")):
            text = path.read_text()
            assert not re.search(r"^\s*(from|import) (sqlite3|psycopg|eventsourcing)\b", text, flags=re.MULTILINE), path
