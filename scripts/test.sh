#!/usr/bin/env bash
# Installs what the build needs, builds strmatch (CUDA when a toolkit is found) and runs the
# test suite. Usage: scripts/test.sh [BUILD_DIR [extra cmake args...]]
# STRMATCH_LONG_TESTS=1 enables the long sweeps; STRMATCH_TEST_SEED=N reruns a seeded failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
dir=${1:-build}
shift || true
scripts/build.sh "$dir" "$@"
ctest --test-dir "$dir" --output-on-failure -j "$(nproc)" --timeout 600
