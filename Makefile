# Two commands do all set-up: `make run` (the main job) and `make test` (the suite).
# Both create .venv when missing, install torch==2.13.0 first (the CPU build on
# disk; an unpinned torch would pull a multi-GB CUDA build), then the package.
# The install is skipped while pyproject.toml is unchanged (stamp file).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export ANONYMIZED_TELEMETRY := False
export TOKENIZERS_PARALLELISM := false

.PHONY: run test test-slow bench lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/memkit worldshift run --json results/worldshift.json --plot results/worldshift.png

test: $(STAMP)
	$(BIN)/python -m pytest -q

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

bench: $(STAMP)
	$(BIN)/python -m evals.bench

lint: $(STAMP)
	$(BIN)/lint-imports

clean:
	rm -rf $(VENV) results .pytest_cache
