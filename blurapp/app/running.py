"""Running the jobs of blurapp.app.jobs one at a time: what a runner promises (JobRunner; the
window's, blurapp.ui.background_runner, keeps it with threads), InlineRunner, which keeps it in
the caller's thread, step by step, for tests and scripts, and JobGroup, the share of the one
runner that a dialog's jobs make."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, Protocol

from blurapp.core.engines.runs import BlurCancelled

Report = Callable[[Any], None]  # an event from inside one step of a job
JobFunction = Callable[..., Generator[Any, None, Any]]


def _nothing(*_: Any) -> None:
    pass


@dataclass(frozen=True)
class Handlers:
    """What a job's runner tells, and to whom: what it yields or reports (`event`), then its
    answer (`returned`), or its failure (`failed`), or that it let go after being asked to
    stop (`stopped`). A handler not given is told nothing."""

    event: Callable[[Any], None] = _nothing
    returned: Callable[[Any], None] = _nothing
    failed: Callable[[BaseException], None] = _nothing
    stopped: Callable[[], None] = _nothing

    @classmethod
    def of(
        cls,
        on_event: Callable[[Any], None] | None = None,
        on_return: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        on_stop: Callable[[], None] | None = None,
    ) -> Handlers:
        """The handlers a runner's `start` was given, those not given telling nothing."""
        return cls(
            on_event or _nothing, on_return or _nothing, on_error or _nothing, on_stop or _nothing
        )


class JobHandle(Protocol):
    def quit(self) -> None: ...

    def wait(self, ms: int | None = None) -> bool:
        """Wait up to `ms` (None: as long as it takes) for the job to end; whether it has."""
        ...


class JobRunner(Protocol):
    """Runs jobs one at a time, in the order they were started; `quit()` on a job's handle asks
    it to stop at its next check. What a job yields or reports goes to `on_event`, then its
    answer to `on_return`, or its failure to `on_error`, or `on_stop()` once it has let go
    after being asked to stop (or was dropped before it began)."""

    def start(
        self,
        job: JobFunction,
        *arguments: Any,
        on_event: Callable[[Any], None] | None = None,
        on_return: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        on_stop: Callable[[], None] | None = None,
    ) -> JobHandle: ...


@dataclass(eq=False)
class InlineJob:
    job: JobFunction
    arguments: tuple
    handlers: Handlers
    quit_requested: bool = False
    steps: Generator | None = None
    ended: bool = False

    def quit(self) -> None:
        self.quit_requested = True

    def wait(self, ms: int | None = None) -> bool:
        """Nothing runs it but `step()`, in the caller's thread: whether it has ended."""
        return self.ended

    def cancelled(self) -> bool:
        return self.quit_requested


class InlineRunner:
    """A runner without threads: jobs wait until `step()` (one step of the job in hand) or
    `run_all()` runs them, here, in the caller's thread, with the semantics of
    blurapp.ui.background_runner.BackgroundRunner. For tests and scripts."""

    def __init__(self) -> None:
        self.queue: deque[InlineJob] = deque()

    def start(
        self,
        job: JobFunction,
        *arguments: Any,
        on_event: Callable[[Any], None] | None = None,
        on_return: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        on_stop: Callable[[], None] | None = None,
    ) -> InlineJob:
        handlers = Handlers.of(on_event, on_return, on_error, on_stop)
        inline = InlineJob(job, arguments, handlers)
        self.queue.append(inline)
        return inline

    def busy(self) -> bool:
        return bool(self.queue)

    def step(self) -> bool:
        """Run the next step of the job in hand; whether there was one."""
        if not self.queue:
            return False
        job = self.queue[0]
        told = job.handlers
        if job.steps is None:
            if job.quit_requested:
                self._end(told.stopped)
                return True
            job.steps = job.job(*job.arguments, cancelled=job.cancelled, report=self._tell(job))
        if job.quit_requested:  # honoured at the step's end, as superqt's workers do
            job.steps.close()
            self._end(told.stopped)
            return True
        try:
            event = next(job.steps)
        except StopIteration as returned:
            self._end(told.returned, returned.value)
        except BlurCancelled:
            self._end(told.stopped)
        except Exception as error:
            self._end(told.failed, error)
        else:
            self._tell(job)(event)
        return True

    def run_all(self) -> None:
        while self.step():
            pass

    @staticmethod
    def _tell(job: InlineJob) -> Report:
        def tell(event: Any) -> None:
            if event is not None:
                job.handlers.event(event)

        return tell

    def _end(self, handler: Callable[..., None], *answer: Any) -> None:
        self.queue.popleft().ended = True
        handler(*answer)


@dataclass(eq=False)
class _Member:
    handlers: Handlers
    handle: JobHandle | None = None
    silenced: bool = False


class JobGroup:
    """The jobs one dialog (the scaling sweep, a blur by blocks) starts on the window's one
    runner: they wait their turn there among the window's own, in the order started, and
    `stop()` quits them and tells nothing more of them, leaving the window's jobs alone."""

    def __init__(self, runner: JobRunner) -> None:
        self.runner = runner
        self._members: list[_Member] = []

    def start(
        self,
        job: JobFunction,
        *arguments: Any,
        on_event: Callable[[Any], None] | None = None,
        on_return: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        on_stop: Callable[[], None] | None = None,
    ) -> JobHandle:
        member = _Member(Handlers.of(on_event, on_return, on_error, on_stop))
        self._members.append(member)  # before the runner may end it (dropped at once)

        def event(value: Any) -> None:
            if not member.silenced:
                member.handlers.event(value)

        def ending(handler: Callable[..., None]) -> Callable[..., None]:
            def end(*answer: Any) -> None:
                if member in self._members:
                    self._members.remove(member)
                if not member.silenced:
                    handler(*answer)

            return end

        told = member.handlers
        member.handle = self.runner.start(
            job,
            *arguments,
            on_event=event,
            on_return=ending(told.returned),
            on_error=ending(told.failed),
            on_stop=ending(told.stopped),
        )
        return member.handle

    def busy(self) -> bool:
        """Whether a job of this group is waiting or running."""
        return bool(self._members)

    def stop(self, wait_ms: int | None = None) -> bool:
        """Quit every job of this group, and tell nothing more of them; wait up to `wait_ms`
        (None: as long as it takes) for them to end. Whether they have (a job still inside one
        uninterruptible call ends on its own)."""
        members, self._members = self._members, []
        for member in members:
            member.silenced = True
            if member.handle is not None:
                member.handle.quit()
        return all(member.handle.wait(wait_ms) for member in members if member.handle is not None)
