"""Other people's Dominion bots as hoc bot files: `import_bots(source, path, out)` reads a DominionSim
XML file, a Dominiate strategy (or a folder of them) or a pyminion bot module (or folder), writes
one bot file per bot into `out` and returns the coverage of each (`core.Coverage`). A bot that names
cards hoc's card set lacks, or whose rules overflow what a bot holds, is skipped unless `partial`
(its rules for those cards, or its last rules, are then left out; counts of missing cards read 0)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hoc.errors import HocError
from hoc.games.dominion.agents.imports import core, dominiate, dominionsim, pyminion

SOURCES = {"dominionsim": dominionsim, "dominiate": dominiate, "pyminion": pyminion}
PREFIX = {"dominionsim": "domsim", "dominiate": "dominiate", "pyminion": "pyminion"}


@dataclass
class Imported:
    coverage: list[core.Coverage]
    skipped: list[tuple[str, str]]          # (bot, why)
    written: list[Path]


def import_bots(source: str, path: str | Path, out: str | Path, prefix: str | None = None, partial: bool = False,
                commit: str = "", only: set[str] | None = None) -> Imported:
    from hoc.games.dominion.cards import CardDB

    if source not in SOURCES:
        raise HocError(f"unknown bot source {source!r}; sources: {', '.join(SOURCES)}")
    path, out = Path(path), Path(out)
    if not path.exists():
        raise HocError(f"no file or folder {path}")
    db = CardDB()
    front = SOURCES[source]
    bots: list[tuple[core.Source, core.Origin]] = []
    result = Imported([], [], [])
    for file in front.files(path):
        origin = core.Origin(source, front.REPOSITORY, front.source_path(file), commit, front.LICENCE)
        try:
            bots += [(b, origin) for b in front.read(file, db)]
        except HocError as e:
            if path.is_file():
                raise
            result.skipped.append((file.name, str(e)))      # one bad file of a folder: the rest still import
    if not bots:
        raise HocError(f"{path}: no {source} bot found" + (f" ({result.skipped[0][1]})" if result.skipped else ""))
    texts = []
    for bot, origin in bots:
        if only is not None and core.slug(bot.name) not in only:
            continue
        if bot.unknown and not partial:
            result.skipped.append((bot.name, "names cards hoc's card set lacks: " + ", ".join(sorted(bot.unknown))))
            continue
        try:
            name, text, cov = core.translate(bot, origin, prefix or PREFIX[source], db, partial)
        except HocError as e:
            result.skipped.append((bot.name, str(e)))
            continue
        if any(name == n for n, _ in texts):
            raise HocError(f"two bots in {path} make the same file name {name}")
        texts.append((name, text))
        result.coverage.append(cov)
    out.mkdir(parents=True, exist_ok=True)
    from hoc.games.dominion.agents.bots import parse

    for name, text in texts:
        dest = out / name
        dest.write_text(text, encoding="utf-8")
        parse(dest)                 # every written file reads back as a bot
        result.written.append(dest)
    return result


def table(result: Imported) -> str:
    """The coverage table: one row a bot (rules and conditions translated, what was dropped)."""
    rows = [("bot", "file", "rules", "entries", "conditions", "dropped")]
    for c in result.coverage:
        rows.append((c.bot, c.file, str(c.rules), str(c.translated), str(c.conditions), str(len(c.dropped))))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows]
    for c in result.coverage:
        for d in c.dropped:
            lines.append(f"  {c.file}: {d}")
    for bot, why in result.skipped:
        lines.append(f"skipped {bot}: {why}")
    return "\n".join(lines)
