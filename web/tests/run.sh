#!/usr/bin/env bash
# Runs browser test files (all of tests/ when none is named), one file at a
# time: each starts its own gpurace serve and Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tests/setup.sh
if (($# == 0)); then set -- tests/; fi
exec node --test --test-concurrency=1 "$@"
