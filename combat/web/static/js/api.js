// The HTTP API as the pages use it: the token goes in the Authorization header, every error
// comes back as the service's {error, detail, allowed}, and the live stream is read with
// fetch so that its token is a header too (resuming with Last-Event-ID after a drop).

import { fetchEventSource } from "../vendor/fetch-event-source/index.js";

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.detail || `HTTP ${status}`);
    this.status = status;
    this.code = body?.error || `http/${status}`;
    this.allowed = body?.allowed || null;
  }
}

export function client(base, token) {
  async function call(method, path, body) {
    const headers = { Accept: "application/json" };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let reply;
    try {
      reply = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (err) {
      throw new ApiError(0, { error: "network", detail: `the service did not answer (${err.message})`,
                              allowed: "check that `combat serve` is running and reachable" });
    }
    const text = await reply.text();
    const data = text ? JSON.parse(text) : null;
    if (!reply.ok) throw new ApiError(reply.status, data);
    return data;
  }
  return {
    get: (path) => call("GET", path),
    post: (path, body) => call("POST", path, body ?? {}),
    // Calls onMessage({seq, event, state}) for every event after `after`, live; returns a stop function.
    follow(encounterId, after, onMessage, onStatus) {
      const stop = new AbortController();
      fetchEventSource(`${base}/encounters/${encounterId}/stream?after=${after}`, {
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        signal: stop.signal,
        openWhenHidden: true,
        async onopen(response) {
          if (!response.ok) {
            const body = await response.json().catch(() => null);
            throw Object.assign(new ApiError(response.status, body), { fatal: response.status < 500 });
          }
          onStatus?.("live");
        },
        onmessage(msg) {
          if (!msg.data) return;
          const data = JSON.parse(msg.data);
          onMessage({ seq: Number(msg.id), event: data.event, state: data.state });
        },
        onclose() { onStatus?.("reconnecting"); throw new Error("stream closed"); },  // retry, resuming
        onerror(err) {
          if (err.fatal) { onStatus?.(`stopped: ${err.message}`); throw err; }
          onStatus?.("reconnecting");
          return 1000;
        },
      }).catch(() => {});
      return () => stop.abort();
    },
  };
}
