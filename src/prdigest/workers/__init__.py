"""Celery workers for followed repositories (the ``[queue]`` extra).

- ``app``: the Celery application (acks late, re-delivery on a lost worker, one queue per step);
- ``tasks``: the steps as small idempotent tasks (sync one repository, analyze one PR, narrate
  one (PR, language, length), publish one repository) and the scheduler's tick;
- ``passes``: a pass's progress in Redis, and the barriers that start each step once the
  previous one is done for a repository;
- ``limits``: what every worker shares through Redis (the per-repository sync lock, the LLM
  concurrency limit, the GitHub rate-limit gate);
- ``status``: pending, running and parked work for `prdigest queue status` and the web app.

Importing the core never imports this package (import-linter checks it): the pipeline runs
the same steps in one process when no broker is configured.
"""
