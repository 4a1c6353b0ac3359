#!/usr/bin/env bash
# Prints the machine part of a result file's name (bench/results/README.md): the GPU model read from
# nvidia-smi, never assumed, and the host's hardware threads: h200-16core, h100-16core, 2xh200-32core;
# without a usable GPU, cpu-<threads>core. STRMATCH_MACHINE overrides it (the development container's
# runs are named dev-2core that way).
#
#   scripts/machine_label.sh            the label
#   scripts/machine_label.sh --gpu      the GPU's full name (nvidia-smi's first line), or "none"
set -euo pipefail
cores=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)
names=""
if command -v nvidia-smi >/dev/null 2>&1; then
  names=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null || true)
fi
if [ "${1:-}" = --gpu ]; then
  [ -n "$names" ] && echo "$names" | head -n 1 || echo none
  exit 0
fi
if [ -n "${STRMATCH_MACHINE:-}" ]; then
  echo "$STRMATCH_MACHINE"
  exit 0
fi
if [ -z "$names" ]; then
  echo "cpu-${cores}core"
  exit 0
fi
count=$(echo "$names" | grep -c .)
# "NVIDIA H200", "NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB", "Tesla V100-SXM2-16GB":
# the first word that holds a letter followed by digits, lower-cased.
model=$(echo "$names" | head -n 1 | tr ' -' '\n\n' | grep -m1 -E '^[A-Za-z]+[0-9]+[A-Za-z]*$' | tr 'A-Z' 'a-z' || true)
[ -n "$model" ] || model=gpu
[ "$count" -gt 1 ] && model="${count}x$model"
echo "$model-${cores}core"
