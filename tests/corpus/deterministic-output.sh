#!/usr/bin/env bash
# The same files give the same report byte for byte: run three times with
# two jobs, with host facts and without, and compare. (Jobs finish in a
# different order from run to run; AnalyzeCommand.ParallelJobsGiveTheSame-
# Result compares one job against several.)
# Usage: deterministic-output.sh GPURACE CORPUS_DIR
set -uo pipefail
gpurace=$1
corpus=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Loops, host aliasing, volatile, hand-offs through relay threads and
# same-value writes: the shapes whose queries take the solver longest.
mapfile -t files < <(find "$corpus/loop-induction" "$corpus/host-aliasing" \
  "$corpus/volatile" "$corpus/transitive-handoff" "$corpus/same-value-write" \
  -maxdepth 1 -name '*.cu' | sort)
if [[ ${#files[@]} -eq 0 ]]; then
  echo "no .cu files under $corpus"
  exit 1
fi

status=0
for mode in host no-host; do
  flags=(--all --no-color)
  [[ $mode == no-host ]] && flags+=(--no-host)
  run=0
  for jobs in 2 2 2; do
    run=$((run + 1))
    "$gpurace" analyze "${flags[@]}" -j "$jobs" "${files[@]}" \
      > "$work/$mode.$run" 2> "$work/$mode.$run.err"
    code=$?
    if [[ $code -ne 0 && $code -ne 2 ]]; then
      echo "run $run ($mode, -j $jobs) failed with exit code $code:"
      cat "$work/$mode.$run.err"
      exit 1
    fi
    cat "$work/$mode.$run.err" >> "$work/$mode.$run"
  done
  same=1
  for run in 2 3; do
    if ! diff -u "$work/$mode.1" "$work/$mode.$run" > "$work/diff"; then
      echo "$mode: run $run differs from run 1:"
      head -40 "$work/diff"
      same=0
      status=1
    fi
  done
  candidates=$(grep -c ': warning: ' "$work/$mode.1")
  [[ $same -eq 1 ]] &&
    echo "$mode: ${#files[@]} files, $candidates candidates, identical in 3 runs"
done
[[ $status -eq 0 ]] && echo "output deterministic"
exit $status
