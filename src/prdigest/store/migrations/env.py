"""Alembic environment: run migrations on the connection the store hands over."""

from __future__ import annotations

from alembic import context

from prdigest.store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - prdigest always passes its connection
    raise RuntimeError("prdigest migrations run through prdigest.store, not the alembic CLI")

context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
