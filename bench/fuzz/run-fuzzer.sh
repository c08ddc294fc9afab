#!/usr/bin/env bash
# Fuzzes `gpurace analyze` with libFuzzer for SECONDS (default 600): mutated
# CUDA sources from the race corpus (tests/corpus/**/*.cu, copied into a
# temporary seed folder) and the CUDA dictionary fuzz/cuda.dict. Builds the
# sanitizer build (fuzz/build.sh) first when no fuzzer is given. Prints the
# executions, executions per second and what was found; reproducers and the
# inputs that grew coverage are kept in the output folder (outside the
# repository). Exits 1 when a crash, sanitizer report, leak, timeout or
# out-of-memory was found.
#
#   bench/fuzz/run-fuzzer.sh [--fuzzer PATH] [--out DIR] [--every N] [--fork] [--smoke] [SECONDS]
#
# SECONDS include running every seed once. --every N seeds with every Nth
# corpus program only (default 1: all), which leaves more of a short run to
# mutations. --smoke: a short check for CI: every twelfth program and a
# fixed number of executions (GPURACE_FUZZ_SMOKE_RUNS, default 60). The
# fuzzer stops at the first defect; --fork runs it in
# libFuzzer's fork mode, which goes on after a defect so that one run counts
# them all, at the cost of restarting a process for every few inputs.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
fuzzer=
out=
smoke=0
fork=0
every=1
seconds=600
while (($#)); do
  case $1 in
    --fuzzer) fuzzer=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --every) every=$2; shift 2 ;;
    --fork) fork=1; shift ;;
    --smoke) smoke=1; every=12; shift ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) seconds=$1; shift ;;
  esac
done
if [[ -z "$fuzzer" ]]; then
  bash "$root/fuzz/build.sh" gpurace_analyzer_fuzzer >&2
  fuzzer=$root/${GPURACE_SANITIZER_BUILD_DIR:-build-asan}/bin/gpurace_analyzer_fuzzer
fi
if [[ ! -x "$fuzzer" ]]; then
  echo "run-fuzzer: no fuzz target at $fuzzer" >&2
  exit 1
fi
auto_out=0
if [[ -z "$out" ]]; then
  out=$(mktemp -d "${TMPDIR:-/tmp}/gpurace-fuzz.XXXXXX")
  auto_out=1
fi
mkdir -p "$out/corpus" "$out/artifacts"
seeds=$(mktemp -d "${TMPDIR:-/tmp}/gpurace-fuzz-seeds.XXXXXX")
trap 'rm -rf "$seeds"' EXIT

# Seeds: the corpus programs, named category_file.cu so that names stay
# unique.
mapfile -t programs < <(cd "$root/tests/corpus" && find . -name '*.cu' | sort)
for ((i = 0; i < ${#programs[@]}; i += every)); do
  p=${programs[i]#./}
  cp "$root/tests/corpus/$p" "$seeds/${p//\//_}"
done

# UBSan reports are fatal and every report has its stack.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:print_stacktrace=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
flags=(-dict="$root/fuzz/cuda.dict" -max_len=4096 -timeout=60 -rss_limit_mb=4096
  -artifact_prefix="$out/artifacts/" -print_final_stats=1 -close_fd_mask=3)
if ((smoke)); then
  flags+=(-seed=1 -runs="${GPURACE_FUZZ_SMOKE_RUNS:-60}")
else
  flags+=(-max_total_time="$seconds")
  ((fork)) && flags+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi

echo "run-fuzzer: $(ls "$seeds" | wc -l) seeds, output in $out"
log=$out/fuzzer.log
start=$(date +%s)
status=0
"$fuzzer" "${flags[@]}" "$out/corpus" "$seeds" >"$log" 2>&1 || status=$?
elapsed=$(($(date +%s) - start))

# The last status line carries the total executions (`#N` in both modes).
execs=$(grep -oE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#' || true)
execs=${execs:-0}
mapfile -t found < <(find "$out/artifacts" -type f \
  \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \
     -o -name 'slow-unit-*' \) | sort)
defects=0
for f in "${found[@]}"; do
  [[ $(basename "$f") == slow-unit-* ]] || defects=$((defects + 1))
done
printf 'executions %d  seconds %d  exec/s %.1f  corpus %d inputs  crashes %d\n' \
  "$execs" "$elapsed" "$(echo "$execs / ($elapsed + 0.001)" | bc -l)" \
  "$(ls "$out/corpus" | wc -l)" "$defects"
for f in "${found[@]}"; do
  echo "  $f"
done
if ((defects > 0 || (!fork && status != 0))); then
  echo "run-fuzzer: $defects defects, fuzzer exit status $status; log: $log" >&2
  grep -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|SUMMARY' "$log" \
    | sort | uniq -c | head -n 20 >&2 || true
  exit 1
fi
if ((status != 0)); then
  echo "run-fuzzer: the fuzzer exited with status $status; log: $log" >&2
  exit 1
fi
if ((execs == 0)); then
  echo "run-fuzzer: no input was executed; log: $log" >&2
  exit 1
fi
# A clean smoke run leaves nothing behind.
if ((smoke && auto_out)); then
  rm -rf "$out"
fi
