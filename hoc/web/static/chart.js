"use strict";
// SP per turn as an SVG line chart, one line per seat in the seat's colour (`seatColour`, as the seats
// table shows it), with a marker at the turn shown. Colours are set as styles: the style sheet's rule
// for chart text would override a presentation attribute.

function spChart(points, seats, turnNow) {
  const W = 460, H = 240, L = 36, R = 10, T = 10, B = 30;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("id", "spchart");
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e); return e;
  };
  const maxT = Math.max(1, ...points.map(p => p.turn));
  const maxSP = Math.max(5, ...points.flatMap(p => p.sp));
  const x = t => L + (W - L - R) * (t / maxT), y = v => H - B - (H - T - B) * (v / maxSP);
  add("line", {x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: "#888"});
  add("line", {x1: L, y1: T, x2: L, y2: H - B, stroke: "#888"});
  const step = maxSP > 40 ? 10 : 5;
  for (let v = 0; v <= maxSP; v += step) {
    add("line", {x1: L, y1: y(v), x2: W - R, y2: y(v), stroke: "#eee"});
    add("text", {x: L - 4, y: y(v) + 4, "text-anchor": "end"}, v);
  }
  const tstep = Math.max(1, Math.ceil(maxT / 10));
  for (let t = 0; t <= maxT; t += tstep) add("text", {x: x(t), y: H - B + 14, "text-anchor": "middle"}, t);
  add("text", {x: (L + W) / 2, y: H - 2, "text-anchor": "middle"}, "turn (all players)");
  seats.forEach((name, q) => {
    const d = points.map((p, i) => `${i ? "L" : "M"}${x(p.turn).toFixed(1)},${y(p.sp[q]).toFixed(1)}`).join(" ");
    add("path", {d, fill: "none", style: `stroke:${seatColour(q)}`, "stroke-width": 2, "data-seat": q});
    add("rect", {x: L + 8, y: T + 4 + 13 * q, width: 10, height: 8, style: `fill:${seatColour(q)}`});
    add("text", {x: L + 22, y: T + 12 + 13 * q, class: "legend", "data-seat": q, style: `fill:${seatColour(q)}`},
        `seat ${q} ${name}`);
  });
  if (turnNow !== undefined) add("line", {x1: x(turnNow), y1: T, x2: x(turnNow), y2: H - B, stroke: "#b8860b",
                                           "stroke-dasharray": "4 3", id: "spnow"});
  return svg;
}
