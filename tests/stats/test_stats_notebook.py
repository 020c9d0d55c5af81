"""The notebook page runs (issue 34: "a docs page that loads them with pandas or DuckDB and
plots one chart, executed by a test"): its code, on an export of two fights."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from combat.cli import cli
from tests.helpers import DOCS
from tests.stats.helpers import two_fights_at

PAGE = DOCS / "stats-notebook.md"


def test_the_notebook_page_runs_on_an_export(tmp_path):
    """The page's code loads the CSV export with DuckDB and draws damage by character: Elara
    48 (her Fireball's 24 twice), Brann 32 (9 + 12 + 11), as `combat stats` counts them."""
    pytest.importorskip("duckdb", reason="the notebook page needs duckdb: pip install 'combat-log[test]' (or duckdb)")
    pytest.importorskip("matplotlib", reason="the notebook page needs matplotlib: pip install 'combat-log[test]'")
    db = tmp_path / "combat.db"
    two_fights_at(db)
    folder = tmp_path / "export"
    done = CliRunner().invoke(cli, ["stats", "export", "--format", "csv", "--to", str(folder), "--db", str(db)])
    assert done.exit_code == 0, done.output
    # Fight 1: 9, 24, 24 and 12; fight 2: 11, and the amended dagger's 6 (kept, with counted = 0).
    assert f"{folder / 'stats_damage.csv'}: 6 rows" in done.output
    text = PAGE.read_text()
    code = re.search(r"<!-- notebook -->\n```python\n(.*?)```\n<!-- /notebook -->", text, flags=re.DOTALL)
    assert code is not None
    scope: dict = {"folder": folder}
    exec(compile(code.group(1), str(PAGE), "exec"), scope)
    assert scope["dealt"] == [("Elara", 48), ("Brann", 32)]
    assert (folder / "damage-by-character.png").stat().st_size > 1000


def test_parquet_export_needs_pyarrow_and_says_so(tmp_path):
    """`--format parquet` writes Parquet files with pyarrow, the optional extra `stats`; without
    it, a clear error names how to get it."""
    db = tmp_path / "combat.db"
    two_fights_at(db)
    done = CliRunner().invoke(cli, ["stats", "export", "--format", "parquet", "--to", str(tmp_path / "p"), "--db", str(db)])
    try:
        import pyarrow.parquet as pq
    except ImportError:
        assert done.exit_code != 0 and "pip install 'combat-log[stats]'" in done.output
        return
    assert done.exit_code == 0, done.output
    rows = pq.read_table(tmp_path / "p" / "stats_attacks.parquet").to_pylist()
    assert sorted((r["attacker"], r["natural"], r["counted"]) for r in rows)[:2] == [("brann", 3, 0), ("brann", 15, 1)]
