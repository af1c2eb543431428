# Arbiter: the two commands a user needs are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install dev browser run migrate test lint docs openapi bench clean

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

# The browser tests (tests/web) drive the distribution's Chromium; install it when it is
# missing and apt is at hand (as root, or through sudo). Nothing is downloaded otherwise.
browser:
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then \
	  exit 0; \
	elif command -v apt-get >/dev/null 2>&1; then \
	  APT="env DEBIAN_FRONTEND=noninteractive apt-get"; \
	  [ "$$(id -u)" -eq 0 ] || APT="sudo $$APT"; \
	  echo "installing chromium and chromium-driver (Debian packages)"; \
	  $$APT install -y -q chromium chromium-driver >/dev/null \
	    || { $$APT update -q >/dev/null && $$APT install -y -q chromium chromium-driver >/dev/null; }; \
	else \
	  echo "Chromium is missing: install chromium (or set ARBITER_CHROMIUM) for tests/web" >&2; \
	  exit 1; \
	fi

test: dev browser
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: dev
	$(BIN)/ruff check service tests bench
	$(BIN)/ruff format --check service tests bench
	$(BIN)/mypy service tests
	$(BIN)/lint-imports --no-cache

# The documentation site (mkdocs.yml, docs/): --strict fails on a broken link, a missing
# anchor or a page left out of the nav. The site is written to site/ (ignored).
docs: dev
	$(BIN)/mkdocs build --strict --site-dir site

openapi: install
	$(BIN)/arbiter openapi > openapi/openapi.json
	$(BIN)/arbiter asyncapi > openapi/asyncapi.json

bench: install
	@for f in bench/bench_*.py; do echo "== $$f"; $(BIN)/python $$f; done

clean:
	rm -rf $(VENV) arbiter.db .pytest_cache .mypy_cache .ruff_cache site
