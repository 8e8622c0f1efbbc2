"""Tables of the store (SQLAlchemy Core). Alembic migrations in ``migrations/`` create them.

Times are stored as naive UTC. Bulky records (the source record, facts, narratives) are JSON
text so the same schema works on SQLite and PostgreSQL.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

repositories = Table(
    "repositories",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("full_name", String(200), nullable=False, unique=True),
)

sync_states = Table(
    "sync_states",
    metadata,
    Column("repository_id", Integer, ForeignKey("repositories.id", ondelete="CASCADE"), primary_key=True),
    Column("source", String(20), primary_key=True),
    Column("state", Text, nullable=False),  # JSON object owned by the source
)

pull_requests = Table(
    "pull_requests",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("repository_id", Integer, ForeignKey("repositories.id", ondelete="CASCADE"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("title", Text, nullable=False),
    Column("state", String(10), nullable=False),
    Column("author", String(200)),
    Column("created_at", DateTime),
    Column("updated_at", DateTime),
    Column("merged_at", DateTime),
    Column("closed_at", DateTime),
    Column("head_sha", String(64)),
    Column("additions", Integer, nullable=False, default=0),
    Column("deletions", Integer, nullable=False, default=0),
    Column("changed_files", Integer, nullable=False, default=0),
    Column("source", String(10), nullable=False),
    # PullRequest.model_dump_json() without the files' full texts (content_before/after),
    # which live once each in file_texts; ``texts`` says which file holds which (see
    # prdigest.store.file_texts). Rows written before revision 0007 hold the whole record.
    Column("record", Text, nullable=False),
    Column("record_hash", String(64), nullable=False),
    Column("texts", Text),
    UniqueConstraint("repository_id", "number", name="uq_pull_requests_repo_number"),
)
Index("ix_pull_requests_repo_merged", pull_requests.c.repository_id, pull_requests.c.merged_at)

facts = Table(
    "facts",
    metadata,
    Column("pull_request_id", Integer, ForeignKey("pull_requests.id", ondelete="CASCADE"), primary_key=True),
    Column("cache_key", String(200), nullable=False),  # record hash + analyzer versions
    Column("verdict", String(20), nullable=False),
    Column("score", Float, nullable=False, default=0.0),
    Column("body", Text, nullable=False),  # Facts.model_dump_json()
)
Index("ix_facts_verdict", facts.c.verdict)

# Searchable labels of a PR's facts (risk tags, modules): one row per label, for filters.
fact_labels = Table(
    "fact_labels",
    metadata,
    Column("pull_request_id", Integer, ForeignKey("pull_requests.id", ondelete="CASCADE"), nullable=False),
    Column("kind", String(20), nullable=False),  # risk | module
    Column("value", String(200), nullable=False),
    UniqueConstraint("pull_request_id", "kind", "value", name="uq_fact_labels"),
)
Index("ix_fact_labels_kind_value", fact_labels.c.kind, fact_labels.c.value)

# Outgoing references of each analyzed PR; incoming ones are found by target.
pr_links = Table(
    "pr_links",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("pull_request_id", Integer, ForeignKey("pull_requests.id", ondelete="CASCADE"), nullable=False),
    Column("target_repository", String(200), nullable=False),
    Column("target_number", Integer, nullable=False),
    Column("target_kind", String(10), nullable=False),
    Column("relation", String(30), nullable=False),
    Column("found_in", String(20), nullable=False),
    Column("evidence", Text, nullable=False, default=""),
)
Index("ix_pr_links_source", pr_links.c.pull_request_id)
Index("ix_pr_links_target", pr_links.c.target_repository, pr_links.c.target_number)

# The dependency ledger: each analyzed PR's dependency changes, replaced with its facts.
dependency_changes = Table(
    "dependency_changes",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("pull_request_id", Integer, ForeignKey("pull_requests.id", ondelete="CASCADE"), nullable=False),
    Column("position", Integer, nullable=False),  # order within the PR's facts
    Column("package", String(200), nullable=False),  # canonical name
    Column("path", Text, nullable=False),
    Column("before", Text),
    Column("after", Text),
    Column("kinds", Text, nullable=False),  # comma-separated DependencyChangeKind
    Column("scope", String(10), nullable=False),
    Column("condition", Text),
    Column("replaced_by", Text),
)
Index("ix_dependency_changes_package", dependency_changes.c.package)
Index("ix_dependency_changes_pr", dependency_changes.c.pull_request_id)

narratives = Table(
    "narratives",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("pull_request_id", Integer, ForeignKey("pull_requests.id", ondelete="CASCADE"), nullable=False),
    Column("lang", String(8), nullable=False),
    Column("length", String(8), nullable=False),
    Column("cache_key", String(200), nullable=False),
    Column("narrator", String(20), nullable=False),
    Column("model", String(200)),
    Column("body", Text, nullable=False),
    Column("tokens_in", Integer, nullable=False, default=0),
    Column("tokens_out", Integer, nullable=False, default=0),
    Column("calls", Integer, nullable=False, default=0),
    Column("seconds", Float, nullable=False, default=0.0),
    Column("created_at", DateTime),
    UniqueConstraint("pull_request_id", "lang", "length", "cache_key", name="uq_narratives_key"),
)

# Conditional-request cache of the GitHub source (ETag / Last-Modified).
http_cache = Table(
    "http_cache",
    metadata,
    Column("key", String(64), primary_key=True),  # sha256 of method + URL (never the token)
    Column("url", Text, nullable=False),
    Column("etag", String(200)),
    Column("last_modified", String(100)),
    Column("body", Text, nullable=False),
)

# Repositories followed on a schedule (`prdigest follow`): where to sync from, how often, and
# how the last pass went. ``location`` is a clone's path for ``git`` (None for ``github``).
follows = Table(
    "follows",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("repository", String(200), nullable=False, unique=True),
    Column("source", String(10), nullable=False),  # git | github
    Column("location", Text),
    Column("every_seconds", Integer, nullable=False),
    Column("languages", String(100), nullable=False),  # comma-separated language codes
    Column("publish_dir", Text),  # where `publish` writes the site; None: the database only
    Column("created_at", DateTime, nullable=False),
    Column("last_run_at", DateTime),
    Column("last_status", String(20)),  # ok | failed | busy
    Column("last_error", Text),
)

# Work that failed after its retries and was put aside with its error (queue status, web).
parked_tasks = Table(
    "parked_tasks",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("task", String(40), nullable=False),  # sync | analyze | narrate | publish
    Column("repository", String(200), nullable=False),
    Column("subject", String(200), nullable=False),  # e.g. "#12 en brief"; "" for the repository
    Column("error", Text, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("parked_at", DateTime, nullable=False),
    UniqueConstraint("task", "repository", "subject", name="uq_parked_tasks_work"),
)
Index("ix_parked_tasks_repository", parked_tasks.c.repository)

# What each LLM endpoint (base URL without credentials, model) accepts, learnt from its
# answers so later runs ask right at once. Never the API key.
llm_endpoints = Table(
    "llm_endpoints",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("base_url", String(500), nullable=False),
    Column("model", String(200), nullable=False),
    Column("response_format", String(20)),  # json_schema | json_object | none; NULL: not learnt
    Column("token_param", String(40), nullable=False),  # max_tokens | max_completion_tokens
    Column("usage", Boolean),  # reports token usage; NULL: not known
    Column("rejected", Text, nullable=False),  # JSON list of what it answered 400 to
    Column("updated_at", DateTime, nullable=False),
    UniqueConstraint("base_url", "model", name="uq_llm_endpoints_endpoint"),
)

# Full file texts of records, once each, by the SHA-256 of their UTF-8 bytes: a file's text
# "after" one PR is the text "before" the next one that touches it.
file_texts = Table(
    "file_texts",
    metadata,
    Column("digest", String(64), primary_key=True),
    Column("body", LargeBinary, nullable=False),  # UTF-8 (bytes, so PostgreSQL takes a NUL)
)

# A reader's watch on one repository (`prdigest watch`): the rules of its slice, as JSON lists
# of strings, the digest's language and lowest verdict, and when its digest was last read.
watches = Table(
    "watches",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(100), nullable=False, unique=True),
    Column("repository", String(200), nullable=False),
    Column("paths", Text, nullable=False),
    Column("packages", Text, nullable=False),
    Column("symbols", Text, nullable=False),
    Column("people", Text, nullable=False),
    Column("lang", String(8), nullable=False),
    Column("min_level", String(20), nullable=False),  # skip | quick-read | read-in-depth
    Column("created_at", DateTime, nullable=False),
    Column("last_read_at", DateTime),
)

# What a watch's digest has read of each PR: delivered (marked read), or looked at and not
# matched under the facts of ``facts_key``. `--unread` leaves out both (the second until the PR
# is analyzed again), so a digest of a long history parses only what is new.
watch_reads = Table(
    "watch_reads",
    metadata,
    Column("watch_id", Integer, ForeignKey("watches.id", ondelete="CASCADE"), primary_key=True),
    Column("pull_request_id", Integer, ForeignKey("pull_requests.id", ondelete="CASCADE"), primary_key=True),
    Column("read_at", DateTime, nullable=False),
    Column("delivered", Boolean, nullable=False),
    Column("facts_key", String(200)),  # the facts looked at, for a PR not delivered
)
Index("ix_watch_reads_pull_request", watch_reads.c.pull_request_id)
