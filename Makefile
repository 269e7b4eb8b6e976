# Two commands for newcomers: `make demo` (install with the viewer, then score the bundled examples
# with the default offline judge) and `make test` (install with test extras, check the import layers with
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
	$(PIP) install -e '.[wordfreq,lemmas,speed,korean,view]'
	@touch $@

# llama.cpp (llama-cpp-python, the `local` extra) is compiled here, portably: a build tuned to the
# compiling CPU (GGML_NATIVE, the default) crashes on others, e.g. with SIGSEGV in grammar-constrained
# generation on an AVX-512/AMX Xeon. pip reuses a wheel it built before whatever CMAKE_ARGS say, so
# the build gets a pip cache of its own that only portable builds ever use: a wheel found there was
# built portably, and a fresh .venv reuses it instead of compiling again (--force-reinstall replaces a
# llama-cpp-python built otherwise; --no-deps: its dependencies come with the install after it).
LLAMA_CPP_VERSION := 0.3.36
PORTABLE_PIP_CACHE ?= $(HOME)/.cache/sumjudge-portable-pip
# -DLLAVA_BUILD=OFF: no libmtmd (llava, multimodal chat handlers: 53 of the build's 193 steps, ~19% of its
# CPU time); sumjudge only generates text, and llama_cpp imports mtmd only inside those handlers. A wheel
# of either kind in the portable cache is portable.
# The same flags as the guide's install lines and the line an ImportError prints (tests/test_portable_build.py).
PORTABLE_CMAKE_ARGS := -DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF
PORTABLE_BUILD    := CMAKE_ARGS="$(PORTABLE_CMAKE_ARGS)" PIP_CACHE_DIR="$(PORTABLE_PIP_CACHE)"

# The rest installs with uv (from PyPI, into the venv), which resolves this whole set in seconds and
# downloads in parallel: about 80 s instead of pip's 400 s in a fresh venv with no cache
# (docs/design-notes.md). It finds llama-cpp-python installed (the portable build above) and
# leaves it as it is. uv also settles what pip backtracks on for over 15 minutes: deepeval caps click
# below 8.4, every huggingface-hub from 1.17 needs click>=8.4, so with the `deepeval` extra beside `hf`
# the set is huggingface-hub 1.16 and datasets 5.0 (the same set pip installs given 'huggingface-hub<1.17',
# in 1091 s here).
UV := $(BIN)/uv
TEST_EXTRAS := test,local,reader,anthropic,agreement,wordfreq,lemmas,speed,korean,prices,tokens,pandas,parquet,hf,ray,otel,mlflow,pydantic-evals,inspect,deepeval
$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	@echo "make test: building llama-cpp-python $(LLAMA_CPP_VERSION) portably (needs a C++ compiler and CMake;"
	@echo "           about 12 minutes on 2 cores the first time, then reused from $(PORTABLE_PIP_CACHE))"
	$(PORTABLE_BUILD) $(PIP) install --force-reinstall --no-deps 'llama-cpp-python==$(LLAMA_CPP_VERSION)'
	$(PIP) install 'uv>=0.9,<1'
	$(UV) pip install -q --python $(BIN)/python -e '.[$(TEST_EXTRAS)]' 'llama-cpp-python[server]==$(LLAMA_CPP_VERSION)'
	@touch $@ $(VENV)/.demo-installed

demo: $(VENV)/.demo-installed
	$(BIN)/python examples/demo.py

# The suite runs on every core (pytest-xdist): each test owns its servers, ports and files.
# --dist worksteal: a worker that runs out of tests takes some from a busy one, so the slow model tests
# (llama.cpp, the reader) do not end the run on one worker while the other waits.
test: $(VENV)/.test-installed
	$(BIN)/lint-imports
	$(BIN)/python -m pytest -n auto --dist worksteal

clean:
	rm -rf $(VENV) .pytest_cache out
