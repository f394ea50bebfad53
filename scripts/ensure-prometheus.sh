#!/usr/bin/env bash
# Prints the path of a usable `prometheus` binary on stdout; everything else goes to stderr. Its
# `promtool` is the one beside it (Debian's `prometheus` package ships both in /usr/bin).
# Lookup order: $PROMETHEUS, then `prometheus` on PATH, then /usr/bin/prometheus. When none is
# found and we run as root, installs Debian's `prometheus` package (apt-get update, then apt-get
# install; Prometheus 2.42 on Debian 12, about 20 seconds).
#
# The tests start their own Prometheus on a free loopback port with a generated configuration and
# run promtool on the alert rules; they never use a system service. Installing the package may
# start Debian's own service on port 9090 where an init system runs; nothing here depends on it.
set -euo pipefail

# shellcheck source=lib/ensure-debian-package.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib/ensure-debian-package.sh"
found="$(ensure_debian_package prometheus prometheus PROMETHEUS Prometheus)"
promtool="$(dirname "${found}")/promtool"
if ! [[ -x "${promtool}" ]] || ! "${promtool}" --version >/dev/null 2>&1; then
  printf '[prometheus] no usable promtool beside %s\n' "${found}" >&2
  exit 1
fi
echo "${found}"
