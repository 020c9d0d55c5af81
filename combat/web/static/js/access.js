// Never locked out of a fight: the GM link shown (as the secret it is) and copyable, the
// token remembered on this device when asked, a page that says so when a token is missing and
// takes a pasted link or token, and QR codes of the players' links for the phones at the table.

import { html, useState } from "../vendor/htm-preact-standalone.js";
import qrcode from "../vendor/qrcode-generator.js";
import { fromPasted, keepOnDevice, keptOnDevice, remember, shareLink } from "./session.js";

// The QR code of `text` as an SVG drawn from the library's modules (4 modules of quiet zone).
export function QrCode({ text, label }) {
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  let d = "";
  for (let r = 0; r < n; r += 1) for (let c = 0; c < n; c += 1) if (qr.isDark(r, c)) d += `M${c + 4} ${r + 4}h1v1h-1z`;
  return html`<svg class="qr" viewBox=${`0 0 ${n + 8} ${n + 8}`} role="img" aria-label=${label} shape-rendering="crispEdges">
    <rect width="100%" height="100%" fill="#fff" /><path d=${d} fill="#000" /></svg>`;
}

async function copy(text, input) {
  try { await navigator.clipboard.writeText(text); return true; } catch {
    // Not a secure context (a LAN address over http): select it for the keyboard's copy.
    input?.focus(); input?.select();
    try { return document.execCommand("copy"); } catch { return false; }
  }
}

// The GM's browser keeps the GM's access by default (a GM link opened, an encounter created
// here); "Forget on this device" is always in sight while it does.
export function RememberToggle({ entry }) {
  const [kept, setKept] = useState(() => keptOnDevice(entry.id));
  return html`<div class="remember">
    <label class="check"><input type="checkbox" checked=${kept}
      onChange=${(e) => { keepOnDevice(entry.id, e.target.checked); setKept(e.target.checked); }} />
      Remember on this device (this browser keeps the token after the tab closes)</label>
    ${kept ? html`<button type="button" onClick=${() => { keepOnDevice(entry.id, false); setKept(false); }}>Forget on this device</button>
      <small class="hint">on a shared computer, forget it when the session ends: anyone using this browser can open the fight</small>` : null}
  </div>`;
}

// The GM's own link, folded away (the table may see this screen) and marked as the secret it is.
export function KeepAccess({ entry }) {
  const link = shareLink("", { id: entry.id, token: entry.token, role: entry.role, api: entry.api });
  const [copied, setCopied] = useState(null);
  // Just created: the GM link is shown this once, unfolded (after that, folded away).
  const [fresh] = useState(() => { const was = !!entry.fresh; if (was) remember({ id: entry.id, fresh: false }); return was; });
  let input = null;
  return html`<section class="keep" aria-labelledby="keep-title">
    <h2 id="keep-title">Keep this fight</h2>
    ${entry.role === "gm" ? html`<details class="gm-link" open=${fresh || undefined}>
      <summary>GM link: anyone with it runs this fight (a secret: keep it off the table's screen)</summary>
      ${fresh ? html`<p class="notice" role="status">Your new fight's GM link, shown this once: this browser keeps it, and
        with the link you run the fight from another device. Copy it somewhere safe, then fold this away.</p>` : null}
      <label for="gm-link">GM link (the token is in the part after #, which is never sent to a server)</label>
      <div class="copy-row">
        <input id="gm-link" readonly value=${link} class="share-link" data-role="gm-own" ref=${(el) => { input = el; }}
          onFocus=${(e) => e.target.select()} />
        <button type="button" onClick=${async () => setCopied(await copy(link, input))}>Copy GM link</button>
      </div>
      ${copied === null ? null : html`<p role="status" class="hint">${copied ? "Copied." : "Selected: press Ctrl+C (⌘C) to copy."}</p>`}
    </details>` : null}
    <${RememberToggle} entry=${entry} />
  </section>`;
}

// An encounter this browser has no token for: say so, and take a pasted link or token.
export function TokenPaste({ id, onOpen, problem }) {
  const [text, setText] = useState("");
  const [keep, setKeep] = useState(true);
  const [error, setError] = useState(null);
  function open(e) {
    e.preventDefault();
    const entry = fromPasted(text, id);
    if (!entry) { setError("That is neither a link with a token (…#e=…&t=…) nor a token."); return; }
    remember(entry);
    if (keep) keepOnDevice(entry.id, true);
    onOpen(entry.id);
  }
  return html`<section class="paste" aria-labelledby="paste-title">
    <h2 id="paste-title">${problem || "Paste a link or a token"}</h2>
    <p>Paste the GM link (or the link the GM gave you, or a token) to open encounter <code>${id}</code>.</p>
    <p class="hint">The GM without the link: on the machine that runs the server, <code>combat token ${id} --role gm</code>
      (with the server's <code>--db</code>) prints a new GM token to paste here; or open the fight in the browser that
      created it, which keeps it until told to forget.</p>
    <form onSubmit=${open} aria-label="paste a token">
      <div class="field"><label for="paste-token">link or token</label>
        <input id="paste-token" type="password" autocomplete="off" value=${text} onInput=${(e) => setText(e.target.value)} required /></div>
      <label class="check"><input type="checkbox" checked=${keep} onChange=${(e) => setKeep(e.target.checked)} /> Remember on this device</label>
      <button type="submit">Open</button>
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    </form>
  </section>`;
}
