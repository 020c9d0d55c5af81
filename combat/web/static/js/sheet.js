// What the board reads from the ruleset's own block of the state (characters by sheet, monsters
// by stat block, death saves) and the stat-block / character-sheet popover opened from a row.

import { html, useEffect, useRef } from "../vendor/htm-preact-standalone.js";

// The ruleset's own block of the state (`srd_2024`, `a5e`, ...): the state names it by the
// ruleset's state key, which the JSON does not carry, so it is the object holding one of the
// slots the board reads (an open reaction window among them). Empty for a ruleset with none of them.
export function rulesBlock(state) {
  for (const value of Object.values(state || {})) {
    if (value && typeof value === "object" && !Array.isArray(value)
      && (value.characters || value.monsters || value.dying || value.reaction_window || value.dodging || value.pending_checks)) return value;
  }
  return {};
}

// A character by sheet: {sheet, slots_spent, pact_spent, resources_used, hit_dice_spent, raging}.
export const characterOf = (state, id) => rulesBlock(state).characters?.sheets?.[id] || null;
// A monster by stat block: {block, spent, used_today, legendary_left, resistance_left, ...}.
export const monsterOf = (state, id) => rulesBlock(state).monsters?.sheets?.[id] || null;
// Death saves: {successes, failures, stable}, once the creature has made one.
export const deathSavesOf = (state, id) => rulesBlock(state).dying?.tallies?.[id] || null;

const ORDINAL = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th"];

// Spell slots left per level, from the sheet's slots and the slots spent: [{level, left, of}].
export function slotsLeft(ch) {
  const casting = ch?.sheet?.spellcasting;
  if (!casting) return [];
  const spent = ch.slots_spent || [];
  const slots = (casting.slots || []).map((of, i) => ({ level: ORDINAL[i], left: Math.max(0, of - (spent[i] || 0)), of }))
    .filter((s) => s.of > 0);
  if (casting.pact_slots) {
    slots.push({ level: `pact (${ORDINAL[casting.pact_level - 1] || casting.pact_level})`, left: Math.max(0, casting.pact_slots - (ch.pact_spent || 0)), of: casting.pact_slots });
  }
  return slots;
}

// Limited-use features left, from the sheet's resources and the uses spent: [{name, left, of}].
export function resourcesLeft(ch) {
  const used = ch?.resources_used || {};
  return (ch?.sheet?.resources || []).map((r) => ({ name: r.name, left: Math.max(0, r.uses - (used[r.name] || 0)), of: r.uses }));
}

const signed = (n) => (n >= 0 ? `+${n}` : `${n}`);
const modifier = (score) => Math.floor((score - 10) / 2);
const ABILITIES = ["strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma"];
const short = (ability) => ability.slice(0, 3).toUpperCase();
const words = (key) => key.replaceAll("_", " ");

function Abilities({ scores, saves, proficient }) {
  if (!scores) return null;
  return html`<table class="abilities"><caption>Ability scores</caption>
    <thead><tr><th scope="col">ability</th><th scope="col">score</th><th scope="col">mod</th>${saves ? html`<th scope="col">save</th>` : null}</tr></thead>
    <tbody>${ABILITIES.filter((a) => scores[a] !== undefined).map((a) => html`<tr>
      <th scope="row">${short(a)}</th><td>${scores[a]}</td><td>${signed(modifier(scores[a]))}</td>
      ${saves ? html`<td>${saves[a] !== undefined ? signed(saves[a]) : ""}${proficient?.includes(a) ? " (proficient)" : ""}</td>` : null}
    </tr>`)}</tbody></table>`;
}

function Attacks({ attacks }) {
  if (!attacks?.length) return null;
  return html`<h3>Attacks</h3><ul class="sheet-list">${attacks.map((a) => html`<li>
    <strong>${a.name}</strong>: ${a.bonus !== undefined ? `${signed(a.bonus)} to hit, ` : ""}${a.damage || a.damage_dice || ""} ${a.damage_type || ""}
    ${a.kind === "ranged" || a.normal_range ? ` (range ${a.normal_range ?? a.range}/${a.long_range ?? "–"} ft)` : a.reach ? ` (reach ${a.reach} ft)` : ""}
    ${a.text ? html`<div class="hint">${a.text}</div>` : null}</li>`)}</ul>`;
}

// A stat block's lists of named entries (traits, actions, bonus actions, reactions, legendary actions).
function Entries({ title, items }) {
  if (!Array.isArray(items) || !items.length || typeof items[0] !== "object") return null;
  return html`<h3>${words(title)}</h3><ul class="sheet-list">${items.map((x) => html`<li>
    <strong>${x.name || ""}</strong>${x.text ? `: ${x.text}` : ""}</li>`)}</ul>`;
}

const SHOWN_APART = new Set(["name", "abilities", "saves", "attacks", "speed", "source"]);

function Numbers({ rows }) {
  const shown = rows.filter(([, v]) => v !== undefined && v !== null && v !== "" && !(Array.isArray(v) && !v.length));
  return html`<dl class="numbers">${shown.map(([k, v]) => html`<div><dt>${k}</dt><dd>${Array.isArray(v) ? v.join(", ") : String(v)}</dd></div>`)}</dl>`;
}

const speedText = (speed) => (typeof speed === "object" && speed ? Object.entries(speed).map(([k, v]) => `${k} ${v} ft`).join(", ") : speed ? `${speed} ft` : "");

function MonsterBlock({ c, monster }) {
  const b = monster?.block;
  if (!b) {
    // Added by hand: the combatant's own numbers are its whole block.
    return html`<${Numbers} rows=${[["AC", c.ac], ["HP", c.max_hp], ["speed", speedText(c.speed)], ["size", c.size],
      ["resistances", c.resistances], ["vulnerabilities", c.vulnerabilities], ["immunities", c.immunities]]} />
      <${Attacks} attacks=${c.attacks} />`;
  }
  const scalars = Object.entries(b).filter(([k, v]) => !SHOWN_APART.has(k) && (typeof v !== "object" || (Array.isArray(v) && typeof v[0] !== "object")));
  const lists = Object.entries(b).filter(([k, v]) => !SHOWN_APART.has(k) && Array.isArray(v) && typeof v[0] === "object");
  return html`<p class="hint">${[b.size, b.type, b.cr !== undefined ? `CR ${b.cr}` : null, b.source].filter(Boolean).join(" · ")}</p>
    <${Numbers} rows=${[["speed", speedText(b.speed)], ...scalars.filter(([k]) => !["size", "type", "cr"].includes(k)).map(([k, v]) => [words(k), v])]} />
    <${Abilities} scores=${b.abilities} saves=${b.saves} />
    <${Attacks} attacks=${b.attacks} />
    ${lists.map(([k, v]) => html`<${Entries} title=${k} items=${v} />`)}`;
}

function CharacterSheet({ c, ch }) {
  const s = ch.sheet;
  const casting = s.spellcasting;
  const classes = Object.entries(s.classes || {}).map(([k, v]) => `${k} ${v}`).join(" / ");
  const slots = slotsLeft(ch);
  const resources = resourcesLeft(ch);
  const features = Object.entries(s.features || {}).filter(([, v]) => v !== null && v !== false && !(Array.isArray(v) && !v.length));
  return html`<p class="hint">Level ${s.level} ${classes}${s.subclass ? ` (${s.subclass})` : ""}${s.species ? ` · ${s.species}` : ""}</p>
    <${Numbers} rows=${[["AC", s.ac], ["HP", `${c.hp ?? "?"}/${s.max_hp}`], ["hit dice", `${s.hit_dice}${ch.hit_dice_spent ? `, ${ch.hit_dice_spent} spent` : ""}`],
      ["speed", speedText(c.speed)], ["skills", s.skills], ["expertise", s.expertise], ["resistances", c.resistances]]} />
    <${Abilities} scores=${s.abilities} saves=${Object.fromEntries(ABILITIES.filter((a) => s.abilities?.[a] !== undefined)
      .map((a) => [a, modifier(s.abilities[a]) + (s.save_proficiencies?.includes(a) ? proficiency(s.level) : 0)]))} proficient=${s.save_proficiencies} />
    <${Attacks} attacks=${c.attacks} />
    ${casting ? html`<h3>Spellcasting (${casting.ability}${casting.save_dc ? `, save DC ${casting.save_dc}` : ""})</h3>
      ${slots.length ? html`<p>Slots left: ${slots.map((x) => `${x.level} ${x.left}/${x.of}`).join(" · ")}</p>` : null}
      ${casting.spells?.length ? html`<p>Spells: ${casting.spells.join(", ")}</p>` : null}` : null}
    ${resources.length ? html`<h3>Resources</h3><p>${resources.map((r) => `${r.name} ${r.left}/${r.of}`).join(" · ")}</p>` : null}
    ${features.length ? html`<h3>Features</h3><${Numbers} rows=${features.map(([k, v]) => [words(k), typeof v === "object" && !Array.isArray(v) ? JSON.stringify(v) : v])} />` : null}`;
}

// "Proficiency Bonus: +2 at levels 1-4, +3 at 5-8, ..."
const proficiency = (level) => 2 + Math.floor((Math.max(1, level) - 1) / 4);

// The popover: a modal <dialog> with the sheet or the stat block; Escape or Close closes it and
// the focus goes back to the button that opened it.
export function SheetDialog({ state, c, opener, onClose }) {
  const ref = useRef(null);
  useEffect(() => {
    const dialog = ref.current;
    dialog?.showModal?.();
    // Closed before it leaves the page: while it is modal, the rest of the page takes no focus.
    return () => { if (dialog?.open) dialog.close(); opener?.focus(); };
  }, []);
  const ch = characterOf(state, c.id);
  const title = `${ch ? "Character sheet" : "Stat block"}: ${c.name}`;
  return html`<dialog ref=${ref} class="sheet" aria-labelledby="sheet-title" onClose=${onClose} onCancel=${(e) => { e.preventDefault(); onClose(); }}>
    <div class="sheet-head"><h2 id="sheet-title">${title}</h2>
      <button type="button" class="small" onClick=${onClose}>Close</button></div>
    ${ch ? html`<${CharacterSheet} c=${c} ch=${ch} />` : html`<${MonsterBlock} c=${c} monster=${monsterOf(state, c.id)} />`}
  </dialog>`;
}
