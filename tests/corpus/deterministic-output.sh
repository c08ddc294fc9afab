#!/usr/bin/env bash
# The same files give the same report byte for byte: run three times with
# two jobs, with host facts and without, and compare. The third run reads
# copies of the files from another directory, at another depth: where a
# project is checked out must not change what is found (the solver's
# search follows its symbols' names). (Jobs finish in a different order
# from run to run; AnalyzeCommand.ParallelJobsGiveTheSameResult compares
# one job against several.)
# Usage: deterministic-output.sh GPURACE CORPUS_DIR
set -uo pipefail
gpurace=$1
corpus=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Loops, host aliasing, volatile, hand-offs through relay threads,
# same-value writes and mirrored rectangles of host-chosen sizes: the
# shapes whose queries take the solver longest.
mapfile -t files < <(find "$corpus/loop-induction" "$corpus/host-aliasing" \
  "$corpus/volatile" "$corpus/transitive-handoff" "$corpus/same-value-write" \
  "$corpus/host-assert" \
  -maxdepth 1 -name '*.cu' | sort)
if [[ ${#files[@]} -eq 0 ]]; then
  echo "no .cu files under $corpus"
  exit 1
fi

# The copies, and the directory their paths are printed under.
elsewhere="$work/another/checkout/of/the/corpus"
moved=()
for file in "${files[@]}"; do
  copy="$elsewhere/${file#"$corpus"/}"
  mkdir -p "$(dirname "$copy")"
  cp "$file" "$copy"
  moved+=("$copy")
done

status=0
for mode in host no-host; do
  flags=(--all --no-color)
  [[ $mode == no-host ]] && flags+=(--no-host)
  run=0
  for jobs in 2 2 2; do
    run=$((run + 1))
    inputs=("${files[@]}")
    [[ $run -eq 3 ]] && inputs=("${moved[@]}")
    "$gpurace" analyze "${flags[@]}" -j "$jobs" "${inputs[@]}" \
      > "$work/$mode.$run" 2> "$work/$mode.$run.err"
    code=$?
    if [[ $code -ne 0 && $code -ne 2 ]]; then
      echo "run $run ($mode, -j $jobs) failed with exit code $code:"
      cat "$work/$mode.$run.err"
      exit 1
    fi
    cat "$work/$mode.$run.err" >> "$work/$mode.$run"
  done
  # The moved run's report names the copies: name the originals instead.
  python3 - "$work/$mode.3" "$elsewhere" "$corpus" <<'SWAP'
import sys
path, moved, original = sys.argv[1:]
with open(path) as f:
    text = f.read()
with open(path, "w") as f:
    f.write(text.replace(moved, original))
SWAP
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
    echo "$mode: ${#files[@]} files, $candidates candidates, identical in 3 runs" \
      "(the third from another directory)"
done
[[ $status -eq 0 ]] && echo "output deterministic"
exit $status
