#!/usr/bin/env bash
# Creates bench/peers/.venv-deepeval: DeepEval for bench/peers/cost_latency.py, kept out of the project's own
# environment (it is a peer we measure, never a dependency of sumjudge).
set -euo pipefail
cd "$(dirname "$0")"
PY="${PYTHON:-python3}"
"$PY" -m venv .venv-deepeval
.venv-deepeval/bin/pip install --quiet --upgrade pip
.venv-deepeval/bin/pip install --quiet "deepeval==${DEEPEVAL_VERSION:-4.3.1}"
.venv-deepeval/bin/python -c "import importlib.metadata as m; print('deepeval', m.version('deepeval'), 'in bench/peers/.venv-deepeval')"
