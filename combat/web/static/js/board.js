// The initiative board: turn order (a group of creatures that rolled one initiative together
// shown as one group), whose turn, AC (GM only), HP with temp HP, death-save pips, conditions
// with how long they last and what ends them, concentration, spell slots and resources left,
// what is left of the turn's economy, unresolved ties (reordered by dragging, or by the Earlier
// and Later buttons), pending checks, and a button opening a combatant's sheet or stat block.

import { html, useState } from "../vendor/htm-preact-standalone.js";
import { characterOf, deathSavesOf, resourcesLeft, rulesBlock, SheetDialog, slotsLeft } from "./sheet.js";

// Turn order first (as the state projection orders it), then whoever has not rolled yet.
export function ordered(state) {
  const ids = (state.initiative_order || []).map((e) => e.combatant);
  const rest = Object.keys(state.combatants || {}).filter((id) => !ids.includes(id));
  return [...ids, ...rest].map((id) => state.combatants[id]).filter(Boolean);
}

// Whether this view may show a combatant's numbers: the GM sees all; players and viewers see
// their side's characters and whatever the service sends (it may leave HP out altogether).
export function showsHp(c, view) {
  if (c.hp === undefined || c.hp === null) return false;
  return view.role === "gm" || c.kind !== "monster" || view.combatants?.includes(c.id);
}

// What a view without the numbers may still tell: down, or how hurt when the page has the
// HP but this view keeps them back; "hidden" when the service left them out.
export function healthWord(c) {
  if (c.status !== "active") return c.status;
  if (c.health) return c.health; // the service's word for a creature whose HP it keeps back
  if (c.hp === undefined || c.hp === null) return "unknown";
  if (c.hp >= c.max_hp) return "unhurt";
  return c.hp * 2 <= c.max_hp ? "bloodied" : "hurt";
}

export function HpBar({ c, view }) {
  if (!showsHp(c, view)) {
    return html`<span class="hp hidden-hp" title="hit points hidden from this view">${healthWord(c)}</span>`;
  }
  const total = c.max_hp + (c.temp_hp || 0);
  const pct = (n) => `${Math.max(0, Math.min(100, (100 * n) / Math.max(total, 1)))}%`;
  const text = `${c.hp}/${c.max_hp} HP${c.temp_hp ? ` +${c.temp_hp} temp` : ""}`;
  return html`<span class="hp">
    <span class="bar" role="meter" aria-valuemin="0" aria-valuemax=${c.max_hp} aria-valuenow=${c.hp} aria-label=${`${c.name} hit points`}
      aria-valuetext=${text}>
      <span class="fill ${c.hp * 2 <= c.max_hp ? "low" : ""}" style=${{ width: pct(c.hp) }}></span>
      ${c.temp_hp ? html`<span class="temp" style=${{ width: pct(c.temp_hp) }}></span>` : null}
    </span>
    <span class="hp-text">${text}</span>
  </span>`;
}

function Economy({ e }) {
  if (!e) return null;
  const flag = (ok, name) => html`<span class="chip ${ok ? "" : "spent"}" aria-label=${`${name} ${ok ? "left" : "spent"}`}>${name}</span>`;
  return html`<span class="economy">
    ${flag(e.action, "action")}${flag(e.bonus_action, "bonus")}${flag(e.reaction, "reaction")}
    <span class="chip">${Math.max(0, e.movement - e.moved)} ft</span>
    ${e.attacks_left ? html`<span class="chip">${e.attacks_left} attack${e.attacks_left > 1 ? "s" : ""}</span>` : null}
  </span>`;
}

// Whether players and viewers see this combatant's numbers (projections/redaction.py): player
// characters always; anyone else once the GM revealed it or its side.
export function shownToTable(state, c) {
  return c.kind === "pc" || (state.revealed || []).includes(c.id) || (state.revealed_sides || []).includes(c.side);
}

// The sides with a combatant hidden from players: a Reveal button each.
function hiddenSides(state) {
  return [...new Set(Object.values(state.combatants || {}).filter((c) => !shownToTable(state, c)).map((c) => c.side))];
}

const ABILITY = { strength: "STR", dexterity: "DEX", constitution: "CON", intelligence: "INT", wisdom: "WIS", charisma: "CHA" };

// How long a condition lasts and what ends it, in the table's words: "save WIS DC 14 at end of
// turn; ends with Elara's concentration", "until the start of Elara's turn", "10 rounds, until
// round 11" (combat/common/durations.py says how each is counted).
export function conditionText(k, name) {
  const parts = [];
  if (k.rounds !== undefined) parts.push(`${k.rounds} round${k.rounds === 1 ? "" : "s"}${k.until_round ? `, until round ${k.until_round}` : ""}`);
  else if (k.ends && k.ends_on) parts.push(`until the ${k.ends === "start" ? "start" : "end"} of ${name(k.ends_on)}'s ${k.ends === "end of next turn" ? "next turn" : "turn"}`);
  if (k.save) parts.push(`save ${ABILITY[k.save.ability] || k.save.ability} DC ${k.save.dc} at end of turn`);
  if (k.concentration) parts.push(`ends with ${name(k.concentration)}'s concentration${k.effect ? ` on ${k.effect}` : ""}`);
  if (k.ac_bonus) parts.push(`${k.ac_bonus > 0 ? "+" : ""}${k.ac_bonus} AC`);
  if (k.roll_bonus) parts.push(`${/^[-+]/.test(k.roll_bonus) ? "" : "+"}${k.roll_bonus} to ${(k.roll_bonus_on || ["rolls"]).join(", ")}`);
  if (k.hidden) parts.push("hidden from players");
  return parts.join("; ");
}

function Conditions({ c, name }) {
  return html`<ul class="conditions" aria-label=${`${c.name}'s conditions`}>
    ${(c.conditions || []).map((k) => {
      const text = conditionText(k, name);
      return html`<li class="condition"><strong>${k.name}</strong>${text ? ` — ${text}` : ""}</li>`;
    })}
    ${c.concentration ? html`<li class="concentration">concentrating on <strong>${c.concentration}</strong></li>` : null}
  </ul>`;
}

// Death saves for a creature at 0 HP: three pips each for successes and failures.
function DeathSaves({ c, tally }) {
  const pips = (n, kind) => [0, 1, 2].map((i) => html`<span class=${`pip ${kind} ${i < n ? "on" : ""}`} aria-hidden="true">${i < n ? "●" : "○"}</span>`);
  const s = tally?.successes || 0;
  const f = tally?.failures || 0;
  const text = `death saves: ${s} success${s === 1 ? "" : "es"}, ${f} failure${f === 1 ? "" : "s"}${tally?.stable ? ", stable" : ""}`;
  return html`<span class="death-saves" role="img" aria-label=${`${c.name} ${text}`} title=${text}>
    <span class="pips-label">saves</span> ${pips(s, "success")} <span class="pips-label">fails</span> ${pips(f, "failure")}${tally?.stable ? html` <span class="chip">stable</span>` : null}
  </span>`;
}

// Spell slots and limited-use features left, from the character's sheet and what is spent.
function Supplies({ ch }) {
  const slots = slotsLeft(ch);
  const resources = resourcesLeft(ch);
  if (!slots.length && !resources.length && !ch?.raging) return null;
  return html`<span class="supplies">
    ${slots.length ? html`<span class="slots" aria-label="spell slots left">slots ${slots.map((x) => html`<span class="chip ${x.left ? "" : "spent"}">${x.level} ${x.left}/${x.of}</span>`)}</span>` : null}
    ${resources.map((r) => html`<span class="chip resource ${r.left ? "" : "spent"}">${r.name} ${r.left}/${r.of}</span>`)}
    ${ch?.raging ? html`<span class="chip condition">raging</span>` : null}
  </span>`;
}

// Creatures added together (one `group`) roll one initiative and share its count: consecutive
// rows of one group are shown as one. [{group, members}] in turn order; `group` null for one alone.
export function initiativeGroups(combatants) {
  const out = [];
  for (const c of combatants) {
    const last = out[out.length - 1];
    if (c.group && last?.group === c.group && last.members[0].initiative === c.initiative) last.members.push(c);
    else out.push({ group: c.group || null, members: [c] });
  }
  return out.map((g) => (g.members.length > 1 ? g : { group: null, members: g.members }));
}

// The ties the GM may order now (combat/fivee/initiative.py, order_tie): an unresolved one, or
// one settled before the rounds begin ("the GM decides the order among tied monsters").
// By unit (a group's id, or a lone combatant's): {total, units: in their order now, index}.
export function tiesToOrder(state) {
  const out = {};
  const unitOf = (id) => state.combatants?.[id]?.group || id;
  for (const t of state.ties || []) {
    if (t.order?.length && state.round > 0) continue;
    const units = t.order?.length ? [...t.order] : t.units.map((u) => unitOf(u[0]));
    units.forEach((u, index) => { out[u] = { total: t.total, units, index }; });
  }
  return out;
}

// `units` with `unit` moved to position `to`.
export function movedTo(units, unit, to) {
  const out = units.filter((u) => u !== unit);
  out.splice(Math.max(0, Math.min(to, out.length)), 0, unit);
  return out;
}

// A tied unit's row (or group) is dragged onto another of its tie; the drop sends the new order.
function dragProps(unit, tie, onOrderTie) {
  if (!tie || !onOrderTie) return {};
  return {
    draggable: true,
    "data-tie": tie.total,
    onDragStart: (e) => { e.dataTransfer.setData("text/plain", unit); e.dataTransfer.effectAllowed = "move"; },
    onDragOver: (e) => { e.preventDefault(); e.dataTransfer.dropEffect = "move"; },
    onDrop: (e) => {
      e.preventDefault();
      e.stopPropagation();
      const from = e.dataTransfer.getData("text/plain");
      if (from && from !== unit && tie.units.includes(from)) onOrderTie(movedTo(tie.units, from, tie.index));
    },
  };
}

// The keyboard's way to reorder a tie: Earlier and Later.
function TieTools({ unit, who, tie, onOrderTie }) {
  if (!tie || !onOrderTie) return null;
  const move = (to) => onOrderTie(movedTo(tie.units, unit, to));
  return html`<span class="tie-tools"><span class="drag-handle" aria-hidden="true" title="drag to reorder the tie">⠿</span>
    ${tie.index > 0 ? html`<button type="button" class="small" aria-label=${`Move ${who} earlier in the tie at ${tie.total}`}
      onClick=${() => move(tie.index - 1)}>↑ earlier</button>` : null}
    ${tie.index < tie.units.length - 1 ? html`<button type="button" class="small" aria-label=${`Move ${who} later in the tie at ${tie.total}`}
      onClick=${() => move(tie.index + 1)}>↓ later</button>` : null}</span>`;
}

function Row({ c, state, view, onReveal, onSheet, name, tie, inGroup, quick, flash, tieUnit, onOrderTie }) {
  const gm = view.role === "gm";
  const mine = view.combatants?.includes(c.id);
  const dying = c.hp === 0 && c.status !== "dead" && (c.kind === "pc" || deathSavesOf(state, c.id));
  const sheetLabel = characterOf(state, c.id) ? "Sheet" : "Stat block";
  return html`<li key=${c.id} class="combatant ${c.id === state.turn ? "current" : ""} ${c.status} ${flash ? `flash flash-${flash % 2}` : ""} ${tieUnit ? "tied" : ""}"
      aria-current=${c.id === state.turn ? "true" : undefined} data-combatant=${c.id} ...${dragProps(c.group || c.id, tieUnit, onOrderTie)}>
    <span class="init" title="initiative">${inGroup ? "" : `${c.initiative ?? "–"}${tie ? "*" : ""}`}</span>
    <span class="who"><strong>${c.name}</strong> <small>${c.id} · ${c.side}${c.player ? ` · ${c.player}` : ""}</small>
      ${gm && c.ac !== undefined ? html` <span class="ac" title="armour class">AC ${c.ac}</span>` : null}</span>
    <${HpBar} c=${c} view=${view} />
    <span class="status">${c.status !== "active" ? c.status : ""}${c.surprised ? " surprised" : ""}${(rulesBlock(state).dodging || []).includes(c.id) ? " dodging" : ""}
      ${dying ? html`<${DeathSaves} c=${c} tally=${deathSavesOf(state, c.id)} />` : null}</span>
    ${(c.conditions || []).length || c.concentration ? html`<${Conditions} c=${c} name=${name} />` : null}
    <${Supplies} ch=${characterOf(state, c.id)} />
    ${c.id === state.turn ? html`<${Economy} e=${c.economy} />` : null}
    ${gm || mine ? html`<span class="row-tools"><${TieTools} unit=${c.group || c.id} who=${c.name} tie=${tieUnit} onOrderTie=${onOrderTie} /><button type="button" class="small" aria-haspopup="dialog"
      aria-label=${`${sheetLabel} of ${c.name}`} onClick=${(e) => onSheet(c.id, e.currentTarget)}>${sheetLabel}</button>
      ${onReveal && !shownToTable(state, c) ? html`<span class="reveal"><span class="hint">hidden from players</span>
        <button type="button" class="small" aria-label=${`Reveal ${c.name}`} onClick=${() => onReveal({ combatants: [c.id] })}>Reveal</button></span>` : null}
    </span>` : null}
    ${quick ? quick(c) : null}
  </li>`;
}

// `quick(c)`: the row's quick actions and the open one's form (the GM's, in the turns phase);
// `top`: what goes under the heading (the Next turn button, the last outcome); `flash`: the ids
// of the rows the last command touched, with a counter that restarts their flash; `onOrderTie`:
// sends a tie's new order (the GM's, while order_tie is allowed).
export function Board({ state, view, onReveal, quick, top, flash, onOrderTie }) {
  const [sheet, setSheet] = useState(null);
  const ties = onOrderTie ? tiesToOrder(state) : {};
  const order = state.initiative_order || [];
  const initiative = Object.fromEntries(order.map((e) => [e.combatant, e]));
  const name = (id) => state.combatants?.[id]?.name || id;
  const row = (c, inGroup) => html`<${Row} key=${c.id} c=${c} state=${state} view=${view} onReveal=${onReveal} name=${name}
    tie=${initiative[c.id]?.tied} inGroup=${inGroup} quick=${quick} tieUnit=${inGroup ? null : ties[c.group || c.id]} onOrderTie=${onOrderTie}
    flash=${flash?.ids.includes(c.id) ? flash.n : 0} onSheet=${(id, opener) => setSheet({ id, opener })} />`;
  const open = sheet && state.combatants?.[sheet.id];
  return html`<section class="board" aria-labelledby="board-title">
    <h2 id="board-title">Round ${state.round || 0} · ${state.phase}${state.turn ? html` · <span class="turn">${name(state.turn)}'s turn</span>` : null}</h2>
    ${top}
    ${state.winner ? html`<p class="ended">The fight is over: ${state.winner} won${state.ended_reason ? ` (${state.ended_reason})` : ""}.</p>` : null}
    <ol class="order">
      ${initiativeGroups(ordered(state)).map((g) => (g.group === null ? row(g.members[0], false)
        : html`<li key=${`group-${g.group}`} class="init-group ${ties[g.group] ? "tied" : ""}" data-group=${g.group} ...${dragProps(g.group, ties[g.group], onOrderTie)}>
          <div class="group-head"><span class="init" title="initiative">${g.members[0].initiative ?? "–"}${initiative[g.members[0].id]?.tied ? "*" : ""}</span>
            <span>${g.members.length} × ${groupName(g.members)} <small>one initiative count for the group</small>
              <${TieTools} unit=${g.group} who=${`the ${groupName(g.members)} group`} tie=${ties[g.group]} onOrderTie=${onOrderTie} /></span></div>
          <ol class="members" aria-label=${`group ${g.group}`}>${g.members.map((c) => row(c, true))}</ol></li>`))}
    </ol>
    ${onReveal && hiddenSides(state).length ? html`<div class="buttons reveal-sides">
      ${hiddenSides(state).map((side) => html`<button type="button" class="small" onClick=${() => onReveal({ sides: [side] })}>Reveal side ${side}</button>`)}</div>` : null}
    ${(state.unresolved_ties || []).length ? html`<div class="notice" role="status"><strong>Unresolved ties:</strong>
      ${state.unresolved_ties.map((t) => html`<div>initiative ${t.total}: ${t.units.map((u) => u.map(name).join(" + ")).join(" vs ")} (${t.decided_by} decides)
        ${onOrderTie ? html` — drag the rows, or use earlier and later, to order it;
          <button type="button" class="small" onClick=${() => onOrderTie(t.units.map((u) => state.combatants?.[u[0]]?.group || u[0]))}>Keep this order (${t.total})</button>` : null}</div>`)}</div>` : null}
    ${(rulesBlock(state).pending_checks || []).length ? html`<div class="notice" role="status"><strong>Pending checks:</strong>
      ${rulesBlock(state).pending_checks.map((p) => html`<div>${name(p.combatant)}: concentration save DC ${p.dc} (took ${p.damage} damage)</div>`)}</div>` : null}
    ${open ? html`<${SheetDialog} key=${sheet.id} state=${state} c=${open} opener=${sheet.opener} onClose=${() => setSheet(null)} />` : null}
  </section>`;
}

// "Goblin Warrior" for Goblin Warrior 1..4: the members' names without their numbers.
function groupName(members) {
  const names = new Set(members.map((c) => c.name.replace(/\s*\d+$/, "")));
  return names.size === 1 ? [...names][0] : members[0].group;
}
