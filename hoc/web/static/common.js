// hoc web table: what every page shares (no libraries: plain DOM).
"use strict";

const hoc = {cards: {}};

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

async function api(method, url, body) {
  const opts = {method, headers: {}};
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(url, opts);
  const type = r.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await r.json() : await r.text();
  if (!r.ok) {
    const err = new Error((data && data.error) || `${r.status} ${r.statusText}`);
    err.status = r.status;
    throw err;
  }
  return data;
}

function showError(e) {
  const box = document.getElementById("error");
  if (box) box.textContent = e ? (e.message || String(e)) : "";
}

function param(name) { return new URLSearchParams(location.search).get(name); }

// ---- cards: a name that shows its text on hover, and in the card panel on click
function showCardText(card) {
  const box = document.getElementById("cardtext");
  const info = hoc.cards[card];
  if (box && info) box.textContent = info.text;
  document.querySelectorAll(".card.shown").forEach(c => c.classList.remove("shown"));
  document.querySelectorAll(`.card[data-card="${card}"]`).forEach(c => c.classList.add("shown"));
}

function cardSpan(entry, label) {
  const s = el("span", {class: "card", "data-card": entry.card, tabindex: "0"}, label || entry.label || entry.name);
  s.addEventListener("click", () => showCardText(entry.card));
  s.addEventListener("keydown", ev => { if (ev.key === "Enter") showCardText(entry.card); });
  return s;
}

function cardList(entries) {
  if (!entries || !entries.length) return el("span", {class: "none"}, "none");
  return el("span", {}, entries.map(e => cardSpan(e)));
}

function setupTips() {
  const tip = el("div", {id: "tip"});
  document.body.append(tip);
  document.addEventListener("mouseover", ev => {
    const c = ev.target.closest && ev.target.closest("[data-card]");
    const info = c && hoc.cards[c.dataset.card];
    if (!info) { tip.style.display = "none"; return; }
    tip.textContent = info.text;
    tip.style.display = "block";
  });
  document.addEventListener("mousemove", ev => {
    if (tip.style.display !== "block") return;
    const x = Math.min(ev.clientX + 14, window.innerWidth - tip.offsetWidth - 8);
    const y = ev.clientY + 16 + tip.offsetHeight > window.innerHeight ? ev.clientY - tip.offsetHeight - 10 : ev.clientY + 16;
    tip.style.left = x + "px"; tip.style.top = y + "px";
  });
}

// ---- the table: market, seats, domains, the play area (the same view as `hoc play`)
function renderMarket(view) {
  const box = el("div", {class: "market"});
  for (const m of view.market) {
    box.append(el("div", {class: "pile", "data-pile": m.card}, cardSpan(m, m.name),
      el("span", {}, el("span", {class: "price", title: "price"}, `${m.price}c`), " ",
         el("span", {class: "left", title: "cards left"}, `×${m.left}`))));
  }
  const extra = [];
  if (view.princesses.length) extra.push(el("div", {}, "Princesses to back: ", view.princesses.map(p => cardSpan(p, p.name))));
  if (view.supply.cards) extra.push(el("div", {}, `Supply: ${view.supply.cards} cards face down`,
    view.supply.top ? [ "; face up on top: ", cardSpan(view.supply.top, view.supply.top.name)] : []));
  return el("div", {}, el("h3", {}, "Market (price, cards left)"), box, extra);
}

function renderSeats(view) {
  const t = el("table", {class: "seats"},
    el("tr", {}, ["seat", "princess", "SP", "hand", "deck", "discard", "counters"].map(
      h => el("th", {class: ["SP", "hand", "deck", "discard"].includes(h) ? "num" : null}, h))));
  for (const s of view.seats) {
    const sp = `${s.sp}${s.declared ? " declared" : ""}${s.out ? " out" : ""}`;
    t.append(el("tr", {class: s.you ? "you" : null, "data-seat": s.seat},
      el("td", {}, `${s.seat} ${s.you ? "you" : s.agent}`),
      el("td", {}, s.princess ? cardSpan(s.princess, s.princess.name) : "-"),
      el("td", {class: "num sp"}, sp), el("td", {class: "num"}, s.hand),
      el("td", {class: "num"}, s.deck, s.deck_top ? [" (top: ", cardSpan(s.deck_top, s.deck_top.name), ")"] : []),
      el("td", {class: "num"}, s.discard), el("td", {}, s.counters)));
  }
  const zones = view.seats.map(s => el("div", {class: "zones", "data-seat": s.seat},
    el("b", {}, `${s.you ? "Your" : "Seat " + s.seat + "'s"} domain (${s.sp} SP): `), cardList(s.domain),
    s.kept.length ? ["; kept: ", cardList(s.kept)] : [], ". Discard pile: ", cardList(s.discard_pile),
    s.hand_cards && !s.you ? el("div", {class: "hand", "data-seat": s.seat}, "Hand: ", cardList(s.hand_cards)) : null));
  return el("div", {}, el("h3", {}, "Seats"), t, zones);
}

function renderTurn(view) {
  return el("div", {class: "turnarea"},
    el("div", {}, el("b", {}, "Play area: "), cardList(view.play_area)),
    el("div", {}, `Coins: ${view.coins}; plays open (links left): ${view.open_plays}; cards played: ${view.cards_played}`));
}

function renderOwn(view) {
  const me = view.seats.find(s => s.you);
  if (!me) return null;
  return el("div", {class: "own"},
    el("div", {}, `Your deck: ${me.deck} cards`, me.deck_face_up && me.deck_face_up.length ? [" (face up on it: ", cardList(me.deck_face_up), ")"] : []),
    el("div", {id: "hand"}, el("b", {}, "Your hand: "), cardList(me.hand_cards)));
}

function renderFeed(box, lines, fresh) {
  box.textContent = "";
  lines.forEach((line, i) => {
    box.append(el("div", {class: (i >= lines.length - fresh ? "new " : "") + (/^Turn \d+/.test(line) ? "turn" : "")}, line));
  });
  box.scrollTop = box.scrollHeight;
}

async function loadCards(url) {
  hoc.cards = await api("GET", url);
}

function nav(here) {
  const links = [["/", "New game"], ["/replay", "Replay"], ["/results", "Runs and studies"]];
  return el("header", {}, el("h1", {}, "hoc web table"),
    el("nav", {}, links.map(([href, t]) => el("a", {href, class: href === here ? "here" : null}, t))));
}

document.addEventListener("DOMContentLoaded", () => {
  document.body.prepend(nav(location.pathname));
  setupTips();
});
