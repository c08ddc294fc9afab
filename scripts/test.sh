#!/usr/bin/env bash
# README command 2: set up, build, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
build_dir=${GPURACE_BUILD_DIR:-build}
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" "$@"
