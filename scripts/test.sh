#!/usr/bin/env bash
# Sets everything up and runs every check CI runs: formatting, lints, the engine-without-tauri
# rule, ARCHITECTURE.md against the crate graph, up-to-date TypeScript bindings, the Rust tests
# (unit, integration, end to end) and the UI tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

# A check run builds everything once: incremental caches would only add gigabytes of disk
# (CI machines have little to spare) and never be reused.
export CARGO_INCREMENTAL=0

step() { printf '\n==> %s\n' "$*"; }

# Free disk, for the log: a clean run needs about 4 GB for target/ (see the README).
disk() { df -h . | awk -v when="$1" 'END {print "disk " when ": " $4 " free of " $2}' || true; }
disk "before the build"

step "cargo fmt --check"
cargo fmt --all -- --check

step "the engine must not depend on tauri"
if cargo tree -p hearth-engine -e normal --prefix none | grep -E '^tauri( |-)'; then
  echo "hearth-engine depends on tauri (see above): keep tauri in src-tauri only" >&2
  exit 1
fi

step "ARCHITECTURE.md lists every crate and every dependency between them"
python3 scripts/check-architecture.py

step "cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings

# The TypeScript bindings in ui/src/lib/bindings are generated and committed: fails when a step
# that writes them (named by "$1") changed or added any.
bindings=ui/src/lib/bindings
bindings_committed() {
  if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "not a git checkout: cannot compare the regenerated bindings, skipped" >&2
    return 0
  fi
  local untracked
  untracked=$(git ls-files --others --exclude-standard -- "$bindings")
  if ! git diff --quiet -- "$bindings" || [ -n "$untracked" ]; then
    git --no-pager diff --stat -- "$bindings"
    [ -z "$untracked" ] || printf 'new, not committed:\n%s\n' "$untracked"
    echo "the TypeScript bindings in $bindings are out of date: commit what '$1' regenerated" \
      "(see above)" >&2
    exit 1
  fi
}

step "TypeScript bindings match crates/protocol"
cargo test -p hearth-protocol
bindings_committed "cargo test -p hearth-protocol"

step "desktop end-to-end prerequisites (tauri-driver) and the app binary"
bash scripts/e2e-setup.sh
# `--tests` makes the binaries with the same dependency features `cargo test` uses (dev-dependencies
# turn features on), so the test step reuses every crate instead of building ~200 of them again.
cargo build --workspace --bins --tests

step "cargo test"
bash scripts/with-headless-session.sh cargo test --workspace
# Among them `contract_exports_every_command_and_event` (src-tauri/src/contract) rewrote the IPC
# contract, `commands.ts` and `events.ts`, and the bindings of the types the commands and events
# exchange.
step "the IPC contract (ui/src/lib/bindings/commands.ts, events.ts) matches the commands and events"
bindings_committed "cargo test -p hearth --lib contract"

step "Linux packages: built as a release is (the UI's before-build step, then cargo), the .rpm read, the .deb installed, started from its menu entry, quit from the tray, removed"
if [ "$(uname -s)" = Linux ] && [ "$(id -u)" -eq 0 ]; then
  # `tauri build` runs build.beforeBuildCommand exactly as a release does; the cargo arguments
  # select the test build's packages, so cargo reuses what was built above instead of resolving
  # other features and compiling ~130 crates again.
  bundles=$(bash scripts/package.sh --debug deb rpm -- --workspace --tests)
  deb=$(printf '%s\n' "$bundles" | grep '\.deb$')
  rpm=$(printf '%s\n' "$bundles" | grep '\.rpm$')
  rpm_files=$(rpm -qlp "$rpm") rpm_requires=$(rpm -qp --requires "$rpm")
  for file in /usr/bin/hearth /usr/bin/hearth-document-worker /usr/bin/hearth-model-worker \
    /usr/share/applications/Hearth.desktop /usr/share/icons/hicolor/128x128/apps/hearth.png; do
    grep -qxF "$file" <<<"$rpm_files" || { echo "the .rpm lacks $file" >&2; exit 1; }
  done
  grep -q '^libwebkit2gtk-4.1.so.0' <<<"$rpm_requires" \
    || { echo "the .rpm does not require WebKitGTK 4.1" >&2; exit 1; }
  HEARTH_DEB="$deb" bash scripts/with-headless-session.sh \
    cargo test --workspace --test app_e2e -- --ignored --exact \
    desktop_e2e::install::the_deb_installs_starts_from_its_menu_entry_quits_from_the_tray_and_removes_cleanly
  rm -rf target/debug/bundle # ~250 MB the later steps do not need
else
  echo "skipped: installing the .deb into the system needs root on Linux (CI runs as root)"
fi

step "MCP conformance suite (2025-11-25 and 2026-07-28)"
bash scripts/mcp-conformance.sh

if [ -f ui/package.json ]; then
  step "UI: svelte-check, vitest, playwright"
  npm --prefix ui run check
  npm --prefix ui run test
  npm --prefix ui run test:e2e
fi
disk "after the checks"
du -sh target 2>/dev/null | awk '{print "target/ after the checks: " $1}' || true
step "all checks passed"
