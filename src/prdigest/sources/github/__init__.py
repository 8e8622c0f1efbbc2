"""The GitHub source: GraphQL + REST over httpx, JSON bundles, incremental sync."""
