"use strict";
// The play page: the view of the human seat to decide, its legal actions as buttons, the feed.
const game = {id: param("id"), seen: {}, state: null, busy: false, shownTo: null, poll: null};

function render(s) {
  game.state = s;
  // hot seat: the next person confirms before their hand shows
  const cover = document.getElementById("handover");
  if (s.humans.length > 1 && !s.over && game.shownTo !== null && game.shownTo !== s.viewer) {
    cover.hidden = false;
    document.getElementById("handover-text").textContent = `Pass the screen to seat ${s.viewer}`;
    document.getElementById("handover-go").onclick = () => { cover.hidden = true; game.shownTo = s.viewer; };
  } else if (game.shownTo === null || s.over) {
    game.shownTo = s.viewer;
  }
  const v = s.view;
  const feedBox = document.getElementById("feed");
  const seen = game.seen[s.viewer] || 0;
  renderFeed(feedBox, s.feed, s.feed_length - seen);
  game.seen[s.viewer] = s.feed_length;
  document.getElementById("title").textContent = v.title || (s.over ? `Game over after ${v.turn} turns` : `Turn ${v.turn}`);
  const res = document.getElementById("result");
  res.textContent = "";
  if (s.over) {
    const w = s.result.winners;
    res.textContent = (w.length === 1 ? `Seat ${w[0]} (${s.seats[w[0]].agent}) wins` : w.length ? `Seats ${w.join(" and ")} share the win` : "No winner")
      + ` by ${s.result.end_reason}; SP ${s.result.sp.join(", ")}`;
  }
  document.getElementById("question").textContent = v.question || "";
  const acts = document.getElementById("actions");
  acts.textContent = "";
  if (s.play_all) acts.append(el("button", {id: "play-all", class: "playall", "data-label": "play all", title: "each one played in turn, as that many clicks would",
                                            onclick: () => act(null, "play-all")}, `▶▶ ${s.play_all.text}`));
  v.actions.forEach((a, i) => {
    const b = el("button", {"data-action": a.action, "data-label": a.label, title: a.label,
                            class: a.card ? typeClass(a.card) : null, onclick: () => act(a.action)}, a.text);
    if (a.card) b.dataset.card = a.card;
    acts.append(b);
  });
  const own = document.getElementById("own");
  own.textContent = "";
  const mine = renderOwn(v);
  if (mine) own.append(mine);
  const turn = document.getElementById("turn");
  turn.textContent = "";
  turn.append(el("h2", {}, `Turn ${v.turn}: seat ${v.turn_player} (${v.seats[v.turn_player].agent}) plays`), renderTurn(v));
  const market = document.getElementById("market");
  market.textContent = ""; market.append(renderMarket(v));
  const seats = document.getElementById("seats");
  seats.textContent = ""; seats.append(renderSeats(v));
  fitNames();
  document.body.dataset.decisions = s.decisions;
  document.body.dataset.over = s.over;
  document.body.dataset.thinking = s.thinking === null ? "" : s.thinking;
  const status = document.getElementById("status");
  if (s.stopped) status.textContent = s.stopped;
  else if (s.thinking !== null && !s.over) {
    status.textContent = `seat ${s.thinking} (${s.seats[s.thinking].agent}) is thinking…`;
    clearTimeout(game.poll);
    game.poll = setTimeout(() => api("GET", `/api/games/${game.id}`).then(render).catch(showError), 400);
  } else if (!game.busy) status.textContent = "";
}

// one decision (`action`), or with `route` "play-all" every plain card of the hand played one by one
async function act(action, route) {
  if (game.busy) return;
  game.busy = true;
  showError(null);
  document.getElementById("status").textContent = "the agents are playing…";
  document.querySelectorAll("#actions button").forEach(b => b.disabled = true);
  try {
    render(route ? await api("POST", `/api/games/${game.id}/${route}`, {decisions: game.state.decisions})
                 : await api("POST", `/api/games/${game.id}/actions`, {action, decisions: game.state.decisions}));
  } catch (e) {
    showError(e);
    try { render(await api("GET", `/api/games/${game.id}`)); } catch (e2) { /* keep the message */ }
  } finally {
    game.busy = false;
    if (game.state.thinking === null && !game.state.stopped) document.getElementById("status").textContent = "";
  }
}

async function start() {
  if (!game.id) throw new Error("no game id: start a game on the New game page");
  document.getElementById("save").href = `/api/games/${game.id}/saved`;
  document.getElementById("replay").addEventListener("click", async ev => {
    ev.preventDefault();
    try {
      const saved = await api("GET", `/api/games/${game.id}/saved`);
      const r = await api("POST", "/api/replays", {saved});
      location.href = `/replay?id=${r.id}`;
    } catch (e) { showError(e); }
  });
  await loadCards(`/api/games/${game.id}/cards`);
  render(await api("GET", `/api/games/${game.id}`));
}
document.addEventListener("DOMContentLoaded", () => start().catch(showError));
