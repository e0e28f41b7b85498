#!/usr/bin/env bash
# Sets everything up, builds Hearth and runs the desktop app.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --workspace --bins
# The built-in model (unpacked by setup.sh) copied into the app's models folder, once: with no
# key and no model server, the first-run card's "Use the built-in model" then chats offline.
if ! target/debug/hearth-cli models list --json | grep -q '"builtin": true'; then
  target/debug/hearth-cli models import target/models/SmolLM2-135M-Instruct.Q4_1.gguf
fi
exec target/debug/hearth "$@"
