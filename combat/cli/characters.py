"""`combat characters` and `combat campaigns`: player characters' sheets and the campaigns
that keep them between fights.

`build` makes a sheet from the SRD 5.2's numbers, `import` reads a Foundry VTT actor, `save`
stores a sheet (or `--save` on those two), `list` and `show` read a campaign's characters,
`rest` gives a character a Short or Long Rest, `release` takes it out of the fight it is in
(combat/campaigns; `combat verify --campaigns` checks every stored log's chain). Each works on one campaign,
`--campaign` (by name or id; the default campaign unless told). Registered on the `combat`
group in combat/cli/__init__.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from combat.cli.output import db_file_option, one_line_errors

if TYPE_CHECKING:
    from uuid import UUID

    from combat.app.application import Encounters
    from combat.campaigns.party_rest import PartyRest
    from combat.campaigns.records import StoredCharacter
    from combat.characters.sheet import CharacterSheet

__all__ = ["characters", "campaigns"]


_db = db_file_option("the store the campaigns live in")


_campaign = click.option(
    "--campaign",
    default="default",
    show_default=True,
    help="The campaign, by name or id (`combat campaigns list`).",
)


def _campaign_of(encounters: Encounters, text: str) -> UUID:
    return encounters.campaigns.named(text).id


@click.group()
def characters() -> None:
    """Player characters: build or import a sheet, keep a campaign's party between fights, rest."""


@click.group()
def campaigns() -> None:
    """Campaigns: a party of characters and the fights they play in (docs/campaigns.md)."""


@campaigns.command("create")
@click.argument("name")
@_db
@one_line_errors
def create_campaign(name: str, db: str) -> None:
    """A new campaign: its id is printed (`combat new --campaign ID` makes its fights)."""
    from combat.cli.output import say
    from combat.cli.references import open_store

    with open_store(db) as encounters:
        made = encounters.campaigns.create(name)
    say(f"{made.id}  {made.name}")


@campaigns.command("carry-over")
@_db
@one_line_errors
def carry_over_command(db: str) -> None:
    """Carry every fight event not carried yet to its characters. Each write of the CLI and
    the service's follower do this as they go; a process killed between a write and its
    carry-over leaves some for the next writer, or for this."""
    from combat.cli.output import say
    from combat.cli.references import open_store

    with open_store(db) as encounters:
        behind = encounters.campaigns.behind()
        encounters.campaigns.carry_over()
    say("carried over what was left" if behind else "nothing was left to carry over")


@campaigns.command("list")
@_db
@one_line_errors
def list_campaigns(db: str) -> None:
    """Every campaign: id and name."""
    from combat.cli.output import say
    from combat.cli.references import open_store

    with open_store(db) as encounters:
        for c in encounters.campaigns.all_campaigns():
            say(f"{c.id}  {c.name}")


@characters.command()
@click.option("--name", required=True, help="The character's name.")
@click.option("--class", "class_name", required=True, help="An SRD 5.2 class (Wizard, Fighter...).")
@click.option("--level", type=click.IntRange(1, 20), required=True, help="The class level, 1 to 20.")
@click.option("--scores", required=True, help='The six scores: "STR 8 DEX 14 CON 12 INT 16 WIS 12 CHA 10".')
@click.option("--species", default=None, help='An SRD 5.2 species, with a lineage in brackets: "Tiefling (Infernal)".')
@click.option("--size", default=None, help="Small or Medium, for a species that may be either.")
@click.option("--armor", default=None, help="Worn armour by its SRD name (Chain Mail, Leather...).")
@click.option("--shield", is_flag=True, help="Carries a Shield (+2 AC).")
@click.option("--weapon", "weapons", multiple=True, help="A weapon by its SRD name; repeat for more.")
@click.option("--spell", "spells", multiple=True, help="A spell known or prepared; repeat for more.")
@click.option("--skill", "skills", multiple=True, help="A proficient skill; repeat for more.")
@click.option("--subclass", default=None, help="An SRD 5.2 subclass of the class (Champion...).")
@click.option("--json", "as_json", is_flag=True, help="Print the sheet as JSON.")
@click.option("--save", is_flag=True, help="Also store it in the campaign.")
@_campaign
@_db
@one_line_errors
def build(as_json: bool, save: bool, campaign: str, db: str, **fields: Any) -> None:
    """Build a character sheet from the SRD 5.2's numbers and print it."""
    from combat.characters.build import build_sheet

    sheet = build_sheet(**fields)  # the options above are build_sheet's arguments, by name
    _show_sheet(sheet, as_json)
    if save:
        _save(sheet, db, campaign)


@characters.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the sheet as JSON on standard output (the list of what is not mapped goes to standard error).",
)
@click.option("--save", is_flag=True, help="Also store it in the campaign.")
@_campaign
@_db
@one_line_errors
def import_command(file: str, as_json: bool, save: bool, campaign: str, db: str) -> None:
    """Read a Foundry VTT dnd5e character (its "Export Data" JSON) into a character sheet; then
    list, under "Not mapped:", everything of the actor the sheet does not hold."""
    from combat.characters.foundry import import_actor
    from projections.visible import visible

    sheet, not_mapped = import_actor(_json_file(file, "foundry/malformed"))
    _show_sheet(sheet, as_json)
    if not_mapped:
        click.echo("Not mapped:", err=as_json)
        for line in not_mapped:
            click.echo(visible(f"  {line}"), err=as_json)
    if save:
        _save(sheet, db, campaign)


@characters.command("save")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@_campaign
@_db
@one_line_errors
def save_command(file: str, campaign: str, db: str) -> None:
    """Store a character sheet (JSON, as `build --json` prints it) in the campaign: a new
    character, or a new sheet for one (its HP, spent slots and uses kept)."""
    import msgspec

    from combat.characters.sheet import CharacterSheet
    from combat.kernel.errors import RuleError

    try:
        sheet = msgspec.convert(_json_file(file, "character/malformed"), CharacterSheet)
    except msgspec.ValidationError as exc:
        raise RuleError(
            "character/invalid", f"{file}: {exc}", allowed="a sheet as `combat characters schema` describes it"
        ) from None
    _save(sheet, db, campaign)


@characters.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@_campaign
@_db
@one_line_errors
def list_command(as_json: bool, campaign: str, db: str) -> None:
    """The campaign's characters: each one's HP, spent uses and the fight it is in."""
    from combat.cli.output import print_json, say
    from combat.cli.references import open_store

    with open_store(db) as encounters:
        roster = encounters.campaigns.roster(_campaign_of(encounters, campaign))
    if as_json:
        import msgspec

        print_json(msgspec.to_builtins(roster.characters))
        return
    if not roster.characters:
        say("no characters yet: `combat characters build ... --save` or `combat characters save FILE`")
    for c in roster.characters:
        say(_status_line(c))
    for bad in roster.unreadable:
        say(f"unreadable: {bad.id}: {bad.problem}")


@characters.command("show")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@_campaign
@_db
@one_line_errors
def show_command(name: str, as_json: bool, campaign: str, db: str) -> None:
    """One character: its sheet and what it carries (HP, spent slots and uses, Hit Point Dice)."""
    from combat.cli.output import print_json, say
    from combat.cli.references import open_store

    with open_store(db) as encounters:
        found = encounters.campaigns.get(_campaign_of(encounters, campaign), name)
    if as_json:
        import msgspec

        print_json(msgspec.to_builtins(found))
        return
    say(_status_line(found))
    for line in summary(found.sheet):
        say(line)


@characters.command("rest")
@click.argument("name", required=False)
@click.option(
    "--all", "everyone", is_flag=True, help="The whole party: every character not in a fight (no Hit Point Dice spent)."
)
@click.option("--short", "kind", flag_value="short", help="A Short Rest: spend Hit Point Dice, regain short-rest features.")
@click.option("--long", "kind", flag_value="long", help="A Long Rest: every HP, Hit Point Die, slot and feature back.")
@click.option("--hit-dice", type=click.IntRange(0, 40), default=0, help="Hit Point Dice to spend on a Short Rest.")
@click.option("--faces", default=None, help='Those dice as rolled at the table, e.g. "6 3"; left out, they are rolled.')
@_campaign
@_db
@one_line_errors
def rest_command(
    name: str | None, everyone: bool, kind: str | None, hit_dice: int, faces: str | None, campaign: str, db: str
) -> None:
    """Give a character (or, with --all, the whole party) a Short or Long Rest."""
    from combat.cli.output import say
    from combat.cli.references import open_store
    from combat.kernel.errors import RuleError

    if kind is None:
        raise RuleError("rest/kind", "which rest?", allowed="--short or --long")
    if everyone == (name is not None):
        raise RuleError("rest/who", "rest whom?", allowed="a character's NAME, or --all for the whole party")
    if everyone:
        if hit_dice or faces:
            raise RuleError(
                "rest/hit-dice", "the party's rest spends no Hit Point Dice", allowed="rest NAME --short --hit-dice N for those"
            )
        from combat.campaigns.party_rest import rest_party

        with open_store(db) as encounters:
            done = rest_party(encounters.campaigns, _campaign_of(encounters, campaign), kind)
        for line in party_rest_lines(done):
            say(line)
        return
    try:
        entered = None if faces is None else tuple(int(f) for f in faces.replace(",", " ").split())
    except ValueError:
        raise RuleError("dice/faces", f"faces {faces!r}", allowed='whole numbers, e.g. "6 3"') from None
    with open_store(db) as encounters:
        stored, rest = encounters.campaigns.rest(
            _campaign_of(encounters, campaign), name or "", kind, hit_dice=hit_dice, faces=entered
        )
    rolled = f" (Hit Point Dice: {', '.join(str(d.face) for d in rest.hit_dice)})" if rest.hit_dice else ""
    say(f"{stored.name} finishes a {kind} rest and regains {rest.healed} HP{rolled}")
    say(_status_line(stored))


def party_rest_lines(done: PartyRest) -> list[str]:
    """One line a character: "Elara: +12 HP (27/27), slots back: 3rd ×1", or why it did not rest."""
    ordinal = {"1": "1st", "2": "2nd", "3": "3rd"}
    lines = []
    for c in done.characters:
        if not c.rested:
            lines.append(f"{c.name}: no rest ({c.skipped})")
            continue
        back = [f"{ordinal.get(level, level + 'th')} ×{n}" for level, n in c.slots_back.items()]
        back += [f"Pact Magic ×{c.pact_back}"] if c.pact_back else []
        back += [f"{feature} ×{n}" for feature, n in c.uses_back.items()]
        lines.append(f"{c.name}: +{c.healed} HP ({c.hp}/{c.max_hp})" + (f", back: {', '.join(back)}" if back else ""))
    return lines or ["no characters in this campaign"]


@characters.command("release")
@click.argument("name")
@_campaign
@_db
@one_line_errors
def release_command(name: str, campaign: str, db: str) -> None:
    """Take a character out of the fight it is in: what that fight did so far stays, its
    later events are not carried to it, and it may rest or join another fight."""
    from combat.cli.output import say
    from combat.cli.references import open_store

    with open_store(db) as encounters:
        stored = encounters.campaigns.release(_campaign_of(encounters, campaign), name)
    say(_status_line(stored))


@characters.command("schema")
def schema_command() -> None:
    """Print the JSON Schema of a character sheet."""
    from combat.characters.sheet import sheet_schema
    from combat.cli.output import print_json

    print_json(sheet_schema())


def _json_file(file: str, code: str) -> Any:
    import json

    from combat.kernel.errors import RuleError

    with open(file, encoding="utf-8") as f:
        try:
            return json.load(f)
        except json.JSONDecodeError as exc:
            raise RuleError(code, f"{file} is not JSON: {exc}") from None


def _save(sheet: CharacterSheet, db: str, campaign: str) -> None:
    import shlex

    from combat.cli.output import say
    from combat.cli.references import open_store

    with open_store(db) as encounters:
        made = encounters.campaigns.named(campaign)
        stored = encounters.campaigns.save(made.id, sheet)
    say(
        f"saved {stored.name} in the campaign {made.name!r} ({db}): add it to a fight of the campaign "
        f"(combat new --campaign {shlex.quote(made.name if made.name == campaign else str(made.id))}) with "
        f'\'{{"type": "add_character", "character": "{stored.name}", "side": "party"}}\''
    )


def _show_sheet(sheet: CharacterSheet, as_json: bool) -> None:
    import msgspec

    from combat.cli.output import say

    if as_json:
        click.echo(msgspec.json.format(msgspec.json.encode(sheet)).decode())
        return
    for line in summary(sheet):
        say(line)


def _status_line(c: StoredCharacter) -> str:
    """HP, what is spent, and the fight whose outcome it carries."""
    sheet, s = c.sheet, c.status
    hp = sheet.max_hp if s.hp is None else s.hp
    spent = [f"{used} {name}" for name, used in s.resources_used.items()]
    spent += [f"{n} level-{i + 1} slot{'s' if n > 1 else ''}" for i, n in enumerate(s.slots_spent) if n]
    if s.hit_dice_spent:
        spent.append(f"{s.hit_dice_spent} Hit Point Dice")
    state = "dead" if s.dead else f"HP {hp}/{sheet.max_hp}"
    where = f", in encounter {c.fight} as {c.combatant}" if c.fight else ""
    return f"{c.name}: {state}" + (f", spent: {', '.join(spent)}" if spent else "") + where


def summary(sheet: CharacterSheet) -> list[str]:
    """A sheet as a few readable lines: the numbers a player reads off it at the table."""
    from combat.characters import sheet as s
    from combat.common.abilities import ABILITIES

    classes = ", ".join(f"{c} {n}" for c, n in sheet.classes.items())
    lines = [
        f"{sheet.name}: {classes}"
        + (f" ({sheet.subclass})" if sheet.subclass else "")
        + (f", {sheet.species}" if sheet.species else "")
    ]
    lines.append(
        f"HP {sheet.max_hp}  AC {sheet.ac}  Proficiency +{s.proficiency(sheet)}  Speed {sheet.speed} ft.  "
        f"Initiative {s.initiative_bonus(sheet):+d}  Hit Dice {sheet.hit_dice}"
    )
    lines.append(
        "Scores: "
        + "  ".join(
            f"{a[:3].upper()} {getattr(sheet.abilities, a)} ({s.modifier(getattr(sheet.abilities, a)):+d})" for a in ABILITIES
        )
    )
    lines.append(
        "Saves: "
        + "  ".join(
            f"{a[:3].upper()} {s.save_bonus(sheet, a):+d}" + ("*" if a in sheet.save_proficiencies else "") for a in ABILITIES
        )
        + "  (* proficient)"
    )
    if sheet.skills:
        lines.append("Skills: " + ", ".join(f"{k} {s.skill_bonus(sheet, k):+d}" for k in sheet.skills if k in s.SKILL_ABILITY))
    if sheet.resistances:
        lines.append("Resistances: " + ", ".join(sheet.resistances))
    if sheet.spellcasting is not None:
        casting = sheet.spellcasting
        line = f"Spellcasting ({casting.ability}): save DC {s.spell_save_dc(sheet)}, attack {s.spell_attack_bonus(sheet):+d}"
        if casting.slots:
            line += ", slots " + "/".join(str(n) for n in casting.slots)
        if casting.pact_slots:
            line += f", pact slots {casting.pact_slots} of level {casting.pact_level}"
        lines.append(line)
        if casting.spells:
            lines.append("Spells: " + ", ".join(casting.spells))
    attacks = s.attack_profiles(sheet)
    if attacks:
        per = f" ({sheet.attacks_per_action} per Attack action)" if sheet.attacks_per_action > 1 else ""
        lines.append("Attacks" + per + ":")
        for a in attacks:
            where = f"range {a.normal_range}/{a.long_range}" if a.kind == "ranged" else f"reach {a.reach} ft."
            lines.append(f"  {a.name}: {a.bonus:+d} to hit, {where}, {a.damage} {a.damage_type}")
    if sheet.resources:
        lines.append(
            "Resources: "
            + ", ".join(
                f"{r.name} {r.uses}/{'short' if r.recovers == 'short' else 'long'} rest"
                + (f" (regain {r.short_rest_regains} on a short rest)" if r.short_rest_regains else "")
                for r in sheet.resources
            )
        )
    f = sheet.features
    shown = [
        f"critical hit on {f.critical_range}-20" if f.critical_range < 20 else "",
        f"Sneak Attack {f.sneak_attack}" if f.sneak_attack else "",
        f"Rage Damage +{f.rage_damage}, resisting {', '.join(f.rage_resistances)} while raging" if f.rage_damage else "",
        f"Martial Arts {f.martial_arts}" if f.martial_arts else "",
        "Evasion" if f.evasion else "",
        "Uncanny Dodge" if f.uncanny_dodge else "",
        "Magic Resistance" if f.magic_resistance else "",
        f"Legendary Resistance {f.legendary_resistance}/Day" if f.legendary_resistance else "",
    ]
    if any(shown):
        lines.append("Features: " + "; ".join(x for x in shown if x))
    return lines
