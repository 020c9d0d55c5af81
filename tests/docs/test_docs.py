"""The docs say what the code does: the reference and ruleset pages are generated from it,
the hand-written pages name only endpoints and files that exist, and the README stays a
short landing page. (`mkdocs build --strict` itself runs in .ci/run.)"""

from __future__ import annotations

import ast
import json
import re
from functools import cache

import yaml

import mkdocs_hooks
from combat import web
from combat.app.catalog import ALL_EVENT_TYPES
from combat.app.reference import commands_of
from combat.reference_pages import as_markdown, shipped_package
from combat.rulesets import RULESETS
from combat.service import routes, stream
from tests.helpers import DOCS, ROOT


@cache
def _generated() -> dict[str, str]:
    return mkdocs_hooks.pages()


def _nav_pages(entries) -> list[str]:
    found: list[str] = []
    for entry in entries:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        found.extend(_nav_pages(value) if isinstance(value, list) else [value])
    return found


class _AnyTag(yaml.SafeLoader):
    """mkdocs.yml names a Python function with a !!python/name tag; the nav is all we read."""


_AnyTag.add_multi_constructor("tag:yaml.org,2002:python/name:", lambda loader, suffix, node: suffix)


def test_every_command_of_every_ruleset_has_a_reference_entry_with_its_example():
    generated = _generated()
    for ruleset in RULESETS.values():
        page = generated[f"reference/commands/{ruleset.id}.md"]
        for doc in commands_of(ruleset):
            assert f"\n## {doc.type}\n" in page
            assert json.dumps(doc.example) in page


def test_every_event_type_has_a_reference_entry():
    page = _generated()["reference/events.md"]
    assert all(f"\n## {cls.__name__}\n" in page for cls in ALL_EVENT_TYPES)


def test_each_ruleset_page_is_its_package_docstring_and_its_modules():
    """'One page per ruleset (what the text says, what the engine does where it is silent)',
    with the module docstrings as the single source."""
    generated = _generated()
    for folder in sorted((ROOT / "combat" / "rulesets").iterdir()):
        init = folder / "__init__.py"
        if not init.exists():
            continue
        ruleset = next(r for r in RULESETS.values() if shipped_package(r).__file__ == str(init))
        page = generated[f"rulesets/{ruleset.id}.md"]
        first_line = ast.get_docstring(ast.parse(init.read_text())).splitlines()[0]
        assert first_line in page
        for module in folder.glob("*.py"):
            if module.name != "__init__.py" and ast.get_docstring(ast.parse(module.read_text())):
                assert f"\n### {module.stem}\n" in page, (ruleset.id, module.stem)
    # The shared 5e rules a ruleset's handlers come from, and only those.
    assert "`combat.fivee.attacks`" in generated["rulesets/srd-2024.md"]
    assert "`combat.common.conditions`" in generated["rulesets/declared-d10.md"]
    assert "`combat.fivee.attacks`" not in generated["rulesets/declared-d10.md"]


def test_docstring_lists_become_markdown_lists():
    assert as_markdown("Where the text is silent:\n- one\n  more\n- two") == "Where the text is silent:\n\n- one\n  more\n- two"


def test_the_site_nav_holds_every_page_and_every_generated_one():
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=_AnyTag)
    nav = _nav_pages(config["nav"])
    generated = set(_generated())
    written = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")}
    assert set(nav) == generated | written


def test_the_cli_and_endpoint_tables_list_every_command_and_route():
    cli = mkdocs_hooks.cli_table()
    for name in ("commands", "do", "serve", "replay", "amend"):
        assert f"| `combat {name}" in cli
    endpoints = mkdocs_hooks.endpoints_table()
    for handler in [*routes.ROUTES, *stream.ROUTES]:
        for path in handler.paths:
            assert re.sub(r":\w+}", "}", path) + "`" in endpoints


def test_the_hand_written_endpoint_table_names_only_routes_that_exist():
    served = {
        (method, re.sub(r"\{\w+(:\w+)?\}", "{}", path))
        for handler in [*routes.ROUTES, *stream.ROUTES]
        for path in handler.paths
        for method in handler.http_methods
    }
    table = (DOCS / "service.md").read_text().split("## Endpoints")[1].split("<!-- generated")[0]
    rows = re.findall(r"^\| (`(GET|POST) [^|]+)\|", table, re.M)
    assert len(rows) >= 15
    for cell, method in rows:
        for path in re.findall(r"`(?:GET |POST )?(/[^`]*)`", cell):
            assert (method, re.sub(r"\{\w+\}", "{}", path.split("?")[0])) in served, f"{method} {path}"


def test_every_route_a_hand_written_page_names_is_served():
    """A route named anywhere in the docs (`GET /schemas/character` in a sentence as in a
    table, `{id}` or an example value in its parameters) is one the service serves with that
    method: issue 33 found one documented that answered 404."""
    served = [
        (method, re.compile(re.sub(r"\\\{\w+(:\w+)?\\\}", "[^/]+", re.escape(path))))
        for handler in [*routes.ROUTES, *stream.ROUTES, *web.ROUTES]
        for path in getattr(handler, "paths", ())
        for method in getattr(handler, "http_methods", ())
    ]
    named = 0
    for page in [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]:
        for method, path in re.findall(r"`(GET|POST|PUT|PATCH|DELETE) (/[^`\s?]*)", page.read_text()):
            named += 1
            assert any(m == method and route.fullmatch(path) for m, route in served), f"{page.name}: {method} {path}"
    assert named >= 50


def test_the_readme_is_a_short_landing_page_whose_links_exist():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.encode()) < 15_000
    for target in re.findall(r"\]\(((?:docs/|LICENSE)[^)#]*)", readme):
        assert (ROOT / target).exists(), target
    assert "(later)" not in readme
