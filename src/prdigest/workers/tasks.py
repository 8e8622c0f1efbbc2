"""The steps of a pass as Celery tasks, each small and idempotent, and the scheduler's tick.

    sync(pass, repo)                      under the repository's lock; opens "analyze"
    analyze(pass, repo, number)           current facts for one PR; the last opens "narrate"
    narrate(pass, repo, number, lang, length)  one narrative into the cache, within the
                                          shared LLM limit; the last starts "publish"
    publish(pass, repo)                   the repository's site, when it has a folder

A failing task is retried with exponential backoff; once its retries are spent it is
parked in the database with its error (`prdigest queue status`, the web app) and still
arrives at its step's barrier, so the rest of the pass goes on without it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, cast

from celery import Celery, Task

from prdigest.pipeline import follow as steps
from prdigest.store import follow_store
from prdigest.workers.app import Runtime, send
from prdigest.workers.limits import RedisRateGate, llm_slot, repository_lock
from prdigest.workers.passes import Passes


def _subject(name: str, args: tuple[Any, ...]) -> tuple[str, str]:
    """(repository, subject) of a task's arguments, for parking it."""
    repository = str(args[1]) if len(args) > 1 else ""
    if name == "analyze":
        return repository, f"#{args[2]}"
    if name == "narrate":
        return repository, f"#{args[2]} {args[3]} {args[4]}"
    return repository, ""


def register(app: Celery, runtime: Runtime) -> None:
    queue = runtime.queue

    class Step(Task):  # type: ignore[misc]
        """Retried with backoff, then parked; ``step`` names its queue and its barrier."""

        step = ""
        autoretry_for = (Exception,)
        max_retries = queue.max_retries
        retry_backoff = queue.retry_delay
        retry_backoff_max = 600
        retry_jitter = False

        def on_failure(self, exc: BaseException, task_id: str, args: tuple[Any, ...], kwargs: Any, einfo: Any) -> None:
            repository, subject = _subject(self.step, args)
            message = f"{type(exc).__name__}: {exc}"
            attempts = int(self.request.retries or 0) + 1
            follow_store.park(runtime.store(), self.step, repository, subject, message, attempts)
            pass_id = str(args[0])
            passes = Passes(runtime.redis())
            passes.count(pass_id, repository, "failed")
            passes.note_error(pass_id, repository, f"{self.step} {subject}: {message}".replace("  ", " "))
            if self.step == "sync":
                _finish(pass_id, repository, "failed", message)
            elif self.step == "analyze":
                if passes.arrive(pass_id, repository, "analyze", str(args[2]), failed=True)[1]:
                    _open_narrate(pass_id, repository)
            elif self.step == "narrate":
                if passes.arrive(pass_id, repository, "narrate", _narration_member(args), failed=True)[1]:
                    _after_narrate(pass_id, repository)
            elif self.step == "publish":
                _finish(pass_id, repository, "failed", message)

    def _unpark(step: str, repository: str, subject: str) -> None:
        store = runtime.store()
        if any(p.task == step and p.subject == subject for p in follow_store.list_parked(store, repository)):
            follow_store.unpark(store, step, repository, subject)

    def _finish(pass_id: str, repository: str, status: str, error: str | None = None) -> None:
        if Passes(runtime.redis()).finish(pass_id, repository, status):
            follow_store.mark_run(runtime.store(), repository, status, error)

    def _open_narrate(pass_id: str, repository: str) -> None:
        passes = Passes(runtime.redis())
        numbers = [int(member) for member in passes.succeeded(pass_id, repository, "analyze")]
        follow = follow_store.get_follow(runtime.store(), repository)
        jobs = steps.narrations_for(follow, numbers)
        passes.open_step(pass_id, repository, "narrate", len(jobs))
        for number, lang, length in jobs:
            send(app, "prdigest.narrate", pass_id, repository, number, lang, length)
        if not jobs:
            _after_narrate(pass_id, repository)

    def _after_narrate(pass_id: str, repository: str) -> None:
        passes = Passes(runtime.redis())
        analyzed = passes.succeeded(pass_id, repository, "analyze")
        follow = follow_store.get_follow(runtime.store(), repository)
        if steps.needs_publish(follow, bool(analyzed)):
            passes.set_status(pass_id, repository, "publish")
            send(app, "prdigest.publish", pass_id, repository)
        else:
            _finish(pass_id, repository, "ok")

    @_task(app, base=Step, bind=True, name="prdigest.sync", step="sync")
    def sync(self: Task, pass_id: str, repository: str) -> str:
        store, client = runtime.store(), runtime.redis()
        passes = Passes(client)
        follow = follow_store.get_follow(store, repository)
        with repository_lock(client, repository) as mine:
            if not mine:
                # Another worker is syncing it now; what this pass wanted, that sync brings.
                _finish(pass_id, repository, "busy")
                return "busy"
            passes.set_status(pass_id, repository, "syncing")
            gate = RedisRateGate(client, runtime.settings.github.token)
            outcome = steps.sync_follow(store, follow, runtime.settings, gate=gate)
        _unpark("sync", repository, "")
        passes.count(pass_id, repository, "synced", outcome.inserted + outcome.updated)
        passes.open_step(pass_id, repository, "analyze", len(outcome.to_analyze))
        for number in outcome.to_analyze:
            send(app, "prdigest.analyze", pass_id, repository, number)
        if not outcome.to_analyze:
            _open_narrate(pass_id, repository)
        return "synced"

    @_task(app, base=Step, bind=True, name="prdigest.analyze", step="analyze")
    def analyze(self: Task, pass_id: str, repository: str, number: int) -> None:
        steps.analyze_pr(runtime.store(), repository, number)
        _unpark("analyze", repository, f"#{number}")
        passes = Passes(runtime.redis())
        first, complete = passes.arrive(pass_id, repository, "analyze", str(number))
        passes.count(pass_id, repository, "analyzed", int(first))  # a re-delivery counts once
        if complete:
            # Every PR of the pass has its facts: the pass across them (a re-delivery makes
            # the same links again), then the narrations, which read what it found.
            steps.link_prs(runtime.store(), repository)
            _open_narrate(pass_id, repository)

    @_task(app, base=Step, bind=True, name="prdigest.narrate", step="narrate")
    def narrate(self: Task, pass_id: str, repository: str, number: int, lang: str, length: str) -> None:
        from prdigest.words import CATALOG

        store, llm = runtime.store(), runtime.settings.llm
        code = CATALOG.lang(lang)
        if llm is None:
            computed = steps.narrate_pr(store, repository, number, code, length, None)  # type: ignore[arg-type]
        else:
            with llm_slot(runtime.redis(), llm.concurrency):
                computed = steps.narrate_pr(store, repository, number, code, length, llm)  # type: ignore[arg-type]
        _unpark("narrate", repository, f"#{number} {lang} {length}")
        passes = Passes(runtime.redis())
        member = _narration_member((pass_id, repository, number, lang, length))
        first, complete = passes.arrive(pass_id, repository, "narrate", member)
        passes.count(pass_id, repository, "narrated", int(computed and first))  # a re-delivery counts once
        if complete:
            _after_narrate(pass_id, repository)

    @_task(app, base=Step, bind=True, name="prdigest.publish", step="publish")
    def publish(self: Task, pass_id: str, repository: str) -> None:
        store = runtime.store()
        follow = follow_store.get_follow(store, repository)
        published = steps.publish_follow(store, follow, runtime.settings.llm)
        _unpark("publish", repository, "")
        Passes(runtime.redis()).count(pass_id, repository, "published", published.reports)
        _finish(pass_id, repository, "ok")

    @_task(app, name="prdigest.tick")
    def tick() -> str | None:
        """The scheduler's beat: one pass over the followed repositories that are due."""
        store = runtime.store()
        now = datetime.now(UTC)
        due = [follow.repository for follow in follow_store.list_follows(store) if follow.due(now)]
        if not due:
            return None
        return start_pass(app, runtime, due)

    del sync, analyze, narrate, publish, tick


def _task(app: Celery, **options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``app.task`` with a type (Celery has none), so the tasks keep theirs for mypy."""
    return cast(Callable[[Callable[..., Any]], Any], app.task(**options))


def _narration_member(args: tuple[Any, ...]) -> str:
    return f"{args[2]}/{args[3]}/{args[4]}"


def start_pass(app: Celery, runtime: Runtime, repositories: list[str]) -> str:
    """Enqueue one pass over these repositories; returns its id (for `follow run --wait`)."""
    from prdigest.workers.passes import new_pass_id

    pass_id = new_pass_id()
    Passes(runtime.redis()).start(pass_id, repositories)
    store = runtime.store()
    for repository in repositories:
        follow_store.mark_run(store, repository, "queued")
        send(app, "prdigest.sync", pass_id, repository)
    return pass_id
