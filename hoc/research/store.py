"""A run's games on disk: a folder `NAME.parquet/` of Parquet parts, one per chunk, each written
whole (to a temporary name, then renamed) as its chunk finishes. `pandas.read_parquet(folder)`
reads the run. A manifest records what produced the games; started again with the same plan, a
run skips the parts already written, so an interrupted run resumes and never loses finished games.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from hoc.errors import HocError
from hoc.research.harness import Chunk, Plan

MANIFEST = "_run.json"


def provenance(plan: Plan) -> dict:
    """Engine version, the game, its rules and card-data hash: written into the manifest and every
    part's metadata."""
    import hoc

    rs = plan.ruleset
    return {
        "engine_version": hoc.__version__,
        "game": rs.game.name,
        "rules": json.dumps(rs.describe(), sort_keys=True),
        "rules_hash": hashlib.sha256(rs.vector.tobytes()).hexdigest()[:16],
        "card_data_hash": hashlib.sha256(rs.cards.table.tobytes()).hexdigest()[:16],
    }


class ParquetStore:
    def __init__(self, path: str | Path, plan: Plan):
        self.path = Path(path)
        if self.path.suffix != ".parquet":
            raise HocError(f"--out must name a .parquet folder, got {str(path)!r}")
        if self.path.exists() and not self.path.is_dir():
            raise HocError(f"{self.path} exists and is a file; the games are written as a folder of parts: "
                           f"choose another --out")
        self.plan = plan
        self.manifest = {"plan": plan.describe(), **provenance(plan)}
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            probe = self.path / ".write-test"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as e:
            raise HocError(f"cannot write to {self.path}: {e.strerror or e}") from None
        self._check_manifest()
        for stale in self.path.glob("part-*.parquet.tmp"):
            stale.unlink(missing_ok=True)   # left by a version before hidden temporary names: a reader counts it

    def _check_manifest(self) -> None:
        f = self.path / MANIFEST
        if f.exists():
            try:
                old = json.loads(f.read_text())
            except (OSError, ValueError):
                raise HocError(f"{f} is unreadable; delete {self.path} to start the run afresh") from None
            if old != json.loads(json.dumps(self.manifest)):
                diff = sorted(k for k in set(old.get("plan", {})) | set(self.manifest["plan"])
                              if old.get("plan", {}).get(k) != self.manifest["plan"].get(k))
                what = ", ".join(diff) or "engine or card data"
                raise HocError(f"{self.path} holds the games of a different run ({what} differ); "
                               f"use another --out, or delete it to start afresh")
        else:
            tmp = f.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.manifest, indent=1, sort_keys=True))
            os.replace(tmp, f)

    def part(self, first: int) -> Path:
        return self.path / f"part-{first:012d}.parquet"

    def done(self) -> set[int]:
        """First indices of the chunks already on disk, whole. Looks at the parts in the folder,
        never at every chunk of the plan (a huge run has more chunks than memory holds)."""
        done = set()
        for p in self.path.glob("part-*.parquet"):
            first = _first(p)
            n = None if first is None else self.plan.chunk_games(first)
            if n is None:
                continue
            try:
                if pq.read_metadata(p).num_rows == n:
                    done.add(first)
            except (OSError, pa.ArrowException):
                pass        # a damaged part is played again
        return done

    def write(self, chunk: Chunk) -> None:
        table = pa.Table.from_pandas(chunk.games, preserve_index=False)
        meta = dict(table.schema.metadata or {})
        meta.update({f"hoc.{k}".encode(): str(v).encode() for k, v in provenance(self.plan).items()})
        meta[b"hoc.plan"] = json.dumps(self.manifest["plan"]).encode()
        table = table.replace_schema_metadata(meta)
        target = self.part(chunk.first)
        # A leading dot hides the half-written part from `pandas.read_parquet(folder)` (pyarrow skips
        # names starting with "." or "_"): a Ctrl-C between writing and renaming must not leave
        # games a reader counts but the run does not.
        tmp = target.with_name(f".{target.name}.tmp")
        try:
            pq.write_table(table, tmp)
            os.replace(tmp, target)
        finally:
            tmp.unlink(missing_ok=True)

    def read(self, first: int) -> pd.DataFrame:
        return pd.read_parquet(self.part(first))


def _first(part: Path) -> int | None:
    """The first game index in a part's name (part-000000010000.parquet), or None."""
    digits = part.name[len("part-"):-len(".parquet")]
    return int(digits) if digits.isdigit() else None


def saved(path: str | Path) -> tuple[int, int]:
    """(parts, games) on disk in a run's folder, or in the plans' folders inside a study's folder."""
    parts = games = 0
    for p in Path(path).rglob("part-*.parquet"):
        try:
            games += pq.read_metadata(p).num_rows
            parts += 1
        except (OSError, pa.ArrowException):
            pass            # a part being written when the run stopped: not saved
    return parts, games
