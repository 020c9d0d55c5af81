"""What the build scripts beside this file share: where the SRD 5.2 records as Open5e compiles
them are, reading them, and writing what was built from them as a JSON list, one item a line
(a change to one item is a one-line diff). The scripts import it from their own folder."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import msgspec

# ../shared/data/srd-5.2 beside the repository
DEFAULT_SOURCE = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "srd-5.2"


def source_from_argv() -> Path:
    """The records' folder named on the command line, DEFAULT_SOURCE without one."""
    return Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SOURCE


def read_records(source: Path, files: Iterable[str]) -> list[dict[str, Any]]:
    """The records of every file in `files` (JSON lists in `source`), file after file."""
    return [record for name in files for record in json.loads((source / name).read_text(encoding="utf-8"))]


def write_one_a_line(output: Path, items: Sequence[Any]) -> int:
    """`items` (msgspec structs) written to `output` as a JSON list, one a line; how many."""
    lines = ",\n".join(msgspec.json.encode(item).decode() for item in items)
    output.write_text(f"[\n{lines}\n]\n", encoding="utf-8")
    return len(items)
