// Who this browser is at which table: encounter ids with their tokens. Kept in sessionStorage
// (gone when the tab closes) and, for the encounters someone chose to remember on this device,
// in localStorage as well (until they forget them), so a closed tab does not lock the GM out.
// A link hands a token over in the URL fragment, which browsers never send to a server; it is
// read once here and then removed from the address bar.

const KEY = "combat-log.encounters";

function read(storage, key = KEY) {
  try { return JSON.parse(storage.getItem(key) || "{}"); } catch { return {}; }
}

function write(storage, all, key = KEY) {
  try { storage.setItem(key, JSON.stringify(all)); } catch { /* storage full or refused: the tab still works */ }
}

// This tab's encounters over those remembered on this device.
export function remembered() {
  return { ...read(localStorage), ...read(sessionStorage) };
}

export function keptOnDevice(id) {
  return id in read(localStorage);
}

export function remember(entry) {
  const all = read(sessionStorage);
  all[entry.id] = { ...(remembered()[entry.id] || {}), ...entry };
  write(sessionStorage, all);
  if (keptOnDevice(entry.id)) keepOnDevice(entry.id, true);  // the title, a new token: kept up to date
  return all[entry.id];
}

// Remember this encounter's token on this device (localStorage), or stop remembering it.
export function keepOnDevice(id, keep) {
  const kept = read(localStorage);
  if (keep) kept[id] = { ...(kept[id] || {}), ...(remembered()[id] || {}) };
  else delete kept[id];
  write(localStorage, kept);
}

export function forget(id) {
  for (const storage of [sessionStorage, localStorage]) {
    const all = read(storage);
    delete all[id];
    write(storage, all);
  }
}

// `#e=ID&t=TOKEN&role=player&c=aria,brom&name=Sam&api=https://...`: the token part is kept
// and scrubbed from the URL; what stays is `#e=ID` (and `api=`), safe to bookmark or share.
// An id this browser holds no token for comes back as `{id, missing: true}`.
export function fromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const id = params.get("e");
  if (!id) return null;
  if (params.get("t")) {
    const entry = remember(entryOf(params, id));
    // A GM's link opened here: this browser keeps the GM's access (until "Forget on this device").
    if (entry.role === "gm" && !(id in read(localStorage))) keepOnDevice(id, true);
    const keep = new URLSearchParams({ e: id });
    if (params.get("api")) keep.set("api", params.get("api"));
    history.replaceState(null, "", `${location.pathname}${location.search}#${keep}`);
  }
  return remembered()[id] || { id, missing: true };
}

function entryOf(params, id) {
  return {
    id, token: params.get("t"),
    role: params.get("role") || "gm",
    name: params.get("name") || "",
    combatants: (params.get("c") || "").split(",").filter(Boolean),
    api: params.get("api") || "",
  };
}

// What someone pasted: a link (the GM's, a player's) or a bare token, taken as the GM's for
// encounter `id`. The entry to remember, or null when there is nothing in it.
export function fromPasted(text, id) {
  const pasted = text.trim();
  if (!pasted) return null;
  const hash = pasted.indexOf("#");
  if (hash >= 0) {
    const params = new URLSearchParams(pasted.slice(hash + 1));
    if (!params.get("t")) return null;
    return entryOf(params, params.get("e") || id);
  }
  return id ? { id, token: pasted, role: "gm", name: "", combatants: [], api: "" } : null;
}

export function shareLink(page, entry, base = location.origin) {
  const params = new URLSearchParams({ e: entry.id, t: entry.token, role: entry.role });
  if (entry.name) params.set("name", entry.name);
  if (entry.combatants?.length) params.set("c", entry.combatants.join(","));
  if (entry.api) params.set("api", entry.api);
  return `${base}/app/${page}#${params}`;
}

// The campaigns whose GM token this device keeps (the party on the screen): {id: {id, name, token}}.
const CAMPAIGNS = "combat-log.campaigns";

export function campaigns() {
  return read(localStorage, CAMPAIGNS);
}

export function keepCampaign(campaign) {
  write(localStorage, { ...campaigns(), [campaign.id]: campaign }, CAMPAIGNS);
}

export function forgetCampaign(id) {
  const all = campaigns();
  delete all[id];
  write(localStorage, all, CAMPAIGNS);
}
