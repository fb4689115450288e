"""Jobs: every call into the assistant or the memory runs off the UI thread, one at a time, in order.

The store has one writer, so jobs never overlap. A job's ``done`` runs back on the UI thread
(through :class:`JobRunner.JobDone`); a job that raises reaches the app's one worker-error
handler, which calls :meth:`JobRunner.job_failed`.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from textual import work
from textual.message import Message

if TYPE_CHECKING:
    from ibachat.assistant import Assistant


@dataclass
class Job:
    """A call into the assistant, run off the UI thread; ``done`` runs on the UI thread."""

    label: str
    work: Callable[[], Any]
    done: Callable[[Any], None] | None = None
    failed: Callable[[BaseException], None] | None = None
    result: Any = field(default=None, repr=False)
    cancel: threading.Event | None = None  # set to stop the job at its next step (an answer's next token)


def describe_error(error: BaseException | None) -> str:
    """One line for a person: a user error as it is, anything else named as internal."""
    from ibachat.errors import USER_ERRORS

    if error is None:
        return "unknown error"
    if isinstance(error, USER_ERRORS):
        return str(error)
    return f"internal error: {type(error).__name__}: {error}"


class JobRunner:
    """Mixed into the app: a queue of jobs run by a thread worker once the assistant exists."""

    assistant: Assistant | None
    _jobs: deque[Job]
    _current_job: Job | None

    @dataclass
    class JobDone(Message):
        job: Job

    def run_job(
        self,
        label: str,
        work_fn: Callable[[], Any],
        done: Callable[[Any], None] | None = None,
        failed: Callable[[BaseException], None] | None = None,
        *,
        first: bool = False,
    ) -> Job:
        """Queue a call into the assistant; jobs run one at a time, in order."""
        job = Job(label, work_fn, done, failed)
        if first:
            self._jobs.appendleft(job)
        else:
            self._jobs.append(job)
        self._pump()
        return job

    def _pump(self) -> None:
        if self._current_job is None and self._jobs and self.assistant is not None:
            self._current_job = self._jobs.popleft()
            self._job_worker(self._current_job)
        self.refresh_bindings()  # the footer's "Stop" shows only while an answer can be stopped

    @work(thread=True, group="assistant", exit_on_error=False)
    def _job_worker(self, job: Job) -> None:
        if job.cancel is not None and job.cancel.is_set():  # stopped while it waited its turn
            from ibachat.errors import Cancelled

            raise Cancelled("stopped before it started")
        job.result = job.work()
        self.post_message(self.JobDone(job))

    def on_job_runner_job_done(self, event: JobRunner.JobDone) -> None:
        job = event.job
        if job is self._current_job:
            self._current_job = None
        if job.done is not None:
            job.done(job.result)
        self._pump()

    def job_failed(self, error: BaseException | None) -> None:
        """The running job raised: tell its owner and the user, then go on with the next one."""
        from ibachat.errors import Cancelled

        job, self._current_job = self._current_job, None
        if job is not None and job.failed is not None and error is not None:
            job.failed(error)
        if isinstance(error, Cancelled):
            self.notify("Stopped; that message was not remembered.", title="Stopped", timeout=4)
        else:
            self.notify(
                describe_error(error), title=job.label if job else "error", severity="error", timeout=8
            )
        self._pump()

    def need_assistant(self) -> Assistant:
        assert self.assistant is not None, "jobs run only once the assistant is loaded"
        return self.assistant
