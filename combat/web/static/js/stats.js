// The Stats view (docs/stats.md): this encounter's numbers from GET /encounters/{id}/stats, as
// the token may see them (a player's or viewer's without a hidden creature's numbers): damage
// per round per side, each roller's d20 faces against the fair line, damage by character, and
// a table of every number. Charts are Chart.js (vendor/chart.umd.js, served by the service: no
// network needed), loaded as a classic script the first time the view opens.

import { html, useEffect, useRef, useState } from "../vendor/htm-preact-standalone.js";

let loading = null;
function chartLibrary() {
  if (window.Chart) return Promise.resolve(window.Chart);
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = new URL("../vendor/chart.umd.js", import.meta.url).href;
    script.onload = () => resolve(window.Chart);
    script.onerror = () => reject(new Error("the chart library did not load"));
    document.head.append(script);
  });
  return loading;
}

const SIDE_COLOURS = ["#8b1e1e", "#1e4f8b", "#3b7a2a", "#8b6a1e", "#5a2a7a"];

function Chart({ label, config }) {
  const canvas = useRef(null);
  useEffect(() => {
    let chart = null;
    let gone = false;
    chartLibrary().then((Chart) => {
      if (!gone && canvas.current) chart = new Chart(canvas.current, { ...config, options: { animation: false, responsive: true, ...config.options } });
    });
    return () => { gone = true; chart?.destroy(); };
  }, [JSON.stringify(config)]);
  return html`<figure class="stats-chart"><canvas ref=${canvas} role="img" aria-label=${label}></canvas><figcaption>${label}</figcaption></figure>`;
}

export function damagePerRound(stats) {
  const rounds = [...new Set(stats.rounds.map((r) => r.round))].sort((a, b) => a - b);
  const sides = [...new Set(stats.rounds.map((r) => r.side))];
  return {
    type: "bar",
    data: {
      labels: rounds.map((r) => `Round ${r}`),
      datasets: sides.map((side, i) => ({
        label: side,
        backgroundColor: SIDE_COLOURS[i % SIDE_COLOURS.length],
        data: rounds.map((r) => stats.rounds.filter((x) => x.round === r && x.side === side).reduce((s, x) => s + x.damage, 0)),
      })),
    },
  };
}

export function d20Histogram(c) {
  const fair = c.d20.rolls / 20;
  return {
    type: "bar",
    data: {
      labels: Array.from({ length: 20 }, (_, i) => String(i + 1)),
      datasets: [
        { type: "bar", label: `${c.name}'s d20`, data: c.d20.faces, backgroundColor: "#1e4f8b" },
        { type: "line", label: "a fair die", data: Array(20).fill(fair), borderColor: "#8b1e1e", pointRadius: 0 },
      ],
    },
    options: { scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
  };
}

export function damageByCharacter(stats) {
  const dealing = stats.characters.filter((c) => c.damage_dealt > 0);
  return {
    type: "bar",
    data: { labels: dealing.map((c) => c.name), datasets: [{ label: "damage dealt", data: dealing.map((c) => c.damage_dealt), backgroundColor: "#8b1e1e" }] },
    options: { indexAxis: "y" },
  };
}

export function StatsView({ api, encounterId, version }) {
  const [open, setOpen] = useState(false);
  const [stats, setStats] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    if (!open) return;
    api.get(`/encounters/${encounterId}/stats`).then(setStats, setError);
  }, [open, encounterId, version]);
  return html`<section class="stats" aria-labelledby="stats-title">
    <h2 id="stats-title">Stats</h2>
    <button type="button" aria-expanded=${open} onClick=${() => setOpen(!open)}>${open ? "Hide stats" : "Show stats"}</button>
    ${error ? html`<p role="alert">${error.message}</p>` : null}
    ${open && stats ? html`
      ${stats.viewer !== "gm" ? html`<p class="note">Hidden creatures' numbers are left out.</p>` : null}
      <${Chart} label="Damage per round, by side" config=${damagePerRound(stats)} />
      <${Chart} label="Damage by character" config=${damageByCharacter(stats)} />
      ${stats.characters.filter((c) => c.d20.rolls > 0).map((c) => html`<${Chart}
        label=${`${c.name}: ${c.d20.rolls} d20s, ${c.d20.ones} ones, ${c.d20.twenties} twenties; chi-square ${c.d20.chi_square}, p ${c.d20.p_value}`}
        config=${d20Histogram(c)} />`)}
      <table class="stats-table"><caption>Every number</caption>
        <thead><tr><th scope="col">Who</th><th scope="col">Dealt</th><th scope="col">Taken</th><th scope="col">Hits</th>
          <th scope="col">Misses</th><th scope="col">Criticals</th><th scope="col">Slots</th><th scope="col">Turns</th></tr></thead>
        <tbody>${stats.characters.map((c) => html`<tr data-stats=${c.name}><th scope="row">${c.name}</th>
          <td>${c.damage_dealt}${c.damage_dealt_withheld ? ` (+${c.damage_dealt_withheld} not shown)` : ""}</td>
          <td>${c.damage_taken}${c.damage_taken_withheld ? ` (+${c.damage_taken_withheld} not shown)` : ""}</td>
          <td>${c.hits}</td><td>${c.misses}</td><td>${c.criticals}</td>
          <td>${Object.entries(c.slots).map(([l, n]) => `${n} x level ${l}`).join(", ") || "none"}</td>
          <td>${c.turns}</td></tr>`)}</tbody>
      </table>` : null}
  </section>`;
}
