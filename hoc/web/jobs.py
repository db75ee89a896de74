"""Long jobs of the web table (a supply report, a study started from its page): for each kind of job,
one thread of its own runs one at a time, a few more may wait, and a request beyond that is refused
(503). The request that starts one answers at once (202) with the job's id; the page asks for its
progress and, at the end, its report. A job stops at its next step when the server stops or when it
has spent its CPU budget (if it has one); the last few finished jobs are kept in memory, the oldest
dropped first."""
from __future__ import annotations

import queue
import secrets
import threading
from typing import Callable

from hoc.errors import HocError
from hoc.web.errors import NotFound, Refused
from hoc.web.workers import Budget

MAX_PROGRESS = 50               # progress lines kept per job


class Stopped(Exception):
    pass


class Job:
    def __init__(self, kind: str, label: str, total: int, command: str):
        self.id = secrets.token_hex(8)
        self.kind, self.label, self.total, self.command = kind, label, total, command
        self.state = "waiting"
        self.done = 0
        self.progress: list[str] = []
        self.report = ""                # the report in words, as the command prints it
        self.data: dict | None = None   # its figures, as the command's --json prints them
        self.error = ""

    def view(self) -> dict:
        return {"id": self.id, "kind": self.kind, "state": self.state, "label": self.label, "done": self.done,
                "total": self.total, "progress": self.progress[-MAX_PROGRESS:], "error": self.error,
                "report": self.report, "data": self.data, "command": self.command}


class Jobs:
    """The jobs of one kind of work (`what`, for the messages) and their one thread."""

    def __init__(self, what: str, stopping: threading.Event, seconds: float | None, waiting: int = 2, kept: int = 8):
        self.what, self.stopping, self.seconds, self.waiting, self.kept = what, stopping, seconds, waiting, kept
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.thread: threading.Thread | None = None     # started at the first job; a daemon: it never holds
                                                        # the process when it ends

    def start(self, job: Job, work: Callable[[Job, Callable[[int | str], None]], tuple[str, dict]]) -> Job:
        """Queue `work(job, told)` -> (report, data); `told(n)` counts n more games done, `told(line)`
        adds a progress line, and either stops the job when the server stops or its budget (`seconds`
        of CPU; None: none) is spent. A 503 when too many are waiting."""
        with self.lock:
            busy = sum(j.state in ("waiting", "running") for j in self.jobs.values())
            if busy > self.waiting:
                raise Refused(f"{busy} {self.what} are running or waiting, at most 1 + {self.waiting}; try again when "
                              f"one is done", 503)
            done = [k for k, j in self.jobs.items() if j.state in ("done", "failed")]
            while len(done) >= self.kept:
                self.jobs.pop(done.pop(0))
            self.jobs[job.id] = job
            if self.thread is None:
                self.thread = threading.Thread(target=self._serve, name="hoc-web-jobs", daemon=True)
                self.thread.start()
        self.queue.put((job, work))
        return job

    def _serve(self) -> None:
        while True:
            job, work = self.queue.get()
            if job is None:
                return
            self._run(job, work)

    def _run(self, job: Job, work) -> None:
        budget = Budget(self.seconds, self.stopping).begin() if self.seconds is not None else None

        def told(step: int | str) -> None:
            if self.stopping.is_set():
                raise Stopped("the server stopped")
            if isinstance(step, str):
                job.progress.append(step)
            else:
                job.done += int(step)
                job.progress.append(f"{job.done:,} of {job.total:,} games played")
            del job.progress[:-MAX_PROGRESS]
            if budget is not None and budget.spent():
                raise Stopped(f"the job stopped after {budget.seconds:g} s of CPU (the web table's bound); the "
                              f"command line has no such bound: {job.command}")

        job.state = "running"
        try:
            if self.stopping.is_set():
                raise Stopped("the server stopped")
            job.report, data = work(job, told)
            from hoc.web.results import finite

            job.data = finite(data)
            job.state = "done"
        except (Stopped, HocError) as e:
            job.error, job.state = str(e), "failed"
        except Exception as e:          # a failure of this job alone; the server goes on
            job.error, job.state = f"the job failed: {type(e).__name__}", "failed"

    def get(self, key: str) -> Job:
        with self.lock:
            job = self.jobs.get(key)
        if job is None:
            raise NotFound(f"no job {key[:40]!r} among the {self.what} (the server keeps the last {self.kept})")
        return job

    def shutdown(self) -> None:
        """Stop taking jobs (the one running ends at its next step once the server's `stopping` is set)."""
        self.queue.put((None, None))
