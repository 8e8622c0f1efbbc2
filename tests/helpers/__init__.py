"""Reusable test helpers (import as ``tests.helpers.<module>``)."""
