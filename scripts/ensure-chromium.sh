#!/usr/bin/env bash
# Prints the path of a usable Chromium binary on stdout; everything else goes to stderr.
# Lookup order: $CHROMIUM_PATH, then `chromium` on PATH (Debian puts it in /usr/bin), then
# /usr/bin/chromium itself. When none is found and we run as root, installs Debian's `chromium`
# package (apt-get update, then apt-get install). The browser tests drive it with playwright-core.
set -euo pipefail

# shellcheck source=lib/ensure-debian-package.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/ensure-debian-package.sh"
ensure_debian_package chromium chromium CHROMIUM_PATH Chromium
