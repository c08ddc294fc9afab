#!/usr/bin/env bash
# Runs `gpurace analyze --format=json` over every .cu file of a source tree
# that is not the project's own (a checkout of real CUDA code; nothing is
# fetched), one process per file with a time limit, and prints how much of
# it the analyzer handles: files analyzed without a tool error, files with
# errors (each with its first message), crashes (killed by a signal),
# timeouts, the findings per file, and the analysis time against
# `clang -fsyntax-only` of the same file with the same headers (the Clang
# commands the analyzer itself prints with --print-clang-command, host and
# device parse summed), median and maximum of the ratio. A .cu file that
# another .cu of its folder #includes is counted apart and not analyzed
# alone: `gpurace analyze` over the folder analyzes it as part of its
# includer. With --programs each SUBDIR, or without SUBDIRs each folder
# directly under DIR, is one program with every .cu below it, analyzed as
# a user runs `gpurace analyze FOLDER`: kernels defined in one file and
# launched from another (separately compiled) are checked under that launch.
#
#   bench/analyzer/real-code.sh [OPTIONS] DIR [SUBDIR...] [-- FLAGS]
#
# Runs from DIR, so FLAGS may name folders relative to it (`-- -I Common`);
# SUBDIRs (relative to DIR) limit the files to those folders.
#
#   --gpurace PATH         the gpurace program (default build/bin/gpurace)
#   --cuda-path DIR        passed to gpurace: parse with this CUDA toolkit
#   --fallback-headers     passed to gpurace: parse with the project's headers
#   --timeout SECONDS      per file (default 60)
#   --details              print every finding and every file's times
#   --keep DIR             keep each file's JSON, stderr and times in DIR
#   --programs             one run per program folder, not per file
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
gpurace=$root/build/bin/gpurace
header_flags=()
limit=60
details=0
keep=
programs=0
positional=()
flags=()
while (($#)); do
  case $1 in
    --gpurace) gpurace=$2; shift 2 ;;
    --cuda-path) header_flags=("--cuda-path=$2"); shift 2 ;;
    --cuda-path=*) header_flags=("$1"); shift ;;
    --fallback-headers) header_flags=(--fallback-headers); shift ;;
    --timeout) limit=$2; shift 2 ;;
    --details) details=1; shift ;;
    --keep) keep=$2; shift 2 ;;
    --programs) programs=1; shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    --) shift; flags=("$@"); break ;;
    -*) echo "real-code: unknown option $1" >&2; exit 1 ;;
    *) positional+=("$1"); shift ;;
  esac
done
if ((${#positional[@]} == 0)); then
  echo "usage: bench/analyzer/real-code.sh [OPTIONS] DIR [SUBDIR...] [-- FLAGS]" >&2
  exit 1
fi
gpurace=$(realpath "$gpurace")
if [[ ! -x "$gpurace" ]]; then
  echo "real-code: $gpurace not built (scripts/build.sh builds it)" >&2
  exit 1
fi
for tool in python3 timeout; do
  command -v "$tool" >/dev/null || { echo "real-code: $tool not found" >&2; exit 1; }
done
dir=${positional[0]}
subdirs=("${positional[@]:1}")
((${#subdirs[@]})) || subdirs=(.)
cd "$dir"
mapfile -t files < <(find "${subdirs[@]}" -name '*.cu' -type f | sed 's|^\./||' | sort)
if ((${#files[@]} == 0)); then
  echo "real-code: no .cu file under ${subdirs[*]} in $dir" >&2
  exit 1
fi
# What one run analyzes: a file, or with --programs a program: each SUBDIR
# given, else each folder right under DIR (a .cu right in DIR is its own).
if ((programs)); then
  if ((${#positional[@]} > 1)); then
    files=("${subdirs[@]}")
  else
    mapfile -t files < <(printf '%s\n' "${files[@]}" | sed 's|/.*||' | sort -u)
  fi
fi

work=${keep:-$(mktemp -d "${TMPDIR:-/tmp}/gpurace-real-code.XXXXXX")}
mkdir -p "$work"
[[ -n "$keep" ]] || trap 'rm -rf "$work"' EXIT
# Whether this gpurace prints its Clang commands.
clang_reference=1
# (The help is read whole first: `grep -q` stops reading at its match,
# and under pipefail the writer's SIGPIPE would read as "no".)
analyze_help=$("$gpurace" analyze --help 2>&1 || true)
if ! grep -q -- '--print-clang-command' <<<"$analyze_help"; then
  clang_reference=0
  echo "real-code: this gpurace has no --print-clang-command; no clang times" >&2
fi

now() { date +%s.%N; }
# The .cu file of the same folder that #includes this one, directly or
# through headers of the folder (`main.cu` -> "sweep.h" -> "sweep.cu"), if
# any: such a file is analyzed as part of its includer (as `gpurace
# analyze` over the folder does), not alone.
includer_of() {
  local dir other name
  dir=$(dirname "$1")
  local -a names=("$(basename "$1")") seen=()
  while ((${#names[@]})); do
    name=${names[0]}
    names=("${names[@]:1}")
    seen+=("$name")
    for other in "$dir"/*; do
      [[ -f "$other" && ! "$other" -ef "$1" ]] || continue
      grep -qE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"${name//./\\.}\"" "$other" || continue
      if [[ "$other" == *.cu ]]; then
        echo "${other#./}"
        return
      fi
      [[ " ${seen[*]} " == *" $(basename "$other") "* ]] || names+=("$(basename "$other")")
    done
  done
}
unit=files
((programs)) && unit=programs
echo "real-code: ${#files[@]} $unit under $dir (${subdirs[*]}), limit ${limit} s each" >&2
i=0
for f in "${files[@]}"; do
  i=$((i + 1))
  key=$(printf '%04d' "$i")
  printf '%s\n' "$f" >"$work/$key.file"
  includer=
  ((programs)) || includer=$(includer_of "$f")
  if [[ -n "$includer" ]]; then
    printf '%s\n' "$includer" >"$work/$key.included"
    continue
  fi
  start=$(now)
  status=0
  timeout -k 5 "$limit" "$gpurace" analyze --format=json -j 1 "${header_flags[@]}" \
    "$f" -- "${flags[@]}" >"$work/$key.json" 2>"$work/$key.err" || status=$?
  end=$(now)
  echo "$status $(echo "$end - $start" | bc -l)" >"$work/$key.analysis"
  # The same parse by clang: every command the analyzer prints for the file.
  if ((clang_reference)); then
    cstatus=0
    "$gpurace" analyze --print-clang-command "${header_flags[@]}" "$f" -- "${flags[@]}" \
      >"$work/$key.commands" 2>/dev/null || cstatus=$?
    if ((cstatus == 0)) && [[ -s "$work/$key.commands" ]]; then
      total=0
      while IFS= read -r command; do
        [[ -n "$command" ]] || continue
        start=$(now)
        timeout -k 5 "$limit" bash -c "$command" >/dev/null 2>&1 || true
        end=$(now)
        total=$(echo "$total + $end - $start" | bc -l)
      done <"$work/$key.commands"
      echo "$total" >"$work/$key.clang"
    fi
  fi
  printf '\r[%d/%d] %s\033[K' "$i" "${#files[@]}" "$f" >&2
done
printf '\n' >&2

python3 - "$work" "$limit" "$details" "$unit" <<'EOF'
import json, os, statistics, sys

work, limit, details, unit = sys.argv[1], float(sys.argv[2]), sys.argv[3] == "1", sys.argv[4]
keys = sorted(k[:-5] for k in os.listdir(work) if k.endswith(".file"))

def read(key, ext):
    path = os.path.join(work, key + ext)
    return open(path, errors="replace").read() if os.path.exists(path) else None

def first_error(key, result):
    for e in (result or {}).get("errors", []):
        where = e.get("file", "")
        if e.get("line"):
            where += ":%d:%d" % (e["line"], e.get("column", 0))
        return "%s: %s" % (where, e.get("message", "").splitlines()[0] if e.get("message") else "")
    for line in (read(key, ".err") or "").splitlines():
        if "error" in line:
            return line.strip()
    lines = [l.strip() for l in (read(key, ".err") or "").splitlines() if l.strip()]
    return lines[0] if lines else "no message"

def class_name(c):
    name = c.get("raceClass", "RACE_CLASS_UNSPECIFIED")
    return name.replace("RACE_CLASS_", "").lower().replace("_", "-")
ok, errors, crashes, timeouts, findings = [], [], [], [], []
ratios, rows, included = [], [], []
for key in keys:
    f = read(key, ".file").strip()
    includer = read(key, ".included")
    if includer:
        included.append((f, includer.strip()))
        continue
    status, seconds = read(key, ".analysis").split()
    status, seconds = int(status), float(seconds)
    clang = read(key, ".clang")
    clang = float(clang) if clang else None
    result = None
    try:
        result = json.loads(read(key, ".json") or "")
    except ValueError:
        pass
    if status == 124 or (status == 137 and seconds >= limit):
        timeouts.append(f)
    elif status >= 128:
        crashes.append((f, status))
    elif status in (0, 2) and result is not None and not result.get("errors"):
        ok.append(f)
    else:
        errors.append((f, first_error(key, result)))
    if result is not None and status in (0, 1, 2):
        found = result.get("candidates", [])
        if found:
            findings.append((f, found))
        if clang and status in (0, 2):
            ratios.append((seconds / clang, f, seconds, clang))
    rows.append((f, status, seconds, clang))

n = len(keys) - len(included)
pct = lambda k: 100.0 * k / n if n else 0.0
print("%-30s %d" % (unit, len(keys)))
print("#included by another .cu file  %d (analyzed as part of it, not alone)" % len(included))
print("analyzed without a tool error  %d (%.1f%%)" % (len(ok), pct(len(ok))))
print("%-30s %d (%.1f%%)" % (unit + " with errors", len(errors), pct(len(errors))))
print("crashes (killed by a signal)   %d" % len(crashes))
print("%-30s %d" % ("timeouts (%g s)" % limit, len(timeouts)))
if ratios:
    values = sorted(r[0] for r in ratios)
    worst = max(ratios)
    print("analysis / clang -fsyntax-only median %.2f  max %.2f (%s: %.2f s against %.2f s) over %d %s"
          % (statistics.median(values), worst[0], worst[1], worst[2], worst[3], len(ratios), unit))
    slowest = max(ratios, key=lambda r: r[2])
    print("slowest analysis               %.2f s (%s)" % (slowest[2], slowest[1]))
else:
    print("analysis / clang -fsyntax-only no clang times")
for f, status in crashes:
    print("crash: %s: exit status %d" % (f, status))
for f in timeouts:
    print("timeout: %s" % f)
for f, includer in included:
    print("included: %s, by %s" % (f, includer))
if errors:
    print("\nerrors (file: first error message):")
    here = os.getcwd() + "/"
    for f, message in errors:
        print("%s: %s" % (f, message.replace(here, "")))
print("\nfindings (candidates at or above the threshold): %d in %d %s"
      % (sum(len(c) for _, c in findings), len(findings), unit))
for f, found in findings:
    classes = {}
    for c in found:
        name = class_name(c)
        classes[name] = classes.get(name, 0) + 1
    top = max(c.get("score", 0) for c in found)
    print("%s: %d (%s), top score %.2f" % (
        f, len(found), ", ".join("%s %d" % kv for kv in sorted(classes.items())), top))
    if details:
        for c in found:
            print("    %.2f %s: %s" % (c.get("score", 0), c.get("kernel", ""), c.get("message", "")))
if details:
    print("\n%-70s %6s %9s %9s" % ("file", "status", "gpurace_s", "clang_s"))
    for f, status, seconds, clang in rows:
        print("%-70s %6d %9.2f %9s" % (f, status, seconds, "%.2f" % clang if clang else "-"))
EOF
