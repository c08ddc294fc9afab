#!/usr/bin/env bash
# README command 1: set up and build, then the main job on the bundled
# examples: start a local race server on SQLite, analyze examples/, upload
# the result, and say where to look. The server keeps running afterwards.
#
# GPURACE_DEMO_DIR (default .gpurace/) holds the database, the analysis and
# the server's log; GPURACE_HTTP and GPURACE_GRPC choose the addresses.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
gpurace=$PWD/${GPURACE_BUILD_DIR:-build}/bin/gpurace
work=${GPURACE_DEMO_DIR:-.gpurace}
http=${GPURACE_HTTP:-127.0.0.1:8080}
grpc=${GPURACE_GRPC:-127.0.0.1:50551}
mkdir -p "$work"

if [[ -f "$work/server.pid" ]] && kill -0 "$(cat "$work/server.pid")" 2>/dev/null; then
  echo "gpurace: a demo server is already running (pid $(cat "$work/server.pid")); reusing it."
else
  "$gpurace" serve --db "$work/gpurace.db" --listen "$grpc" --http "$http" \
    >"$work/server.log" 2>&1 &
  echo $! >"$work/server.pid"
  for _ in $(seq 50); do
    grep -q "HTTP on" "$work/server.log" 2>/dev/null && break
    sleep 0.2
  done
  if ! kill -0 "$(cat "$work/server.pid")" 2>/dev/null; then
    echo "gpurace: the server did not start:" >&2
    cat "$work/server.log" >&2
    exit 1
  fi
fi

echo
echo "== gpurace analyze examples/*.cu"
status=0
"$gpurace" analyze --format=json -o "$work/analysis.json" examples/*.cu || status=$?
if ((status == 1)); then
  echo "gpurace: the analysis failed" >&2
  exit 1
fi
"$gpurace" analyze examples/*.cu || true

echo
echo "== gpurace upload"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo local)
branch=$(git rev-parse --abbrev-ref HEAD 2>/dev/null || echo main)
"$gpurace" upload "$work/analysis.json" --server "$grpc" --project examples \
  --commit "$commit" --branch "$branch" || true

echo
echo "Dashboard:  http://$http/   (project 'examples')"
echo "Races:      $gpurace races --server $grpc --project examples"
echo "Server log: $work/server.log; stop it with: kill \$(cat $work/server.pid)"
