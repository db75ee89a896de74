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

// ---- cards: a name that shows its text on hover, and in the card panel on click. A card's face
// (types, cost, printed values, text) comes from the game's card data (/api/.../cards): no card or game
// is named here; a type's colour is the style sheet's `.t-TYPE` (unknown types are drawn plain).
const SEAT_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];
function seatColour(q) { return SEAT_COLOURS[q % SEAT_COLOURS.length]; }
function swatch(q) { return el("span", {class: "swatch", "data-seat": q, style: `background:${seatColour(q)}`}); }

function info(card) { return hoc.cards[card] || {name: card, types: [], values: [], cost: null, rules: "", text: ""}; }
function typeClass(card) { const t = info(card).types; return t && t.length ? `t-${t[0]}` : "t-none"; }

// a card's printed text as a player reads it: "•" starts a list item, a leading "(...)" is a note,
// [a term] and 'a Name' are marked (a card's name shows that card's text on hover)
function inlineRules(text) {
  const out = [];
  const names = {};
  for (const [id, c] of Object.entries(hoc.cards)) names[c.name] = id;
  const re = /\[([^\]]+)\]|(^|[\s(])'([^']+)'(?=[\s.,;:)]|$)/g;
  let last = 0, m;
  while ((m = re.exec(text))) {
    if (m[1] !== undefined) {
      out.push(text.slice(last, m.index), el("span", {class: "term"}, m[1]));
    } else {
      const name = m[3], id = names[name];
      out.push(text.slice(last, m.index) + m[2],
               id ? el("span", {class: `ref ${typeClass(id)}`, "data-card": id}, name) : el("span", {class: "ref"}, name));
    }
    last = re.lastIndex;
  }
  out.push(text.slice(last));
  return out;
}

function formatRules(text) {
  const box = el("div", {class: "rules"});
  for (let para of (text || "").split(/\n+/)) {
    para = para.trim();
    const note = /^\(([^()]*)\)\s*/.exec(para);
    if (note) { box.append(el("p", {class: "note"}, inlineRules(note[1]))); para = para.slice(note[0].length); }
    const [intro, ...items] = para.split(/\s*•\s*/);
    if (intro) box.append(el("p", {}, inlineRules(intro)));
    if (items.length) box.append(el("ul", {}, items.map(i => el("li", {}, inlineRules(i)))));
  }
  return box;
}

function cardInfo(card) {
  const c = info(card);
  return el("div", {class: "cardinfo"},
    el("div", {class: `head ${typeClass(card)}`}, el("b", {}, c.name), " ", el("span", {class: "id"}, `[${card}]`)),
    el("div", {class: "summary"}, c.summary || ""),
    c.rules ? formatRules(c.rules) : el("p", {class: "none"}, "No text."),
    c.supply ? el("div", {class: "supply"}, `(${c.supply})`) : null);
}

function showCardText(card) {
  const box = document.getElementById("cardtext");
  if (box && hoc.cards[card]) { box.textContent = ""; box.append(cardInfo(card)); }
  document.querySelectorAll("[data-card].shown").forEach(c => c.classList.remove("shown"));
  document.querySelectorAll(`[data-card="${card}"]`).forEach(c => c.classList.add("shown"));
}

function clickable(e, card) {
  e.addEventListener("click", () => showCardText(card));
  e.addEventListener("keydown", ev => { if (ev.key === "Enter") showCardText(card); });
  return e;
}

function cardSpan(entry, label) {
  return clickable(el("span", {class: `card ${typeClass(entry.card)}`, "data-card": entry.card, tabindex: "0"},
                      label || entry.label || entry.name), entry.card);
}

function cardList(entries) {
  if (!entries || !entries.length) return el("span", {class: "none"}, "none");
  return el("span", {}, entries.map(e => cardSpan(e)));
}

// a card drawn as a card: its colour bands (one per type), cost (or the price asked, when it differs),
// name, printed values, and a count or the cards left
function cardFace(card, opts = {}) {
  const c = info(card);
  const price = opts.price !== undefined && opts.price !== c.cost ? opts.price : null;
  return clickable(el("div", {class: `face ${typeClass(card)}`, "data-card": card, tabindex: "0"},
    el("div", {class: "bands"}, (c.types || []).map(t => el("i", {class: `t-${t}`, title: t}))),
    el("div", {class: "top"},
      el("span", {class: "cost", title: price === null ? "cost" : `price (printed cost ${c.cost})`}, price === null ? c.cost : price),
      opts.n > 1 ? el("span", {class: "n", title: "copies"}, `×${opts.n}`) : null),
    el("div", {class: "name"}, c.name),
    el("div", {class: "values"}, (c.values || []).map(v => el("span", {class: `v v-${v.what}`}, v.text))),
    opts.left !== undefined ? el("div", {class: "left", title: "cards left"}, `${opts.left} left`) : null), card);
}

function faces(entries, cls) {
  if (!entries || !entries.length) return el("span", {class: "none"}, "none");
  return el("div", {class: `faces ${cls || ""}`}, entries.map(e => cardFace(e.card, {n: e.n})));
}

// shrink each face's name until it fits its box (long names wrap first, then get smaller)
function fitNames(root) {
  (root || document).querySelectorAll(".face .name").forEach(n => {
    let size = 12.5;
    n.style.fontSize = size + "px";
    while ((n.scrollHeight > n.clientHeight + 1 || n.scrollWidth > n.clientWidth + 1) && size > 7) {
      size -= 0.5;
      n.style.fontSize = size + "px";
    }
  });
}

function setupTips() {
  const tip = el("div", {id: "tip"});
  document.body.append(tip);
  document.addEventListener("mouseover", ev => {
    const c = ev.target.closest && ev.target.closest("[data-card]");
    if (!c || !hoc.cards[c.dataset.card]) { tip.style.display = "none"; return; }
    tip.textContent = "";
    tip.append(cardInfo(c.dataset.card));
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
  const box = el("div", {class: "market faces"});
  for (const m of view.market) {
    const f = cardFace(m.card, {price: m.price, left: m.left});
    f.classList.add("pile");
    f.dataset.pile = m.card;
    box.append(f);
  }
  const extra = [];
  if (view.princesses.length) extra.push(el("h3", {}, "Princesses to back"), faces(view.princesses.map(p => ({card: p.card, n: 1})), "princesses"));
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
      el("td", {class: "who"}, swatch(s.seat), `${s.seat} ${s.you ? "you" : s.agent}`),
      el("td", {}, s.princess ? cardSpan(s.princess, s.princess.name) : "-"),
      el("td", {class: "num sp"}, sp), el("td", {class: "num"}, s.hand),
      el("td", {class: "num"}, s.deck, s.deck_top ? [" (top: ", cardSpan(s.deck_top, s.deck_top.name), ")"] : []),
      el("td", {class: "num"}, s.discard), el("td", {}, s.counters)));
  }
  const zones = view.seats.map(s => el("div", {class: "zones", "data-seat": s.seat},
    swatch(s.seat), el("b", {}, `${s.you ? "Your" : "Seat " + s.seat + "'s"} domain (${s.sp} SP): `), cardList(s.domain),
    s.kept.length ? ["; kept: ", cardList(s.kept)] : [], ". Discard pile: ", cardList(s.discard_pile),
    s.hand_cards && !s.you ? el("div", {class: "hand", "data-seat": s.seat}, "Hand: ", cardList(s.hand_cards)) : null));
  return el("div", {}, el("h3", {}, "Seats"), t, zones);
}

function renderTurn(view) {
  return el("div", {class: "turnarea"},
    el("div", {}, el("b", {}, "Play area: "), view.play_area.length ? faces(view.play_area, "small") : el("span", {class: "none"}, "none")),
    el("div", {}, `Coins: ${view.coins}; plays open (links left): ${view.open_plays}; cards played: ${view.cards_played}`));
}

function renderOwn(view) {
  const me = view.seats.find(s => s.you);
  if (!me) return null;
  return el("div", {class: "own"},
    el("div", {}, `Your deck: ${me.deck} cards`, me.deck_face_up && me.deck_face_up.length ? [" (face up on it: ", cardList(me.deck_face_up), ")"] : []),
    el("div", {id: "hand"}, el("b", {}, "Your hand: "), faces(me.hand_cards)));
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
  const links = [["/", "New game"], ["/replay", "Replay"], ["/results", "Runs and studies"], ["/studies", "Start a study"]];
  return el("header", {}, el("h1", {}, "hoc web table"),
    el("nav", {}, links.map(([href, t]) => el("a", {href, class: href === here ? "here" : null}, t))));
}

document.addEventListener("DOMContentLoaded", () => {
  document.body.prepend(nav(location.pathname));
  setupTips();
});
