#!/usr/bin/env bash
# Prints the path of a usable `redis-server` binary on stdout; everything else goes to stderr.
# Lookup order: $REDIS_SERVER, then `redis-server` on PATH (Debian puts it in /usr/bin), then
# /usr/bin/redis-server itself. When none is found and we run as root, installs Debian's
# `redis-server` package (apt-get update, then apt-get install).
#
# The tests start their own redis-server processes on free loopback ports; they never use a
# system service. Installing the package may start Debian's own service on port 6379 where an
# init system runs; nothing here depends on it.
set -euo pipefail

say() { printf '[redis-server] %s\n' "$*" >&2; }

usable() { [[ -x "$1" ]] && "$1" --version >/dev/null 2>&1; }

if [[ -n "${REDIS_SERVER:-}" ]]; then
  if usable "${REDIS_SERVER}"; then echo "${REDIS_SERVER}"; exit 0; fi
  say "REDIS_SERVER=${REDIS_SERVER} is not an executable redis-server"; exit 1
fi
if on_path="$(command -v redis-server 2>/dev/null)" && usable "${on_path}"; then echo "${on_path}"; exit 0; fi
if usable /usr/bin/redis-server; then echo /usr/bin/redis-server; exit 0; fi

if [[ "$(id -u)" != "0" ]]; then
  say "No redis-server found, and installing one needs root."
  say "Install Debian's package (sudo apt-get install redis-server), put redis-server on PATH,"
  say "or set REDIS_SERVER to the path of a redis-server binary."
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  say "No redis-server found and no apt-get to install one; set REDIS_SERVER to a redis-server binary."
  exit 1
fi

say "Installing Debian's redis-server package (apt-get update, apt-get install -y redis-server)."
started=$(date +%s)
log="$(mktemp)"
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update && apt-get install -y --no-install-recommends redis-server; } >"${log}" 2>&1; then
  cat "${log}" >&2; rm -f "${log}"
  say "apt-get could not install redis-server."
  exit 1
fi
rm -f "${log}"
if on_path="$(command -v redis-server 2>/dev/null)" && usable "${on_path}"; then
  say "Installed in $(( $(date +%s) - started ))s: ${on_path} ($("${on_path}" --version | head -n1))"
  echo "${on_path}"; exit 0
fi
if usable /usr/bin/redis-server; then echo /usr/bin/redis-server; exit 0; fi
say "apt-get installed redis-server but no redis-server binary was found afterwards."
exit 1
