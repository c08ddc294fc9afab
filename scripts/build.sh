#!/usr/bin/env bash
# Installs what is missing, configures and builds gpurace into build/.
# GPURACE_BUILD_DIR and GPURACE_BUILD_TYPE override the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
build_dir=${GPURACE_BUILD_DIR:-build}
if [[ ! -f "$build_dir/build.ninja" ]]; then
  cmake -S . -B "$build_dir" -G Ninja \
    -DCMAKE_BUILD_TYPE="${GPURACE_BUILD_TYPE:-RelWithDebInfo}" \
    ${GPURACE_CMAKE_ARGS:-}
fi
cmake --build "$build_dir" -j "$(nproc)"
