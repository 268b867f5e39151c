#!/usr/bin/env bash
# Install BlurApp's desktop entry, AppStream metadata and icons, so BlurApp appears in the
# application menu. The `blurapp` command itself comes from `pip install` (or the frozen build):
# the entry runs whatever `blurapp` is on PATH.
#
#   packaging/linux/install.sh              for this user (~/.local/share)
#   PREFIX=/usr/local packaging/linux/install.sh   for everyone (as root)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
icons="$here/../../resources/icons"
share="${PREFIX:-$HOME/.local}/share"
id=io.github.blurapp.BlurApp

install -D -m 644 "$here/$id.desktop" "$share/applications/$id.desktop"
install -D -m 644 "$here/$id.metainfo.xml" "$share/metainfo/$id.metainfo.xml"
install -D -m 644 "$icons/blurapp.svg" "$share/icons/hicolor/scalable/apps/$id.svg"
for size in 16 22 24 32 48 64 128 256; do
    install -D -m 644 "$icons/blurapp-$size.png" "$share/icons/hicolor/${size}x${size}/apps/$id.png"
done
# Refresh the menus' caches where the tools exist; without them the files still work.
command -v update-desktop-database >/dev/null && update-desktop-database -q "$share/applications" || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$share/icons/hicolor" || true
echo "installed BlurApp's desktop entry, metadata and icons under $share"
