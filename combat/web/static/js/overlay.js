// The stream overlay: a compact initiative and HP strip on a transparent background, for
// streaming software. It follows the live stream with a viewer token from the URL fragment;
// `api=` in the fragment points it at the service when the page is served from elsewhere.

import { html, render, useEffect, useState } from "../vendor/htm-preact-standalone.js";
import { client } from "./api.js";
import { HpBar, ordered } from "./board.js";
import { fromFragment } from "./session.js";

function Overlay({ entry }) {
  const [state, setState] = useState(null);
  const [status, setStatus] = useState("connecting");
  useEffect(() => {
    const api = client(entry.api || "", entry.token);
    let stop = () => {};
    api.get(`/encounters/${entry.id}`).then((s) => {
      setState(s);
      stop = api.follow(entry.id, s.version, (msg) => msg.state && setState(msg.state), setStatus);
    }, (err) => setStatus(`error: ${err.message}`));
    return () => stop();
  }, [entry.id]);
  if (!state) return html`<p class="status">${status}</p>`;
  const view = { role: entry.role, combatants: entry.combatants || [] };
  return html`<ol class="strip" aria-label=${`${state.name}: round ${state.round}`} data-version=${state.version}>
    <li class="round">R${state.round || 0}</li>
    ${ordered(state).map((c) => html`<li key=${c.id} class="${c.id === state.turn ? "current" : ""} ${c.status}" data-combatant=${c.id}>
      <span class="name">${c.name}</span><${HpBar} c=${c} view=${view} />
    </li>`)}
  </ol>`;
}

const entry = fromFragment();
render(entry ? html`<${Overlay} entry=${entry} />` : html`<p class="status">Open this page with the overlay link the GM issued (it carries a viewer token after #).</p>`,
       document.getElementById("overlay"));
