"""Example repositories: the README's demo history and synthetic histories for benchmarks."""
