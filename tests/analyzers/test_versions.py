"""The light table of analyzer versions is the real registry's, so cached facts cannot be
judged current by versions the analyzers no longer have."""

from __future__ import annotations

from prdigest.analyzers.defaults import default_registry
from prdigest.analyzers.versions import DEFAULT_VERSIONS, FACTS_SCHEMA, facts_key
from prdigest.models.facts import FACTS_SCHEMA_VERSION
from prdigest.pipeline.analyze import facts_cache_key


def test_declared_versions_are_the_registry_versions() -> None:
    assert dict(DEFAULT_VERSIONS) == default_registry().versions()


def test_declared_schema_is_the_facts_schema() -> None:
    assert FACTS_SCHEMA == FACTS_SCHEMA_VERSION


def test_default_key_equals_the_key_of_the_real_registry() -> None:
    record_hash = "ab" * 32
    assert facts_cache_key(record_hash) == facts_cache_key(record_hash, default_registry())
    assert facts_key(record_hash) == facts_cache_key(record_hash, default_registry())


def test_a_version_change_changes_the_key() -> None:
    moved = {**DEFAULT_VERSIONS, "files": DEFAULT_VERSIONS["files"] + ".1"}
    assert facts_key("ab" * 32, moved) != facts_key("ab" * 32)
