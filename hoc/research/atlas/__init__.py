"""The strategy atlas (`hoc atlas`): every viable deck of a market, found by quality-diversity search.

A plan is a point of its game's plan space (`space`: a vector of numbers each game decodes into one
of its agent files); it plays against a reference panel on common seeds with seats mirrored
(`measure`), which gives its fitness (its share of the wins) and its descriptors, measured from the
games it played (the share of Actions in its final deck, when it backed its princess, ...). A grid
archive of `ribs` keeps the best plan of each cell of descriptor space, CMA-ME's emitters propose new
plans (`search`); the best families are then tuned further (`polish`), and at the end every elite
is measured again on seeds neither used, so the tables do not inherit a search's lucky maximum
(`report`).
"""
from __future__ import annotations

import time
from pathlib import Path


def atlas(settings, folder: str | Path, backend, command: str, progress=print):
    """Search (or resume) the atlas of `settings` in `folder`, measure every elite again on fresh
    seeds, and write the outputs (`report`): the elites' frame, best first."""
    from contextlib import nullcontext

    from hoc.research import progress as meter
    from hoc.research.atlas import polish, report, search

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    # one progress line (stderr) over the seeding, the search, the polish and the remeasure, with the ETA of them all
    line = meter.metered("atlas", "games", unit_scale=True) if not meter.metering() else nullcontext()
    with line:
        meter.expect(polish=polish.expected(settings, settings.resolution ** 2))
        found = search.run(settings, folder, backend, progress)
        polish.run(settings, found, backend, lambda: search.save(folder, settings, found), progress)
        progress(f"measuring the {len(search.elites(found)[0]['index'])} elites again on {settings.remeasure_seeds} "
                 f"fresh seeds per panel member")
        meter.stage("remeasure", search.remeasured(settings, found))
        data, measured = search.remeasure(settings, found, backend)
    frame = report.elites_frame(settings, data, measured, folder, command)
    report.heat_map(settings, frame, folder / "atlas.png")
    seconds = time.perf_counter() - t0
    (folder / "summary.md").write_text(report.summary(settings, found, frame, command, seconds), encoding="utf-8")
    return frame
