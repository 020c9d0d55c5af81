"""The table screen's forms come from the published command schemas: every command of every
ruleset gets a labelled form with no front-end code of its own; the main actions work from
the keyboard; and the app ships whole inside the package."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from combat.web import STATIC
from tests.web.helpers import Table

# Renders each command's form from each ruleset's command schema, in the page, and reports per
# ruleset and command the fields without a label and the fields that fell back to raw JSON.
_RENDER_EVERY_FORM = """async (rulesets) => {
  const { html, render } = await import("/app/vendor/htm-preact-standalone.js");
  const forms = await import("/app/js/forms.js");
  const report = {};
  for (const ruleset of rulesets) {
  const { defs, tags } = forms.commandSchemas(await (await fetch(`/schemas/commands/${ruleset}`)).json());
  for (const [tag, schema] of Object.entries(tags)) {
    const box = document.createElement("div");
    document.body.append(box);
    render(html`<${forms.CommandForm} defs=${defs} tag=${tag} schema=${schema} ctx=${{ listId: "ids" }} onSend=${async () => {}} />`, box);
    const fields = [...box.querySelectorAll("input, select, textarea")];
    report[`${ruleset} ${tag}`] = {
      fields: fields.length,
      unlabelled: fields.filter((f) => !f.labels?.length).map((f) => f.name || f.id),
      raw_json: forms.fields(schema).filter(([n, p]) => forms.kindOf(defs, n, p).kind === "json").map(([n]) => n),
      submit: !!box.querySelector("button[type=submit]"),
    };
    render(null, box);
    box.remove();
  }
  }
  return report;
}"""


def test_every_command_of_every_ruleset_gets_a_labelled_form_from_its_schema(chromium, service):
    """'Buttons or forms for every command the current phase allows, built from the published
    command schemas (so a new ruleset's commands appear without new front-end code)' and
    'labels on form fields'."""
    with httpx.Client(base_url=service.url) as http:
        rulesets = http.get("/rulesets").json()
    every_command = {f"{r['id']} {c}" for r in rulesets for phase in r["commands"].values() for c in phase}
    page = Table(chromium.new_page()).page
    page.goto(f"{service.url}/app/")
    report = page.evaluate(_RENDER_EVERY_FORM, [r["id"] for r in rulesets])
    assert every_command <= set(report), sorted(every_command - set(report))
    assert {tag: found for tag, found in report.items() if not found["submit"] or found["unlabelled"] or found["raw_json"]} == {}
    assert report["srd-2024 attack"]["fields"] >= 8 and report["srd-2024 add_combatant"]["fields"] >= 10
    # One tag, two commands: a bestiary name in srd-2024, a first-edition stat block in segments-1e.
    assert report["srd-2024 add_creature"]["fields"] != report["segments-1e add_creature"]["fields"]
    page.close()


def test_the_main_actions_work_from_the_keyboard(chromium, service):
    """'Keyboard operation of the main actions': create an encounter, open a command's form,
    fill it and send it without a pointer."""
    table = Table(chromium.new_page())
    page = table.page
    page.goto(f"{service.url}/app/")
    page.get_by_label("name (required)").focus()
    page.keyboard.type("Keyboard fight")
    page.keyboard.press("Enter")
    page.get_by_role("heading", name=re.compile("Keyboard fight")).wait_for()
    page.get_by_role("button", name="ruling", exact=True).focus()
    page.keyboard.press("Enter")
    form = page.get_by_role("form", name="ruling")
    form.get_by_label("text (required)").focus()
    page.keyboard.type("the bridge is slippery")
    page.keyboard.press("Enter")
    page.locator("section.history", has_text="the bridge is slippery").wait_for()
    # A refusal is announced next to the form (role=alert) and says what is allowed.
    page.get_by_role("button", name="remove combatant", exact=True).focus()
    page.keyboard.press("Enter")
    page.get_by_role("form", name="remove combatant").get_by_label("combatant (required)").focus()
    page.keyboard.type("nobody")
    page.keyboard.press("Enter")
    alert = page.get_by_role("form", name="remove combatant").get_by_role("alert")
    alert.wait_for()
    assert "Allowed" in alert.inner_text()
    assert table.errors == []
    page.close()


def test_the_app_ships_inside_the_package_with_its_licences_and_no_outside_url(service):
    """'No Node toolchain needed to install or run': every module the pages import is a file
    under combat/web/static, the vendored libraries carry their licences, and nothing is
    fetched from another site."""
    imports = re.compile(r"""(?:from|import)\s*\(?\s*["']([^"']+)["']""")
    for source in STATIC.rglob("*.js"):
        if source.parent.name == "redoc":  # a classic script for /schema, not a module of the app (its text only quotes code)
            continue
        for target in imports.findall(source.read_text()):
            assert target.startswith("."), (source, target)  # relative: same origin, no CDN
            assert (source.parent / target).resolve().is_file(), (source, target)
    for html_page in STATIC.glob("*.html"):
        assert "http://" not in html_page.read_text() and "https://" not in html_page.read_text()
    licences = {p.name for p in (STATIC / "vendor" / "licences").iterdir()}
    assert licences == {
        "htm-LICENSE",
        "preact-LICENSE",
        "fetch-event-source-LICENSE",
        "qrcode-generator-LICENSE",
        "chart.js-LICENSE",
        "redoc-LICENSE",
        "redoc-bundled-LICENSES.txt",
    }
    with httpx.Client(base_url=service.url) as http:
        for path in (
            "/app/",
            "/app/overlay.html",
            "/app/js/app.js",
            "/app/vendor/licences/htm-LICENSE",
            "/app/vendor/qrcode-generator.js",
        ):
            reply = http.get(path)
            assert reply.status_code == 200, path
        assert http.get("/app/").headers["referrer-policy"] == "no-referrer"
        assert "text/html" in http.get("/app/").headers["content-type"]


def test_tokens_never_go_in_a_query_string():
    """'Tokens are passed in the URL fragment or entered once and kept in the browser session,
    never in a query string that lands in server logs.'"""
    for source in STATIC.rglob("*.js"):
        if "vendor" in source.parts:
            continue
        text = source.read_text()
        assert "access_token" not in text and "?token" not in text, source
        # The tab's session, and the device only where someone ticked "remember on this device".
        assert "localStorage" not in text or source.name == "session.js", source
    assert "Authorization" in (STATIC / "js" / "api.js").read_text()
    assert Path(STATIC / "vendor" / "fetch-event-source" / "index.js").is_file()
