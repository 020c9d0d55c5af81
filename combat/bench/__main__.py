"""`python -m combat.bench [--quick] [--json]` (also `combat bench`): build the data, measure, report."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from combat.bench import report, suite

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m combat.bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sizes, under a minute (no thresholds asserted)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--no-postgres", action="store_true", help="leave out the PostgreSQL service runs")
    parser.add_argument("--dir", type=Path, default=None, help="where to put the temporary stores (default: the system's)")
    parser.add_argument(
        "--only", action="append", choices=suite.SECTIONS, default=[], help="measure this section only (repeat for more)"
    )
    args = parser.parse_args(argv)
    bench(args.quick, args.json, postgres=not args.no_postgres, workdir=args.dir, only=args.only)
    return 0


def bench(quick: bool, as_json: bool, *, postgres: bool = True, workdir: Path | None = None, only: Sequence[str] = ()) -> None:
    def say(message: str) -> None:
        print(f"... {message}", file=sys.stderr, flush=True)

    result = suite.run(quick, postgres=postgres, workdir=workdir, say=say, only=only)
    print(report.to_json(result) if as_json else report.text(result))


if __name__ == "__main__":
    sys.exit(main())
