#!/usr/bin/env bash
# Installs the Debian packages Hearth needs to build, run and test (idempotent).
set -euo pipefail
pkgs=(libwebkit2gtk-4.1-dev libgtk-3-dev libayatana-appindicator3-dev librsvg2-dev libsoup-3.0-dev
  libssl-dev pkg-config libxdo-dev build-essential file xvfb xauth webkit2gtk-driver chromium
  dbus dbus-x11 dunst gnome-keyring libsecret-1-dev libsecret-tools libdbus-1-dev keyutils
  imagemagick x11-apps xdotool fonts-dejavu-core fonts-noto-cjk python3-gi ripgrep)
pkgs+=(fonts-droid-fallback poppler-utils) # document fixtures' Chinese font; pdftotext for the PDF benchmark
pkgs+=(libtasn1-doc shared-mime-info xorg-docs) # real manuals (pdfTeX, Apache FOP) the PDF reader is checked on
pkgs+=(espeak-ng) # text_to_speech's local backend (and its tests)
pkgs+=(cmake libclang-dev) # llama.cpp, built from source for the local models (crate llama-cpp-sys-2; bindgen needs libclang)
pkgs+=(rpm) # reads the .rpm CI builds (rpm -qlp), nothing is installed with it
pkgs+=(haskell-status-notifier-item-utils) # status-notifier-watcher: a tray icon host for the desktop tests
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
