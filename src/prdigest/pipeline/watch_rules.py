"""Making a watch from what a reader typed (the CLI's options, the web form): every rule
checked, names normalized, and the repository known to the database before it is saved."""

from __future__ import annotations

import re
from collections.abc import Iterable

from prdigest.errors import ConfigError, NotFound
from prdigest.facts_view.path_glob import check_glob
from prdigest.models.facts import VerdictLevel
from prdigest.models.ledger import canonical_package
from prdigest.models.watch import Watch
from prdigest.store.store import Store
from prdigest.store.watch_store import save_watch
from prdigest.words import CATALOG, languages

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
_REPOSITORY = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_LOGIN = re.compile(r"^[^\s/]{1,200}$")
_SYMBOL = re.compile(r"^[^\s]{1,300}$")
LEVELS: tuple[str, ...] = tuple(
    level.value for level in (VerdictLevel.SKIP, VerdictLevel.QUICK_READ, VerdictLevel.READ_IN_DEPTH)
)


def check_name(name: str) -> str:
    if not _NAME.match(name):
        raise ConfigError(
            f"a watch name is up to 100 letters, digits, '.', '_' or '-', starting with a letter or digit; got {name!r}"
        )
    return name


def _kept(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(value.strip() for value in values if value.strip()))


def new_watch(
    name: str,
    repository: str,
    *,
    paths: Iterable[str] = (),
    packages: Iterable[str] = (),
    symbols: Iterable[str] = (),
    people: Iterable[str] = (),
    lang: str,
    min_level: str = "skip",
) -> Watch:
    """The watch, or ConfigError naming the first bad rule."""
    check_name(name)
    if not _REPOSITORY.match(repository):
        raise ConfigError(f"--repo expects OWNER/NAME, got {repository!r}")
    if lang not in languages():
        raise ConfigError(f"--lang expects one of {', '.join(languages())}, got {lang!r}")
    if min_level not in LEVELS:
        raise ConfigError(f"--min-level expects one of {', '.join(LEVELS)}, got {min_level!r}")
    for login in _kept(people):
        if not _LOGIN.match(login):
            raise ConfigError(f"--author expects a login, got {login!r}")
    for symbol in _kept(symbols):
        if not _SYMBOL.match(symbol):
            raise ConfigError(f"--symbol expects a name like Scheduler.run, got {symbol!r}")
    watch = Watch(
        name=name,
        repository=repository,
        paths=tuple(dict.fromkeys(check_glob(p) for p in paths)),
        packages=tuple(dict.fromkeys(canonical_package(p) for p in _kept(packages))),
        symbols=tuple(_kept(symbols)),
        people=tuple(_kept(people)),
        lang=CATALOG.lang(lang),
        min_level=VerdictLevel(min_level),
    )
    if not watch.has_rules():
        raise ConfigError("a watch needs at least one --path, --package, --symbol or --author")
    return watch


def create_watch(store: Store, watch: Watch) -> bool:
    """Save the watch on a repository the database holds; True when it is new."""
    if not store.list_prs(repository=watch.repository, limit=1):
        raise NotFound(f"no pull requests of {watch.repository} in the database; run `prdigest sync` first")
    return save_watch(store, watch)


def describe(watch: Watch) -> str:
    """The watch's rules on one line: ``path src/** · package numpy · person alice``."""
    parts = [
        *(f"path {p}" for p in watch.paths),
        *(f"package {p}" for p in watch.packages),
        *(f"symbol {s}" for s in watch.symbols),
        *(f"person {p}" for p in watch.people),
    ]
    if watch.min_level is not VerdictLevel.SKIP:
        parts.append(f"from {watch.min_level.value}")
    return " · ".join(parts)
