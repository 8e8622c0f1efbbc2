"""The command-line edge: parse input, call the core, map errors to exit codes."""
