// Set-up at the table: each row that has not rolled initiative takes the d20 face rolled (Enter
// sends it, and the next row's field takes the focus), and what a player's phone offers now.

import { html, useState } from "../vendor/htm-preact-standalone.js";
import { ErrorNote } from "./forms.js";
import { offeredTo, reactionWindow } from "./reactions.js";

// The initiative face on a row: `18` Enter. Blank Enter: the service rolls.
export function InitiativeFace({ c, send }) {
  const [face, setFace] = useState("");
  const [error, setError] = useState(null);
  const id = `init-${c.id}`;
  async function submit(e) {
    e.preventDefault();
    const me = e.currentTarget.querySelector("input");
    setError(null);
    try {
      await send({ type: "roll_initiative", combatant: c.id, ...(face.trim() ? { faces: [Number(face.trim())] } : {}) });
      const rest = [...document.querySelectorAll("input.init-face")].filter((i) => i !== me);
      (rest.find((i) => me.compareDocumentPosition(i) & Node.DOCUMENT_POSITION_FOLLOWING) || rest[0])?.focus();
    } catch (err) { setError(err); }
  }
  return html`<form class="init-form" aria-label=${`initiative for ${c.name}`} onSubmit=${submit}>
    <label for=${id}>initiative d20${c.group ? " (for the group)" : ""}</label>
    <input id=${id} class="dice init-face" inputmode="numeric" autocomplete="off" value=${face} onInput=${(e) => setFace(e.target.value)} />
    <button type="submit" class="small">Roll</button>
    ${error ? html`<${ErrorNote} error=${error} />` : null}
  </form>`;
}

// A stat block's own moves: never a player's, unless the player commands a monster.
export const MONSTER_ONLY = new Set(["multiattack", "monster_action", "recharge", "legendary_action", "use_legendary_resistance"]);
// What answers an open reaction window (the 5e block's `reaction_window`).
export const ANSWERS = new Set(["react", "pass_reaction"]);

// Whether a player commanding `mine` is offered `tag` now: on one of their turns, their own
// moves; off it, nothing, unless a reaction window offers one of theirs a reaction, which they
// take or pass (the window lists which: no list of reactions is kept here); monster-only moves
// only for a monster of theirs.
export function playerMayNow(state, tag, mine) {
  const theirs = mine.map((id) => state.combatants?.[id]).filter(Boolean);
  if (MONSTER_ONLY.has(tag) && !theirs.some((c) => c.kind === "monster")) return false;
  if (reactionWindow(state)) return ANSWERS.has(tag) && offeredTo(state, mine).length > 0;
  if (state.phase !== "turns") return true;
  return mine.includes(state.turn);
}
