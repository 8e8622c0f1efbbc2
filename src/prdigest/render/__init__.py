"""Reports and feeds: builders of the `Report` and `Feed` models and their renderers.

Nothing is imported here: `prdigest.facts_view` reads this package's labels, and an eager
import of the builders would make that a cycle.
"""
