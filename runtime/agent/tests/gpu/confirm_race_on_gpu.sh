#!/bin/sh
# On a GPU: instrument the racy shift kernel from its plan, build it with
# nvcc, run it under `gpurace run` and check that the agent confirmed the
# inter-block race between the plan's two sites. Exits 77 (ctest: skipped)
# when the machine has no GPU.
#
# usage: confirm_race_on_gpu.sh GPURACE NVCC SOURCE_DIR WORK_DIR
set -eu
gpurace=$1 nvcc=$2 source=$3 work=$4

if [ ! -e /dev/nvidia0 ]; then
  echo "SKIP: no NVIDIA GPU here (/dev/nvidia0 is missing); the CUPTI agent is tested only where a GPU is present"
  exit 77
fi

inputs=runtime/harness/tests/inputs
mkdir -p "$work"
cd "$source"
"$gpurace" instrument --plan $inputs/shift_racy.plan.json $inputs/shift_racy.cu \
  -o "$work/shift.instrumented.cu"
"$nvcc" -arch=native -o "$work/shift" -include "$work/shift.instrumented.cu" \
  runtime/agent/tests/gpu/shift_main.cu

status=0
"$gpurace" run --plan $inputs/shift_racy.plan.json --report "$work/reports.jsonl" \
  --fail-on-race -- "$work/shift" || status=$?
if [ "$status" -eq 77 ]; then
  exit 77
fi
fail() { echo "FAIL: $1"; cat "$work/reports.jsonl"; exit 1; }
[ "$status" -eq 2 ] || fail "expected exit 2 (race confirmed), got $status"
[ "$(wc -l < "$work/reports.jsonl")" -eq 1 ] || fail "expected one report (one launch)"
for expected in RACE_CLASS_INTER_BLOCK s-5d1e0c2a9b7f4e01 s-5d1e0c2a9b7f4e02 \
    '"kernel":"shift"' '"smArchitecture":"sm_' '"driverVersion":'; do
  grep -q "$expected" "$work/reports.jsonl" || fail "no $expected in the report"
done
if grep -q checkingDisabled "$work/reports.jsonl"; then
  fail "the launch was not checked"
fi
echo "PASS: the agent confirmed the race on $(grep -o '"name":"[^"]*"' "$work/reports.jsonl" | head -1)"
