#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring and an Xvfb
# display, so keychain, notification, tray and window tests have the real services they need.
set -euo pipefail
if [ "${HEARTH_HEADLESS_SESSION:-}" != "1" ]; then
  export HEARTH_HEADLESS_SESSION=1
  exec dbus-run-session -- "$0" "$@"
fi
tmp=$(mktemp -d)
export XDG_DATA_HOME="$tmp/data" XDG_RUNTIME_DIR="$tmp/run" NO_AT_BRIDGE=1
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
echo -n hearth-ci | gnome-keyring-daemon --unlock --components=secrets >/dev/null
display=":$((90 + RANDOM % 9))"
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true; rm -rf "$tmp"' EXIT
export DISPLAY="$display"
"$@"
