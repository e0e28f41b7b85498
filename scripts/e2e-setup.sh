#!/usr/bin/env bash
# Installs what the desktop end-to-end tests need beyond the system packages: tauri-driver (the
# WebDriver bridge to WebKitWebDriver) into .tools/bin. Safe to run again: skipped when present.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .tools/bin/tauri-driver ]; then
  cargo install tauri-driver --version '^2' --locked --root .tools
fi
for tool in WebKitWebDriver xdotool gdbus secret-tool Xvfb dbus-run-session; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "e2e-setup: $tool is missing; run scripts/setup.sh (it installs the system packages)" >&2
    exit 1
  fi
done
if ! /usr/bin/python3 -c 'import gi' 2>/dev/null; then
  echo "e2e-setup: /usr/bin/python3 cannot import gi; install python3-gi" >&2
  exit 1
fi
