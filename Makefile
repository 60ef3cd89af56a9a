# Everything a fresh clone needs: `make test` and `make demo` build their own venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test test-overlay demo lint spec spec-update bench clean readme-commands fuzz

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]' --config-settings editable_mode=compat
	$(BIN)/python -m compileall -q pysh >/dev/null  # byte-code even where PYTHONDONTWRITEBYTECODE is set
	touch $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check pysh tests bench examples scripts
	$(BIN)/lint-imports

test: lint
	$(BIN)/python -m pytest

# The whole suite again with every test workspace mounted as an overlay (tests/harness.py
# checks that each host directory is byte for byte unchanged afterwards).
test-overlay: lint
	PYSH_TEST_OVERLAY=1 $(BIN)/python -m pytest

# The whole shared conformance suite through pysh: pass rate and the worst files.
spec: $(STAMP)
	$(BIN)/python -m tests.spec.ratchet report
	$(BIN)/python -m tests.spec.ratchet run --full

# Add newly passing cases to tests/spec/passing.txt (the ratchet).
spec-update: $(STAMP)
	$(BIN)/python -m tests.spec.ratchet update

# Random scripts from a grammar of shell constructs (tests/fuzz): no internal error,
# traceback, host path or overrun deadline. `make test` runs a short fixed sequence.
FUZZ_SECONDS ?= 600
fuzz: $(STAMP)
	$(BIN)/python -m tests.fuzz --seconds $(FUZZ_SECONDS)

demo: $(STAMP)
	$(BIN)/pysh examples/demo.sh
	$(BIN)/python examples/confinement.py

readme-commands: $(STAMP)
	$(BIN)/python scripts/readme_commands.py

clean:
	rm -rf $(VENV) build *.egg-info
