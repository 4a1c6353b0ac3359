#!/usr/bin/env bash
# Installs the Debian 12 packages strmatch's build, tests and benchmarks need (idempotent).
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
PACKAGES=(build-essential cmake ninja-build pkg-config
          libcli11-dev libfmt-dev nlohmann-json3-dev liburing-dev
          libgtest-dev libgmock-dev libbenchmark-dev libhyperscan-dev
          libedlib-dev libdivsufsort-dev mummer tre-agrep ugrep hyperfine
          clang libclang-rt-14-dev
          python3-dev pybind11-dev python3-numpy python3-pytest python3-pip python3-setuptools python3-wheel
          python3-ahocorasick python3-edlib python3-levenshtein python3-regex
          python3-dask python3-distributed python3-pandas
          python3-matplotlib zlib1g-dev samtools seqan-apps)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "strmatch: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
