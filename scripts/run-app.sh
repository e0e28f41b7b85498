#!/usr/bin/env bash
# Sets everything up, builds Hearth and runs the desktop app.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --workspace --bins
exec target/debug/hearth "$@"
