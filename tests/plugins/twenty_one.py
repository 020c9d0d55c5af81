"""The example plug-in (examples/twenty_one, its package `combat_twenty_one`) as the tests
import it without installing it: the same module, so the same Ruleset object, as an
installed copy's entry point loads."""

from __future__ import annotations

import sys
from pathlib import Path

_EXAMPLE = str(Path(__file__).resolve().parents[2] / "examples" / "twenty_one")
if _EXAMPLE not in sys.path:
    sys.path.append(_EXAMPLE)

from combat_twenty_one import RULESET, Count, Counted, Tally  # noqa: E402

__all__ = ["RULESET", "Count", "Counted", "Tally"]
