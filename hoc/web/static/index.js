"use strict";
const DEFAULT_SEATS = ["human", "basic_rush", "", ""];

async function setupPage() {
  const o = await api("GET", "/api/options");
  const agents = document.getElementById("agents");
  o.agents.concat([o.search_agent]).forEach(a => agents.append(el("option", {value: a})));
  const list = document.getElementById("agent-list");
  for (const [name, text] of Object.entries(o.descriptions)) list.append(el("tr", {}, el("td", {}, el("code", {}, name)), el("td", {}, text)));
  const markets = document.getElementById("markets");
  o.markets.forEach(m => markets.append(el("option", {value: m})));
  const seats = document.getElementById("seats");
  for (let i = 0; i < o.max_seats; i++) {
    seats.append(el("label", {}, `Seat ${i} `, el("input", {type: "text", name: `seat${i}`, list: "agents",
      value: DEFAULT_SEATS[i], placeholder: i < 2 ? "agent or human" : "(empty: no seat)", size: "22"})));
  }
  document.getElementById("setup").addEventListener("submit", async ev => {
    ev.preventDefault();
    showError(null);
    const f = new FormData(ev.target);
    const body = {agents: [], edition: f.get("edition"), market: f.get("market") || "random",
                  seed: Number(f.get("seed") || 0), game: Number(f.get("game") || 0),
                  turn_cap: Number(f.get("turn_cap") || 100)};
    for (let i = 0; i < o.max_seats; i++) { const a = (f.get(`seat${i}`) || "").trim(); if (a) body.agents.push(a); }
    if (f.get("princesses")) body.princesses = f.get("princesses");
    const button = document.getElementById("start");
    button.disabled = true;
    try {
      const g = await api("POST", "/api/games", body);
      location.href = `/play?id=${g.id}`;
    } catch (e) { showError(e); button.disabled = false; }
  });
}
document.addEventListener("DOMContentLoaded", () => setupPage().catch(showError));
