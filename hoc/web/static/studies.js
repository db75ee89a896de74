"use strict";
// Start a study (POST /api/studies: 202 with its id) and follow it (GET /api/studies/{id}) to its report.
const st = {options: null};
const WORDS = {simulate: "Games", tournament: "Games per pairing", princesses: "Games (princesses drawn)"};

function fillGame() {
  const f = document.getElementById("new");
  const g = st.options.games[f.game.value];
  const kind = document.getElementById("kind");
  const was = kind.value;
  kind.textContent = "";
  g.kinds.forEach(k => kind.append(el("option", {value: k, selected: k === was}, k)));
  document.getElementById("market-word").textContent = g.market_word[0].toUpperCase() + g.market_word.slice(1);
  const box = document.getElementById("agents");
  box.textContent = "";
  g.agents.forEach(a => box.append(el("label", {class: "agent"}, el("input", {type: "checkbox", name: "agent", value: a}), a)));
  fillKind();
}

function fillKind() {
  const f = document.getElementById("new");
  const kind = f.kind.value;
  document.getElementById("games-word").textContent = WORDS[kind];
  document.getElementById("pairs").hidden = kind !== "princesses";
  document.getElementById("agents-box").hidden = kind === "princesses";
  const g = st.options.games[f.game.value];
  document.getElementById("agents-help").textContent = kind === "simulate"
    ? `Agents: one for every seat, or one per seat, seat 0 first in the order listed (none: ${g.default_agent})`
    : `Agents: at least as many as the players, at most ${st.options.limits.max_agents}`;
}

async function follow(id) {
  history.replaceState(null, "", `/studies?job=${encodeURIComponent(id)}`);
  const box = document.getElementById("job");
  box.hidden = false;
  for (;;) {
    const j = await api("GET", `/api/studies/${encodeURIComponent(id)}`);
    document.getElementById("job-title").textContent = `${j.kind}: ${j.label}`;
    document.getElementById("bar").max = j.total;
    document.getElementById("bar").value = j.done;
    document.getElementById("job-state").textContent = `${j.state}, ${j.done.toLocaleString()} of ${j.total.toLocaleString()} games`;
    document.getElementById("job-progress").textContent = j.progress.slice(-3).join("\n");
    document.getElementById("job-command").textContent = `The command that reproduces it: ${j.command}`;
    document.body.dataset.job = j.state;
    if (j.state === "done") {
      document.getElementById("report").textContent = j.report;
      return;
    }
    if (j.state === "failed") throw new Error(j.error);
    await new Promise(r => setTimeout(r, 1000));
  }
}

async function setup() {
  st.options = await api("GET", "/api/studies/options");
  const f = document.getElementById("new");
  Object.keys(st.options.games).forEach(n => f.game.append(el("option", {value: n, selected: n === st.options.default},
                                                               st.options.games[n].title)));
  f.games.max = st.options.limits.max_games;
  f.games_per_pair.max = st.options.limits.max_games;
  f.game.addEventListener("change", fillGame);
  f.kind.addEventListener("change", fillKind);
  fillGame();
  f.addEventListener("submit", async ev => {
    ev.preventDefault();
    showError(null);
    const body = {kind: f.kind.value, game: f.game.value, players: +f.players.value, market: f.market.value.trim() || "random",
                  seed: +f.seed.value, games: +f.games.value,
                  agents: [...f.querySelectorAll("input[name=agent]:checked")].map(c => c.value)};
    if (body.kind === "princesses") { body.games_per_pair = +f.games_per_pair.value; body.agents = []; }
    document.getElementById("report").textContent = "";
    document.getElementById("start").disabled = true;
    try {
      const j = await api("POST", "/api/studies", body);
      await follow(j.id);
    } catch (e) { showError(e); document.body.dataset.job = "failed"; }
    finally { document.getElementById("start").disabled = false; }
  });
  const job = param("job");
  if (job) follow(job).catch(showError);
}
document.addEventListener("DOMContentLoaded", () => setup().catch(showError));
