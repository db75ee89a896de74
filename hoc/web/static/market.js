"use strict";
// A supply's report: start one (POST /api/markets) and follow it, or open one saved by `hoc market --out DIR`.
const box = () => document.getElementById("report");

function showReport(title, text, folder) {
  box().textContent = "";
  box().append(el("h2", {}, title), markdown(text, folder));
}

async function follow(id) {
  history.replaceState(null, "", `/market?job=${encodeURIComponent(id)}`);
  for (;;) {
    const j = await api("GET", `/api/markets/${encodeURIComponent(id)}`);
    if (j.state === "done") return showReport(`Report: ${j.label}`, j.markdown, "");
    box().textContent = "";
    box().append(el("h2", {}, `Measuring ${j.label}`), el("p", {class: "status"}, j.state),
                 el("pre", {}, j.progress.slice(-8).join("\n")));
    if (j.state === "failed") throw new Error(j.error);
    await new Promise(r => setTimeout(r, 3000));
  }
}

async function openSaved(path) {
  const r = await api("GET", `/api/market?path=${encodeURIComponent(path)}`);
  history.replaceState(null, "", `/market?path=${encodeURIComponent(path)}`);
  showReport(`Report ${path}`, r.markdown, path);
  if (r.png) box().append(el("img", {class: "chart", alt: "the report's figure", src: `/api/file?path=${encodeURIComponent(r.png)}`}));
}

document.getElementById("new").addEventListener("submit", async ev => {
  ev.preventDefault();
  const f = ev.target;
  try {
    const j = await api("POST", "/api/markets", {game: f.game.value, supply: f.supply.value.trim(), seed: +f.seed.value,
                                                 players: +f.players.value, iterations: +f.iterations.value});
    await follow(j.id);
  } catch (e) { showError(e); }
});
document.getElementById("saved").addEventListener("submit", ev => {
  ev.preventDefault();
  openSaved(ev.target.path.value.trim()).catch(showError);
});
const params = new URLSearchParams(location.search);
if (params.get("job")) follow(params.get("job")).catch(showError);
else if (params.get("path")) openSaved(params.get("path")).catch(showError);
