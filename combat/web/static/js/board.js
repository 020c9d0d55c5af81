// The initiative board: turn order, whose turn, HP with temp HP, conditions, concentration,
// what is left of the turn's economy, unresolved ties, pending checks and open conflicts.

import { html } from "../vendor/htm-preact-standalone.js";

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
  if (c.hp === undefined || c.hp === null) return "hidden";
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

export function Board({ state, view, onReveal }) {
  const order = state.initiative_order || [];
  const initiative = Object.fromEntries(order.map((e) => [e.combatant, e]));
  const name = (id) => state.combatants?.[id]?.name || id;
  return html`<section class="board" aria-labelledby="board-title">
    <h2 id="board-title">Round ${state.round || 0} · ${state.phase}${state.turn ? html` · <span class="turn">${name(state.turn)}'s turn</span>` : null}</h2>
    ${state.winner ? html`<p class="ended">The fight is over: ${state.winner} won${state.ended_reason ? ` (${state.ended_reason})` : ""}.</p>` : null}
    <ol class="order">
      ${ordered(state).map((c) => html`<li key=${c.id} class="combatant ${c.id === state.turn ? "current" : ""} ${c.status}"
          aria-current=${c.id === state.turn ? "true" : undefined} data-combatant=${c.id}>
        <span class="init" title="initiative">${c.initiative ?? "–"}${initiative[c.id]?.tied ? "*" : ""}</span>
        <span class="who"><strong>${c.name}</strong> <small>${c.id} · ${c.side}${c.player ? ` · ${c.player}` : ""}</small></span>
        <${HpBar} c=${c} view=${view} />
        <span class="status">${c.status !== "active" ? c.status : ""}${c.surprised ? " surprised" : ""}${c.dodging ? " dodging" : ""}</span>
        <span class="conditions">${(c.conditions || []).map((k) => html`<span class="chip condition">${k.name}</span>`)}
          ${c.concentration ? html`<span class="chip concentration">concentrating: ${c.concentration}</span>` : null}</span>
        ${c.id === state.turn ? html`<${Economy} e=${c.economy} />` : null}
        ${onReveal && !shownToTable(state, c) ? html`<span class="reveal"><span class="hint">hidden from players</span>
          <button type="button" class="small" aria-label=${`Reveal ${c.name}`} onClick=${() => onReveal({ combatants: [c.id] })}>Reveal</button></span>` : null}
      </li>`)}
    </ol>
    ${onReveal && hiddenSides(state).length ? html`<div class="buttons reveal-sides">
      ${hiddenSides(state).map((side) => html`<button type="button" class="small" onClick=${() => onReveal({ sides: [side] })}>Reveal side ${side}</button>`)}</div>` : null}
    ${(state.unresolved_ties || []).length ? html`<div class="notice" role="status"><strong>Unresolved ties:</strong>
      ${state.unresolved_ties.map((t) => html`<div>initiative ${t.total}: ${t.units.map((u) => u.map(name).join(" + ")).join(" vs ")} (${t.decided_by} decides)</div>`)}</div>` : null}
    ${(state.pending_checks || []).length ? html`<div class="notice" role="status"><strong>Pending checks:</strong>
      ${state.pending_checks.map((p) => html`<div>${name(p.combatant)}: concentration save DC ${p.dc} (took ${p.damage} damage)</div>`)}</div>` : null}
  </section>`;
}
