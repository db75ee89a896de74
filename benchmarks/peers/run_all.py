"""Measure the Dominion peers and write results/dominion_peers/peers.json.

    python benchmarks/peers/run_all.py [--peers pyminion,dominiate,dominionsim]
        [--games 100000] [--solo-games 100000] [--speed-seconds 20]
        [--only mirror,smithy,solo_bm,solo_smithy,speed] [--out results/dominion_peers/peers.json]

Runs each peer's driver one process at a time (niced, pinned to one CPU),
keeps the raw per-game records in $HOC_PEERS_CACHE/raw/, and merges the
statistics into the output JSON (existing entries for other peers/modes are
kept, so peers can be measured in separate calls).
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peers_common as pc  # noqa: E402
import speed  # noqa: E402

REPO = Path(__file__).resolve().parents[2]

COMMITS = {}
for line in (pc.HERE / "setup.sh").read_text().splitlines():
    if line.startswith(("DOMINIATE_COMMIT=", "DOMINIONSIM_COMMIT=", "PYMINION_VERSION=")):
        k, v = line.split("=", 1)
        COMMITS[k] = v


def _out(cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
        return (r.stdout + r.stderr).strip().splitlines()[0]
    except Exception as e:  # noqa: BLE001
        return f"unavailable: {e}"


def versions(peer: str) -> dict:
    if peer == "pyminion":
        py = str(pc.PYMINION_VENV / "bin" / "python")
        return {"pyminion": _out([py, "-c", "import importlib.metadata as m; print(m.version('pyminion'))"]),
                "python": _out([py, "-c", "import sys; print(sys.version.split()[0])"]),
                "source": "PyPI package pyminion"}
    if peer == "dominiate":
        cs = pc.CACHE / "dominiate" / "node" / "node_modules" / "coffee-script" / "package.json"
        return {"commit": COMMITS["DOMINIATE_COMMIT"], "repository": "rspeer/dominiate",
                "node": _out(["node", "--version"]),
                "coffee_script": json.loads(cs.read_text())["version"] if cs.exists() else None}
    if peer == "dominionsim":
        return {"commit": COMMITS["DOMINIONSIM_COMMIT"], "repository": "Geronimoo/DominionSim",
                "java": _out(["java", "-version"]),
                "jars": "Debian liblog4j1.2-java, libjfreechart-java, libjcommon-java (Maven Central unreachable)"}
    return {}


CONFIG = {
    "pyminion": {
        "bots": "benchmarks/peers/pyminion/driver.py (BotDecider subclasses, pyminion's bot API)",
        "kingdom": "Smithy, Village, Market, Militia, Moat, Cellar, Chapel, Workshop, Laboratory, Festival",
        "seats": "Game(random_order=False), order alternated each game",
        "ties": "engine: most VP, then fewer turns, else shared (Game.get_winners)",
        "last_province_rule": "none in the engine or its example bots; our bots add it (never take the last "
                              "Province if it leaves the bot behind, or level on VP with more turns); "
                              "'no_lpr' rows are without it",
        "solo": "1-player Game (its supply has 5 Provinces); turns until the player owns 4 Provinces",
        "supply_notes": "2 players: 8 Provinces/Estates/Duchies, Copper 46, Silver 40, Gold 30, Curse 10",
    },
    "dominiate": {
        "bots": "benchmarks/peers/dominiate/{big_money,smithy_bm}.coffee (Dominiate strategy files, gainPriority)",
        "kingdom": "Smithy, Village, Market, Militia, Moat, Cellar, Chapel, Workshop, Laboratory, Festival",
        "seats": "State.initialize with the AI list in alternating order (randomizeOrder not used)",
        "ties": "engine: getWinners ranks VP - turns/100, so equal VP -> fewer turns wins, else shared",
        "last_province_rule": "engine, always on: getSingleBuyDecision drops a buy for which buyCausesToLose "
                              "(game would end with the buyer not among getWinners); bot falls through to Gold",
        "solo": "1-player State (8 Provinces); whole turns until the player owns 4 Provinces",
        "supply_notes": "2 players: 8 Provinces/Duchies, Estates 8 in supply, Copper 60, Silver 40, Gold 30, Curse 10",
    },
    "dominionsim": {
        "bots": "benchmarks/peers/dominionsim/bots.xml (DominionSim bot XML: buy rules + conditions)",
        "kingdom": "board element: Smithy, Village, Market, Militia, Moat, Cellar, Chapel, Workshop, Laboratory, "
                   "Festival",
        "seats": "players list alternated each game (the GUI's keepOrder off = Collections.shuffle each game)",
        "ties": "engine: most VP, then fewer turns, else shared (DomGame.determineWinners)",
        "last_province_rule": "engine, always on: DomPlayer.suicideIfBuys refuses the last Province (and the "
                              "last card of a third pile) if the buyer would then be behind, or level with more "
                              "turns; the optional real Penultimate Province Rule (bot type AppliesPPR) is off "
                              "by default and off here",
        "solo": "DominionSim's own 1-player mode: DomGame.isGameFinished ends a solo game when the Province "
                "pile (8) is down to 4",
        "supply_notes": "2 players: 8 Provinces/Duchies, Copper 60, Silver 40, Gold 30, Curse 10; only the "
                        "board's and the bots' kingdom piles; games are cut at 60 turns of the first player",
    },
}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--peers", default=",".join(pc.PEERS))
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--solo-games", type=int, default=100_000)
    ap.add_argument("--speed-seconds", type=float, default=20.0)
    ap.add_argument("--only", default="mirror,smithy,solo_bm,solo_smithy,speed")
    ap.add_argument("--variant", default="", help="extra driver flag, e.g. --no-last-province-rule (pyminion)")
    ap.add_argument("--restat", action="store_true",
                    help="recompute the statistics from the raw records in the cache, run nothing")
    ap.add_argument("--out", default=str(REPO / "results" / "dominion_peers" / "peers.json"))
    a = ap.parse_args()
    out = Path(a.out)
    data = json.loads(out.read_text()) if out.exists() else {}
    data.setdefault("peers", {})
    data["machine"] = {"platform": platform.platform(), "processor": platform.processor() or platform.machine(),
                       "note": "2 cores shared with another developer; peers niced (10) and pinned to one CPU"}
    data["definitions"] = {
        "rounds": "turns taken by the seat that moved first (= rounds begun; the game ends after the turn "
                  "that empties the Provinces, so a game ended by the first seat has one more turn for it)",
        "tie_rate": "shared games / games, Wilson 95% interval",
        "first_seat_share_of_decisive": "games won by the seat that moved first / decisive games, Wilson 95%",
        "score": "(wins + ties/2) / games for bot A, normal 95% interval from the per-game score variance",
        "solo": "turns until the one player owns 4 Provinces; mean with normal 95% interval, nearest-rank "
                "percentiles",
        "speed": "big_money mirror games / second of the driver's game loop, one process, one CPU",
        "records": "bot A = big_money (mirror) or smithy_bm (smithy), bot B = big_money; A moves first in "
                   "even-numbered games",
    }
    raw_dir = pc.CACHE / "raw"
    raw_dir.mkdir(parents=True, exist_ok=True)
    if a.restat:
        for key, entry in data["peers"].items():
            for mode in ("mirror", "smithy", "solo_bm", "solo_smithy"):
                f = raw_dir / f"{key}_{mode}.json"
                if mode in entry and f.exists():
                    d = json.loads(f.read_text())
                    keep = {k: entry[mode][k] for k in ("driver_seconds", "measured_at", "crashed_games_dropped",
                                                        "crash_message") if k in entry[mode]}
                    entry[mode] = (pc.solo_stats(d["records"]) if mode.startswith("solo")
                                   else pc.two_player_stats(d["records"])) | keep
        out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        return 0
    extra = [a.variant] if a.variant else []
    suffix = "_no_lpr" if "no-last-province-rule" in a.variant else ""
    for peer in a.peers.split(","):
        key = peer + suffix
        entry = data["peers"].setdefault(key, {})
        entry["versions"] = versions(peer)
        entry["configuration"] = dict(CONFIG[peer])
        if suffix:
            entry["configuration"]["last_province_rule"] = "off (pyminion default: bots take every Province they can afford)"
        for mode in a.only.split(","):
            t = time.time()
            if mode == "speed":
                if suffix:
                    continue
                r = speed.measure(peer, a.speed_seconds)
                entry["speed"] = r
                print(f"{key} speed: {r['games_per_s']:.1f} games/s", flush=True)
                continue
            n = a.solo_games if mode.startswith("solo") else a.games
            try:
                d = pc.run(peer, mode, n, 0.0, extra)
            except pc.PeerMissing as e:
                print(str(e), file=sys.stderr)
                return 2
            (raw_dir / f"{key}_{mode}.json").write_text(json.dumps(d))
            stats = pc.solo_stats(d["records"]) if mode.startswith("solo") else pc.two_player_stats(d["records"])
            stats["driver_seconds"] = d["seconds"]
            if "crashed" in d:
                stats["crashed_games_dropped"] = d["crashed"]
                stats["crash_message"] = d.get("crash_message")
            stats["measured_at"] = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
            entry[mode] = stats
            print(f"{key} {mode}: n={d['games']} in {time.time() - t:.0f} s", flush=True)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
