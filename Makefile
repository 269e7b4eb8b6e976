# Two commands for newcomers: `make demo` (install, then score the bundled examples with the
# default offline judge) and `make test` (install with test extras, check the import layers with
# `lint-imports`, then run the whole suite).
# Both create their own virtual environment in .venv.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip --disable-pip-version-check -q

.PHONY: demo test clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Re-install when the project's metadata changes.
$(VENV)/.demo-installed: pyproject.toml | $(BIN)/python
	$(PIP) install -e '.[wordfreq,lemmas,speed]'
	@touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(PIP) install -e '.[test,local,anthropic,agreement,wordfreq,lemmas,speed,prices,tokens,pandas,parquet,hf,ray,otel]' 'llama-cpp-python[server]'
	@touch $@ $(VENV)/.demo-installed

demo: $(VENV)/.demo-installed
	$(BIN)/python examples/demo.py

test: $(VENV)/.test-installed
	$(BIN)/lint-imports
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) .pytest_cache out
