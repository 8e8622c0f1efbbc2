"""Bring a database to the schema this prdigest knows, refusing one written by a newer one."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection, Engine, inspect, text

from prdigest.errors import SchemaTooNew

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
# Every revision this code knows, oldest first. A test checks it matches migrations/versions.
KNOWN_REVISIONS: tuple[str, ...] = ("0001", "0002", "0003")
HEAD_REVISION = KNOWN_REVISIONS[-1]


def current_revision(connection: Connection) -> str | None:
    if not inspect(connection).has_table("alembic_version"):
        return None
    row = connection.execute(text("SELECT version_num FROM alembic_version")).first()
    return None if row is None else str(row[0])


def upgrade(engine: Engine) -> None:
    """Run pending migrations; cheap when the database is already at head."""
    with engine.connect() as connection:
        revision = current_revision(connection)
    if revision == HEAD_REVISION:
        return
    if revision is not None and revision not in KNOWN_REVISIONS:
        raise SchemaTooNew(
            f"the database has schema revision {revision!r}, newer than this prdigest knows "
            f"(up to {HEAD_REVISION!r}); upgrade prdigest"
        )
    _run_alembic(engine, "upgrade", "head")


def downgrade(engine: Engine, revision: str) -> None:
    _run_alembic(engine, "downgrade", revision)


def _run_alembic(engine: Engine, action: str, target: str) -> None:
    # Imported here: alembic is only needed when the schema actually changes.
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        getattr(command, action)(config, target)
