#!/usr/bin/env bash
# The corpus's dynamic column on a real GPU, in steps that may run on
# different machines (the analyzer needs Clang, the run needs a GPU):
#
#   gpu-dynamic-column.sh prepare GPURACE BUNDLE [CORPUS_DIR] [JOBS]
#       Where gpurace runs, JOBS at a time (default: the number of
#       cores): for every corpus program the host-facts
#       analysis is the plan (as for --dynamic-cpu), and `gpurace
#       instrument` rewrites it. BUNDLE gets <category>/<stem>/ with
#       analysis.json and instrumented.cu, or nothing-planned; skipped.txt
#       lists what was left out and why.
#   gpu-dynamic-column.sh build BUNDLE NVCC [ARCH] [JOBS]
#       Where nvcc runs, beside this checkout (for the device runtime
#       header): compiles every instrumented.cu for ARCH (default sm_90),
#       JOBS at a time (default: the number of cores), with $NVCC_FLAGS
#       added (`-cudart shared` keeps each program small where the GPU
#       machine has the toolkit's libraries).
#   gpu-dynamic-column.sh run BUNDLE AGENT REPORTS_DIR [TIMEOUT_S] [JOBS]
#       On the GPU machine, JOBS programs at a time (default 1; times of
#       parallel runs are not comparable): runs each program without the
#       agent, then under it (CUDA_INJECTION64_PATH=AGENT, the analysis as
#       GPURACE_PLAN), and writes each launch's RuntimeReport as
#       REPORTS_DIR/<category>/<stem>.<launch>.json, where
#       `gpurace-corpus-score --runtime-reports REPORTS_DIR` reads it.
#       Programs that planned nothing get one report with checking
#       disabled, as on the CPU harness. REPORTS_DIR/runs.tsv lists each
#       program's exit status and wall time in milliseconds, without and
#       with the agent, and its launches.
#
# Programs of several translation units (`// with:`) are left out.
set -uo pipefail

usage() {
  sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'
  exit 1
}

die() {
  echo "gpu-dynamic-column.sh: error: $*" >&2
  exit 1
}

# One corpus program: its analysis, then the instrumented source.
prepare_one() {
  local gpurace=$1 bundle=$2 corpus=$3 file=$4
  local rel category stem work status
  rel=${file#"$corpus"/}
  category=${rel%%/*}
  stem=$(basename "$file" .cu)
  work=$bundle/$category/$stem
  if grep -q '^// with:' "$file"; then
    echo "$rel	several translation units" >>"$bundle/skipped.txt"
    return
  fi
  mkdir -p "$work"
  echo "$rel" >"$work/source"
  "$gpurace" analyze --format=json "$file" >"$work/analysis.json" 2>"$work/analyze.err"
  status=$?
  if ((status != 0 && status != 2)); then
    echo "$rel	analyze exited $status" >>"$bundle/skipped.txt"
    rm -rf "$work"
    return
  fi
  if ! grep -q '"accessSites"' "$work/analysis.json"; then
    touch "$work/nothing-planned"
    return
  fi
  if ! "$gpurace" instrument --plan "$work/analysis.json" "$file" \
      --runtime-header runtime/device/DeviceRuntime.cuh \
      -o "$work/instrumented.cu" 2>"$work/instrument.err"; then
    echo "$rel	instrument failed: $(head -1 "$work/instrument.err")" >>"$bundle/skipped.txt"
    rm -rf "$work"
  fi
}

prepare() {
  local gpurace=$1 bundle=$2
  local corpus=${3:-$(cd "$(dirname "$0")/../../tests/corpus" && pwd)}
  local jobs=${4:-$(nproc)}
  [[ -x $gpurace ]] || die "$gpurace is not an executable"
  [[ -d $corpus ]] || die "$corpus is not a directory"
  mkdir -p "$bundle" || die "cannot create $bundle"
  : >"$bundle/skipped.txt"
  export -f prepare_one
  find "$corpus" -name '*.cu' -not -path '*/parts/*' | sort |
    xargs -P "$jobs" -I{} bash -c 'prepare_one "$@"' _ "$gpurace" "$bundle" "$corpus" {}
  echo "prepared $(find "$bundle" -name instrumented.cu | wc -l) programs," \
    "$(find "$bundle" -name nothing-planned | wc -l) with nothing planned," \
    "$(wc -l <"$bundle/skipped.txt") left out"
}

build() {
  local bundle=$1 nvcc=$2 arch=${3:-sm_90} jobs=${4:-$(nproc)}
  local root
  root=$(cd "$(dirname "$0")/../.." && pwd)
  [[ -d $bundle ]] || die "$bundle is not a directory"
  find "$bundle" -name instrumented.cu -printf '%h\n' |
    xargs -P "$jobs" -I{} sh -c \
      '"$0" -arch="$1" -w -I "$2" ${NVCC_FLAGS:-} -o {}/program {}/instrumented.cu 2>{}/nvcc.err ||
       if grep -q "undefined reference to .main" {}/nvcc.err; then
         echo "$(cat {}/source)	not a program: no main" >>{}/build-failed
       else
         echo "$(cat {}/source)	nvcc failed: $(grep -m1 error {}/nvcc.err)" >>{}/build-failed
       fi' \
      "$nvcc" "$arch" "$root"
  cat "$bundle"/*/*/build-failed 2>/dev/null
  echo "built $(find "$bundle" -name program | wc -l) of" \
    "$(find "$bundle" -name instrumented.cu | wc -l) programs for $arch"
}

# Milliseconds since the epoch.
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# One program: without the agent, then under it. Its line of runs.tsv is
# written at once, so that parallel runs do not interleave.
run_one() {
  local work=${1%/} agent=$2 reports=$3 timeout_s=$4
  local stem category out rel start status_without ms_without status_with ms_with launches
  stem=$(basename "$work")
  category=$(basename "$(dirname "$work")")
  out=$reports/$category
  mkdir -p "$out"
  rm -f "$out/$stem".*.json
  rel=$(cat "$work/source")
  if [[ -f $work/nothing-planned ]]; then
    printf '{"program":"%s","coverage":{"checkingDisabled":true,"disabledReason":"the analysis planned no site to watch"}}\n' \
      "$rel" >"$out/$stem.0.json"
    return
  fi
  [[ -x $work/program ]] || return
  start=$(now_ms)
  (cd "$work" && timeout "$timeout_s" ./program >/dev/null 2>&1)
  status_without=$?
  ms_without=$(($(now_ms) - start))
  rm -f "$work/reports.jsonl"
  start=$(now_ms)
  (cd "$work" && GPURACE_PLAN=analysis.json GPURACE_REPORT=reports.jsonl \
    CUDA_INJECTION64_PATH=$agent timeout "$timeout_s" ./program >agent.out 2>&1)
  status_with=$?
  ms_with=$(($(now_ms) - start))
  launches=0
  if [[ -f $work/reports.jsonl ]]; then
    local line
    while IFS= read -r line; do
      printf '%s\n' "$line" >"$out/$stem.$launches.json"
      launches=$((launches + 1))
    done <"$work/reports.jsonl"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$rel" "$status_without" "$status_with" "$launches" \
    "$ms_without" "$ms_with" >>"$reports/runs.tsv"
}

run() {
  local bundle=$1 agent=$2 reports=$3 timeout_s=${4:-120} jobs=${5:-1}
  [[ -d $bundle ]] || die "$bundle is not a directory"
  [[ -f $agent ]] || die "$agent: no agent library"
  [[ $agent == /* ]] || agent=$PWD/$agent
  mkdir -p "$reports" || die "cannot create $reports"
  printf 'program\texit_without_agent\texit_with_agent\tlaunches\tms_without_agent\tms_with_agent\n' \
    >"$reports/runs.tsv"
  export -f run_one now_ms
  printf '%s\n' "$bundle"/*/*/ |
    xargs -P "$jobs" -I{} bash -c 'run_one "$@"' _ {} "$agent" "$reports" "$timeout_s"
  echo "ran $(($(wc -l <"$reports/runs.tsv") - 1)) programs under the agent"
}

case ${1:-} in
  prepare) (($# >= 3)) || usage; shift; prepare "$@" ;;
  build) (($# >= 3)) || usage; shift; build "$@" ;;
  run) (($# >= 4)) || usage; shift; run "$@" ;;
  *) usage ;;
esac
