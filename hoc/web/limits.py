"""Every bound the web table keeps, in one place: what a request may ask for, and what the server
holds and does at once. Each is named in docs/web.md and in the 4xx answer that enforces it.

The server is for a person on the same machine, but a request must not be able to take the machine:
each bound caps one way a request could grow memory or CPU without end. The command line keeps its
own, larger bounds (`hoc play`, `hoc replay`, `hoc simulate` are the user's own work)."""
from __future__ import annotations

MAX_BODY = 10_000_000           # bytes of a request body, however it is sent (Content-Length or chunked)
MAX_SAVED_BYTES = 5_000_000     # bytes of a saved game sent for a replay (a whole game is well under 1 MB)
MAX_AGENT_NAME = 300            # characters of one agent name or spec

MAX_ITERATIONS = 20_000         # a search agent's iterations per decision (at most about 3 s a decision, 45 s a
                                #  2-player game on 2 cores: `ismcts_strong` plays 1,500)
MAX_TURN_CAP = 200              # turns each before a game is cut off (the rules' games end long before)

MAX_GAMES = 500                 # games kept, the least recently used dropped first
MAX_GAME_BYTES = 200_000_000    # bytes the kept games hold together (states and logs, estimated), likewise
MAX_REPLAYS = 20                # replays kept, likewise
MAX_REPLAY_BYTES = 64_000_000   # bytes the kept replays hold together (frames kept compressed), likewise
MAX_DECISIONS = 5_000           # decisions of one replay (a long 4-player game has about 3,000)

WORKERS = 2                     # threads that play the agents' decisions and build replays, off the requests
MAX_WAITING = 16                # jobs waiting for a worker; beyond that a new one is refused (503)
THINKING_SECONDS = 600          # CPU seconds a game's agents may think between two human decisions
REPLAY_SECONDS = 120            # CPU seconds one replay may take to build
WAIT_SECONDS = 1.0              # how long a request waits for the agents before it answers "thinking"

MAX_STUDY_AGENTS = 6            # agents a study started on the page names (a tournament of 6: 15 pairings at 2 players)
MAX_STUDY_GAMES = 20_000        # games a study asks for (a simulation's, a pairing's, a princess study's)
MAX_STUDY_TOTAL_GAMES = 40_000  # games one study plays in all (pairings or pairs of princesses included)
STUDY_SECONDS = 600             # CPU seconds one study may take; past them it stops at its next chunk of games
MAX_STUDIES_WAITING = 2         # studies waiting behind the one running; beyond that a 503
MAX_STUDIES_KEPT = 8            # finished studies kept (the oldest dropped first)
