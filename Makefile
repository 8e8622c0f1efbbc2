# Two commands do all the set-up on a fresh machine:
#   make demo   builds an example repository, syncs it into SQLite, analyzes it, prints
#               its feed and writes every report (zh and en) under build/demo/
#   make test   lint, type-check and the whole test suite (starts PostgreSQL and uses
#               Debian's chromium, installing them first when run as root)
VENV ?= .venv
PY := $(VENV)/bin/python

.PHONY: demo test lint venv clean

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	./scripts/bootstrap.sh $(VENV)
	@touch $@

demo: venv
	./scripts/demo.sh $(VENV)

lint: venv
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache

test: venv lint
	./scripts/run-tests.sh $(VENV)

clean:
	rm -rf build test-artifacts .pytest_cache .mypy_cache .ruff_cache
