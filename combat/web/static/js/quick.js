// One click per move: each combatant's quick actions on its own row (its attacks by name, its
// spells from its sheet, damage, heal, condition, death save), a small form opening right under
// that row with the focus in its first field, the outcome line and the hotkeys.

import { html, useEffect, useRef, useState } from "../vendor/htm-preact-standalone.js";
import { CommandForm, ErrorNote, label } from "./forms.js";
import { characterOf, rulesBlock } from "./sheet.js";

// The SRD's words, offered as suggestions (the service checks them: a ruleset may add its own).
export const DAMAGE_TYPES = ["acid", "bludgeoning", "cold", "fire", "force", "lightning", "necrotic", "piercing",
  "poison", "psychic", "radiant", "slashing", "thunder"];
export const CONDITIONS = ["blinded", "charmed", "deafened", "exhaustion", "frightened", "grappled", "incapacitated",
  "invisible", "paralyzed", "petrified", "poisoned", "prone", "restrained", "stunned", "unconscious"];

// The damage type last used (sent, or dealt by an attack): the damage form's default.
let lastDamageType = null;
export function noteDamageType(type) { if (type) lastDamageType = type; }
// Whom each attacker last attacked: preselected next time, while it stands.
const lastTarget = {};

const facesOf = (text) => String(text || "").split(/[\s,]+/).filter(Boolean).map(Number);

// The quick actions a row offers now, from the phase's commands, the combatant's attack
// profiles and its sheet's spells: [{kind, name, text}].
export function quickActions(state, c) {
  const allowed = new Set(state.commands || []);
  const out = [];
  // Attacks and spells need someone who can act: not dead, not down at 0 HP.
  const down = c.status !== "active" || c.hp === 0;
  if (allowed.has("attack") && !down) for (const a of c.attacks || []) out.push({ kind: "attack", name: a.name, text: a.name });
  if (allowed.has("cast_spell") && !down) {
    for (const s of characterOf(state, c.id)?.sheet?.spellcasting?.spells || []) out.push({ kind: "spell", name: s, text: s });
  }
  if (allowed.has("damage")) out.push({ kind: "damage", text: "damage" });
  if (allowed.has("heal")) out.push({ kind: "heal", text: "heal" });
  if (allowed.has("apply_condition")) out.push({ kind: "condition", text: "condition" });
  // A death save when one is owed (at the start of a turn begun at 0 HP, the ruleset's `dying`).
  // (Left out of the state until used: a 5e-family block without `dying`, or without `owed`, owes none.)
  const block = rulesBlock(state);
  const owed = Object.keys(block).length ? block.dying?.owed || [] : null;
  if (allowed.has("death_save") && c.hp === 0 && c.status !== "dead" && (!owed || owed.includes(c.id))) out.push({ kind: "death", text: "death save" });
  return out;
}

// The row's buttons; the one open is pressed.
// Each button keyed by its action, so a state streamed in while a finger is on one re-renders
// that same button rather than another in its place (a tap then still lands on it).
export function QuickBar({ c, actions, open, onOpen }) {
  if (!actions.length) return null;
  const key = (a) => `${a.kind}:${a.name || ""}`;
  return html`<div class="quick-bar" role="group" aria-label=${`Quick actions for ${c.name}`}>
    ${actions.map((a) => html`<button key=${key(a)} type="button" class=${`small quick ${a.kind}`} data-quick=${key(a)}
      aria-pressed=${open === key(a)} aria-expanded=${open === key(a)}
      onClick=${(e) => onOpen(open === key(a) ? null : { ...a, key: key(a), opener: e.currentTarget })}>${a.text}</button>`)}
  </div>`;
}

// Living combatants other than `c`, its opponents first, each side in turn order (the state's
// combatants change order as they change, and the picks must not move under the pointer).
function targetsFor(state, c) {
  const order = (state.initiative_order || []).map((e) => e.combatant);
  const rank = (id) => (order.includes(id) ? order.indexOf(id) : order.length);
  const others = Object.values(state.combatants || {}).filter((t) => t.id !== c.id && t.status !== "dead")
    .sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));
  return [...others.filter((t) => t.side !== c.side), ...others.filter((t) => t.side === c.side)];
}

function useFirstFocus() {
  const first = useRef(null);
  useEffect(() => { first.current?.focus(); }, []);
  return first;
}

// The open form, scrolled into view (as little as needed) beside its row.
function Panel({ title, onClose, children }) {
  const ref = useRef(null);
  useEffect(() => { ref.current?.scrollIntoView?.({ block: "nearest" }); }, []);
  return html`<div class="quick-panel" role="region" aria-label=${title} ref=${ref}
      onKeyDown=${(e) => { if (e.key === "Escape") { e.stopPropagation(); onClose(); } }}>
    <div class="quick-head"><strong>${title}</strong>
      <button type="button" class="small" onClick=${onClose}>Close</button></div>
    ${children}
  </div>`;
}

// Sends a command, shows a refusal under the form; `done(reply)` on success.
function useSender(send) {
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  async function go(command) {
    setBusy(true);
    setError(null);
    try { await send(command); } catch (err) { setError(err); } finally { setBusy(false); }
  }
  return { error, busy, go };
}

// An attack by name: pick the target (a click, which puts the focus in the d20 field), type the
// d20 and the damage faces, Enter. Blank faces, or Roll for me: the service rolls.
function AttackQuick({ state, c, attack, send, onClose }) {
  const profile = (c.attacks || []).find((a) => a.name === attack) || {};
  const targets = targetsFor(state, c);
  const remembered = targets.some((t) => t.id === lastTarget[c.id]) ? lastTarget[c.id] : null;
  const [target, setTarget] = useState(remembered);
  const [hit, setHit] = useState("");
  const [dmg, setDmg] = useState("");
  // Once-per-turn riders from the sheet: Sneak Attack while it is unused this turn.
  const ch = characterOf(state, c.id);
  const sneakDice = !ch?.sneak_attack_used ? ch?.sheet?.features?.sneak_attack : null;
  const [sneak, setSneak] = useState(false);
  const [sneakFaces, setSneakFaces] = useState("");
  const [missing, setMissing] = useState(null);
  const pointer = useRef(false);
  const first = useRef(null);
  const d20 = useRef(null);
  const { error, busy, go } = useSender(send);
  useEffect(() => { (first.current?.querySelector("input:checked") || first.current?.querySelector("input"))?.focus(); }, []);
  const id = `qa-${c.id}`;
  function submit(rollForMe) {
    if (!target) { setMissing("Choose a target first."); first.current?.querySelector("input")?.focus(); return; }
    setMissing(null);
    lastTarget[c.id] = target;
    const command = { type: "attack", attacker: c.id, target, attack };
    if (!rollForMe && hit.trim()) command.faces = facesOf(hit);
    if (!rollForMe && dmg.trim()) command.damage_faces = facesOf(dmg);
    if (sneak) {
      command.sneak_attack = true;
      if (!rollForMe && sneakFaces.trim()) command.extra_damage_faces = facesOf(sneakFaces);
    }
    noteDamageType(profile.damage_type);
    return go(command);
  }
  return html`<${Panel} title=${`${c.name} attacks with ${attack}`} onClose=${onClose}>
    <form class="quick-form" aria-label=${`${c.name}: ${attack}`} onSubmit=${(e) => { e.preventDefault(); submit(false); }}>
      <fieldset class="targets" ref=${first} onPointerDown=${() => { pointer.current = true; }} onKeyDown=${() => { pointer.current = false; }}>
        <legend>target</legend>
        ${targets.map((t) => html`<label class="target-pick"><input type="radio" name=${`${id}-target`} value=${t.id}
          checked=${target === t.id} onChange=${() => { setTarget(t.id); if (pointer.current) d20.current?.focus(); }} />
          ${t.name}${t.ac !== undefined ? html` <small>AC ${t.ac}</small>` : null}</label>`)}
      </fieldset>
      <div class="quick-fields">
        <div class="field"><label for=${`${id}-d20`}>d20${profile.bonus !== undefined ? ` (+${profile.bonus})` : ""}</label>
          <input id=${`${id}-d20`} ref=${d20} class="dice" inputmode="numeric" autocomplete="off" value=${hit}
            aria-describedby=${`${id}-hint`} onInput=${(e) => setHit(e.target.value)} /></div>
        <div class="field"><label for=${`${id}-dmg`}>damage dice${profile.damage ? ` (${profile.damage})` : ""}</label>
          <input id=${`${id}-dmg`} class="dice" inputmode="numeric" autocomplete="off" value=${dmg}
            aria-describedby=${`${id}-hint`} onInput=${(e) => setDmg(e.target.value)} /></div>
      </div>
      ${sneakDice ? html`<div class="quick-fields rider">
        <div class="field check"><input type="checkbox" id=${`${id}-sneak`} checked=${sneak} onChange=${(e) => setSneak(e.target.checked)} />
          <label for=${`${id}-sneak`}>Sneak Attack (${sneakDice}, once per turn)</label></div>
        ${sneak ? html`<div class="field"><label for=${`${id}-sneak-dice`}>Sneak Attack dice</label>
          <input id=${`${id}-sneak-dice`} class="dice" inputmode="numeric" autocomplete="off" value=${sneakFaces}
            aria-describedby=${`${id}-hint`} onInput=${(e) => setSneakFaces(e.target.value)} /></div>` : null}
      </div>` : null}
      <small id=${`${id}-hint`} class="hint">faces rolled at the table, e.g. 14 or 3 5; blank: the service rolls</small>
      <div class="buttons"><button type="submit" disabled=${busy}>Attack</button>
        <button type="button" disabled=${busy} onClick=${() => submit(true)}>Roll for me</button></div>
      ${missing ? html`<p class="error" role="alert">${missing}</p>` : null}
      ${error ? html`<${ErrorNote} error=${error} />` : null}
    </form>
  <//>`;
}

// Damage or healing to this row's combatant: the amount first (focused), Enter.
function AmountQuick({ c, kind, send, onClose, defaultType }) {
  const [amount, setAmount] = useState("");
  const [type, setType] = useState(lastDamageType || defaultType || "bludgeoning");
  const first = useFirstFocus();
  const { error, busy, go } = useSender(send);
  const id = `q${kind}-${c.id}`;
  function submit(e) {
    e.preventDefault();
    const command = { type: kind, target: c.id, amount: Number(amount) };
    if (kind === "damage") { command.damage_type = type.trim(); noteDamageType(command.damage_type); }
    go(command);
  }
  const title = kind === "damage" ? `Damage to ${c.name}` : `Heal ${c.name}`;
  return html`<${Panel} title=${title} onClose=${onClose}>
    <form class="quick-form" aria-label=${title} onSubmit=${submit}>
      <div class="quick-fields">
        <div class="field"><label for=${`${id}-amount`}>amount</label>
          <input id=${`${id}-amount`} ref=${first} type="number" min="0" inputmode="numeric" required value=${amount}
            onInput=${(e) => setAmount(e.target.value)} /></div>
        ${kind === "damage" ? html`<div class="field"><label for=${`${id}-type`}>damage type</label>
          <input id=${`${id}-type`} list="damage-types" value=${type} required onInput=${(e) => setType(e.target.value)} /></div>` : null}
      </div>
      <div class="buttons"><button type="submit" disabled=${busy}>${kind === "damage" ? "Deal damage" : "Heal"}</button></div>
      ${error ? html`<${ErrorNote} error=${error} />` : null}
    </form>
  <//>`;
}

// A death save: the d20 face (focused), or blank for the service to roll.
function DeathQuick({ c, send, onClose }) {
  const [face, setFace] = useState("");
  const first = useFirstFocus();
  const { error, busy, go } = useSender(send);
  const title = `Death save for ${c.name}`;
  return html`<${Panel} title=${title} onClose=${onClose}>
    <form class="quick-form" aria-label=${title} onSubmit=${(e) => {
      e.preventDefault();
      go({ type: "death_save", combatant: c.id, ...(face.trim() ? { faces: facesOf(face) } : {}) });
    }}>
      <div class="field"><label for=${`qds-${c.id}`}>d20</label>
        <input id=${`qds-${c.id}`} ref=${first} class="dice" inputmode="numeric" autocomplete="off" value=${face}
          aria-describedby=${`qds-${c.id}-hint`} onInput=${(e) => setFace(e.target.value)} />
        <small id=${`qds-${c.id}-hint`} class="hint">the face rolled; blank: the service rolls</small></div>
      <div class="buttons"><button type="submit" disabled=${busy}>Roll death save</button></div>
      ${error ? html`<${ErrorNote} error=${error} />` : null}
    </form>
  <//>`;
}

// The command's own form (cast_spell, apply_condition), prefilled, its first field focused.
function SchemaQuick({ schemas, tag, initial, title, ctx, send, onClose }) {
  const ref = useRef(null);
  useEffect(() => { ref.current?.querySelector("input:not([type=hidden]), select")?.focus(); }, []);
  const schema = schemas?.tags[tag];
  if (!schema) return null;
  return html`<${Panel} title=${title} onClose=${onClose}>
    <div ref=${ref}><${CommandForm} defs=${schemas.defs} tag=${tag} schema=${schema} initial=${initial}
      ctx=${{ ...ctx, meanings: schemas.meanings?.[tag] }} onSend=${send} /></div>
  <//>`;
}

// The open quick action's panel.
export function QuickPanel({ state, c, action, schemas, ctx, send, onClose }) {
  const defaultType = (c.attacks || [])[0]?.damage_type;
  switch (action.kind) {
    case "attack": return html`<${AttackQuick} state=${state} c=${c} attack=${action.name} send=${send} onClose=${onClose} />`;
    case "damage": case "heal": return html`<${AmountQuick} c=${c} kind=${action.kind} send=${send} onClose=${onClose} defaultType=${defaultType} />`;
    case "death": return html`<${DeathQuick} c=${c} send=${send} onClose=${onClose} />`;
    case "spell": return html`<${SchemaQuick} schemas=${schemas} tag="cast_spell" title=${`${c.name} casts ${action.name}`}
      initial=${{ caster: c.id, spell: action.name }} ctx=${ctx} send=${send} onClose=${onClose} />`;
    case "condition": return html`<${SchemaQuick} schemas=${schemas} tag="apply_condition" title=${`A condition on ${c.name}`}
      initial=${{ target: c.id }} ctx=${ctx} send=${send} onClose=${onClose} />`;
    default: return null;
  }
}

// What a reply did, in the service's own narration: the log lines of the reply's events, the
// dice lines left out ("Elara attacks Goblin Warrior 1 (Dagger): 23 vs AC 15, hit, 6 piercing").
export function outcomeOf(reply, log) {
  const seqs = new Set((reply.events || []).map((e) => e.seq));
  const lines = (log || []).filter((l) => seqs.has(l.seq)).map((l) => l.text.replace(/^Round \d+ - /, ""));
  const told = lines.filter((t) => !/ rolls \d*d\d+/.test(t));
  return (told.length ? told : lines).join(" · ") || `${(reply.events || []).length} events`;
}

// The last command in the log, whoever sent it (a player on a phone, another GM tab, the CLI),
// in the same words: `events` as GET /events gives them (each with its command_id), `log` as
// GET /log. Null before the first command after the encounter's creation.
export function lastOutcome(events, log) {
  const last = events?.[events.length - 1];
  if (!last || last.seq === 1) return null;
  const who = last.actor && last.actor !== "gm" ? `${last.actor}: ` : "";
  return who + outcomeOf({ events: events.filter((e) => e.command_id === last.command_id) }, log);
}

// The combatants a reply's events name: their rows flash.
export function touchedBy(reply) {
  const ids = new Set();
  for (const e of reply.events || []) {
    for (const f of ["attacker", "target", "combatant", "caster"]) if (typeof e[f] === "string") ids.add(e[f]);
    for (const t of Array.isArray(e.targets) ? e.targets : []) if (typeof t === "string") ids.add(t);
  }
  return [...ids];
}

export const HOTKEYS = [
  ["n", "Next turn (end the current combatant's turn)"],
  ["a", "Attack: the current combatant's first attack"],
  ["d", "Damage: to the last target, or the current combatant's first opponent"],
  ["h", "Heal the current combatant"],
  ["u", "Undo: to the undo field (type the reason, Enter)"],
  ["?", "Show or hide this list"],
  ["Esc", "Close a quick action"],
];

export function HotkeyHelp({ onClose }) {
  const ref = useRef(null);
  useEffect(() => { ref.current?.focus(); }, []);
  return html`<div class="hotkeys" role="region" aria-label="Keyboard shortcuts" tabindex="-1" ref=${ref}
      onKeyDown=${(e) => { if (e.key === "Escape") onClose(); }}>
    <strong>Keyboard shortcuts</strong> (not while typing in a field)
    <dl>${HOTKEYS.map(([k, what]) => html`<div><dt><kbd>${k}</kbd></dt><dd>${what}</dd></div>`)}</dl>
    <button type="button" class="small" onClick=${onClose}>Close</button>
  </div>`;
}

// Whether a key press is someone typing (not a hotkey).
export function typing(e) {
  const t = e.target;
  return e.ctrlKey || e.metaKey || e.altKey || (t && (t.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName)));
}

export { label };
