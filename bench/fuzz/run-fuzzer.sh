#!/usr/bin/env bash
# Runs one of gpurace's libFuzzer targets for SECONDS (default 600) and
# prints the executions, executions per second and what was found;
# reproducers and the inputs that grew coverage are kept in the output
# folder (outside the repository). Exits 1 when a crash, sanitizer report,
# leak, timeout or out-of-memory was found. TARGET (default analyzer) is
#   analyzer         `gpurace analyze` on mutated CUDA sources, seeded with
#                    the race corpus (tests/corpus/**/*.cu), fuzz/cuda.dict
#   analysis-result  uploaded AnalysisResult JSON, SARIF and upload bodies
#   runtime-report   spooled runtime reports
#   grpc-request     gRPC requests through the services and the store
#   http-request     HTTP request lines through the API's routes
# The server targets are seeded with fuzz/seeds/TARGET (grpc-request's text
# protos are encoded with protoc first). Without --fuzzer, the target is
# built in the sanitizer build (fuzz/build.sh) first.
#
#   bench/fuzz/run-fuzzer.sh [--target TARGET] [--fuzzer PATH] [--out DIR]
#                            [--protoc PATH] [--every N] [--fork] [--smoke]
#                            [SECONDS]
#
# SECONDS include running every seed once. --every N seeds the analyzer
# with every Nth corpus program only (default 1: all), which leaves more of
# a short run to mutations. --smoke: a short check for CI: a fixed number of
# executions from seed 1 (GPURACE_FUZZ_SMOKE_RUNS overrides it), and for the
# analyzer every twelfth program. The fuzzer stops at the first defect;
# --fork runs it in libFuzzer's fork mode, which goes on after a defect so
# that one run counts them all, at the cost of restarting a process for
# every few inputs. --protoc names protoc (default: the one on PATH).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
target=analyzer
fuzzer=
out=
protoc=protoc
smoke=0
fork=0
every=1
seconds=600
while (($#)); do
  case $1 in
    --target) target=$2; shift 2 ;;
    --fuzzer) fuzzer=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --protoc) protoc=$2; shift 2 ;;
    --every) every=$2; shift 2 ;;
    --fork) fork=1; shift ;;
    --smoke) smoke=1; shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) seconds=$1; shift ;;
  esac
done

# Per target: its dictionary, longest input, time limit per input, leak
# checks and smoke executions (each about 10-20 s on two cores).
case $target in
  analyzer)
    dict=cuda.dict max_len=4096 timeout=60 leaks=0 smoke_runs=60
    ((smoke)) && every=12 ;;
  analysis-result) dict=json.dict max_len=8192 timeout=10 leaks=1 smoke_runs=20000 ;;
  runtime-report) dict=json.dict max_len=4096 timeout=10 leaks=1 smoke_runs=20000 ;;
  grpc-request) dict=grpc.dict max_len=4096 timeout=10 leaks=1 smoke_runs=30000 ;;
  http-request) dict=http.dict max_len=1024 timeout=10 leaks=1 smoke_runs=40000 ;;
  *) echo "run-fuzzer: unknown target '$target' (see --help)" >&2; exit 2 ;;
esac
binary=gpurace_${target//-/_}_fuzzer
if [[ -z "$fuzzer" ]]; then
  bash "$root/fuzz/build.sh" "$binary" >&2
  fuzzer=$root/${GPURACE_SANITIZER_BUILD_DIR:-build-asan}/bin/$binary
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

case $target in
  analyzer)
    # The corpus programs, named category_file.cu so that names stay unique.
    mapfile -t programs < <(cd "$root/tests/corpus" && find . -name '*.cu' | sort)
    for ((i = 0; i < ${#programs[@]}; i += every)); do
      p=${programs[i]#./}
      cp "$root/tests/corpus/$p" "$seeds/${p//\//_}"
    done ;;
  grpc-request)
    # "<index>-<Method>[-what].textproto": the method's index as the first
    # byte, then its request (gpurace.v1.<Method>Request) on the wire.
    for f in "$root"/fuzz/seeds/grpc-request/*.textproto; do
      name=$(basename "$f" .textproto)
      method=${name#*-}
      method=${method%%-*}
      {
        printf "\\x$(printf %02x $((10#${name%%-*})))"
        "$protoc" --encode="gpurace.v1.${method}Request" -I "$root/proto" \
          "$root/proto/gpurace/v1/service.proto" <"$f"
      } >"$seeds/$name"
    done ;;
  *)
    cp "$root"/fuzz/seeds/"$target"/* "$seeds/" ;;
esac

# UBSan reports are fatal and every report has its stack.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=$leaks:print_stacktrace=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
flags=(-dict="$root/fuzz/$dict" -max_len="$max_len" -timeout="$timeout"
  -rss_limit_mb=4096 -artifact_prefix="$out/artifacts/" -print_final_stats=1
  -close_fd_mask=3)
if ((smoke)); then
  flags+=(-seed=1 -runs="${GPURACE_FUZZ_SMOKE_RUNS:-$smoke_runs}")
else
  flags+=(-max_total_time="$seconds")
  ((fork)) && flags+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi

echo "run-fuzzer: $target, $(ls "$seeds" | wc -l) seeds, output in $out"
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
