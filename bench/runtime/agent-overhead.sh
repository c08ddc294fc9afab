#!/usr/bin/env bash
# The agent's cost per launch on a GPU, one kernel at a time, in steps that
# may run on different machines (the analyzer needs Clang, the run a GPU):
#
#   agent-overhead.sh prepare GPURACE DIR
#       Where gpurace runs: analyzes overhead/scatter.cu (its analysis is
#       the plan) and instruments it into DIR.
#   agent-overhead.sh build DIR NVCC [ARCH]
#       Where nvcc runs, beside this checkout: DIR/plain from the source
#       and DIR/instrumented from the instrumented source, for ARCH
#       (default sm_90).
#   agent-overhead.sh run DIR AGENT [REPEATS]
#       On the GPU machine: for each grid size and for a permutation (no
#       race) and a colliding index (a race per pair of threads), the
#       median wall time of one launch (REPEATS launches, default 50) of
#       the plain program, of the instrumented one without the agent (the
#       record buffer is never set: the cost of the checks on its
#       pointer), and under the agent (records, copy back, detector).
#       Prints one line per case, the ratios measured in the same run, and
#       the last launch's records, records lost, races (distinct pairs of
#       sites and classes) and conflicting accesses.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)

die() {
  echo "agent-overhead.sh: error: $*" >&2
  exit 1
}

prepare() {
  local gpurace=$1 dir=$2 status
  mkdir -p "$dir" || die "cannot create $dir"
  "$gpurace" analyze --format=json "$here/overhead/scatter.cu" >"$dir/analysis.json"
  status=$?
  ((status == 0 || status == 2)) || die "gpurace analyze exited $status"
  grep -q '"accessSites"' "$dir/analysis.json" || die "the analysis planned no site"
  cp "$here/overhead/scatter.cu" "$dir/scatter.cu"
  (cd "$here/../.." && "$gpurace" instrument --plan "$dir/analysis.json" \
    "$here/overhead/scatter.cu" --runtime-header runtime/device/DeviceRuntime.cuh \
    -o "$dir/instrumented.cu") || die "gpurace instrument failed"
}

build() {
  local dir=$1 nvcc=$2 arch=${3:-sm_90} root
  root=$(cd "$here/../.." && pwd)
  "$nvcc" -O2 -arch="$arch" -o "$dir/plain" "$dir/scatter.cu" || die "nvcc failed"
  "$nvcc" -O2 -arch="$arch" -I "$root" -o "$dir/instrumented" "$dir/instrumented.cu" ||
    die "nvcc failed on the instrumented source"
}

# Median microseconds per launch; the agent's report goes to DIR/reports.
time_launch() {
  local dir=$1 program=$2 agent=$3 blocks=$4 repeats=$5 mode=$6
  if [[ -n $agent ]]; then
    (cd "$dir" && GPURACE_PLAN=analysis.json GPURACE_REPORT=reports.jsonl GPURACE_QUIET=1 \
      CUDA_INJECTION64_PATH=$agent "./$program" "$blocks" "$repeats" $mode)
  else
    (cd "$dir" && "./$program" "$blocks" "$repeats" $mode)
  fi
}

# A number field of a report line (proto3 JSON writes 64-bit numbers as
# strings and leaves out zeros).
field() {
  local value
  value=$(grep -o "\"$2\":\"\\{0,1\\}[0-9]*" <<<"$1" | grep -o '[0-9]*$')
  echo "${value:-0}"
}

run() {
  local dir=$1 agent=$2 repeats=${3:-50}
  [[ -f $agent ]] || die "$agent: no agent library"
  [[ $agent == /* ]] || agent=$PWD/$agent
  printf 'index\tthreads\tplain_us\tinstrumented_us\tagent_us\tinstrumented/plain\tagent/plain\trecords\tlost\traces\tconflicts\n'
  local mode blocks plain instrumented with last
  for mode in permutation collide; do
    for blocks in 1 16 256 4096; do
      local arg=
      [[ $mode == collide ]] && arg=collide
      plain=$(time_launch "$dir" plain "" "$blocks" "$repeats" "$arg") || die "plain run failed"
      instrumented=$(time_launch "$dir" instrumented "" "$blocks" "$repeats" "$arg") ||
        die "instrumented run failed"
      rm -f "$dir/reports.jsonl"
      with=$(time_launch "$dir" instrumented "$agent" "$blocks" "$repeats" "$arg") ||
        die "run under the agent failed"
      # The last launch's report: its records, those lost and its races.
      last=$(tail -n 1 "$dir/reports.jsonl" 2>/dev/null)
      awk -v mode="$mode" -v threads=$((blocks * 256)) -v plain="$plain" \
        -v instrumented="$instrumented" -v with="$with" \
        -v records="$(field "$last" recordsWritten)" -v lost="$(field "$last" recordsLost)" \
        -v races="$(grep -o '"raceClass"' <<<"$last" | wc -l)" \
        -v conflicts="$(grep -o '"count":"[0-9]*' <<<"$last" | grep -o '[0-9]*$' |
          awk '{ n += $1 } END { print n + 0 }')" 'BEGIN {
          printf "%s\t%d\t%s\t%s\t%s\t%.2f\t%.2f\t%s\t%s\t%s\t%s\n", mode, threads, plain,
            instrumented, with, instrumented / plain, with / plain, records, lost, races,
            conflicts }'
    done
  done
}

case ${1:-} in
  prepare) (($# == 3)) || die "usage: agent-overhead.sh prepare GPURACE DIR"; shift; prepare "$@" ;;
  build) (($# >= 3)) || die "usage: agent-overhead.sh build DIR NVCC [ARCH]"; shift; build "$@" ;;
  run) (($# >= 3)) || die "usage: agent-overhead.sh run DIR AGENT [REPEATS]"; shift; run "$@" ;;
  *) sed -n "2,21p" "$0" | sed 's/^# \{0,1\}//'; exit 1 ;;
esac
