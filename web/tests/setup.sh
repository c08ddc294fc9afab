#!/usr/bin/env bash
# Makes sure the browser tests can run: Node.js, Debian's Chromium, and the
# test tooling from package-lock.json. A missing tool is an error, never a
# silent pass: scripts/install-deps.sh installs them.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "web tests: $1" >&2
  exit 1
}

command -v node >/dev/null || fail "node not found; run scripts/install-deps.sh (Debian packages nodejs, npm)"
command -v npm >/dev/null || fail "npm not found; run scripts/install-deps.sh (Debian package npm)"
[[ -n "${GPURACE_CHROMIUM:-}" ]] || command -v chromium >/dev/null ||
  fail "chromium not found; run scripts/install-deps.sh (Debian package chromium)"
node_major=$(node -p 'process.versions.node.split(".")[0]')
((node_major >= 20)) || fail "node $(node --version) is too old; the tests need Node.js 20 or later"

if [[ ! -f node_modules/playwright-core/package.json ]]; then
  npm ci --no-audit --no-fund
fi
