// Forms built from the published command schemas (the OpenAPI document at /schema): a field
// per property, its input chosen by the property's JSON Schema type. A ruleset's new command
// gets its form here without front-end code.

import { html, useState } from "../vendor/htm-preact-standalone.js";
import { Aim } from "./aim.js";

// Fields naming a combatant get the fight's ids as suggestions; the first three are who acts
// when the command reference (GET /rulesets/{id}/commands) does not say.
const ACTOR_FIELDS = ["combatant", "attacker", "caster"];
const COMBATANT_FIELDS = new Set([...ACTOR_FIELDS, "target", "ends_on", "mount", "rider", "ally", "helper",
                                  "grappler", "defender", "against", "source", "opponent"]);

// The commands of one ruleset, by tag, from GET /schemas/commands/{ruleset} (two rulesets
// may each have their own command under one tag, so there is no list for all).
export function commandSchemas(schema) {
  const defs = schema.$defs;
  const tags = {};
  for (const ref of schema.oneOf) {
    const command = resolve(defs, ref);
    const tag = command.properties?.type?.enum?.[0];
    if (tag) tags[tag] = command;
  }
  return { defs, tags };
}

function resolve(defs, schema) {
  return schema?.$ref ? defs[schema.$ref.split("/").pop()] : schema;
}

// What kind of input a property is, after unwrapping `X | null`.
export function kindOf(defs, name, prop) {
  let optional = false;
  let p = prop;
  let orObject = false;
  const alternatives = p.oneOf || p.anyOf;
  if (alternatives) {
    const rest = alternatives.filter((s) => s.type !== "null");
    optional = rest.length < alternatives.length;
    if (rest.length === 1) p = rest[0];
    // A name or a whole object (add_creature's creature: a bestiary name or a stat block):
    // typed as text, and sent as an object when it is one.
    else if (rest.some((s) => s.type === "string")) { p = { type: "string" }; orObject = true; }
  }
  if (Array.isArray(p.type)) {
    optional = optional || p.type.includes("null");
    p = { ...p, type: p.type.find((t) => t !== "null") };
  }
  p = resolve(defs, p) || {};
  const enumValues = p.enum?.filter((v) => v !== null);
  if (enumValues?.length) return { kind: "enum", options: enumValues, optional, numeric: p.type === "integer" };
  if (p.type === "object" && p.properties) return { kind: "object", schema: p, optional };
  if (p.type === "object" && p.additionalProperties) {
    const values = resolve(defs, p.additionalProperties);
    if (values?.type === "integer" || values?.type === "string") return { kind: "map", optional, numeric: values.type === "integer" };
    // Dice by combatant (the targets' saves): `goblin-1: 12; aria: 3 17`.
    if (values?.type === "array" && resolve(defs, values.items || {}).type === "integer") return { kind: "diceMap", optional };
    // A small form by combatant (cast_spell's save_modifiers: Advantage, cover... per target).
    if (values?.type === "object" && values.properties) return { kind: "objectMap", schema: values, optional };
  }
  if (p.type === "array") {
    const items = resolve(defs, p.items || {});
    if (items.type === "object" && items.properties) return { kind: "objects", schema: items, optional };
    if (items.type === "integer") return { kind: name.includes("faces") ? "dice" : "ints", optional };
    // One list of faces per roll (a spell's attacks, its damage rolls): `12; 3 4`.
    if (items.type === "array" && resolve(defs, items.items || {}).type === "integer") return { kind: "diceLists", optional };
    return { kind: "strings", optional };
  }
  if (p.type === "integer" || p.type === "number") return { kind: "number", optional };
  if (p.type === "boolean") return { kind: "bool", optional };
  if (p.type === "string") return { kind: COMBATANT_FIELDS.has(name) ? "combatant" : "text", optional, orObject };
  return { kind: "json", optional };
}

export function fields(schema) {
  return Object.entries(schema.properties || {}).filter(([name]) => name !== "type");
}

// The field naming who acts: the first of `names` (the command reference's actor fields, or
// the usual ones) that the command has as a single combatant.
export function actorField(schema, names = ACTOR_FIELDS) {
  return names.find((f) => schema.properties?.[f] && kindOf({}, f, schema.properties[f]).kind === "combatant");
}

// Who may send each command, from the command reference's `sent_by` ("GM only", or "GM, or the
// player of the combatant named in `attacker` (only the GM sets `advantage`, ...)"): by tag,
// {gmOnly, actors: the fields naming the player's combatant, gmFields: those a player may not set,
// serviceFields: those the service fills in (never offered)}.
export function senders(reference) {
  const out = {};
  for (const doc of reference || []) {
    const [who, gmPart = ""] = doc.sent_by.split("(only the GM sets");
    const names = (text) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    const actors = doc.sent_by === "GM only" ? [] : names(who);
    out[doc.type] = { gmOnly: !actors.length, actors, gmFields: names(gmPart), serviceFields: doc.service_fields || [] };
  }
  return out;
}

// -- raw form values (what the inputs hold) to JSON and back ---------------------------------

const words = (text) => text.split(/[\s,]+/).filter(Boolean);

export function toJson(defs, schema, raw) {
  const out = {};
  for (const [name, prop] of fields(schema)) {
    const value = fieldToJson(defs, name, prop, raw?.[name]);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function parseJson(name, text) {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw Object.assign(new Error(`${label(name)} is not valid JSON (${err.message})`), { allowed: "JSON, e.g. {\"name\": \"Ogre\"}" });
  }
}

// Rolls typed one after another, `;` between them: `12; 3 4` is [[12], [3, 4]].
function diceListsToJson(text) {
  return text.split(";").map((roll) => words(roll).map(Number)).filter((faces) => faces.length);
}

// Dice by combatant: `goblin-1: 12; aria: 3 17`.
function diceMapToJson(text) {
  const entries = text.split(";").map((pair) => pair.split(":").map((s) => s.trim())).filter(([k]) => k);
  return Object.fromEntries(entries.map(([k, v = ""]) => [k, words(v).map(Number)]));
}

// A map is typed as `key: value, key: value` (e.g. `walk: 30, fly: 60`).
function mapToJson(text, numeric) {
  const entries = text.split(",").map((pair) => pair.split(":").map((s) => s.trim())).filter(([k]) => k);
  return Object.fromEntries(entries.map(([k, v = ""]) => [k, numeric ? Number(v) : v]));
}

function fieldToJson(defs, name, prop, raw) {
  const { kind, schema, numeric, orObject } = kindOf(defs, name, prop);
  if (orObject && typeof raw === "string" && raw.trim().startsWith("{")) return parseJson(name, raw);
  switch (kind) {
    case "map": return raw ? mapToJson(raw, numeric) : undefined;
    case "enum": return raw === undefined || raw === "" ? undefined : numeric ? Number(raw) : raw;
    case "object": return raw ? toJson(defs, schema, raw) : undefined;
    case "objects": return raw?.length ? raw.map((r) => toJson(defs, schema, r)) : undefined;
    case "objectMap": {
      const entries = (raw || []).filter((r) => r.key?.trim()).map((r) => [r.key.trim(), toJson(defs, schema, r.value || {})]);
      return entries.length ? Object.fromEntries(entries) : undefined;
    }
    case "bool": return raw === undefined ? undefined : Boolean(raw);
    case "number": return raw === undefined || raw === "" ? undefined : Number(raw);
    case "dice": case "ints": return raw ? words(raw).map(Number) : undefined;
    case "diceLists": return raw ? diceListsToJson(raw) : undefined;
    case "diceMap": return raw ? diceMapToJson(raw) : undefined;
    case "strings": return raw ? raw.split(",").map((s) => s.trim()).filter(Boolean) : undefined;
    case "json": return raw ? parseJson(name, raw) : undefined;
    default: return raw === undefined || raw === "" ? undefined : raw;
  }
}

export function fromJson(defs, schema, value) {
  const raw = {};
  for (const [name, prop] of fields(schema)) {
    const v = value?.[name];
    if (v === undefined || v === null) continue;
    const { kind, schema: inner } = kindOf(defs, name, prop);
    if (kind === "object") raw[name] = fromJson(defs, inner, v);
    else if (kind === "objects") raw[name] = v.map((item) => fromJson(defs, inner, item));
    else if (kind === "objectMap") raw[name] = Object.entries(v).map(([key, item]) => ({ key, value: fromJson(defs, inner, item) }));
    else if (kind === "dice" || kind === "ints") raw[name] = v.join(" ");
    else if (kind === "diceLists") raw[name] = v.map((faces) => faces.join(" ")).join("; ");
    else if (kind === "diceMap") raw[name] = Object.entries(v).map(([k, faces]) => `${k}: ${faces.join(" ")}`).join("; ");
    else if (kind === "strings") raw[name] = v.join(", ");
    else if (kind === "json") raw[name] = JSON.stringify(v);
    else if (kind === "map") raw[name] = Object.entries(v).map(([k, x]) => `${k}: ${x}`).join(", ");
    else if (typeof v === "object" && !Array.isArray(v)) raw[name] = JSON.stringify(v);
    else if (kind === "bool") raw[name] = v;
    else raw[name] = String(v);
  }
  return raw;
}

export function clearDice(defs, schema, raw) {
  const out = { ...raw };
  for (const [name, prop] of fields(schema)) {
    const { kind, schema: inner } = kindOf(defs, name, prop);
    if (kind === "dice" || kind === "diceLists" || kind === "diceMap") delete out[name];
    else if (kind === "object" && out[name]) out[name] = clearDice(defs, inner, out[name]);
  }
  return out;
}

export const label = (name) => name.replaceAll("_", " ");

// -- the form ---------------------------------------------------------------------------------

let uid = 0;

function Field({ defs, name, prop, required, value, onChange, ctx: outer, path }) {
  const { kind, options, schema, orObject } = kindOf(defs, name, prop);
  const id = `${path}-${name}`;
  // The field's meaning from the command reference (top-level fields only), as a hint.
  const meaning = outer.meanings?.[name];
  const ctx = outer.meanings ? { ...outer, meanings: undefined } : outer;
  const meaningId = meaning ? `${id}-meaning` : undefined;
  const meaningNote = meaning ? html`<small id=${meaningId} class="hint meaning">${meaning}</small>` : null;
  const text = label(name) + (required ? " (required)" : "");
  if (kind === "object") {
    return html`<fieldset class="nested"><legend>${text}</legend>
      <${Fields} defs=${defs} schema=${schema} value=${value || {}} onChange=${onChange} path=${id}
        ctx=${name === "condition" && ctx.lists?.conditionName ? { ...ctx, lists: { name: ctx.lists.conditionName } } : { ...ctx, lists: undefined }} />
    </fieldset>`;
  }
  if (kind === "objects") {
    const items = value || [];
    return html`<fieldset class="nested"><legend>${label(name)}</legend>
      ${items.map((item, i) => html`<fieldset class="nested item"><legend>${label(name)} ${i + 1}</legend>
        <${Fields} defs=${defs} schema=${schema} value=${item} ctx=${ctx} path=${`${id}-${i}`}
          onChange=${(v) => onChange(items.map((x, j) => (j === i ? v : x)))} />
        <button type="button" onClick=${() => onChange(items.filter((_, j) => j !== i))}>Remove ${label(name)} ${i + 1}</button>
      </fieldset>`)}
      <button type="button" onClick=${() => onChange([...items, {}])}>Add ${label(name)}</button>
    </fieldset>`;
  }
  if (kind === "objectMap") {
    const items = value || [];
    const change = (i, part) => onChange(items.map((x, j) => (j === i ? { ...x, ...part } : x)));
    return html`<fieldset class="nested"><legend>${label(name)}</legend>${meaningNote}
      ${items.map((item, i) => html`<fieldset class="nested item"><legend>${label(name)} ${i + 1}</legend>
        <div class="field"><label for=${`${id}-${i}-for`}>for (combatant id)</label>
          <input id=${`${id}-${i}-for`} name=${`${name}-for`} value=${item.key ?? ""} list=${ctx.listId}
            onInput=${(e) => change(i, { key: e.target.value })} /></div>
        <${Fields} defs=${defs} schema=${schema} value=${item.value || {}} ctx=${ctx} path=${`${id}-${i}`}
          onChange=${(v) => change(i, { value: v })} />
        <button type="button" onClick=${() => onChange(items.filter((_, j) => j !== i))}>Remove ${label(name)} ${i + 1}</button>
      </fieldset>`)}
      <button type="button" onClick=${() => onChange([...items, { key: "", value: {} }])}>Add ${label(name)}</button>
    </fieldset>`;
  }
  if (kind === "bool") {
    return html`<div class="field check"><input type="checkbox" id=${id} name=${name} checked=${!!value} aria-describedby=${meaningId}
      onChange=${(e) => onChange(e.target.checked)} /><label for=${id}>${label(name)}</label>${meaningNote}</div>`;
  }
  let input;
  if (kind === "enum") {
    input = html`<select id=${id} name=${name} value=${value ?? ""} aria-describedby=${meaningId} onChange=${(e) => onChange(e.target.value)}>
      <option value="">${required ? "choose…" : "(default)"}</option>
      ${options.map((o) => html`<option value=${o}>${o}</option>`)}
    </select>`;
  } else if (kind === "combatant" && ctx.actors && name === (ctx.actorField || "combatant")) {
    input = html`<select id=${id} name=${name} value=${value ?? ""} aria-describedby=${meaningId} onChange=${(e) => onChange(e.target.value)}>
      ${ctx.actors.map((c) => html`<option value=${c}>${c}</option>`)}
    </select>`;
  } else {
    const hint = orObject ? "a name, or a JSON object" : { dice: "faces rolled, e.g. 14 or 3 5 (blank: roll for me)", ints: "numbers, e.g. 4 9",
                   strings: "comma-separated", json: "JSON", map: "name: value, e.g. walk: 30, fly: 60",
                   diceLists: "one roll after another, e.g. 12; 3 4 (blank: roll for me)",
                   diceMap: "by combatant, e.g. goblin-1: 12; aria: 3 (blank: roll for me)" }[kind];
    input = html`<input id=${id} name=${name} value=${value ?? ""} inputmode=${kind === "number" || kind === "dice" ? "numeric" : undefined}
      type=${kind === "number" ? "number" : "text"} list=${kind === "combatant" ? ctx.listId : ctx.lists?.[name] || (ctx.suggest?.[name] ? `${ctx.listId}-${name}` : undefined)}
      aria-describedby=${[hint ? `${id}-hint` : null, meaningId].filter(Boolean).join(" ") || undefined}
      class=${kind === "dice" ? "dice" : undefined} onInput=${(e) => onChange(e.target.value)} />
      ${hint ? html`<small id=${`${id}-hint`} class="hint">${hint}</small>` : null}`;
  }
  return html`<div class="field"><label for=${id}>${text}</label>${input}${meaningNote}</div>`;
}

// A command with `targets` and a map of saving-throw faces by combatant (cast_spell's
// `save_faces`, save_effect's `faces`): aimed by pointing when the form knows the fight (ctx.state).
function aiming(defs, schema, ctx) {
  const targets = schema.properties?.targets;
  if (!ctx.state || !targets || kindOf(defs, "targets", targets).kind !== "strings") return null;
  const faces = fields(schema).find(([name, prop]) => kindOf(defs, name, prop).kind === "diceMap")?.[0];
  return { faces };
}

function Fields({ defs, schema, value, onChange, ctx, path }) {
  const required = new Set(schema.required || []);
  const aim = aiming(defs, schema, ctx);
  // Aimed: who acts, then the targets with their saves, then the dice (damage first), then the rest.
  const rank = (name) => {
    if (!aim) return required.has(name) ? 0 : 1;
    if (name === "targets") return 1;
    const kind = kindOf(defs, name, schema.properties[name]).kind;
    if (kind === "dice" || kind === "diceLists") return name.includes("damage") ? 2 : 3;
    return required.has(name) ? 0 : 4;
  };
  // A player's form leaves out the fields only the GM may set (ctx.hide).
  const list = fields(schema).filter(([name]) => !ctx.hide?.includes(name) && !(aim && name === aim.faces))
    .sort(([a], [b]) => rank(a) - rank(b));
  return list.map(([name, prop]) => (aim && name === "targets"
    ? html`<${Aim} key=${name} id=${`${path}-aim`} state=${ctx.state} actor=${value[ctx.actorField] || value.caster || value.source}
        label=${`targets${required.has(name) ? " (required)" : ""}`} value=${value.targets}
        faces=${aim.faces && !ctx.hide?.includes(aim.faces) ? value[aim.faces] || "" : null}
        onChange=${(v, saves) => onChange({ ...value, targets: v, ...(aim.faces ? { [aim.faces]: saves } : {}) })} />`
    : html`<${Field} key=${name} defs=${defs} name=${name} prop=${prop}
    required=${required.has(name)} value=${value[name]} ctx=${ctx} path=${path}
    onChange=${(v) => onChange({ ...value, [name]: v })} />`));
}

export function hasDice(defs, schema) {
  return fields(schema).some(([name, prop]) => {
    const { kind, schema: inner } = kindOf(defs, name, prop);
    return kind === "dice" || kind === "diceLists" || kind === "diceMap" || (kind === "object" && hasDice(defs, inner));
  });
}

// A command's form. `onSend(json)` returns a promise; a rejection's {message, allowed} shows
// under the form until the next try.
export function CommandForm({ defs, tag, schema, initial, ctx, onSend, submitLabel = "Send", extra }) {
  const [raw, setRaw] = useState(initial || {});
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const [path] = useState(() => `f${++uid}`);
  const errorId = `${path}-error`;
  async function send(rollForMe) {
    setBusy(true);
    setError(null);
    try {
      const values = rollForMe ? clearDice(defs, schema, raw) : raw;
      await onSend({ type: tag, ...toJson(defs, schema, values) });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return html`<form class="command" aria-label=${label(tag)} aria-describedby=${error ? errorId : undefined}
      onSubmit=${(e) => { e.preventDefault(); send(false); }}>
    <${Fields} defs=${defs} schema=${schema} value=${raw} onChange=${setRaw} ctx=${ctx} path=${path} />
    ${extra}
    <div class="buttons">
      <button type="submit" disabled=${busy}>${submitLabel}</button>
      ${hasDice(defs, schema) ? html`<button type="button" disabled=${busy} onClick=${() => send(true)}>Roll for me</button>` : null}
    </div>
    ${error ? html`<${ErrorNote} id=${errorId} error=${error} />` : null}
  </form>`;
}

export function ErrorNote({ error, id }) {
  return html`<div class="error" role="alert" id=${id}>
    <strong>Refused:</strong> ${error.message}
    ${error.allowed ? html`<div class="allowed"><strong>Allowed:</strong> ${error.allowed}</div>` : null}
    ${error.code ? html`<div class="code">(${error.code})</div>` : null}
  </div>`;
}
