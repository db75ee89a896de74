"use strict";
// Enough Markdown for the studies' reports: headings, paragraphs, lists, code blocks, pipe tables,
// inline code, bold, links and images (a chart beside the report, read through the server). Text is set
// as text (never as HTML), so a report cannot inject markup.
let mdFolder = "";

function inline(text) {
  const out = el("span", {});
  const re = /(`[^`]+`|\*\*[^*]+\*\*|!?\[[^\]]*\]\([^)]+\))/g;
  let last = 0, m;
  while ((m = re.exec(text))) {
    out.append(text.slice(last, m.index));
    const t = m[0];
    if (t.startsWith("`")) out.append(el("code", {}, t.slice(1, -1)));
    else if (t.startsWith("**")) out.append(el("b", {}, t.slice(2, -2)));
    else if (t.startsWith("!")) {
      const [, alt, src] = /^!\[([^\]]*)\]\(([^)\s]+)/.exec(t);
      if (/^[a-z]+:|^\/\//i.test(src)) out.append(alt);            // nothing from the network
      else out.append(el("img", {alt, src: `/api/file?path=${encodeURIComponent(mdFolder + src)}`}));
    }
    else { const [, label] = /^\[([^\]]+)\]/.exec(t); out.append(label); }
    last = m.index + t.length;
  }
  out.append(text.slice(last));
  return out;
}

function markdown(src, folder) {
  mdFolder = folder ? folder.replace(/\/?$/, "/") : "";
  const box = el("div", {class: "md"});
  const lines = src.split("\n");
  let i = 0;
  const cells = l => l.trim().replace(/^\||\|$/g, "").split("|").map(c => c.trim());
  while (i < lines.length) {
    const line = lines[i];
    if (/^```/.test(line)) {
      const code = []; i++;
      while (i < lines.length && !/^```/.test(lines[i])) code.push(lines[i++]);
      i++; box.append(el("pre", {}, code.join("\n"))); continue;
    }
    const h = /^(#{1,6})\s+(.*)/.exec(line);
    if (h) { box.append(el(`h${Math.min(6, h[1].length + 1)}`, {}, inline(h[2]))); i++; continue; }
    if (/^\s*\|/.test(line) && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1])) {
      const t = el("table", {class: "stats"}, el("tr", {}, cells(line).map(c => el("th", {}, inline(c)))));
      i += 2;
      while (i < lines.length && /^\s*\|/.test(lines[i])) t.append(el("tr", {}, cells(lines[i++]).map(c => el("td", {}, inline(c)))));
      box.append(t); continue;
    }
    if (/^\s*[-*]\s+/.test(line)) {
      const ul = el("ul", {});
      while (i < lines.length && /^\s*[-*]\s+/.test(lines[i])) ul.append(el("li", {}, inline(lines[i++].replace(/^\s*[-*]\s+/, ""))));
      box.append(ul); continue;
    }
    if (!line.trim()) { i++; continue; }
    const para = [];
    while (i < lines.length && lines[i].trim() && !/^(#|```|\s*\||\s*[-*]\s)/.test(lines[i])) para.push(lines[i++]);
    if (!para.length) para.push(lines[i++]);
    box.append(el("p", {}, inline(para.join(" "))));
  }
  return box;
}
