#!/usr/bin/env bash
# Prints the path of a usable Chromium binary on stdout; everything else goes to stderr.
# Lookup order: $CHROMIUM_PATH, then `chromium` on PATH (Debian puts it in /usr/bin), then
# /usr/bin/chromium itself. When none is found and we run as root, installs Debian's `chromium`
# package (apt-get update, then apt-get install). The browser tests drive it with playwright-core.
set -euo pipefail

say() { printf '[chromium] %s\n' "$*" >&2; }

usable() { [[ -x "$1" ]] && "$1" --version >/dev/null 2>&1; }

if [[ -n "${CHROMIUM_PATH:-}" ]]; then
  if usable "${CHROMIUM_PATH}"; then echo "${CHROMIUM_PATH}"; exit 0; fi
  say "CHROMIUM_PATH=${CHROMIUM_PATH} is not an executable Chromium"; exit 1
fi
if on_path="$(command -v chromium 2>/dev/null)" && usable "${on_path}"; then echo "${on_path}"; exit 0; fi
if usable /usr/bin/chromium; then echo /usr/bin/chromium; exit 0; fi

if [[ "$(id -u)" != "0" ]]; then
  say "No chromium found, and installing one needs root."
  say "Install Debian's package (sudo apt-get install chromium), put chromium on PATH,"
  say "or set CHROMIUM_PATH to the path of a Chromium binary."
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  say "No chromium found and no apt-get to install one; set CHROMIUM_PATH to a Chromium binary."
  exit 1
fi

say "Installing Debian's chromium package (apt-get update, apt-get install -y chromium)."
started=$(date +%s)
log="$(mktemp)"
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update && apt-get install -y --no-install-recommends chromium; } >"${log}" 2>&1; then
  cat "${log}" >&2; rm -f "${log}"
  say "apt-get could not install chromium."
  exit 1
fi
rm -f "${log}"
if on_path="$(command -v chromium 2>/dev/null)" && usable "${on_path}"; then
  say "Installed in $(( $(date +%s) - started ))s: ${on_path} ($("${on_path}" --version | head -n1))"
  echo "${on_path}"; exit 0
fi
if usable /usr/bin/chromium; then echo /usr/bin/chromium; exit 0; fi
say "apt-get installed chromium but no chromium binary was found afterwards."
exit 1
