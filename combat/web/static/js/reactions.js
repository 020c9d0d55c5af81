// An open reaction window (the 5e block's `reaction_window`): the fight waits while a creature
// may react to a hit, a spell being cast or damage. Each creature offered a reaction gets one
// button per reaction the window offers it and Pass; the GM sees every one and may close the
// window, a player only their own combatants'. Nothing here knows which reactions exist: the
// window lists them.

import { html, useState } from "../vendor/htm-preact-standalone.js";
import { ErrorNote } from "./forms.js";
import { rulesBlock } from "./sheet.js";

// The open window, if any (a 5e-family ruleset's block holds it while open).
export const reactionWindow = (state) => rulesBlock(state).reaction_window || null;

// Those still to answer, each with what the window offers it (a hidden creature's list may
// come empty to a player: nothing to press).
export function waiting(state) {
  const w = reactionWindow(state);
  if (!w) return [];
  const answered = new Set(w.answered || []);
  return Object.entries(w.reactors || {}).filter(([id]) => !answered.has(id)).map(([id, options]) => ({ id, options: options || [] }));
}

// The ones among `mine` the open window offers a reaction to.
export function offeredTo(state, mine) {
  return waiting(state).filter((r) => mine.includes(r.id) && r.options.length);
}

export function ReactionWindow({ state, mine, send }) {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const w = reactionWindow(state);
  if (!w) return null;
  const gm = !mine;
  const shown = waiting(state).filter((r) => gm || mine.includes(r.id));
  const name = (id) => state.combatants?.[id]?.name || id;
  async function answer(command) {
    setError(null);
    setBusy(true);
    try { await send(command); } catch (err) { setError(err); } finally { setBusy(false); }
  }
  return html`<section class="reaction-window" role="region" aria-label="Reaction window">
    <h2>Reactions? <small>${w.trigger}</small></h2>
    ${shown.length ? html`<ul class="reactors">${shown.map((r) => html`<li data-combatant=${r.id}>
      <span class="who">${name(r.id)} may react${r.options.length ? ` with ${r.options.join(" or ")}` : ""}</span>
      <span class="choices" role="group" aria-label=${`reactions for ${name(r.id)}`}>
        ${r.options.map((option) => html`<button type="button" class="react" disabled=${busy}
          onClick=${() => answer({ type: "react", combatant: r.id, reaction: option })}>${option}</button>`)}
        <button type="button" class="pass" disabled=${busy} aria-label=${`Pass (${name(r.id)})`}
          onClick=${() => answer({ type: "pass_reaction", combatant: r.id })}>Pass</button>
      </span></li>`)}</ul>`
      : html`<p class="hint">Waiting for ${waiting(state).map((r) => name(r.id)).join(", ") || "the GM"}.</p>`}
    ${gm ? html`<button type="button" class="small close-window" disabled=${busy}
      onClick=${() => answer({ type: "close_reaction_window" })}>Close the window <small>(everyone left passes)</small></button>` : null}
    ${error ? html`<${ErrorNote} error=${error} />` : null}
  </section>`;
}
