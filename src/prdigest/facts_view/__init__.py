"""Facts as the reader sees them: which files, symbols and excerpts a report shows and the
evidence sentences of risk tags, verdict reasons and key files.

Shared by the narrators (so prose talks about the same things as the report) and the
renderers; it sits above the analyzers and below both, so neither imports the other.
"""
