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

# shellcheck source=lib/ensure-debian-package.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/ensure-debian-package.sh"
ensure_debian_package redis-server redis-server REDIS_SERVER redis-server
