#!/usr/bin/env bash
# Prints the path of a usable `haproxy` binary on stdout (Debian's package, installed when missing and
# running as root); everything else goes to stderr. Set HAPROXY to use another binary.
set -euo pipefail
# shellcheck source=lib/ensure-debian-package.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/ensure-debian-package.sh"
EDP_VERSION_FLAG=-v ensure_debian_package haproxy haproxy HAPROXY HAProxy
