#!/usr/bin/env bash
# `make demo`: the main job on the embedded defaults (SmolLM2-135M in-process, MiniLM embedder):
# no Ollama, no model hub. Uses its own memory folder, never yours.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC1091
. .venv/bin/activate
export IBACHAT_HOME="${IBACHAT_DEMO_HOME:-$PWD/.demo-home}"
export HF_HUB_OFFLINE=1 OMP_WAIT_POLICY=PASSIVE
rm -rf "$IBACHAT_HOME"
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "ibachat doctor"
ibachat doctor || true

step "a noisy history goes into memory (loves spicy, crunchy food; had a tooth pulled two days ago)"
mkdir -p "$IBACHAT_HOME"
python scripts/demo_history.py > "$IBACHAT_HOME/demo-history.jsonl"
ibachat memory import "$IBACHAT_HOME/demo-history.jsonl"
ibachat memory stats

step "what the ledger learned"
ibachat memory prefs

step "ibachat ask: the planner runs before the action"
ibachat ask --model embedded --yes --show-plan "Order dinner from the usual Thai place"

step "the usual dishes there (prawn crackers, pad kra pao) predate the tooth: it asked; the answer orders"
ibachat ask --model embedded --yes "khao tom and mango pudding please"

step "a plain question: no memory bears on it, nothing is injected"
ibachat ask --model embedded "What is the capital of Australia?"

step "IBA-Bench on the health domain: the planner (iba) against plain RAG and no memory"
ibachat bench --domain health --limit 60 --agent iba --agent rag --agent none --out "$IBACHAT_HOME/bench"
