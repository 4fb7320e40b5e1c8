# The two commands of the README: `make run` and `make test`. Each sets up what it needs:
# a virtual environment in .venv, the Python dependencies (pyproject.toml), and the native
# core built by maturin in release mode into the package.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export VIRTUAL_ENV := $(abspath $(VENV))

.PHONY: run test lint bench build clean

run: build
	$(BIN)/oasis-kiosk run --windowed

# Tests draw on SDL's dummy video driver and drive gpiozero's mock pins.
test: export SDL_VIDEODRIVER = dummy
test: export GPIOZERO_PIN_FACTORY = mock
test: build lint
	cargo test --workspace --exclude oasis-py
	$(BIN)/pytest

lint: build
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	$(BIN)/ruff check oasis_kiosk tests bench
	$(BIN)/ruff format --check oasis_kiosk tests bench
	$(BIN)/mypy
	$(BIN)/python -m mypy.stubtest oasis_kiosk._core

bench: build
	$(BIN)/python bench/run.py

# Rebuilt on every call (cargo makes that quick when nothing changed); the extras bring the
# test tools and the independent evaluators used as test oracle and benchmark baseline.
build: export PIP_QUIET = 1
build: $(BIN)/maturin
	$(BIN)/maturin develop --release --quiet --extras test

$(BIN)/maturin:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet "maturin>=1.9,<2"

clean:
	rm -rf $(VENV) target oasis_kiosk/_core.*.so
