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

# llama.cpp (llama-cpp-python, the `local` extra) is compiled here, portably: a build tuned to the
# compiling CPU (GGML_NATIVE, the default) crashes on others, e.g. with SIGSEGV in grammar-constrained
# generation on an AVX-512/AMX Xeon. pip reuses a wheel it built before whatever CMAKE_ARGS say, so
# the build gets a pip cache of its own that only portable builds ever use: a wheel found there was
# built portably, and a fresh .venv reuses it instead of compiling again (--force-reinstall replaces a
# llama-cpp-python built otherwise; --no-deps: its dependencies come with the install after it).
LLAMA_CPP_VERSION := 0.3.36
PORTABLE_PIP_CACHE ?= $(HOME)/.cache/sumjudge-portable-pip
PORTABLE_BUILD    := CMAKE_ARGS="-DGGML_NATIVE=OFF" PIP_CACHE_DIR="$(PORTABLE_PIP_CACHE)"

# huggingface-hub<1.31: every later one needs click>=8.4.2, every deepeval click<8.4; without the
# hint pip backtracks for over 15 minutes (datasets resolves to 5.0.1 with it).
$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(PORTABLE_BUILD) $(PIP) install --force-reinstall --no-deps 'llama-cpp-python==$(LLAMA_CPP_VERSION)'
	$(PIP) install -e '.[test,local,reader,anthropic,agreement,wordfreq,lemmas,speed,prices,tokens,pandas,parquet,hf,ray,otel,mlflow,pydantic-evals,inspect,deepeval]' 'llama-cpp-python[server]==$(LLAMA_CPP_VERSION)' 'huggingface-hub<1.31'
	@touch $@ $(VENV)/.demo-installed

demo: $(VENV)/.demo-installed
	$(BIN)/python examples/demo.py

# The suite runs on every core (pytest-xdist): each test owns its servers, ports and files.
test: $(VENV)/.test-installed
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n auto

clean:
	rm -rf $(VENV) .pytest_cache out
