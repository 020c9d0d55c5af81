"""A new GM plays the "run your first fight" tutorial as written, with the documented
commands and field names only: every shell line of the page runs in bash against the
installed `combat`, and every `# =>` line it shows is what the commands print."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from combat.app.reference import FieldDoc, command_doc
from combat.rulesets import RULESETS
from tests.docs.doc_sessions import assert_shows, need, run_bash, sh_blocks
from tests.helpers import DOCS

TUTORIAL = DOCS / "tutorials" / "first-fight.md"


def _documented(value: Any, fields: tuple[FieldDoc, ...], nested: dict[str, tuple[FieldDoc, ...]], where: str) -> None:
    """Every key the tutorial sends is a field the reference lists (at any depth)."""
    known = {f.name: f for f in fields}
    for key, inner in value.items():
        if key == "type" and where == "command":
            continue
        assert key in known, f"{where} has no documented field {key!r}"
        kind = known[key].type.removeprefix("list of ")
        for item in inner if isinstance(inner, list) else [inner]:
            if isinstance(item, dict):
                _documented(item, nested[kind], nested, kind)


def test_the_tutorial_sends_only_documented_commands_and_fields():
    sent = re.findall(r"combat do \$ENC '(\{.*\})'", TUTORIAL.read_text())
    assert len(sent) >= 10
    for text in sent:
        command = json.loads(text)
        if command.get("targt"):  # the page's deliberate typo, which it shows being refused
            continue
        doc = command_doc(RULESETS["srd-2024"], command["type"])
        _documented(command, doc.fields, doc.nested, "command")


def test_a_new_gm_plays_the_tutorial_as_written(tmp_path: Path):
    """'On a hit, you roll damage' and a natural 20 is a Critical Hit: the page's fight, with its
    undo and the re-roll behind half cover (+2 AC), prints what the page shows."""
    need("jq")
    session = "\n".join(sh_blocks(TUTORIAL))
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("COMBAT_DB", "PERSISTENCE_MODULE")},
        "COMBAT_DB": str(tmp_path / "combat.db"),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    printed = run_bash("set -eo pipefail\n" + session, tmp_path, env=env).splitlines()
    assert_shows(session, printed)
    assert (tmp_path / "goblin-ambush.jsonl").read_text().count("\n") == 37
