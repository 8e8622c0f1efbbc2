"""Rendered reports, stored for `prdigest.store.quick.cached_report` (SQLite only).

A document is stored under the epoch read before its inputs were read, and only if the epoch
is still that one when it is stored: a write by anyone in between (the triggers of migration
0006 move the epoch on every write to every other table) means the document may mix old and
new data, and it is not stored. Other databases have no triggers, so nothing is cached there.
"""

from __future__ import annotations

from sqlalchemy import text

from prdigest.store.store import Store


def report_epoch(store: Store) -> int | None:
    """The database's write epoch, or None when reports are not cached in this store."""
    if store.read_only or store._engine.dialect.name != "sqlite":
        return None
    with store._engine.connect() as connection:
        value = connection.execute(text("SELECT value FROM report_epoch WHERE id = 1")).scalar()
    return None if value is None else int(value)


def save_report(
    store: Store,
    repository: str,
    number: int,
    choice: tuple[str, str, str],
    code: str,
    epoch: int,
    body: str,
) -> bool:
    """Store one rendered report ((lang, length, format) ``choice``) made from the data of
    ``epoch`` by code ``code``; nothing is stored (False) when the epoch has moved since."""
    if report_epoch(store) is None:
        return False
    lang, length, fmt = choice
    with store._write() as connection:
        current = connection.execute(text("SELECT value FROM report_epoch WHERE id = 1")).scalar()
        if current != epoch:
            return False
        pr_id = connection.execute(
            text(
                "SELECT p.id FROM pull_requests p JOIN repositories r ON r.id = p.repository_id "
                "WHERE r.full_name = :repository AND p.number = :number"
            ),
            {"repository": repository, "number": number},
        ).scalar()
        if pr_id is None:
            return False
        # Documents of an older epoch can never be shown again.
        connection.execute(text("DELETE FROM report_cache WHERE epoch <> :epoch"), {"epoch": epoch})
        connection.execute(
            text(
                "INSERT INTO report_cache (pull_request_id, lang, length, format, code, epoch, body) "
                "VALUES (:id, :lang, :length, :format, :code, :epoch, :body) "
                "ON CONFLICT (pull_request_id, lang, length, format) DO UPDATE SET "
                "code = excluded.code, epoch = excluded.epoch, body = excluded.body"
            ),
            {"id": pr_id, "lang": lang, "length": length, "format": fmt, "code": code, "epoch": epoch, "body": body},
        )
    return True
