// The party on the screen (a campaign, docs/campaigns.md): build a character from the SRD,
// import a Foundry VTT actor (a file picked or dropped), the roster with what each carries
// (HP, slots, features spent, the fight it is in), the whole party's rest with what came back,
// and, in a fight of the campaign, its characters added by picking. The campaign's GM token
// is kept on this device, as the GM's encounter tokens are.

import { html, useEffect, useState } from "../vendor/htm-preact-standalone.js";
import { client } from "./api.js";
import { ErrorNote } from "./forms.js";
import { campaigns, forgetCampaign, keepCampaign as keep } from "./session.js";
import { slotsLeft } from "./sheet.js";

export { campaigns };

const CLASSES = ["Barbarian", "Bard", "Cleric", "Druid", "Fighter", "Monk", "Paladin", "Ranger", "Rogue", "Sorcerer", "Warlock", "Wizard"];

const csv = (text) => text.split(",").map((s) => s.trim()).filter(Boolean);

// What a stored character carries, in words: "HP 18/27 · slots 1st 3/4 · in a fight".
export function carries(c) {
  const s = c.status || {};
  const hp = s.hp ?? c.sheet.max_hp;
  const slots = slotsLeft({ sheet: c.sheet, ...s }).filter((x) => x.left < x.of).map((x) => `${x.level} ${x.left}/${x.of}`);
  const used = Object.entries(s.resources_used || {}).map(([name, n]) => `${name} −${n}`);
  return [`HP ${hp}/${c.sheet.max_hp}`, s.dead ? "dead" : null, slots.length ? `slots ${slots.join(" ")}` : null,
    used.length ? used.join(", ") : null, s.hit_dice_spent ? `${s.hit_dice_spent} Hit Dice spent` : null,
    c.fight ? "in a fight" : null].filter(Boolean).join(" · ");
}

// The lines of a party rest's reply: "Elara: +9 HP (27/27), back: 1st ×1".
export function restLines(done) {
  const ordinal = { 1: "1st", 2: "2nd", 3: "3rd" };
  return done.characters.map((c) => {
    if (!c.rested) return `${c.name}: no rest (${c.skipped})`;
    const back = [...Object.entries(c.slots_back).map(([level, n]) => `${ordinal[level] || `${level}th`} ×${n}`),
      ...(c.pact_back ? [`Pact Magic ×${c.pact_back}`] : []), ...Object.entries(c.uses_back).map(([f, n]) => `${f} ×${n}`)];
    return `${c.name}: +${c.healed} HP (${c.hp}/${c.max_hp})${back.length ? `, back: ${back.join(", ")}` : ""}`;
  });
}

function CreateCampaign({ admin, onMade }) {
  const [name, setName] = useState("");
  const [error, setError] = useState(null);
  async function create(e) {
    e.preventDefault();
    setError(null);
    try {
      const made = await client("", admin || null).post("/campaigns", { name });
      keep({ id: made.id, name: made.name, token: made.gm_token });
      onMade(made.id);
    } catch (err) { setError(err); }
  }
  return html`<form onSubmit=${create} aria-label="new campaign">
    <div class="field"><label for="camp-name">campaign name</label>
      <input id="camp-name" value=${name} onInput=${(e) => setName(e.target.value)} required maxlength="120" /></div>
    <button type="submit">Create campaign</button>
    ${error ? html`<${ErrorNote} error=${error} />` : null}
  </form>`;
}

function Build({ api, onDone }) {
  const [form, setForm] = useState({ name: "", class: "Fighter", level: "1", scores: "STR 15 DEX 14 CON 13 INT 12 WIS 10 CHA 8", weapons: "", spells: "" });
  const [error, setError] = useState(null);
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });
  async function build(e) {
    e.preventDefault();
    setError(null);
    try {
      await api.post("/characters/build", { name: form.name, class: form.class, level: Number(form.level), scores: form.scores,
        weapons: csv(form.weapons), spells: csv(form.spells), save: true });
      setForm({ ...form, name: "" });
      onDone();
    } catch (err) { setError(err); }
  }
  return html`<form onSubmit=${build} aria-label="build a character" class="party-build">
    <div class="field"><label for="pb-name">name</label><input id="pb-name" value=${form.name} onInput=${set("name")} required /></div>
    <div class="field"><label for="pb-class">class</label><select id="pb-class" value=${form.class} onChange=${set("class")}>
      ${CLASSES.map((c) => html`<option value=${c}>${c}</option>`)}</select></div>
    <div class="field"><label for="pb-level">level</label><input id="pb-level" type="number" min="1" max="20" value=${form.level} onInput=${set("level")} required /></div>
    <div class="field"><label for="pb-scores">ability scores</label><input id="pb-scores" value=${form.scores} onInput=${set("scores")} required /></div>
    <div class="field"><label for="pb-weapons">weapons</label><input id="pb-weapons" value=${form.weapons} onInput=${set("weapons")} aria-describedby="pb-hint" /></div>
    <div class="field"><label for="pb-spells">spells</label><input id="pb-spells" value=${form.spells} onInput=${set("spells")} aria-describedby="pb-hint" /></div>
    <small id="pb-hint" class="hint">comma-separated SRD names, e.g. Dagger, Longsword; Fireball, Shield</small>
    <button type="submit">Build and save</button>
    ${error ? html`<${ErrorNote} error=${error} />` : null}
  </form>`;
}

// A Foundry VTT dnd5e actor (its exported JSON), picked or dropped on the zone.
function Import({ api, onDone }) {
  const [note, setNote] = useState(null);
  const [error, setError] = useState(null);
  const [over, setOver] = useState(false);
  async function read(files) {
    setError(null);
    const lines = [];
    for (const file of files) {
      try {
        const actor = JSON.parse(await file.text());
        const done = await api.post("/characters/import?save=true", actor);
        lines.push(`${done.sheet.name} imported${done.not_mapped.length ? ` (not read: ${done.not_mapped.join(", ")})` : ""}`);
      } catch (err) {
        setError(Object.assign(err, { message: `${file.name}: ${err.message}` }));
      }
    }
    setNote(lines.join("; ") || null);
    onDone();
  }
  return html`<div class=${`drop-zone ${over ? "over" : ""}`} onDragOver=${(e) => { e.preventDefault(); setOver(true); }}
      onDragLeave=${() => setOver(false)} onDrop=${(e) => { e.preventDefault(); setOver(false); read([...e.dataTransfer.files]); }}>
    <label for="pb-foundry">Import Foundry VTT characters (their exported .json): drop the files here, or pick them</label>
    <input id="pb-foundry" type="file" accept=".json,application/json" multiple onChange=${(e) => read([...e.target.files])} />
    ${note ? html`<p role="status" class="hint">${note}</p>` : null}
    ${error ? html`<${ErrorNote} error=${error} />` : null}
  </div>`;
}

// The campaign's party: roster, build, import, and the whole party's rest.
export function Party({ campaign, onForget }) {
  const api = client("", campaign.token);
  const scoped = { get: (p) => api.get(`/campaigns/${campaign.id}${p}`), post: (p, b) => api.post(`/campaigns/${campaign.id}${p}`, b) };
  const [roster, setRoster] = useState(null);
  const [rested, setRested] = useState(null);
  const [error, setError] = useState(null);
  const load = () => scoped.get("/characters").then(setRoster, setError);
  useEffect(() => { load(); }, [campaign.id]);
  async function rest(kind) {
    setError(null);
    try { setRested({ kind, lines: restLines(await scoped.post("/rest", { kind })) }); load(); } catch (err) { setError(err); }
  }
  return html`<section class="party" aria-labelledby=${`party-${campaign.id}`}>
    <h3 id=${`party-${campaign.id}`}>${campaign.name} <small>the party</small></h3>
    ${roster ? roster.characters.length ? html`<ul class="roster">${roster.characters.map((c) => html`<li data-character=${c.name}>
        <strong>${c.name}</strong> <small>level ${c.sheet.level} ${Object.keys(c.sheet.classes || {}).join("/")}</small> — ${carries(c)}</li>`)}</ul>`
      : html`<p>No characters yet: build one or import one.</p>` : html`<p role="status">Loading…</p>`}
    <div class="buttons">
      <button type="button" onClick=${() => rest("short")}>Short rest for the party</button>
      <button type="button" onClick=${() => rest("long")}>Long rest for the party</button>
      <button type="button" class="small" onClick=${onForget}>Forget this campaign on this device</button>
    </div>
    ${rested ? html`<div class="rested" role="status"><strong>${rested.kind === "long" ? "Long" : "Short"} rest:</strong>
      <ul>${rested.lines.map((l) => html`<li>${l}</li>`)}</ul></div>` : null}
    ${error ? html`<${ErrorNote} error=${error} />` : null}
    <details class="party-add"><summary>Build a character (SRD 5.2) or import one</summary>
      <${Build} api=${scoped} onDone=${load} />
      <${Import} api=${scoped} onDone=${load} />
    </details>
  </section>`;
}

// The home page's campaigns: those kept on this device, each with its party, and a new one.
export function Campaigns({ admin }) {
  const [all, setAll] = useState(campaigns);
  return html`<section aria-labelledby="party-title"><h2 id="party-title">Your party</h2>
    ${Object.values(all).map((c) => html`<${Party} key=${c.id} campaign=${c} onForget=${() => { forgetCampaign(c.id); setAll(campaigns()); }} />`)}
    <details open=${!Object.keys(all).length || undefined}><summary>New campaign</summary>
      <${CreateCampaign} admin=${admin} onMade=${() => setAll(campaigns())} /></details>
  </section>`;
}

// In a fight of the campaign (set-up or later): its characters not in the fight yet, each
// added with one click, or all at once.
export function PartyPicker({ state, campaign, send }) {
  const [roster, setRoster] = useState(null);
  const [side, setSide] = useState("party");
  const [error, setError] = useState(null);
  useEffect(() => {
    client("", campaign.token).get(`/campaigns/${campaign.id}/characters`).then(setRoster, setError);
  }, [campaign.id, Object.keys(state.combatants || {}).length]);
  const inFight = new Set(Object.values(state.combatants || {}).map((c) => c.name.toLowerCase()));
  const free = (roster?.characters || []).filter((c) => !inFight.has(c.name.toLowerCase()) && !c.fight && !c.status?.dead);
  if (!roster || !free.length) return error ? html`<${ErrorNote} error=${error} />` : null;
  async function add(list) {
    setError(null);
    try { for (const c of list) await send({ type: "add_character", character: c.name, side }); } catch (err) { setError(err); }
  }
  return html`<section class="party-picker" aria-labelledby="picker-title">
    <h2 id="picker-title">Add from the party (${campaign.name})</h2>
    <div class="field"><label for="picker-side">their side</label><input id="picker-side" value=${side} onInput=${(e) => setSide(e.target.value)} /></div>
    <div class="buttons">
      ${free.length > 1 ? html`<button type="button" onClick=${() => add(free)}>Add the whole party (${free.length})</button>` : null}
      ${free.map((c) => html`<button type="button" class="small" onClick=${() => add([c])}>Add ${c.name}</button>`)}
    </div>
    ${error ? html`<${ErrorNote} error=${error} />` : null}
  </section>`;
}
