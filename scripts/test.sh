#!/usr/bin/env bash
# README command 2: set up, build, and run the whole test suite.
#
# After the main build's tests, the analyzer's tests run once more in the
# sanitizer build (fuzz/build.sh: Clang 22, ASan + UBSan, build-asan/),
# where any sanitizer report fails them, followed by short fuzzing runs of
# the analyzer and of the server's input decoding.
# GPURACE_SKIP_SANITIZER_TESTS=1 skips that part.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
build_dir=${GPURACE_BUILD_DIR:-build}
status=0
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" "$@" || status=$?

if [[ "${GPURACE_SKIP_SANITIZER_TESTS:-0}" != 1 ]]; then
  sanitizer_dir=${GPURACE_SANITIZER_BUILD_DIR:-build-asan}
  echo "test.sh: analyzer tests under ASan + UBSan in $sanitizer_dir"
  GPURACE_SANITIZER_BUILD_DIR=$sanitizer_dir bash fuzz/build.sh
  # UBSan reports are fatal like ASan's; a leak fails the process too.
  # Allocation stacks keep their five innermost frames: Clang allocates on
  # every node it parses, and unwinding thirty frames each time costs a
  # sixth of the tests' time. Reports still show the faulting stack whole.
  export ASAN_OPTIONS=detect_leaks=1:print_stacktrace=1:halt_on_error=1:malloc_context_size=5
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
  # Only the tests of the analyzer's folder (analyzer_tests, which also run
  # the gpurace analyze command) and of fuzz/ are built there.
  for tests in analyzer fuzz; do
    ctest --test-dir "$sanitizer_dir/$tests" --output-on-failure -j "$(nproc)" \
      --no-tests=error || status=$?
  done
fi
exit "$status"
