"""docs/write-a-ruleset.md is a whole plug-in, file by file, and an outside author has a kit
to write one with (issue 32): one module to import from (`combat.kit`), the pure test
harness shipped in the package (`combat.testing`) and the reference-page builders
(`combat reference`). The plug-in built from the page alone, out of the repository, passes
its own tests with the shipped harness and is listed by `combat rulesets`."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import combat.kit
from combat.kit import Ruling
from combat.testing import Table
from tests.helpers import DOCS, ROOT, fresh_venv, pip_install, plugin_env

EXAMPLE = ROOT / "examples" / "twenty_one"
COMBAT = "from combat.cli import main; main()"
# A fenced block of a file: its language, the file it starts (title="..."), its text.
BLOCK = re.compile(r'^```(\w+)(?: title="([^"]+)")?\n(.*?)^```$', re.S | re.M)


def doc_files() -> dict[str, str]:
    """The files the page builds, as a reader following it would write them: a block with a
    file name starts that file, a block without one goes on with the last file named, two
    blank lines after what came before. Console and text blocks are not files."""
    files: dict[str, str] = {}
    current = None
    for language, title, text in BLOCK.findall((DOCS / "write-a-ruleset.md").read_text()):
        if language not in ("python", "toml"):
            continue
        if title:
            current = title
            files[current] = files.get(current, "") + text
        else:
            assert current is not None, f"a {language} block before any block names its file"
            files[current] += "\n\n" + text
    return files


def test_the_page_is_the_example_plugin_file_for_file():
    """'docs/write-a-ruleset.md followed literally': examples/twenty_one is what the page
    builds, and nothing besides (its README aside)."""
    files = doc_files()
    assert set(files) == {"pyproject.toml", "combat_twenty_one/__init__.py", "tests/test_twenty_one.py"}
    for path, text in files.items():
        assert (EXAMPLE / path).read_text() == text, path
    held = {
        str(p.relative_to(EXAMPLE))
        for p in EXAMPLE.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and not any(part.endswith(("egg-info", "build")) for part in p.parts)
    }
    assert held == set(files) | {"README.md"}


def _combat_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return {m for m in found if m == "combat" or m.startswith("combat.")}


def test_the_example_imports_combat_only_through_the_kit_and_its_tests_the_harness():
    """'The example plug-in and the doc import only from it.'"""
    assert _combat_imports(EXAMPLE / "combat_twenty_one" / "__init__.py") == {"combat.kit"}
    assert _combat_imports(EXAMPLE / "tests" / "test_twenty_one.py") <= {"combat.kit", "combat.testing"}


def test_each_name_of_the_kit_is_said_in_one_line_of_its_docstring():
    """Every name the kit gathers is said once, with the module it lives in, and is that module's."""
    doc = combat.kit.__doc__ or ""
    lines = [line for line in doc.splitlines() if line.startswith("- `")]
    said = [name for line in lines for name in re.findall(r"`(\w+)`", line.split(":")[0])]
    assert sorted(said) == sorted(combat.kit.__all__)
    for line in lines:
        home = re.search(r"\((combat\.[\w.]+)\)\.$", line)
        assert home, line
        for name in re.findall(r"`(\w+)`", line.split(":")[0]):
            assert getattr(sys.modules[home.group(1)], name) is getattr(combat.kit, name), name


def test_the_harness_loads_neither_a_test_framework_nor_a_store_nor_a_ruleset():
    """'The pure test harness': no pytest at import, no store, no clock, no ruleset but the one asked for."""
    code = (
        "import sys, combat.testing, combat.kit\n"
        "print(sorted(m for m in ('pytest', 'eventsourcing', 'sqlite3', 'combat.store', 'combat.app.application',"
        " 'combat.fivee', 'combat.rulesets.srd2024') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stdout.strip() == "[]"


def test_rejects_fails_on_another_code_or_on_no_refusal_and_says_which():
    table = Table("srd-2024")
    with pytest.raises(AssertionError, match="refused as ruling/empty, not ruling/other"):
        table.rejects(Ruling(text=" "), "ruling/other")
    with pytest.raises(AssertionError, match="was not refused"):
        table.rejects(Ruling(text="the bridge holds"), "ruling/empty")


def test_the_plugin_built_from_the_page_alone_passes_its_own_tests_and_is_listed(tmp_path):
    """'Done when: the example plug-in built from the doc passes its own tests with the
    shipped harness.' Out of the repository: the page's files in a folder of their own,
    installed with pip into a fresh venv, its tests run there by pytest against the
    installed copy, then `combat rulesets` lists it and `combat reference` documents it."""
    project = tmp_path / "twenty_one"
    for path, text in doc_files().items():
        (project / path).parent.mkdir(parents=True, exist_ok=True)
        (project / path).write_text(text)
    python = fresh_venv(tmp_path / "venv")
    pip_install(python, project, cwd=tmp_path)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        # From beside the project, so what runs imports the installed package, not the folder.
        return subprocess.run([python, *args], capture_output=True, text=True, env=plugin_env(), cwd=tmp_path)

    where = run("-c", "import combat_twenty_one; print(combat_twenty_one.__file__)")
    assert str(tmp_path / "venv") in where.stdout, where.stdout + where.stderr
    tested = run("-m", "pytest", "-q", "-p", "no:cacheprovider", str(project / "tests"))
    assert tested.returncode == 0 and re.search(r"^4 passed", tested.stdout, re.M), tested.stdout + tested.stderr
    listed = run("-c", COMBAT, "rulesets", "--json")
    assert listed.returncode == 0 and listed.stderr == "", listed.stderr
    assert "twenty-one" in [r["id"] for r in json.loads(listed.stdout)]
    page = run("-c", COMBAT, "reference", "--ruleset", "twenty-one")
    assert page.returncode == 0, page.stderr
    assert page.stdout.startswith("# Twenty-one (`twenty-one`)\n") and "Twenty-one: players count up in turn" in page.stdout
    assert "\n### count\n" in page.stdout and "\n### Counted\n" in page.stdout
