// The history panel: the narrative log grouped by the command that wrote it, with undo,
// retract, amend and override for the GM; conflicts next to the events they involve; the
// timeline scrubber (time travel, read-only) with its fork button; the dice audit as a chart.

import { html, useState } from "../vendor/htm-preact-standalone.js";
import { CommandForm, ErrorNote, fromJson, kindOf, label } from "./forms.js";

// One entry per command: its seqs, narrative lines, whether they still count, its events.
export function groups(log, audit, events) {
  const bySeq = Object.fromEntries((audit?.entries || []).map((e) => [e.seq, e]));
  const eventBySeq = Object.fromEntries((events || []).map((e) => [e.seq, e]));
  const out = [];
  for (const line of log) {
    const entry = bySeq[line.seq] || {};
    const last = out[out.length - 1];
    const item = { ...line, entry, event: eventBySeq[line.seq] };
    if (last && entry.command_id && last.command_id === entry.command_id) last.lines.push(item);
    else out.push({ command_id: entry.command_id, actor: entry.actor, lines: [item] });
  }
  return out;
}

// The command that most likely wrote these events, as a starting point for the amend form:
// the allowed command whose fields best match the events' fields, with the entered dice.
export function guessCommand(schemas, allowed, events) {
  const fieldsSeen = {};
  const dice = {};
  for (const e of events) {
    for (const [k, v] of Object.entries(e)) if (!(k in fieldsSeen)) fieldsSeen[k] = v;
    if (e.type === "DiceRolled") dice[e.purpose === "damage" ? "damage_faces" : "faces"] ??= e.dice.map((d) => d.face);
  }
  const value = { ...fieldsSeen, ...dice };
  let best = null;
  let bestScore = -1;
  for (const tag of allowed) {
    const schema = schemas.tags[tag];
    if (!schema) continue;
    const props = Object.keys(schema.properties).filter((p) => p !== "type");
    const required = schema.required?.filter((p) => p !== "type") || [];
    if (!required.every((p) => p in value)) continue;
    const score = props.filter((p) => p in value).length;
    if (score > bestScore) { best = tag; bestScore = score; }
  }
  return { tag: best, value };
}

// The service refuses to amend an undo, a retraction or an override (`amend/history`: retract
// it instead); an amendment is amended through the events it corrected. Offered only where
// the events are known and one of them is a ruling's.
const REFUSED_BY_AMEND = new Set(["EventsRetracted", "ConflictOverridden"]);
const HISTORY_TYPES = new Set([...REFUSED_BY_AMEND, "RulingAmended"]);

export function canAmend(events) {
  return events.every(Boolean) && events.some((e) => !HISTORY_TYPES.has(e.type)) && !events.some((e) => REFUSED_BY_AMEND.has(e.type));
}

function ReasonForm({ labelText, button, onSend, id }) {
  const [text, setText] = useState("");
  const [error, setError] = useState(null);
  return html`<form class="inline" onSubmit=${async (e) => {
      e.preventDefault();
      setError(null);
      try { await onSend(text); setText(""); } catch (err) { setError(err); }
    }}>
    <label for=${id}>${labelText}</label>
    <input id=${id} value=${text} onInput=${(e) => setText(e.target.value)} required />
    <button type="submit">${button}</button>
    ${error ? html`<${ErrorNote} error=${error} />` : null}
  </form>`;
}

function AmendForm({ schemas, allowed, group, ctx, api, onDone }) {
  const events = group.lines.map((l) => l.event).filter(Boolean);
  const guess = guessCommand(schemas, allowed, events);
  const [tag, setTag] = useState(guess.tag || allowed[0]);
  const [reason, setReason] = useState("");
  const schema = schemas.tags[tag];
  const seqs = group.lines.filter((l) => l.entry.counts !== false).map((l) => l.seq);
  const id = `amend-${group.lines[0].seq}`;
  return html`<div class="amend">
    <div class="field"><label for=${`${id}-type`}>Amend as command</label>
      <select id=${`${id}-type`} value=${tag} onChange=${(e) => setTag(e.target.value)}>
        ${allowed.filter((t) => schemas.tags[t]).map((t) => html`<option value=${t}>${label(t)}</option>`)}
      </select></div>
    ${schema ? html`<${CommandForm} key=${tag} defs=${schemas.defs} tag=${tag} schema=${schema} ctx=${ctx}
      initial=${fromJson(schemas.defs, schema, guess.value)} submitLabel="Amend"
      extra=${html`<div class="field"><label for=${`${id}-reason`}>reason for the amendment (required)</label>
        <input id=${`${id}-reason`} value=${reason} onInput=${(e) => setReason(e.target.value)} /></div>`}
      onSend=${async (command) => { await api.post("/amend", { seqs, command, reason }); onDone(); }} />` : null}
  </div>`;
}

function Group({ group, gm, conflicts, schemas, allowed, ctx, api, atSeq }) {
  const [open, setOpen] = useState(null);
  const first = group.lines[0].seq;
  const counts = group.lines.some((l) => l.entry.counts !== false);
  const involved = group.lines.filter((l) => conflicts[l.seq]);
  const touchable = gm && counts && first > 1 && group.command_id;
  const amendable = touchable && canAmend(group.lines.map((l) => l.event));
  return html`<li class="group ${counts ? "" : "retracted"} ${involved.length ? "conflict" : ""}" data-seq=${first}>
    ${group.lines.map((l) => html`<div class="line ${conflicts[l.seq] ? "conflict" : ""} ${atSeq && l.seq > atSeq ? "future" : ""}">
      <span class="seq">${l.seq}</span> <span class="text">${l.text}</span>
      ${l.entry.counts === false ? html` <em class="tag">(retracted${l.entry.retracted_by ? ` by ${l.entry.retracted_by}` : ""})</em>` : null}
      ${conflicts[l.seq] ? html`<div class="problem" role="note"><strong>Conflict:</strong> ${conflicts[l.seq].problem}
        ${conflicts[l.seq].caused_by?.length ? ` (after the change at seq ${conflicts[l.seq].caused_by.join(", ")})` : ""}</div>` : null}
    </div>`)}
    ${touchable || (gm && involved.length) ? html`<div class="actions">
      ${amendable ? html`<button type="button" aria-expanded=${open === "amend"} onClick=${() => setOpen(open === "amend" ? null : "amend")}>Amend seq ${first}</button>` : null}
      ${touchable ? html`<button type="button" aria-expanded=${open === "retract"} onClick=${() => setOpen(open === "retract" ? null : "retract")}>Retract seq ${first}</button>` : null}
      ${involved.length ? html`<button type="button" aria-expanded=${open === "override"} onClick=${() => setOpen(open === "override" ? null : "override")}>Override conflict</button>` : null}
    </div>` : null}
    ${open === "retract" ? html`<${ReasonForm} id=${`retract-${first}`} labelText="reason for retracting" button="Retract"
      onSend=${async (reason) => { await api.post("/retract", { seqs: group.lines.map((l) => l.seq), reason }); setOpen(null); }} />` : null}
    ${open === "override" ? html`<${ReasonForm} id=${`override-${first}`} labelText="ruling: why these events stand" button="Let it stand"
      onSend=${async (ruling) => { await api.post("/override", { seqs: involved.map((l) => l.seq), ruling }); setOpen(null); }} />` : null}
    ${open === "amend" ? html`<${AmendForm} schemas=${schemas} allowed=${allowed} group=${group} ctx=${ctx} api=${api} onDone=${() => setOpen(null)} />` : null}
  </li>`;
}

export function History({ log, audit, events, state, schemas, gm, ctx, api, atSeq }) {
  const conflicts = Object.fromEntries((state.conflicts || []).map((c) => [c.seq, c]));
  // Amending may use any command of the ruleset, not only what the phase allows now.
  const allowed = schemas ? Object.keys(schemas.tags) : [];
  const list = groups(log, audit, events);
  return html`<section class="history" aria-labelledby="history-title">
    <h2 id="history-title">History</h2>
    ${gm ? html`<${ReasonForm} id="undo-reason" labelText="Undo the last command, because" button="Undo"
      onSend=${(reason) => api.post("/undo", { reason })} />` : null}
    ${state.conflicts?.length ? html`<p class="notice conflicts" role="status">${state.conflicts.length} conflict${state.conflicts.length > 1 ? "s" : ""}${" "}after a change to the past: seq ${state.conflicts.map((c) => c.seq).join(", ")}.</p>` : null}
    <ol class="log" aria-live="polite" tabindex="0" aria-label="the log, newest first">
      ${list.slice().reverse().map((g) => html`<${Group} key=${g.lines[0].seq} group=${g} gm=${gm} conflicts=${conflicts}
        schemas=${schemas} allowed=${allowed} ctx=${ctx} api=${api} atSeq=${atSeq} />`)}
    </ol>
  </section>`;
}

export function Scrubber({ version, at, onScrub, onFork, gm }) {
  const value = at ?? version;
  return html`<section class="scrubber" aria-labelledby="scrub-title">
    <h2 id="scrub-title">Timeline</h2>
    <label for="scrub">Show the fight after seq <output for="scrub">${value}</output> of ${version}</label>
    <input id="scrub" type="range" min="1" max=${version} value=${value}
      onInput=${(e) => onScrub(Number(e.target.value) === version ? null : Number(e.target.value))} />
    ${at ? html`<p class="notice" role="status">Time travel: this is the fight as it stood after seq ${at} (read-only).
      <button type="button" onClick=${() => onScrub(null)}>Back to now</button>
      ${gm ? html`<button type="button" onClick=${onFork}>Fork from seq ${at}</button>` : null}</p>` : null}
  </section>`;
}

// Each roller's d20 faces as a bar chart; a fair die gives bars of about the same height.
export function DiceAudit({ audit }) {
  const dice = audit?.dice || [];
  if (!dice.length) return null;
  return html`<section class="dice-audit" aria-labelledby="dice-title">
    <h2 id="dice-title">Dice audit</h2>
    ${dice.map((d) => {
      const top = Math.max(1, ...d.faces);
      const summary = d.faces.map((n, i) => `${i + 1}: ${n}`).filter((_, i) => d.faces[i]).join(", ");
      return html`<figure class="roller">
        <figcaption><strong>${d.roller}</strong>: ${d.d20s} d20${d.d20s === 1 ? "" : "s"} (${d.entered} entered)
          ${d.p_value !== null && d.p_value !== undefined ? html` · fairness p = ${d.p_value.toFixed(3)}${d.p_value < 0.05 ? " (suspicious)" : ""}` : null}</figcaption>
        <svg viewBox="0 0 200 60" role="img" aria-label=${`${d.roller}'s d20 faces: ${summary || "none"}`}>
          ${d.faces.map((n, i) => html`<g>
            <rect x=${i * 10 + 1} y=${50 - (45 * n) / top} width="8" height=${(45 * n) / top} class="face"><title>${i + 1}: ${n}</title></rect>
            ${(i + 1) % 5 === 0 || i === 0 ? html`<text x=${i * 10 + 5} y="59" text-anchor="middle">${i + 1}</text>` : null}
          </g>`)}
        </svg>
      </figure>`;
    })}
  </section>`;
}
