#!/usr/bin/env bash
# Prints the directory holding PostgreSQL's server binaries (initdb, postgres, pg_isready) on stdout;
# everything else goes to stderr. Debian keeps them in /usr/lib/postgresql/<major>/bin, off PATH.
# Lookup order: $POSTGRESQL_BIN_DIR, then the newest /usr/lib/postgresql/*/bin, then the directory
# of `postgres` on PATH. When none is found and we run as root, installs Debian's `postgresql`
# package. `npm run cluster` runs its own server on its own data directory and port; nothing here
# uses a system service the package may start.
set -euo pipefail

say() { printf '[postgresql] %s\n' "$*" >&2; }
usable() { [[ -x "$1/postgres" && -x "$1/initdb" && -x "$1/pg_isready" ]] && "$1/postgres" --version >/dev/null 2>&1; }
find_bin_dir() {
  local dir on_path
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n -r); do
    if usable "${dir}"; then echo "${dir}"; return 0; fi
  done
  if on_path="$(command -v postgres 2>/dev/null)"; then
    dir="$(dirname "$(readlink -f "${on_path}")")"
    if usable "${dir}"; then echo "${dir}"; return 0; fi
  fi
  return 1
}

if [[ -n "${POSTGRESQL_BIN_DIR:-}" ]]; then
  if usable "${POSTGRESQL_BIN_DIR}"; then echo "${POSTGRESQL_BIN_DIR}"; exit 0; fi
  say "POSTGRESQL_BIN_DIR=${POSTGRESQL_BIN_DIR} lacks a working postgres, initdb or pg_isready"; exit 1
fi
if found="$(find_bin_dir)"; then echo "${found}"; exit 0; fi

if [[ "$(id -u)" != "0" ]] || ! command -v apt-get >/dev/null 2>&1; then
  say "No PostgreSQL server found. Install Debian's package (sudo apt-get install postgresql)"
  say "or set POSTGRESQL_BIN_DIR to the directory of its initdb and postgres binaries."
  exit 1
fi
say "Installing Debian's postgresql package (apt-get update, apt-get install -y postgresql)."
started=$(date +%s)
log="$(mktemp)"
if ! { DEBIAN_FRONTEND=noninteractive apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql; } >"${log}" 2>&1; then
  cat "${log}" >&2; rm -f "${log}"; say "apt-get could not install postgresql."; exit 1
fi
rm -f "${log}"
found="$(find_bin_dir)" || { say "postgresql installed, but no server binaries found under /usr/lib/postgresql"; exit 1; }
say "Installed in $(( $(date +%s) - started ))s: ${found}"
echo "${found}"
