"use strict";
// The replay page: a game's frames stepped forward and back, every seat's hand shown, SP per turn charted.
const rp = {id: null, summary: null, k: 0, frame: null, loading: null};

async function open(summary) {
  rp.id = summary.id; rp.summary = summary;
  history.replaceState(null, "", `/replay?id=${summary.id}`);
  await loadCards(`/api/replays/${summary.id}/cards`);
  document.getElementById("shown").hidden = false;
  document.getElementById("source").textContent = `Replay of ${summary.source}: ${summary.seats.map((s, q) => `seat ${q} ${s}`).join(", ")}`;
  const slider = document.getElementById("slider");
  slider.max = summary.frames - 1;
  const r = summary.result;
  document.getElementById("result").textContent = r.over ? `Ends after ${r.turns} turns by ${r.end_reason}: ` +
    (r.winners.length ? `seat${r.winners.length > 1 ? "s" : ""} ${r.winners.join(" and ")} win${r.winners.length > 1 ? "" : "s"}` : "no winner") +
    `; final SP ${r.sp.join(", ")}` : "saved before its end";
  await go(0);
}

async function go(k) {
  k = Math.max(0, Math.min(rp.summary.frames - 1, k));
  const f = await api("GET", `/api/replays/${rp.id}/frames/${k}`);
  rp.k = k; rp.frame = f;
  const v = f.view, s = rp.summary;
  document.getElementById("slider").value = k;
  document.getElementById("where").textContent = `decision ${k} of ${s.frames - 1}, turn ${v.turn}`;
  document.body.dataset.frame = k;
  document.getElementById("first").disabled = document.getElementById("prev").disabled = k === 0;
  document.getElementById("next").disabled = document.getElementById("last").disabled = k === s.frames - 1;
  document.getElementById("question").textContent = v.over ? "The game is over." : `Seat ${v.decider} decides: ${v.question}`;
  const acts = document.getElementById("actions");
  acts.textContent = "";
  for (const a of v.actions) {
    const taken = f.taken && f.taken.action === a.action;
    acts.append(el("button", {disabled: true, class: [taken ? "taken" : "", a.card ? typeClass(a.card) : ""].join(" ").trim() || null,
                              "data-card": a.card || null}, a.text));
  }
  const turn = document.getElementById("turn");
  turn.textContent = ""; turn.append(el("h2", {}, `Turn ${v.turn}: seat ${v.turn_player} (${v.seats[v.turn_player].agent}) plays`), renderTurn(v));
  const seats = document.getElementById("seats");
  seats.textContent = ""; seats.append(renderSeats(v));
  const market = document.getElementById("market");
  market.textContent = ""; market.append(renderMarket(v));
  fitNames();
  const prev = rp.lastLines || 0;
  renderFeed(document.getElementById("feed"), s.log.slice(0, f.lines), Math.max(0, f.lines - prev));
  rp.lastLines = f.lines;
  const chart = document.getElementById("chart");
  chart.textContent = ""; chart.append(spChart(s.sp_by_turn, s.seats, v.turn));
}

function step(to) {
  if (!rp.summary) return;
  rp.loading = (rp.loading || Promise.resolve()).then(() => go(to(rp.k))).catch(showError);
}

async function startReplay(body) {
  showError(null);
  try { await open(await api("POST", "/api/replays", body)); } catch (e) { showError(e); }
}

document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("first").onclick = () => step(() => 0);
  document.getElementById("prev").onclick = () => step(k => k - 1);
  document.getElementById("next").onclick = () => step(k => k + 1);
  document.getElementById("last").onclick = () => step(() => rp.summary.frames - 1);
  document.getElementById("slider").oninput = ev => step(() => Number(ev.target.value));
  document.addEventListener("keydown", ev => {
    if (ev.target.tagName === "INPUT") return;
    if (ev.key === "ArrowRight") step(k => k + 1);
    if (ev.key === "ArrowLeft") step(k => k - 1);
  });
  document.getElementById("from-file").onsubmit = async ev => {
    ev.preventDefault();
    const file = ev.target.file.files[0];
    if (!file) { showError(new Error("choose a saved game file")); return; }
    let saved;
    try { saved = JSON.parse(await file.text()); } catch (e) { showError(new Error(`${file.name} is not JSON: ${e.message}`)); return; }
    await startReplay({saved});
  };
  document.getElementById("from-run").onsubmit = ev => {
    ev.preventDefault();
    startReplay({run: ev.target.run.value, game: Number(ev.target.game.value || 0)});
  };
  document.getElementById("from-seed").onsubmit = ev => {
    ev.preventDefault();
    const f = ev.target;
    startReplay({agents: f.agents.value, seed: Number(f.seed.value || 0),
                 game: Number(f.game.value || 0), market: f.market.value || "random", edition: f.edition.value});
  };
  const id = param("id"), run = param("run");
  if (id) api("GET", `/api/replays/${id}`).then(open).catch(showError);
  else if (run) startReplay({run, game: Number(param("game") || 0)});
});
