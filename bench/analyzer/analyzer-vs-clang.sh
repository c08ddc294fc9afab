#!/usr/bin/env bash
# Analysis time per file as a ratio to `clang -fsyntax-only` of the same
# file with the same flags and headers (the Clang commands gpurace prints
# with --print-clang-command: the host and the device parse), over the race
# corpus (or the files given). GPURACE_FLAGS adds flags to both, e.g.
# --fallback-headers.
# Prints each file's times and ratio, then the median and maximum ratio and
# the slowest analysis. Both are timed in this one run, so the ratios hold
# on any machine.
#
#   bench/analyzer/analyzer-vs-clang.sh [--gpurace PATH] [FILE.cu...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gpurace=$root/build/bin/gpurace
if [[ "${1:-}" == "--gpurace" ]]; then
  gpurace=$2
  shift 2
fi
files=("$@")
if ((${#files[@]} == 0)); then
  mapfile -t files < <(find "$root/tests/corpus" -name '*.cu' | sort)
fi
read -r -a extra <<<"${GPURACE_FLAGS:-}"

now() { date +%s.%N; }
seconds() { # best of three runs of "$@"
  local best=""
  for _ in 1 2 3; do
    local start end
    start=$(now)
    "$@" >/dev/null 2>&1 || true
    end=$(now)
    best=$(echo "$end - $start" | bc -l | awk -v b="$best" '{ if (b == "" || $1 < b) print $1; else print b }')
  done
  echo "$best"
}

ratios=()
slowest=0
slowest_file=
printf '%-60s %9s %9s %7s\n' file clang_s gpurace_s ratio
for f in "${files[@]}"; do
  commands=$("$gpurace" analyze --print-clang-command "${extra[@]}" "$f")
  c=$(seconds bash -c "$commands")
  g=$(seconds "$gpurace" analyze --format=json -j 1 "${extra[@]}" "$f")
  r=$(echo "$g / $c" | bc -l)
  ratios+=("$r")
  if (($(echo "$g > $slowest" | bc -l))); then slowest=$g; slowest_file=$f; fi
  printf '%-60s %9.3f %9.3f %7.2f\n' "${f#$root/}" "$c" "$g" "$r"
done
sorted=$(printf '%s\n' "${ratios[@]}" | sort -g)
count=${#ratios[@]}
median=$(echo "$sorted" | awk -v n="$count" 'NR == int((n + 1) / 2) { print }')
max=$(echo "$sorted" | tail -n 1)
printf '\nfiles %d  median ratio %.2f  max ratio %.2f  slowest analysis %.2f s (%s)\n' \
  "$count" "$median" "$max" "$slowest" "${slowest_file#$root/}"
