"""The use cases, each a function that takes the store and the other services it needs.

- ``sync``: write what a `prdigest.sources.protocol.Source` yields, then save its resume state;
- ``analyze`` (run by ``analyze_workers``): facts for stored PRs, cached; ``analyze_selected``:
  the ``prdigest analyze`` job (a window, file rules, known versions, an index's second pass);
- ``narrate`` and ``related``: narratives cached in the store, related work read from it;
- ``report``: a `Report` or a `Feed` from the store (``warm_narratives`` for LLM concurrency);
- ``publish``: every report and feed of a repository as static files.

The CLI, the web app and the workers call these and the models; they do not reach into the
store's tables, and sources and narrators never write to the store themselves.
"""
