"""The web table's slow work off the request path: the agents' decisions and the building of replays
run on a few worker threads, so a request that only reads (a game's state, a replay's frame, a page)
is answered at once while a search thinks. The jitted agents release the interpreter's lock while
they decide (`hoc.engine.jit`: every entry kernel is compiled `nogil`), so a thinking search holds one
core and none of the server's Python.

A bounded number of jobs may wait; a request that would add one more is refused with a 503 naming
the bound, and can be tried again."""
from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor

from hoc.web import limits
from hoc.web.errors import Refused


class Busy(Refused):
    status = 503


class Workers:
    def __init__(self, workers: int = limits.WORKERS, waiting: int = limits.MAX_WAITING):
        self.workers, self.waiting = workers, waiting
        self._pool: ThreadPoolExecutor | None = None       # started with the server (or at the first job)
        self._jobs = 0
        self._lock = threading.Lock()
        self.stopping = threading.Event()

    def start(self) -> None:
        """Start the threads (the server's start: an app may be started and stopped several times)."""
        with self._lock:
            self._start()

    def _start(self) -> None:
        if self._pool is None:
            self.stopping.clear()
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="hoc-web-worker")

    def check(self) -> None:
        """A Busy refusal when the workers and the queue are full (before work that will need them)."""
        with self._lock:
            self._check()

    def _check(self) -> None:
        if self._jobs >= self.workers + self.waiting:
            raise Busy(f"the web table is busy: {self._jobs} jobs (agents thinking, replays being built) are "
                       f"running or waiting, at most {self.workers} + {self.waiting}; try again shortly")

    def submit(self, fn, *args) -> Future:
        """Run fn(*args) on a worker; a Busy refusal when the workers and the queue are full."""
        with self._lock:
            self._check()
            self._start()
            self._jobs += 1
            pool = self._pool
        try:
            future = pool.submit(fn, *args)
        except RuntimeError:            # the server is shutting down
            self._finished(None)
            raise Busy("the web table is shutting down") from None
        future.add_done_callback(self._finished)
        return future

    def _finished(self, _future) -> None:
        with self._lock:
            self._jobs -= 1

    def run(self, fn, *args):
        """fn(*args) on a worker, waited for (the request's thread sleeps meanwhile, holding nothing)."""
        return self.submit(fn, *args).result()

    def budget(self, seconds: float) -> "Budget":
        """A job's CPU budget, spent at once when the server stops."""
        return Budget(seconds, self.stopping)

    def shutdown(self) -> None:
        """Stop: jobs waiting are dropped, running ones end at their next step (one decision at most)."""
        with self._lock:
            pool, self._pool = self._pool, None
            self.stopping.set()
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


class Budget:
    """CPU seconds a job may spend (`time.thread_time`: its thread's own, not the wall's, so a loaded
    machine does not cut work short), counted from `begin` in the job's thread; spent at once when
    `stop` is set (the server stops)."""

    def __init__(self, seconds: float, stop: threading.Event | None = None):
        self.seconds, self.stop, self.start, self._begun = seconds, stop, time.thread_time(), False

    def begin(self) -> "Budget":
        """Start counting, in the thread that does the job (once: a job of several steps shares it)."""
        if not self._begun:
            self.start, self._begun = time.thread_time(), True
        return self

    def spent(self) -> bool:
        return time.thread_time() - self.start > self.seconds or (self.stop is not None and self.stop.is_set())
