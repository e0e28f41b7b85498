#!/usr/bin/env bash
# Builds Hearth's installers for this machine and prints the absolute path of each bundle, one
# per line (progress goes to stderr). Linux: .deb and .rpm, and an AppImage where linuxdeploy
# is installed; macOS: .app and .dmg; Windows: the NSIS .exe and the .msi.
#   scripts/package.sh                 release build, then every bundle this machine can make
#   scripts/package.sh --debug         the debug profile instead
#   scripts/package.sh --no-build ...  bundle the binary cargo already built (CI: no rebuild)
#   scripts/package.sh deb rpm         only these bundles
#   scripts/package.sh ... -- ARGS     ARGS go to `cargo build` (CI: the test build's packages;
#                                      a GPU build: -- --workspace --features hearth-model-worker/vulkan)
# The two worker executables (hearth-document-worker, hearth-model-worker) are bundled beside
# the app as Tauri external binaries.
# Signing and notarization read their secrets from the environment (never from the repository):
# see "Install" in the README.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=release build=1 bundles=() cargo_args=()
while [ $# -gt 0 ]; do
  arg=$1
  shift
  case "$arg" in
    --) cargo_args=("$@"); break ;;
    --debug) profile=debug ;;
    --no-build) build=0 ;;
    -h | --help) sed -n '2,11p' "$0" | cut -c3-; exit 0 ;;
    -*) echo "package: unknown option $arg (see --help)" >&2; exit 2 ;;
    *) bundles+=("$arg") ;;
  esac
done

if [ ${#bundles[@]} -eq 0 ]; then
  case "$(uname -s)" in
    Linux)
      bundles=(deb rpm)
      # Tauri fetches linuxdeploy into its cache; without network access it must already be there.
      if command -v linuxdeploy >/dev/null 2>&1 \
        || [ -x "${XDG_CACHE_HOME:-$HOME/.cache}/tauri/linuxdeploy-x86_64.AppImage" ]; then
        bundles+=(appimage)
      else
        echo "package: linuxdeploy is not installed, so no AppImage (a release machine builds it)" >&2
      fi
      ;;
    Darwin) bundles=(app dmg) ;;
    MINGW* | MSYS* | CYGWIN*) bundles=(nsis msi) ;;
    *) echo "package: no bundles known for $(uname -s)" >&2; exit 1 ;;
  esac
fi

# The Tauri CLI is pinned in ui/package.json (a prebuilt binary from npm).
if [ ! -f ui/node_modules/@tauri-apps/cli/tauri.js ]; then
  npm --prefix ui ci --no-audit --no-fund >&2
fi

# A secret that is set but empty (a CI secret not configured) means "not signing", not "sign
# with nothing".
for name in APPLE_CERTIFICATE APPLE_CERTIFICATE_PASSWORD APPLE_SIGNING_IDENTITY APPLE_ID \
  APPLE_PASSWORD APPLE_TEAM_ID APPLE_API_KEY APPLE_API_ISSUER APPLE_API_KEY_PATH \
  TAURI_SIGNING_PRIVATE_KEY TAURI_SIGNING_PRIVATE_KEY_PASSWORD WINDOWS_CERTIFICATE_THUMBPRINT; do
  [ -n "${!name:-}" ] || unset "$name"
done

target_dir=${CARGO_TARGET_DIR:-target}
case "$target_dir" in /*) ;; *) target_dir="$PWD/$target_dir" ;; esac
out="$target_dir/$profile/bundle"

# The workers are executables of their own crates (hearth-documents, hearth-model-worker): built first
# (with the selection given after --, which then must hold them), then staged under the names
# Tauri's externalBin expects (NAME-TARGET_TRIPLE).
workers=(hearth-document-worker hearth-model-worker)
if [ "$build" = 1 ]; then
  worker_args=(-p hearth-documents -p hearth-model-worker)
  [ ${#cargo_args[@]} -eq 0 ] || worker_args=("${cargo_args[@]}")
  profile_args=()
  [ "$profile" = debug ] || profile_args=(--release)
  cargo build "${profile_args[@]}" "${worker_args[@]}" --bins >&2
fi
triple=$(rustc -vV | sed -n 's/^host: //p')
exe=
case "$(uname -s)" in MINGW* | MSYS* | CYGWIN*) exe=.exe ;; esac
staged="$target_dir/$profile/external-bin"
mkdir -p "$staged"
for worker in "${workers[@]}"; do
  built="$target_dir/$profile/$worker$exe"
  [ -x "$built" ] || { echo "package: $built is missing (cargo build the workspace's binaries)" >&2; exit 1; }
  cp "$built" "$staged/$worker-$triple$exe"
done

# Tauri reads the path natively: on Windows that is D:/…, not Git Bash's /d/….
command -v cygpath >/dev/null 2>&1 && staged=$(cygpath -m "$staged")

# Settings merged over src-tauri/tauri.conf.json: the workers, and what comes from the environment.
config=$(STAGED="$staged" WORKERS="${workers[*]}" node -e '
  const env = process.env, config = { bundle: {} };
  config.bundle.externalBin = env.WORKERS.split(" ").map((name) => `${env.STAGED}/${name}`);
  // Updater artifacts (.sig next to each bundle) when the signing key is given.
  if (env.TAURI_SIGNING_PRIVATE_KEY) config.bundle.createUpdaterArtifacts = true;
  if (env.WINDOWS_CERTIFICATE_THUMBPRINT) {
    config.bundle.windows = {
      certificateThumbprint: env.WINDOWS_CERTIFICATE_THUMBPRINT,
      digestAlgorithm: "sha256",
      timestampUrl: env.WINDOWS_TIMESTAMP_URL || "http://timestamp.digicert.com",
    };
  }
  process.stdout.write(JSON.stringify(config));
')

# Tauri hands the --config to the build as TAURI_CONFIG (the app crate is built again with it).
args=(--bundles "$(IFS=,; echo "${bundles[*]}")" --ci --config "$config")
[ "$profile" = debug ] && args+=(--debug)
stamp=$(mktemp)
trap 'rm -f "$stamp"' EXIT
if [ "$build" = 1 ]; then
  # Tauri runs build.beforeBuildCommand (the UI build) first, then `cargo build`.
  [ ${#cargo_args[@]} -eq 0 ] || args+=(-- "${cargo_args[@]}")
  node ui/node_modules/@tauri-apps/cli/tauri.js build "${args[@]}" >&2
else
  node ui/node_modules/@tauri-apps/cli/tauri.js bundle "${args[@]}" >&2
fi

# What this run made (and, when signing, each bundle's updater archive and signature).
for bundle in "${bundles[@]}"; do
  case "$bundle" in
    app) dir=macos ;;
    *) dir=$bundle ;;
  esac
  [ -d "$out/$dir" ] || continue
  find "$out/$dir" -mindepth 1 -maxdepth 1 -newer "$stamp" \
    \( -type f -o -name '*.app' \) | sort
done
