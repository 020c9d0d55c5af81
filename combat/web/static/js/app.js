// The table screen: the encounter list and creation, then one encounter as the GM or a player
// sees it (the role comes with the token), live over the stream.

import { html, render, useEffect, useMemo, useRef, useState } from "../vendor/htm-preact-standalone.js";
import { client } from "./api.js";
import { Board } from "./board.js";
import { characterOf } from "./sheet.js";
import { actorField, CommandForm, commandSchemas, ErrorNote, label, senders } from "./forms.js";
import { DiceAudit, History, Scrubber } from "./history.js";
import { KeepAccess, QrCode, TokenPaste } from "./access.js";
import { CONDITIONS, DAMAGE_TYPES, HotkeyHelp, lastOutcome, noteDamageType, outcomeOf, QuickBar, quickActions, QuickPanel, touchedBy, typing } from "./quick.js";
import { forget, fromFragment, keepOnDevice, keptOnDevice, remember, remembered, shareLink } from "./session.js";
import { StatsView } from "./stats.js";
import { campaigns, Campaigns, PartyPicker } from "./party.js";
import { InitiativeFace, playerMayNow } from "./setup.js";
import { offeredTo, reactionWindow, ReactionWindow } from "./reactions.js";

let openapi = null;
const commandsOf = {};
const referenceOf = {};
let rulesetsList = null;

// What each phase calls for, and what comes after it.
const PHASE_HINTS = {
  setup: "add the combatants, then begin combat",
  surprise: "mark who is surprised, then roll initiative",
  initiative: "roll initiative for everyone; the first turn starts once all have rolled",
  turns: "each combatant acts on its turn, then Next turn",
  reaction: "the fight waits: each creature offered a reaction takes it or passes (or close the window)",
  ended: "the fight is over",
};
async function schemasOf(api, ruleset) {
  openapi ??= await api.get("/schema/openapi.json");
  commandsOf[ruleset] ??= await api.get(`/schemas/commands/${encodeURIComponent(ruleset)}`);
  // Who may send each command (its `sent_by`); without it a player's page guesses from the fields.
  referenceOf[ruleset] ??= await api.get(`/rulesets/${encodeURIComponent(ruleset)}/commands`).catch(() => null);
  rulesetsList ??= await api.get("/rulesets").catch(() => []);
  const reference = referenceOf[ruleset];
  // Each field's meaning, from the command reference: a hint under the field.
  const meanings = Object.fromEntries((reference || []).map((doc) => [doc.type, Object.fromEntries((doc.fields || []).map((f) => [f.name, f.meaning]))]));
  return { ...commandSchemas(commandsOf[ruleset]), paths: openapi.paths, senders: reference && senders(reference), meanings,
           phases: rulesetsList.find((r) => r.id === ruleset)?.phases || [] };
}

// Whether a player may send this command for one of their combatants: not GM only, and it
// names the acting combatant in a field this command has (the reference's `sent_by`).
function playerMaySend(schemas, tag) {
  const schema = schemas.tags[tag];
  const who = schemas.senders?.[tag];
  if (!schemas.senders) return !!actorField(schema);
  return !!who && !who.gmOnly && who.actors.some((f) => schema.properties?.[f]);
}

// The quick actions a player may have on their own rows, by the command each sends.
const PLAYER_QUICK = { attack: "attack", spell: "cast_spell", death: "death_save" };

// The stream's states come with their keys sorted, GET's with the combatants in the order they
// joined: one order is kept (the first seen, newcomers last), so that the rows, checkboxes and
// picks built from it hold still under the pointer when a newer state arrives.
function sameOrder(prev, next) {
  if (!prev?.combatants || !next?.combatants) return next;
  const keys = [...Object.keys(prev.combatants).filter((k) => k in next.combatants),
                ...Object.keys(next.combatants).filter((k) => !(k in prev.combatants))];
  return { ...next, combatants: Object.fromEntries(keys.map((k) => [k, next.combatants[k]])) };
}

function Home() {
  const [rulesets, setRulesets] = useState([]);
  const [error, setError] = useState(null);
  const [form, setForm] = useState({ ruleset: "srd-2024", name: "", seed: "", admin: "", campaign: "", practice: false });
  const kept = campaigns();
  const [open, setOpen] = useState({ id: "", token: "" });
  const mine = Object.values(remembered());
  useEffect(() => { client("", null).get("/rulesets").then(setRulesets, setError); }, []);
  async function create(e) {
    e.preventDefault();
    setError(null);
    try {
      const body = { ruleset: form.ruleset, name: form.name };
      if (form.seed !== "") body.seed = Number(form.seed);
      // A fight of the party: created with the campaign's token, its outcome carried back unless practice.
      const campaign = kept[form.campaign];
      const opened = campaign
        ? await client("", campaign.token).post(`/campaigns/${campaign.id}/encounters`, { ...body, practice: form.practice })
        : await client("", form.admin.trim() || null).post("/encounters", body);
      // The GM's own browser keeps the GM's access (until "Forget on this device"), and the
      // GM link is shown once, unfolded, on the fight's first screen.
      remember({ id: opened.id, token: opened.gm_token, role: "gm", title: opened.name, ruleset: opened.ruleset,
                 campaign: campaign?.id, practice: campaign ? form.practice : undefined, fresh: true });
      keepOnDevice(opened.id, true);
      location.hash = `e=${opened.id}`;
    } catch (err) { setError(err); }
  }
  function openOne(e) {
    e.preventDefault();
    remember({ id: open.id.trim(), token: open.token.trim(), role: "gm" });
    location.hash = `e=${open.id.trim()}`;
  }
  const set = (key) => (e) => setForm({ ...form, [key]: e.target.value });
  return html`<main id="main">
    <h1>Combat log: the table screen</h1>
    <section aria-labelledby="mine-title"><h2 id="mine-title">Your encounters (this tab, and those remembered on this device)</h2>
      ${mine.length ? html`<ul class="encounters">${mine.map((m) => html`<li>
        <a href=${`#e=${m.id}`}>${m.title || m.id}</a> <small>${m.ruleset || ""} · ${m.role}${m.name ? ` (${m.name})` : ""}${keptOnDevice(m.id) ? " · remembered on this device" : ""}</small>
        <button type="button" onClick=${() => { forget(m.id); location.reload(); }}>Forget</button></li>`)}</ul>`
        : html`<p>None yet: create one, or open a link the GM gave you.</p>`}
    </section>
    <section aria-labelledby="create-title"><h2 id="create-title">New encounter</h2>
      <form onSubmit=${create} aria-label="new encounter">
        <div class="field"><label for="new-ruleset">ruleset</label>
          <select id="new-ruleset" value=${form.ruleset} onChange=${set("ruleset")}>
            ${rulesets.map((r) => html`<option value=${r.id}>${r.title} (${r.id})</option>`)}
          </select></div>
        <div class="field"><label for="new-name">name (required)</label>
          <input id="new-name" value=${form.name} onInput=${set("name")} required maxlength="200" /></div>
        ${Object.keys(kept).length ? html`<div class="field"><label for="new-campaign">for the party of</label>
          <select id="new-campaign" value=${form.campaign} onChange=${set("campaign")}>
            <option value="">(no campaign: a fight on its own)</option>
            ${Object.values(kept).map((c) => html`<option value=${c.id}>${c.name}</option>`)}
          </select></div>
          ${form.campaign ? html`<div class="field check"><input type="checkbox" id="new-practice" checked=${form.practice}
            onChange=${(e) => setForm({ ...form, practice: e.target.checked })} /><label for="new-practice">practice fight
            (what happens in it is not carried back to the party)</label></div>` : null}` : null}
        <div class="field"><label for="new-seed">dice seed (optional)</label>
          <input id="new-seed" type="number" value=${form.seed} onInput=${set("seed")} /></div>
        <div class="field"><label for="new-admin">admin token (only where the server asks for one)</label>
          <input id="new-admin" type="password" autocomplete="off" value=${form.admin} onInput=${set("admin")} /></div>
        <button type="submit">Create encounter</button>
        ${error ? html`<${ErrorNote} error=${error} />` : null}
      </form>
    </section>
    <${Campaigns} admin=${form.admin.trim()} />
    <section aria-labelledby="open-title"><h2 id="open-title">Open an encounter with its GM token</h2>
      <form onSubmit=${openOne} aria-label="open encounter">
        <div class="field"><label for="open-id">encounter id</label>
          <input id="open-id" value=${open.id} onInput=${(e) => setOpen({ ...open, id: e.target.value })} required /></div>
        <div class="field"><label for="open-token">token</label>
          <input id="open-token" type="password" autocomplete="off" value=${open.token} onInput=${(e) => setOpen({ ...open, token: e.target.value })} required /></div>
        <button type="submit">Open</button>
      </form>
    </section>
  </main>`;
}

// What each phase calls for (the GM's first row of buttons); the phase's other commands are
// under "More commands". A phase with none of these shows them all.
const CALLED_FOR = {
  setup: ["add_combatant", "add_creature", "add_character", "remove_combatant", "begin_combat"],
  surprise: ["mark_surprised", "surprise_check", "roll_initiative", "call_initiative_check"],
  initiative: ["roll_initiative", "order_tie", "reroll_tie", "roll_off", "call_initiative_check"],
  reorder: ["propose_swap", "answer_swap", "pass_swap", "end_reorder"],
  reaction: ["react", "pass_reaction", "close_reaction_window"],
  turns: ["attack", "multiattack", "monster_action", "cast_spell", "move", "take_action", "bonus_action", "use_reaction",
          "roll_damage", "death_save", "saving_throw", "end_turn", "damage", "heal", "apply_condition", "remove_condition"],
};
const ALWAYS = ["ruling"];

// The commands this view may send now, each a button that opens its form.
function Actions({ state, schemas, view, ctx, api, onReply }) {
  const [chosen, setChosen] = useState(null);
  const [done, setDone] = useState(null);
  const mine = view.role === "player" ? view.combatants : null;
  // A player sees only what they may send now (this phase) for their own combatants.
  const tags = (state.commands || []).filter((t) => schemas.tags[t] && (!mine || (mine.length && playerMaySend(schemas, t)
    && playerMayNow(state, t, mine))));
  if (view.role === "viewer") return null;
  const schema = chosen && schemas.tags[chosen];
  const who = chosen && schemas.senders?.[chosen];
  const actor = schema && actorField(schema, who?.actors.length ? who.actors : undefined);
  // The GM's buttons: what the phase calls for first, the rest under "More commands".
  const calledFor = [...(CALLED_FOR[state.phase] || []), ...ALWAYS];
  const grouped = !mine && tags.some((t) => (CALLED_FOR[state.phase] || []).includes(t));
  const now = grouped ? tags.filter((t) => calledFor.includes(t)) : tags;
  const more = grouped ? tags.filter((t) => !calledFor.includes(t)) : [];
  const button = (t) => html`<button type="button" class=${chosen === t ? "chosen" : ""} aria-pressed=${chosen === t}
    onClick=${() => { setChosen(chosen === t ? null : t); setDone(null); }}>${label(t)}</button>`;
  const initialActor = mine ? (mine.includes(state.turn) ? state.turn : mine[0]) : state.turn;
  return html`<section class="actions-panel" aria-labelledby="actions-title">
    <h2 id="actions-title">${mine ? `Your moves (${mine.join(", ")})` : "Commands"}</h2>
    <div class="command-buttons" role="group" aria-label="commands allowed now">
      ${now.map(button)}
      ${more.length ? html`<details class="more-commands" open=${more.includes(chosen) || undefined}>
        <summary>More commands (${more.length})</summary><div class="command-buttons">${more.map(button)}</div></details>` : null}
    </div>
    ${schema ? html`<${CommandForm} key=${chosen} defs=${schemas.defs} tag=${chosen} schema=${schema}
      ctx=${{ ...ctx, actors: mine, actorField: actor, hide: [...(mine ? who?.gmFields || [] : []), ...(who?.serviceFields || [])],
              meanings: schemas.meanings?.[chosen] }} initial=${actor && initialActor ? { [actor]: initialActor } : {}}
      onSend=${async (command) => {
        const reply = await api.post("/commands", { command });
        onReply?.(reply);
        setDone(`${label(chosen)}: ${reply.events.length} event${reply.events.length === 1 ? "" : "s"}, now at seq ${reply.version}`);
        setChosen(null);
      }} />` : null}
    ${done ? html`<p class="done" role="status">${done}</p>` : null}
  </section>`;
}

// Where the links should point: the page's own origin is this machine's (127.0.0.1) when the
// GM opened the screen there, and a phone opening it would reach itself. The service says which
// of its addresses the phones can open (GET /service/addresses), or that none can.
function useTableOrigin(entry) {
  const [where, setWhere] = useState(null);
  useEffect(() => {
    if (entry.api) { setWhere({ origin: location.origin }); return; }  // the page is served elsewhere: as it is
    client("", null).get("/service/addresses").then((a) => {
      const here = /^(localhost|127\.|\[::1\])/.test(location.hostname) || location.hostname === "::1";
      setWhere({ origin: here && a.origins.length ? a.origins[0] : location.origin, loopbackOnly: a.loopback_only,
                 serveTable: a.serve_table, none: here && !a.loopback_only && !a.origins.length });
    }, () => setWhere({ origin: location.origin }));
  }, []);
  return where;
}

function Tokens({ state, api, entry }) {
  const [form, setForm] = useState({ role: "player", name: "", combatants: [] });
  const [issued, setIssued] = useState([]);
  const [error, setError] = useState(null);
  const where = useTableOrigin(entry);
  const ids = Object.keys(state.combatants || {});
  async function issue(e) {
    e.preventDefault();
    setError(null);
    try {
      const body = { role: form.role, name: form.name, combatants: form.role === "player" ? form.combatants : [] };
      const t = await api.post("/tokens", body);
      const share = { id: entry.id, token: t.token, role: t.role, name: t.name, combatants: t.combatants, api: entry.api };
      setIssued([...issued, { ...t, link: shareLink(t.role === "viewer" ? "overlay.html" : "", share, where?.origin || location.origin) }]);
    } catch (err) { setError(err); }
  }
  const toggle = (id) => setForm({ ...form, combatants: form.combatants.includes(id) ? form.combatants.filter((c) => c !== id) : [...form.combatants, id] });
  return html`<section class="tokens" aria-labelledby="tokens-title">
    <h2 id="tokens-title">Share: player, overlay and GM links</h2>
    ${where?.loopbackOnly ? html`<div class="notice warn" role="status"><strong>The phones cannot reach this server:</strong> it
      listens on this machine only (127.0.0.1), so a link opened on a phone goes nowhere. To serve the table, stop it and run
      <code>${where.serveTable}</code> (every interface, with an admin token it prints), then open the screen again.</div>`
      : where?.none ? html`<div class="notice warn" role="status">No network address found for this machine: is it on the table's Wi-Fi?</div>`
      : where ? html`<p class="hint">Links for the phones point to <code>${where.origin}</code>.</p>` : null}
    <form onSubmit=${issue} aria-label="issue a token">
      <div class="field"><label for="tok-role">role</label>
        <select id="tok-role" value=${form.role} onChange=${(e) => setForm({ ...form, role: e.target.value })}>
          <option value="player">player (commands their own combatants)</option>
          <option value="viewer">viewer (overlay, read only)</option>
          <option value="gm">gm (a co-GM: runs this fight)</option>
        </select></div>
      <div class="field"><label for="tok-name">name</label>
        <input id="tok-name" value=${form.name} onInput=${(e) => setForm({ ...form, name: e.target.value })} required /></div>
      ${form.role === "player" ? html`<fieldset><legend>combatants they command</legend>
        ${ids.map((id) => html`<label class="check"><input type="checkbox" checked=${form.combatants.includes(id)} onChange=${() => toggle(id)} /> ${id}</label>`)}
      </fieldset>` : null}
      <button type="submit">Issue token</button>
      ${error ? html`<${ErrorNote} error=${error} />` : null}
    </form>
    ${issued.map((t) => html`<div class="issued"><label>${t.role} link for ${t.name}${t.role === "gm" ? ": anyone with it runs this fight" : ""} (the token is in the part after #, which is never sent to a server)
      <input readonly value=${t.link} class="share-link" data-role=${t.role} onFocus=${(e) => e.target.select()} /></label>
      ${t.role === "player" ? html`<figure class="qr-figure"><${QrCode} text=${t.link} label=${`QR code of ${t.name}'s player link`} />
        <figcaption>${t.name}: scan with the phone's camera</figcaption></figure>` : null}</div>`)}
  </section>`;
}

function Encounter({ entry, onOpen }) {
  const api = useMemo(() => client(entry.api || "", entry.token), [entry.id, entry.token]);
  const [state, setState] = useState(null);
  const [schemas, setSchemas] = useState(null);
  const [log, setLog] = useState([]);
  const [audit, setAudit] = useState(null);
  const [events, setEvents] = useState([]);
  const [bestiary, setBestiary] = useState(null);
  const [status, setStatus] = useState("connecting");
  const [error, setError] = useState(null);
  const [at, setAt] = useState(null);
  const [past, setPast] = useState(null);
  const [quick, setQuick] = useState(null); // {id, action}: the quick action open on a row
  const [outcome, setOutcome] = useState(null);
  const [flash, setFlash] = useState(null);
  const [help, setHelp] = useState(false);
  const keys = useRef(null);
  const refresh = useRef(null);
  const view = { role: entry.role, combatants: entry.combatants || [] };
  const gm = entry.role === "gm";

  function reload() {
    clearTimeout(refresh.current);
    refresh.current = setTimeout(async () => {
      try {
        const base = `/encounters/${entry.id}`;
        const [s, l, a, ev] = await Promise.all([api.get(base), api.get(`${base}/log`), api.get(`${base}/audit`), api.get(`${base}/events`)]);
        // The stream's state is folded event by event; after a change to the past the conflicts
        // are only known from the whole log, which GET state reads.
        setState((prev) => (!prev || s.version >= prev.version ? sameOrder(prev, s) : prev));
        setLog(l); setAudit(a); setEvents(ev);
        // "Last:" follows the log, so a command sent elsewhere (a player's phone) shows here too.
        setOutcome((o) => lastOutcome(ev, l) ?? o);
      } catch (err) { setError(err); }
    }, 100);
  }

  useEffect(() => {
    let stop = () => {};
    (async () => {
      try {
        const s = await api.get(`/encounters/${entry.id}`);
        setState(s);
        remember({ id: entry.id, title: s.name, ruleset: s.ruleset });
        reload();
        const sc = await schemasOf(api, s.ruleset);
        setSchemas(sc);
        if (sc.paths["/bestiary"]) api.get("/bestiary").then((b) => setBestiary(b.map?.((m) => m.name) ?? []), () => {});
        stop = api.follow(entry.id, s.version, (msg) => {
          // A streamed state older than the one GET read already is left out (the board stepped back).
          if (msg.state) setState((prev) => (!prev || msg.state.version >= prev.version ? sameOrder(prev, msg.state) : prev));
          reload();
        }, setStatus);
      } catch (err) { setError(err); }
    })();
    return () => stop();
  }, [entry.id]);

  useEffect(() => {
    if (at === null) { setPast(null); return; }
    api.get(`/encounters/${entry.id}?at=${at}`).then(setPast, setError);
  }, [at]);

  // The hotkeys (GM only): the handler reads this render's values through `keys`.
  useEffect(() => {
    const onKey = (e) => keys.current?.(e);
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);

  if (error && !state) {
    // A token the service no longer takes (revoked, expired, mistyped): offer to paste another.
    const refused = error.status === 401 || error.status === 403;
    return html`<main id="main"><a href="#">All encounters</a><${ErrorNote} error=${error} />
      ${refused ? html`<${TokenPaste} id=${entry.id} problem="The service did not take this browser's token" onOpen=${onOpen} />` : null}</main>`;
  }
  if (!state) return html`<main id="main"><p role="status">Loading…</p></main>`;
  const shown = past || state;
  const ids = Object.keys(state.combatants || {});
  // Suggestions for free-text fields: attack profiles by name, bestiary creatures when served.
  const attacks = [...new Set(Object.values(state.combatants || {}).flatMap((c) => (c.attacks || []).map((a) => a.name)))];
  // Spells from the characters' sheets, the SRD's damage types and conditions: pickers by name
  // (suggestions: the service checks, and a ruleset may have its own words).
  const spells = [...new Set(Object.keys(state.combatants || {}).flatMap((id) => characterOf(state, id)?.sheet?.spellcasting?.spells || []))];
  const suggest = { attack: attacks, spell: spells, damage_type: DAMAGE_TYPES, ...(bestiary ? { creature: bestiary } : {}) };
  // `state`: forms with targets aim them by pointing (aim.js).
  const ctx = { listId: "combatant-ids", suggest, lists: { conditionName: "condition-names", condition: "condition-names" }, state };
  async function fork() {
    const opened = await api.post(`/encounters/${entry.id}/fork`, { at, name: `${state.name} (what if, from seq ${at})` });
    remember({ id: opened.id, token: opened.gm_token, role: "gm", title: opened.name, ruleset: opened.ruleset });
    location.hash = `e=${opened.id}`;
  }
  const scoped = { ...api, post: (path, body) => api.post(`/encounters/${entry.id}${path}`, body) };
  // After a command: its outcome in the service's narration, next to the board, and the rows it
  // touched flash.
  async function announce(reply) {
    for (const e of reply.events || []) if (e.type === "AttackMade" && e.damage_type) noteDamageType(e.damage_type);
    setFlash((f) => ({ ids: touchedBy(reply), n: (f?.n || 0) + 1 }));
    const told = await api.get(`/encounters/${entry.id}/log`).catch(() => []);
    setOutcome(outcomeOf(reply, told));
    // On a phone the form sent may be far down the page: the outcome is brought into view.
    if (!gm) requestAnimationFrame(() => document.querySelector("section.board .outcome")?.scrollIntoView?.({ block: "center" }));
  }
  async function send(command) {
    const reply = await scoped.post("/commands", { command });
    setQuick(null);
    announce(reply);
    return reply;
  }
  const turns = gm && !past && schemas && state.phase === "turns";
  // Before the rounds: each row that has not rolled takes its initiative face (a group's first member, for the group).
  const settingUp = gm && !past && schemas && state.phase !== "turns" && (state.commands || []).includes("roll_initiative");
  const firstUnrolled = (c) => c.initiative == null && c.status !== "dead"
    && (!c.group || Object.values(state.combatants).find((o) => o.group === c.group)?.id === c.id);
  const allowed = new Set(state.commands || []);
  const current = state.turn && state.combatants?.[state.turn];
  const nextTurn = () => current && send({ type: "end_turn", combatant: current.id }).catch(setError);
  // Who comes after the current combatant (the next one standing in the order).
  const order = (state.initiative_order || []).map((o) => o.combatant).filter((id) => state.combatants?.[id]?.status !== "dead");
  const after = current ? state.combatants[order[(order.indexOf(current.id) + 1) % Math.max(order.length, 1)]] : null;
  function openQuick(id, kind) {
    const c = state.combatants?.[id];
    const action = c && quickActions(state, c).find((a) => a.kind === kind);
    if (action) setQuick({ id, action: { ...action, key: `${action.kind}:${action.name || ""}` } });
  }
  keys.current = (e) => {
    if (!gm || past || typing(e) || document.querySelector("dialog[open]")) return;
    const key = e.key;
    if (key === "?") { e.preventDefault(); setHelp((h) => !h); return; }
    if (key === "Escape" && (quick || help)) { setQuick(null); setHelp(false); return; }
    if (!turns) return;
    if (key === "n" && allowed.has("end_turn") && current) { e.preventDefault(); nextTurn(); }
    else if (key === "a" && current) { e.preventDefault(); openQuick(current.id, "attack"); }
    else if (key === "h" && current) { e.preventDefault(); openQuick(current.id, "heal"); }
    else if (key === "d" && current) {
      e.preventDefault();
      const last = [...(events || [])].reverse().find((ev) => ev.type === "AttackMade" && ev.attacker === current.id);
      const foe = Object.values(state.combatants).find((c) => c.side !== current.side && c.status !== "dead");
      openQuick(last?.target && state.combatants[last.target]?.status !== "dead" ? last.target : (foe || current).id, "damage");
    } else if (key === "u") { e.preventDefault(); document.getElementById("undo-reason")?.focus(); }
  };
  // Initiative for every monster that has not rolled, one roll per group, the service rolling.
  const unrolled = Object.values(state.combatants || {}).filter((c) => c.kind === "monster" && c.initiative == null && c.status !== "dead");
  const monsterGroups = [...new Map(unrolled.map((c) => [c.group || c.id, c])).values()];
  async function rollMonsters() {
    for (const c of monsterGroups) await send({ type: "roll_initiative", combatant: c.id });
  }
  const phases = schemas?.phases || [];
  const nextPhase = phases[phases.indexOf(state.phase) + 1];
  // A player's own rows offer their quick actions too, only those the player may send now:
  // the attacks and spells on that combatant's turn, a death save when one is owed.
  const playing = !past && schemas && ["turns", "reaction"].includes(state.phase) && entry.role === "player" && view.combatants.length;
  const playerActions = (c) => (!view.combatants.includes(c.id) ? [] : quickActions(state, c).filter((a) => PLAYER_QUICK[a.kind]
    && playerMaySend(schemas, PLAYER_QUICK[a.kind]) && !reactionWindow(state) && (a.kind === "death" || state.turn === c.id)));
  // What a player's quick spell form leaves out: the fields only the GM sets (the targets' saves).
  const playerCtx = playing ? { ...ctx, hide: schemas.senders?.cast_spell?.gmFields } : ctx;
  const rowQuick = settingUp ? (c) => (firstUnrolled(c) ? html`<${InitiativeFace} c=${c} send=${send} />` : null)
    : turns || playing ? (c) => {
    const actions = turns ? quickActions(state, c) : playerActions(c);
    if (!actions.length) return null;
    const open = quick?.id === c.id ? quick.action : null;
    return html`<div class="quick-row">
      <${QuickBar} c=${c} actions=${actions} open=${open?.key} onOpen=${(a) => setQuick(a ? { id: c.id, action: a } : null)} />
      ${open ? html`<${QuickPanel} key=${open.key} state=${state} c=${c} action=${open} schemas=${schemas} ctx=${turns ? ctx : playerCtx} send=${send}
        onClose=${() => { const opener = open.opener; setQuick(null); opener?.focus?.(); }} />` : null}
    </div>`;
  } : null;
  const top = gm && !past ? html`<p class="phase-line"><strong>Phase: ${state.phase.replaceAll("_", " ")}</strong>${PHASE_HINTS[state.phase] ? ` — ${PHASE_HINTS[state.phase]}` : ""}${nextPhase && nextPhase !== "ended" ? `; next: ${nextPhase.replaceAll("_", " ")}` : ""}.</p>
    <div class="turn-bar">
      ${allowed.has("begin_combat") ? html`<button type="button" class="begin" onClick=${() => send({ type: "begin_combat" })
        .then(() => document.querySelector("input.init-face")?.focus(), setError)}>
        Begin combat</button>` : null}
      ${allowed.has("roll_initiative") && monsterGroups.length ? html`<button type="button" onClick=${() => rollMonsters().catch(setError)}>
        Roll initiative for the monsters (${unrolled.length})</button>` : null}
      ${turns && allowed.has("end_turn") && current ? html`<button type="button" class="next-turn" aria-keyshortcuts="n" onClick=${nextTurn}>
        Next turn <small>${current.name} ends${after && after.id !== current.id ? `, then ${after.name}` : ""} (n)</small></button>` : null}
      <button type="button" class="small" aria-expanded=${help} aria-keyshortcuts="?" onClick=${() => setHelp(!help)}>Shortcuts (?)</button>
    </div>
    ${help ? html`<${HotkeyHelp} onClose=${() => setHelp(false)} />` : null}
    <${ReactionWindow} state=${state} send=${send} />
    <p class="outcome" role="status" aria-live="polite">${outcome ? html`<strong>Last:</strong> ${outcome}` : null}</p>`
    : playing ? html`${offeredTo(state, view.combatants).length ? html`<${ReactionWindow} state=${state} mine=${view.combatants} send=${send} />`
        : view.combatants.includes(state.turn) && allowed.has("end_turn") ? html`<button type="button" class="next-turn"
        onClick=${() => send({ type: "end_turn", combatant: state.turn }).catch(setError)}>End my turn <small>(${current?.name})</small></button>`
        : html`<p class="hint">Not your turn: ${current?.name || "nobody"} acts now. When a hit, a spell or damage gives you a reaction, it is offered here.</p>`}
      <p class="outcome" role="status" aria-live="polite">${outcome ? html`<strong>Last:</strong> ${outcome}` : null}</p>` : null;
  // A tie's new order (dragged on the board, or moved earlier or later): order_tie.
  const orderTie = gm && !past && allowed.has("order_tie") ? (order) => send({ type: "order_tie", order }).catch(setError) : null;
  // Show players and viewers a combatant's numbers, or a whole side's.
  const reveal = (what) => scoped.post("/commands", { command: { type: "reveal", ...what } }).catch(setError);
  return html`<main id="main" class=${`role-${entry.role}`}>
    <header class="top">
      <a href="#">All encounters</a>
      <h1>${state.name} <small>${state.ruleset} · ${gm ? "GM" : `${entry.role}${entry.name ? `: ${entry.name}` : ""}`}${entry.practice ? " · practice fight (the party is not changed)" : ""}</small></h1>
      <span class="live ${status === "live" ? "on" : ""}" role="status">${status} · seq ${state.version}</span>
    </header>
    <datalist id="damage-types">${DAMAGE_TYPES.map((t) => html`<option value=${t} />`)}</datalist>
    <datalist id="combatant-ids">${ids.map((id) => html`<option value=${id}>${state.combatants[id].name}</option>`)}</datalist>
    <datalist id="condition-names">${CONDITIONS.map((t) => html`<option value=${t} />`)}</datalist>
    ${Object.entries(suggest).map(([field, names]) => html`<datalist id=${`combatant-ids-${field}`}>${names.map((n) => html`<option value=${n} />`)}</datalist>`)}
    ${error ? html`<${ErrorNote} error=${error} />` : null}
    <div class="layout">
      <div class="col">
        <${Board} state=${shown} view=${view} onReveal=${gm && !past && schemas?.tags.reveal ? reveal : null}
          quick=${rowQuick} top=${top} flash=${past ? null : flash} onOrderTie=${orderTie} />
        ${gm && !past && entry.campaign && campaigns()[entry.campaign] && allowed.has("add_character") && state.phase !== "ended"
          ? html`<${PartyPicker} state=${state} campaign=${campaigns()[entry.campaign]} send=${send} />` : null}
        ${past ? null : schemas ? html`<${Actions} state=${state} schemas=${schemas} view=${view} ctx=${ctx} api=${scoped} onReply=${announce} />` : null}
        ${gm && !past ? html`<${Tokens} state=${state} api=${scoped} entry=${entry} />` : null}
        <${KeepAccess} entry=${entry} />
      </div>
      <div class="col">
        <${Scrubber} version=${state.version} at=${at} onScrub=${setAt} onFork=${() => fork().catch(setError)} gm=${gm} />
        <${History} log=${log} audit=${audit} events=${events} state=${state} schemas=${schemas} gm=${gm && !past}
          ctx=${ctx} api=${scoped} atSeq=${at} />
        <${DiceAudit} audit=${audit} />
        <${StatsView} api=${api} encounterId=${entry.id} version=${state.version} />
      </div>
    </div>
  </main>`;
}

function Missing({ id, onOpen }) {
  return html`<main id="main"><a href="#">All encounters</a>
    <h1>No token for this encounter</h1>
    <p role="status">This browser holds no token for it: it was opened in another tab, or not remembered on this device.</p>
    <${TokenPaste} id=${id} onOpen=${onOpen} />
  </main>`;
}

function App() {
  const [entry, setEntry] = useState(() => fromFragment());
  // A pasted link may be for this encounter (the address stays as it is) or another one.
  const onOpen = (id) => {
    if (new URLSearchParams(location.hash.slice(1)).get("e") === id) setEntry(fromFragment());
    else location.hash = `e=${id}`;
  };
  useEffect(() => {
    const onHash = () => setEntry(fromFragment());
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);
  if (!entry) return html`<${Home} />`;
  if (entry.missing) return html`<${Missing} id=${entry.id} onOpen=${onOpen} />`;
  return html`<${Encounter} key=${`${entry.id} ${entry.token}`} entry=${entry} onOpen=${onOpen} />`;
}

render(html`<${App} />`, document.getElementById("app"));
