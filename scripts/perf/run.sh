#!/usr/bin/env bash
# Measures the desktop app for the README: start to "ready", idle memory hidden in the tray,
# opening a 10,000-message chat, and the main-thread cost per token while streaming at 500
# tokens/s. Usage: scripts/perf/run.sh [BINARY [start|memory|long-chat|stream ...]] (default: the
# release build if there is one, else target/debug/hearth; every measurement). Runs inside a
# headless session (Xvfb + D-Bus).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${HEARTH_HEADLESS_SESSION:-}" != "1" ]; then
  exec bash scripts/with-headless-session.sh bash "$0" "$@"
fi
binary="${1:-}"
if [ -z "$binary" ]; then
  if [ -x target/release/hearth ]; then binary=target/release/hearth; else binary=target/debug/hearth; fi
fi
[ -x "$binary" ] || { echo "perf: $binary is missing (cargo build --release -p hearth)" >&2; exit 1; }
shift || true
measurements=("$@")
[ ${#measurements[@]} -gt 0 ] || measurements=(start long-chat stream memory)
bash scripts/e2e-setup.sh
# The app's notices would otherwise auto-start a notification daemon on this bus. The fake exits
# when its stdin (held open by this shell) closes.
exec {fake_stdin}> >(exec /usr/bin/python3 tests/desktop/fake_notifications.py /dev/null >/dev/null)
echo "binary: $binary"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for what in "${measurements[@]}"; do
  case "$what" in
    start) /usr/bin/python3 scripts/perf/desktop_perf.py "$binary" start --runs 6 ;;
    long-chat) /usr/bin/python3 scripts/perf/desktop_perf.py "$binary" long-chat --runs 4 ;;
    stream) /usr/bin/python3 scripts/perf/desktop_perf.py "$binary" stream --tokens 5000 --rate 500 ;;
    memory) /usr/bin/python3 scripts/perf/desktop_perf.py "$binary" memory --idle-seconds 60 ;;
    *) echo "perf: unknown measurement $what (start, memory, long-chat, stream)" >&2; exit 2 ;;
  esac
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
