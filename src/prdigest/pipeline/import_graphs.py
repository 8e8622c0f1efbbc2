"""The import graph of each repository whose PRs are analyzed, read once from its clone.

Read at the clone's ``HEAD`` when analysis starts (one pass over its source files), so a
PR's fan-in is how much of the repository imports its files at that commit, which the
evidence names. A repository with no clone (a GitHub or bundle source) has no graph, and
no fan-in is claimed for its PRs.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from prdigest.analyzers.import_graph import MAX_TEXT_BYTES, ImportGraph, build_graph, is_graph_file
from prdigest.errors import SourceError
from prdigest.pipeline.origins import clone_of
from prdigest.sources.git.runner import try_git_text
from prdigest.sources.git.tree_texts import tree_texts
from prdigest.store.store import Store

log = logging.getLogger(__name__)


def import_graphs(store: Store, repositories: Iterable[str]) -> dict[str, ImportGraph]:
    """The graph of each repository (keyed lower-case) whose clone is still there."""
    graphs: dict[str, ImportGraph] = {}
    for repository in sorted(set(repositories)):
        clone = clone_of(store, repository)
        if clone is None:
            continue
        commit = try_git_text(clone, ["rev-parse", "--verify", "HEAD^{commit}"])
        if not commit:
            continue
        try:
            texts = tree_texts(clone, commit, is_graph_file, max_bytes=MAX_TEXT_BYTES)
        except SourceError as exc:  # a broken clone costs the fan-in, not the analysis
            log.warning("%s: no import graph: %s", repository, exc)
            continue
        graphs[repository.lower()] = build_graph(commit, texts)
    return graphs
