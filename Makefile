# The two commands of the README: `make run` and `make test`. Each sets up what it needs:
# a virtual environment in .venv, the Python dependencies (pyproject.toml), and the native
# core built by maturin in release mode into the package.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
LOCALE := assets/locale
export VIRTUAL_ENV := $(abspath $(VENV))

.PHONY: run test lint bench par build translations clean install-cabinet screenshots

# The first run makes the books (in the data directory, docs/terminal.md); later runs find them.
run: build
	$(BIN)/oasis-kiosk init --if-missing
	$(BIN)/oasis-kiosk run --windowed

# Tests draw on SDL's dummy video driver and drive gpiozero's mock pins.
test: export SDL_VIDEODRIVER = dummy
test: export SDL_AUDIODRIVER = dummy
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

# Every screen (oasis_kiosk/ui/screenshots.py: the table before the deal, in a round, settled,
# with a new bet, a jackpot and its handpay, HELP, a tilt, the operator's pages, a cash-out's
# handpay, the attract mode) at 1920x1080, 1280x720,
# 1024x768 and 800x480 in English, Czech and Russian, as PNGs drawn off screen; the screen
# test checks the same screens. SCREENSHOTS=DIR writes them elsewhere.
SCREENSHOTS ?= docs/screenshots
screenshots: build
	$(BIN)/python -m oasis_kiosk.ui.screenshots $(SCREENSHOTS)

# The PAR sheets of docs/par at the least and the greatest ante, one for every profile file in
# oasis_kiosk/profiles: simulated with PAR_ROUNDS rounds, enough for a 95 % interval of at most
# ±0.05 % of the ante (docs/simulation.md), unless PAR_<id> says how else: exact where the
# profile's only decision is to play or fold, more rounds where its options spread the results
# more. Then their index and the returns the package ships (oasis_kiosk/returns.json). About 27
# minutes on two cores (measured 2026-12-02).
PAR_SEED := 5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed
PAR_PROFILES := $(sort $(basename $(notdir $(wildcard oasis_kiosk/profiles/*.toml))))
PAR_ROUNDS := 800000
PAR_caribbean := --exact
PAR_czech := --exact
PAR_czech-exchange := --rounds 1600000 --seed $(PAR_SEED)
PAR_golden-oasis := --rounds 3500000 --seed $(PAR_SEED)
# One command per profile, each on its own line, so that make stops at the first that fails.
define par_sheet
$(BIN)/oasis-kiosk par $(1) $(or $(PAR_$(1)),--rounds $(PAR_ROUNDS) --seed $(PAR_SEED)) --out docs/par

endef
par: build
	$(foreach profile,$(PAR_PROFILES),$(call par_sheet,$(profile)))
	$(BIN)/python -m oasis_kiosk.par index docs/par
	$(BIN)/python -m oasis_kiosk.returns write docs/par

# Rebuilt on every call (cargo makes that quick when nothing changed); the extras bring the
# test tools and the independent evaluators used as test oracle and benchmark baseline.
build: export PIP_QUIET = 1
build: $(BIN)/maturin
	$(BIN)/maturin develop --release --quiet --extras test
	$(BIN)/pybabel --quiet compile --domain oasis_kiosk --directory $(LOCALE)

# After changing a shown string: the catalogue template and each language's catalogue follow
# the code; English is its own translation; the others are filled in by hand.
translations: $(BIN)/maturin
	$(BIN)/pybabel extract --mapping-file babel.cfg --keywords N_ --no-location --sort-output \
		--project oasis-kiosk --output-file $(LOCALE)/oasis_kiosk.pot oasis_kiosk
	for language in en cs ru; do \
		test -f $(LOCALE)/$$language/LC_MESSAGES/oasis_kiosk.po || \
			$(BIN)/pybabel init --domain oasis_kiosk --input-file $(LOCALE)/oasis_kiosk.pot \
				--output-dir $(LOCALE) --locale $$language; \
	done
	$(BIN)/pybabel update --domain oasis_kiosk --input-file $(LOCALE)/oasis_kiosk.pot \
		--output-dir $(LOCALE) --no-fuzzy-matching --ignore-obsolete
	$(BIN)/python -m oasis_kiosk.i18n english $(LOCALE)/en/LC_MESSAGES/oasis_kiosk.po
	$(BIN)/pybabel --quiet compile --domain oasis_kiosk --directory $(LOCALE)

# The cabinet: installs the kiosk as a systemd service on a Raspberry Pi (as root; see
# docs/cabinet.md). INSTALL_FLAGS passes --wheel FILE, --venv DIR, --dry-run or --prefix DIR on.
install-cabinet:
	sh systemd/install.sh $(INSTALL_FLAGS)

$(BIN)/maturin:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet "maturin>=1.9,<2"

clean:
	rm -rf $(VENV) target oasis_kiosk/_core.*.so $(LOCALE)/*/LC_MESSAGES/*.mo
