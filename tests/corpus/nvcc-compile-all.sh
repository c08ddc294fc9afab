#!/usr/bin/env bash
# Compiles every corpus program with nvcc for sm_90 and names every file
# that fails. Usage: nvcc-compile-all.sh NVCC DIR [JOBS]
#
# --cubin runs nvcc's front end over the whole file (host code included,
# type-checked as CUDA C++) and ptxas over its device code (resource limits
# such as too much shared memory), but not the host compiler: that pass
# costs two thirds of a compile and checks nothing the front end has not;
# examples_build_with_nvcc builds whole programs with it.
set -uo pipefail
nvcc=$1
dir=$2
jobs=${3:-2}
export nvcc
compile_one() {
  # Grid-wide barriers need relocatable device code on older toolkits.
  local flags=(-arch=sm_90 --cubin -o /dev/null)
  # Programs split over files (parts/) link with relocatable device code.
  if grep -q -e this_grid -e "// with:" "$1" || [[ $1 == */parts/* ]]; then
    flags+=(-rdc=true)
  fi
  if ! output=$("$nvcc" "${flags[@]}" "$1" 2>&1); then
    printf 'FAILED %s\n%s\n' "$1" "$output"
    return 1
  fi
}
export -f compile_one
files=$(find "$dir" -name '*.cu' | sort)
count=$(printf '%s\n' "$files" | grep -c .)
if [[ $count -eq 0 ]]; then
  echo "no .cu files under $dir"
  exit 1
fi
failures=$(printf '%s\n' "$files" | xargs -P "$jobs" -I{} bash -c 'compile_one "$1"' _ {} | grep '^FAILED ' )
if [[ -n $failures ]]; then
  printf '%s\n' "$failures"
  echo "$(printf '%s\n' "$failures" | grep -c .) of $count corpus files failed to compile"
  exit 1
fi
echo "all $count corpus files compile with nvcc"
