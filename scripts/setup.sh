#!/usr/bin/env bash
# Sets up everything Hearth needs on a fresh Debian/Ubuntu machine: system packages, the UI's
# npm packages, and the built UI (ui/dist). Safe to run again: finished steps are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

bash .ci/setup-system.sh

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found; install Rust from https://rustup.rs and run again" >&2
  exit 1
fi

# The scheduler's tests compare next-run times with Python's croniter (an independent oracle).
if ! { [ -x target/cron-oracle/bin/python ] && target/cron-oracle/bin/python -c 'import croniter' 2>/dev/null; }; then
  python3 -m venv target/cron-oracle
  target/cron-oracle/bin/pip install -q croniter==7.0.0
fi

# The document readers' tests read files written by these libraries (crates/documents/tests).
if ! { [ -x target/doc-fixtures/bin/python ] && target/doc-fixtures/bin/python -c 'import fpdf, docx, pptx, openpyxl, xlwt, odf' 2>/dev/null; }; then
  python3 -m venv target/doc-fixtures
  target/doc-fixtures/bin/pip install -q fpdf2==2.8.9 python-docx==1.2.0 python-pptx==1.0.2 openpyxl==3.1.5 xlwt==1.3.0 odfpy==1.4.1
fi

if [ -f ui/package.json ]; then
  if [ ! -d ui/node_modules ] || [ ui/package-lock.json -nt ui/node_modules/.package-lock.json ]; then
    npm --prefix ui ci --no-audit --no-fund
  fi
  npm --prefix ui run build
else
  mkdir -p ui/dist
  [ -f ui/dist/index.html ] || echo '<!doctype html><title>Hearth</title>' > ui/dist/index.html
fi
