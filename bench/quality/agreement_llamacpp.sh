#!/usr/bin/env bash
# Agreement with people for SmolLM2-135M-Instruct served by llama.cpp's OpenAI-compatible server
# (python -m llama_cpp.server on 127.0.0.1), through the `llamacpp` provider: the same HTTP path
# a hosted judge takes. Needs: pip install 'sumjudge[local]' 'llama-cpp-python[server]'.
#
#   bash bench/quality/agreement_llamacpp.sh --summeval-docs 2 --realsumm-docs 1 --out bench/results/agreement_smollm2.json
#
# Arguments go to bench/quality/agreement_llm.py. PORT (default 8089) and THREADS (default: all CPUs) may be set.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY="${PYTHON:-.venv/bin/python}"
PORT="${PORT:-8089}"
THREADS="${THREADS:-$(nproc)}"
MODEL_PATH="$("$PY" -c 'from sumjudge.judges.llama_models import smollm2_path; print(smollm2_path())')"
LOG="$(mktemp)"
"$PY" -m llama_cpp.server --model "$MODEL_PATH" --model_alias smollm2 --host 127.0.0.1 --port "$PORT" \
  --n_ctx 8192 --n_threads "$THREADS" --n_threads_batch "$THREADS" >"$LOG" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -f "$LOG"' EXIT
for _ in $(seq 1 240); do
  if "$PY" -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$PORT/v1/models', timeout=2)" 2>/dev/null; then
    break
  fi
  if ! kill -0 "$SERVER" 2>/dev/null; then echo "llama_cpp.server exited:"; cat "$LOG"; exit 1; fi
  sleep 0.5
done
echo "llama_cpp.server (SmolLM2-135M-Instruct, $THREADS threads) on 127.0.0.1:$PORT" >&2
LLAMACPP_BASE_URL="http://127.0.0.1:$PORT/v1" "$PY" bench/quality/agreement_llm.py --model llamacpp/smollm2 \
  --concurrency 1 --timeout 600 --max-output-tokens 1500 "$@"
