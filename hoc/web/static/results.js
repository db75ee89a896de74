"use strict";
// Runs and studies: a Parquet run's summary with its intervals and charts; a study folder's reports, tables, charts.
const pct = r => r && r.rate !== null ? `${(100 * r.rate).toFixed(1)}%` : "–";
const interval = r => r && r.lo !== null ? `[${(100 * r.lo).toFixed(1)}, ${(100 * r.hi).toFixed(1)}]` : "";
const q = encodeURIComponent;

function rateTable(title, rows, key, extra, what) {
  if (!rows || !rows.length) return null;
  return el("div", {}, el("h3", {}, title), el("table", {class: "stats", "data-table": key},
    el("tr", {}, el("th", {}, key.replace("_", " ")), el("th", {class: "num"}, what || "win rate"), el("th", {class: "num"}, "95% interval"),
       el("th", {class: "num"}, what ? "games" : "wins"), el("th", {class: "num"}, what ? "of" : "games"), extra ? el("th", {}, extra[0]) : null),
    rows.map((r, i) => el("tr", {}, el("td", {}, key === "seat" ? `${r.seat} (${r.agent})` : r[key]),
      el("td", {class: "num"}, pct(r)), el("td", {class: "num"}, interval(r)),
      el("td", {class: "num"}, r.wins), el("td", {class: "num"}, r.games), extra ? el("td", {}, extra[1](r, i)) : null))));
}

async function showRun(path) {
  const box = document.getElementById("summary");
  box.textContent = "";
  box.append(el("h2", {}, `Run ${path}`), el("p", {class: "status"}, "Reading the run…"));
  const s = await api("GET", `/api/run?path=${q(path)}`);
  history.replaceState(null, "", `/results?run=${q(path)}`);
  box.textContent = "";
  const sp = s[`mean_final_${s.score}_by_seat`], spi = s[`mean_final_${s.score}_by_seat_interval`];
  const f1 = x => x === null ? "–" : x.toFixed(1);
  box.append(el("h2", {}, `Run ${path}`),
    el("p", {}, `${s.games.toLocaleString()} games, ${s.players} players, edition ${s.edition}, market ${s.market}, seed ${s.seed}` +
      (s.rotate_seats ? ", seats rotated" : "") + (s.shuffle_seats ? ", seats shuffled" : "") + `; engine ${s.engine_version}`),
    el("p", {}, `Turns per game (all players): mean ${f1(s.mean_turns)} [${f1(s.mean_turns_interval[0])}, ${f1(s.mean_turns_interval[1])}], sd ${f1(s.sd_turns)}`),
    rateTable("Win rate by seat (seat 0 plays first)", s.win_rate_by_seat, "seat",
              [`mean final ${s.score.toUpperCase()} [95%]`, (r, i) => `${f1(sp[i])} [${f1(spi[i][0])}, ${f1(spi[i][1])}]`]),
    new Set(s.agents).size > 1 ? rateTable("Win rate by agent", s.win_rate_by_agent, "agent") : null,
    rateTable("Win rate by princess backed", s.win_rate_by_princess, "princess"),
    rateTable("End reasons", s.end_reason_rates, "end_reason", null, "share"),
    el("p", {}, `Draws ${s.draws} (${pct(s.draw_rate)} ${interval(s.draw_rate)}); shared wins ${s.ties} (${pct(s.tie_rate)} ${interval(s.tie_rate)})`),
    el("form", {class: "setup", onsubmit: ev => { ev.preventDefault(); location.href = `/replay?run=${q(path)}&game=${ev.target.game.value}`; }},
       el("label", {}, "Replay game ", el("input", {type: "number", name: "game", value: "0", min: "0"})), el("button", {type: "submit"}, "Replay")),
    el("h3", {}, "Charts"),
    el("div", {class: "charts"}, s.charts.map(k => el("img", {class: "chart", alt: s.chart_titles[k], "data-chart": k,
                                                           src: `/api/run/chart?path=${q(path)}&kind=${k}`}))));
}

async function showStudy(path) {
  const box = document.getElementById("summary");
  const s = await api("GET", `/api/study?path=${q(path)}`);
  history.replaceState(null, "", `/results?study=${q(path)}`);
  box.textContent = "";
  box.append(el("h2", {}, `Study results ${path}`));
  for (const f of s.reports) {
    const text = await api("GET", `/api/file?path=${q(f)}`);
    box.append(el("h3", {}, f), markdown(text, s.folder === "." ? "" : s.folder));
  }
  if (s.meta.length) box.append(el("h3", {}, "Meta-game"), el("div", {class: "charts"}, s.meta.map(f => el("figure", {},
    el("img", {class: "chart", alt: `the meta-game of ${f}`, "data-chart": "meta", src: `/api/study/meta?path=${q(f)}`}),
    el("figcaption", {class: "status"}, `the meta-game of ${f} (as hoc meta --matrix draws it)`)))));
  if (s.charts.length) box.append(el("div", {class: "charts"}, s.charts.map(f => el("figure", {},
    el("img", {class: "chart", alt: f, src: `/api/file?path=${q(f)}`}), el("figcaption", {class: "status"}, f)))));
  for (const f of s.tables) {               // each table folded: a study may have many long ones
    const t = await api("GET", `/api/file?path=${q(f)}`);
    box.append(el("details", {"data-table": f}, el("summary", {}, `${f}: ${t.rows.length}${t.truncated ? "+" : ""} rows`),
      el("div", {style: "overflow-x:auto"},
        el("table", {class: "stats"}, el("tr", {}, t.columns.map(c => el("th", {}, c))),
          t.rows.map(r => el("tr", {}, r.map(v => el("td", {class: typeof v === "number" ? "num" : null},
            v === null ? "" : typeof v === "number" && !Number.isInteger(v) ? v.toFixed(3) : v))))))));
  }
  if (s.folders.length) box.append(el("h3", {}, "Folders"), el("div", {class: "list"},
    s.folders.map(d => el("a", {href: "#", onclick: ev => { ev.preventDefault(); showStudy(d).catch(showError); }}, d))));
}

async function listing() {
  const l = await api("GET", "/api/results");
  const runs = document.getElementById("runs"), studies = document.getElementById("studies");
  if (!l.runs.length) runs.append(el("span", {class: "none"}, `no Parquet runs in ${l.root}`));
  l.runs.forEach(r => runs.append(el("a", {href: `/results?run=${q(r)}`, "data-run": r}, r)));
  if (!l.studies.length) studies.append(el("span", {class: "none"}, `no study results in ${l.root}`));
  l.studies.forEach(d => studies.append(el("a", {href: `/results?study=${q(d)}`, "data-study": d}, d)));
  const run = param("run"), study = param("study");
  if (run) await showRun(run);
  else if (study) await showStudy(study);
}
document.addEventListener("DOMContentLoaded", () => listing().catch(showError));
