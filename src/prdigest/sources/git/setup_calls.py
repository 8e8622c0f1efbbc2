"""What a clone says about itself before its ``git log`` starts, asked in two rounds of
concurrent git calls instead of seven in a row (each call is a process start that the log,
and so the whole sync, waits for).

Round one: the repository's kind (bare, shallow, where its shallow list is), its top, the
origin URL and origin/HEAD. Round two: the commit and the short name of the branch read.
Answers are judged in the order the calls once ran one by one, so each failure gives the
same error as before (not a repository, no name, no such branch, no commits).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from prdigest.errors import ConfigError, NoPullRequestsFound, NotAGitRepository
from prdigest.sources.git.repository import name_from_origin, validate_repository_name
from prdigest.sources.git.runner import PendingGitText, check_readable_directory
from prdigest.sources.git.shallow import read_shallow_list

# Three lines in any repository, bare or not: "true"/"false" twice, then a path.
_KIND = ("--is-bare-repository", "--is-shallow-repository", "--git-path", "shallow")
_ORIGIN_HEAD = "refs/remotes/origin/HEAD"


@dataclass(frozen=True, slots=True)
class CloneSetup:
    repo: Path  # the top of the work tree, or the bare repository
    repository: str  # OWNER/NAME
    branch: str  # the ref read (``--branch``, origin/HEAD or HEAD)
    tip: str  # the commit it names
    base_ref: str | None  # its short name (``main``), None for a detached HEAD
    shallow: frozenset[str] | None  # a shallow clone's cut-off commits; None for a full clone


def clone_setup(path: Path, given_repository: str | None, given_branch: str | None) -> CloneSetup:
    check_readable_directory(path)
    kind = PendingGitText(path, ["rev-parse", *_KIND])
    top = PendingGitText(path, ["rev-parse", "--show-toplevel"])  # fails in a bare repository: then unused
    url = PendingGitText(path, ["config", "--get", "remote.origin.url"]) if given_repository is None else None
    origin_head = None if given_branch else PendingGitText(path, ["symbolic-ref", "--quiet", _ORIGIN_HEAD])
    first = _Candidate(path, given_branch) if given_branch else None
    try:
        answer = kind.result()
        lines = answer.splitlines() if answer is not None else []
        if len(lines) != 3:
            raise NotAGitRepository(f"{path} is not a git repository (no .git found here or above)")
        bare, is_shallow, shallow_path = lines
        if bare == "true":
            repo = path.resolve()
        else:
            shown = top.result()
            repo = Path(shown).resolve() if shown else path.resolve()
        repository = _repository(repo, given_repository, url)
        if first is None:
            named = origin_head.result() if origin_head is not None else None
            first = _Candidate(path, named or "HEAD")
        branch, tip, base_ref = _branch(repo, first, given_branch, fallback=path if first.ref != "HEAD" else None)
    finally:
        for call in (kind, top, url, origin_head):
            if call is not None:
                call.close()
        if first is not None:
            first.close()
    shallow = read_shallow_list(path, shallow_path) if is_shallow == "true" else None
    return CloneSetup(repo, repository, branch, tip, base_ref, shallow)


class _Candidate:
    """A ref that may be the branch read: its commit and its short name, asked together."""

    def __init__(self, path: Path, ref: str) -> None:
        self.ref = ref
        self._commit = PendingGitText(path, ["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"])
        self._short = PendingGitText(path, ["rev-parse", "--abbrev-ref", ref])

    def commit(self) -> str | None:
        return self._commit.result() or None

    def base_ref(self) -> str | None:
        name = self._short.result()
        if not name or name == "HEAD":
            return None
        return name.removeprefix("origin/")

    def close(self) -> None:
        self._commit.close()
        self._short.close()


def _repository(repo: Path, given: str | None, url_call: PendingGitText | None) -> str:
    """The ``--repo`` value, else the name in the ``origin`` URL."""
    if given is not None:
        return validate_repository_name(given)
    return name_from_origin(repo, url_call.result() if url_call is not None else None)


def _branch(repo: Path, first: _Candidate, given: str | None, *, fallback: Path | None) -> tuple[str, str, str | None]:
    """(ref, commit, short name) of the branch read: ``--branch``, else the first of
    origin/HEAD and HEAD that names a commit."""
    tip = first.commit()
    if tip:
        return first.ref, tip, first.base_ref()
    if given:
        raise ConfigError(f"--branch {given!r} is not a branch or commit of {repo}")
    if fallback is not None:
        head = _Candidate(fallback, "HEAD")
        try:
            tip = head.commit()
            if tip:
                return "HEAD", tip, head.base_ref()
        finally:
            head.close()
    raise NoPullRequestsFound(f"{repo} has no commits yet, so no pull requests to read")
