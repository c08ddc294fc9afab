#!/usr/bin/env bash
# README command 1: set up, build, then the main job on the bundled
# examples: start a local server on SQLite, analyze, upload, say where to
# look.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
gpurace=${GPURACE_BUILD_DIR:-build}/bin/gpurace

echo
echo "gpurace main job: analyze examples/ and upload the result to a local server."
missing=()
for cmd in analyze serve upload; do
  if "$gpurace" "$cmd" --help | grep -q "Not available yet"; then
    missing+=("$cmd")
  fi
done
if ((${#missing[@]} > 0)); then
  echo "Not available yet: gpurace ${missing[*]}. What exists today:"
  "$gpurace" --help
  exit 1
fi
