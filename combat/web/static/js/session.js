// Who this browser is at which table: encounter ids with their tokens, kept in sessionStorage
// (gone when the tab closes). A link hands a token over in the URL fragment, which browsers
// never send to a server; it is read once here and then removed from the address bar.

const KEY = "combat-log.encounters";

export function remembered() {
  try { return JSON.parse(sessionStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

export function remember(entry) {
  const all = remembered();
  all[entry.id] = { ...(all[entry.id] || {}), ...entry };
  sessionStorage.setItem(KEY, JSON.stringify(all));
  return all[entry.id];
}

export function forget(id) {
  const all = remembered();
  delete all[id];
  sessionStorage.setItem(KEY, JSON.stringify(all));
}

// `#e=ID&t=TOKEN&role=player&c=aria,brom&name=Sam&api=https://...`: the token part is kept
// and scrubbed from the URL; what stays is `#e=ID` (and `api=`), safe to bookmark or share.
export function fromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const id = params.get("e");
  if (!id) return null;
  const token = params.get("t");
  if (token) {
    remember({
      id, token,
      role: params.get("role") || "gm",
      name: params.get("name") || "",
      combatants: (params.get("c") || "").split(",").filter(Boolean),
      api: params.get("api") || "",
    });
    const keep = new URLSearchParams({ e: id });
    if (params.get("api")) keep.set("api", params.get("api"));
    history.replaceState(null, "", `${location.pathname}${location.search}#${keep}`);
  }
  return remembered()[id] || null;
}

export function shareLink(page, entry, base = location.origin) {
  const params = new URLSearchParams({ e: entry.id, t: entry.token, role: entry.role });
  if (entry.name) params.set("name", entry.name);
  if (entry.combatants?.length) params.set("c", entry.combatants.join(","));
  return `${base}/app/${page}#${params}`;
}
