"""A strategy atlas's folder (`hoc atlas --out DIR`) as a set of agents: wherever agents are listed,
DIR stands for its viable elites whose plan files the folder keeps, best first. An atlas's viable
elites are decks of different kinds (one per cell of its archive) that all play near the best, the
diverse set of opponents a tuner or a learner wants beside the one line of decks a library holds."""
from __future__ import annotations

from pathlib import Path

from hoc.errors import HocError

ELITES = "elites.parquet"


def is_archive(token: str) -> bool:
    return (Path(token) / ELITES).is_file()


def members(folder: str | Path) -> list[str]:
    """The plan files of the atlas's viable elites that the folder keeps, best re-measured fitness first."""
    import pyarrow.parquet as pq

    folder = Path(folder)
    try:
        rows = pq.read_table(folder / ELITES, columns=["plan", "viable", "fitness"]).to_pylist()
    except (OSError, KeyError, ValueError) as e:
        raise HocError(f"{folder / ELITES} is not an atlas's elites table: {e}") from None
    rows.sort(key=lambda r: -r["fitness"])
    plans = [str(folder / r["plan"]) for r in rows if r["viable"] and (folder / r["plan"]).is_file()]
    if not plans:
        raise HocError(f"atlas {folder}: none of its viable elites' plan files is in {folder / 'plans'}; "
                       f"rerun its `hoc atlas` command to write them")
    return plans
