# Arbiter: the two commands a user needs are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install dev run migrate test lint openapi bench clean

$(BIN)/arbiter: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.dev: $(BIN)/arbiter
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

install: $(BIN)/arbiter

dev: $(VENV)/.dev

migrate: install
	$(BIN)/arbiter migrate

run: migrate
	$(BIN)/arbiter serve --host $(HOST) --port $(PORT)

test: dev
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: dev
	$(BIN)/ruff check service tests bench
	$(BIN)/ruff format --check service tests bench
	$(BIN)/mypy service tests

openapi: install
	$(BIN)/arbiter openapi > openapi/openapi.json

bench: install
	@for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f; done

clean:
	rm -rf $(VENV) arbiter.db .pytest_cache .mypy_cache .ruff_cache
