#!/usr/bin/env bash
# Configures and builds the sanitizer build: Clang 22 with ASan + UBSan and
# libFuzzer coverage, CUDA targets off. It holds the programs the analyzer's
# sanitized tests need (gpurace, analyzer_tests) and the fuzz targets (the
# analyzer's, and the server's four, which link libraries gpurace needs
# anyway); only those are built.
#
#   fuzz/build.sh [TARGET...]     (default: all of them)
#
# GPURACE_SANITIZER_BUILD_DIR overrides the folder (default build-asan).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build_dir=${GPURACE_SANITIZER_BUILD_DIR:-build-asan}
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(gpurace analyzer_tests gpurace_analyzer_fuzzer
    gpurace_analysis_result_fuzzer gpurace_runtime_report_fuzzer
    gpurace_grpc_request_fuzzer gpurace_http_request_fuzzer)
fi
for tool in clang-22 clang++-22; do
  if ! command -v "$tool" >/dev/null; then
    echo "fuzz/build.sh: $tool not found (scripts/install-deps.sh installs it)" >&2
    exit 1
  fi
done
if [[ ! -f "$build_dir/build.ninja" ]]; then
  # -O1 with line tables only: sanitizer reports keep file:line stacks at a
  # fraction of full debug information's build time.
  CC=clang-22 CXX=clang++-22 cmake -S . -B "$build_dir" -G Ninja \
    -DCMAKE_BUILD_TYPE=Debug \
    "-DCMAKE_C_FLAGS_DEBUG=-O1 -gline-tables-only" \
    "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -gline-tables-only" \
    -DGPURACE_FUZZ=ON -DGPURACE_WITH_CUDA=OFF
fi
cmake --build "$build_dir" -j "$(nproc)" --target "${targets[@]}"
