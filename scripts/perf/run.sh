#!/usr/bin/env bash
# Measures the desktop app for the README: start to "ready", idle memory hidden in the tray, and
# opening a 10,000-message chat. Usage: scripts/perf/run.sh [BINARY] (default: the release build
# if there is one, else target/debug/hearth). Runs inside a headless session (Xvfb + D-Bus).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${HEARTH_HEADLESS_SESSION:-}" != "1" ]; then
  exec bash scripts/with-headless-session.sh bash "$0" "$@"
fi
binary="${1:-}"
if [ -z "$binary" ]; then
  if [ -x target/release/hearth ]; then binary=target/release/hearth; else binary=target/debug/hearth; fi
fi
[ -x "$binary" ] || { echo "perf: $binary is missing (cargo build --workspace --bins)" >&2; exit 1; }
bash scripts/e2e-setup.sh
# The app's first notice would otherwise auto-start a notification daemon on this bus. The fake
# exits when its stdin (held open by this shell) closes.
exec {fake_stdin}> >(exec /usr/bin/python3 tests/desktop/fake_notifications.py /dev/null >/dev/null)
echo "binary: $binary"
/usr/bin/python3 scripts/perf/desktop_perf.py "$binary" start --runs 6
/usr/bin/python3 scripts/perf/desktop_perf.py "$binary" long-chat --runs 4
/usr/bin/python3 scripts/perf/desktop_perf.py "$binary" memory --idle-seconds 60
