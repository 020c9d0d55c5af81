// Aim by pointing: a command's `targets` picked from a checklist of the fight in turn order
// (with "all of a side" in one click), and each target's saving-throw faces entered beside it
// in a small grid. The values are the form's own text (`goblin-1, goblin-2` and
// `goblin-1: 15; goblin-2: 3`), so sending, amending and "Roll for me" work as for any field.

import { html, useRef } from "../vendor/htm-preact-standalone.js";

const split = (text) => String(text || "").split(",").map((s) => s.trim()).filter(Boolean);

function facesOf(text) {
  const out = {};
  for (const pair of String(text || "").split(";")) {
    const [k, v = ""] = pair.split(":").map((s) => s.trim());
    if (k) out[k] = v;
  }
  return out;
}

const facesText = (faces, targets) => [...new Set(targets)].filter((t) => (faces[t] || "").trim()).map((t) => `${t}: ${faces[t].trim()}`).join("; ");

// The living combatants in turn order, then those yet to roll.
function inTurnOrder(state) {
  const order = (state.initiative_order || []).map((e) => e.combatant);
  const rest = Object.keys(state.combatants || {}).filter((id) => !order.includes(id));
  return [...order, ...rest].map((id) => state.combatants[id]).filter((c) => c && c.status !== "dead");
}

// `value`: the targets' text; `faces`: the faces map's text (null when this view may not enter
// saves: a player's); `actor`: who acts (its side's opponents come first among the sides);
// `onChange(targets, faces)`.
export function Aim({ id, state, actor, value, faces, onChange, label }) {
  const targets = split(value);
  const byTarget = facesOf(faces);
  const grid = useRef(null);
  const all = inTurnOrder(state);
  const actorSide = state.combatants?.[actor]?.side;
  const sides = [...new Set(all.map((c) => c.side))].sort((a, b) => (a === actorSide) - (b === actorSide));
  function set(next, focusFirst) {
    const ordered = all.map((c) => c.id).filter((cid) => next.includes(cid));
    onChange(ordered.join(", "), facesText(byTarget, ordered));
    // After a pick the faces are typed at once: the first empty save field takes the focus.
    if (focusFirst && faces !== null) setTimeout(() => grid.current?.querySelector("input.save-face")?.focus(), 0);
  }
  const toggle = (cid) => set(targets.includes(cid) ? targets.filter((t) => t !== cid) : [...targets, cid], false);
  const sideIds = (side) => all.filter((c) => c.side === side).map((c) => c.id);
  const wholeSide = (side) => sideIds(side).every((cid) => targets.includes(cid));
  const toggleSide = (side) => set(wholeSide(side) ? targets.filter((t) => !sideIds(side).includes(t))
    : [...new Set([...targets, ...sideIds(side)])], true);
  return html`<fieldset class="aim" id=${id}>
    <legend>${label}</legend>
    <div class="aim-sides" role="group" aria-label="whole sides">
      ${sides.map((side) => html`<label class="check aim-side"><input type="checkbox" checked=${wholeSide(side)}
        onChange=${() => toggleSide(side)} /> all of ${side} (${sideIds(side).length})</label>`)}
    </div>
    <div class="aim-list">
      ${all.map((c) => html`<label class="check target-pick"><input type="checkbox" name=${`${id}-target`} value=${c.id}
        checked=${targets.includes(c.id)} onChange=${() => toggle(c.id)} /> ${c.name} <small>${c.side}</small></label>`)}
    </div>
    <div class="field"><label for=${`${id}-typed`}>target ids</label>
      <input id=${`${id}-typed`} value=${value || ""} autocomplete="off" aria-describedby=${`${id}-typed-hint`}
        onInput=${(e) => onChange(e.target.value, facesText(byTarget, split(e.target.value)))} />
      <small id=${`${id}-typed-hint`} class="hint">as ids, comma-separated: the same id again for another dart or ray</small></div>
    ${faces !== null && targets.length ? html`<div class="save-grid" ref=${grid} role="group" aria-label="each target's saving throw">
      ${[...new Set(targets)].map((t) => html`<div class="field"><label for=${`${id}-save-${t}`}>${state.combatants?.[t]?.name || t} save d20</label>
        <input id=${`${id}-save-${t}`} class="dice save-face" inputmode="numeric" autocomplete="off" value=${byTarget[t] || ""}
          onInput=${(e) => onChange(value, facesText({ ...byTarget, [t]: e.target.value }, targets))} /></div>`)}
      <small class="hint">the d20 each target rolled; blank: the service rolls it</small>
    </div>` : null}
  </fieldset>`;
}
