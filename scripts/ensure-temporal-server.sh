#!/usr/bin/env bash
# Prints the directory of a usable Temporal server kit on stdout; everything else goes to stderr.
# The kit is what `npm run cluster` runs: the Temporal server, its SQL schema tool, the Web UI server
# and the server's PostgreSQL schemas, at the versions in deploy/stack.json:
#   <dir>/bin/temporal-server  <dir>/bin/temporal-sql-tool  <dir>/bin/temporal-ui-server  <dir>/schema/postgresql/v12/...
# Lookup order: $TEMPORAL_SERVER_KIT, then the repo's git-ignored .tools/temporal-server-<version>.
# When missing, builds it from source with `go install` (about 3 to 6 minutes on 2 cores, once; the
# server module is already in the Go module cache when the Temporal CLI was built, as it embeds it).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
stack="${repo_root}/deploy/stack.json"
version_of() { sed -n "s/^[[:space:]]*\"$1\": \"\([^\"]*\)\",\{0,1\}$/\1/p" "${stack}" | head -1; }
SERVER_VERSION="v$(version_of temporal)"
UI_VERSION="v$(version_of temporalUi)"
[[ "${SERVER_VERSION}" != "v" && "${UI_VERSION}" != "v" ]] || { echo "[temporal-server] cannot read versions from ${stack}" >&2; exit 1; }

say() { printf '[temporal-server] %s\n' "$*" >&2; }
usable() { [[ -x "$1/bin/temporal-server" && -x "$1/bin/temporal-sql-tool" && -x "$1/bin/temporal-ui-server" && -d "$1/schema/postgresql/v12/temporal" ]]; }

if [[ -n "${TEMPORAL_SERVER_KIT:-}" ]]; then
  if usable "${TEMPORAL_SERVER_KIT}"; then echo "${TEMPORAL_SERVER_KIT}"; exit 0; fi
  say "TEMPORAL_SERVER_KIT=${TEMPORAL_SERVER_KIT} lacks bin/temporal-server, bin/temporal-sql-tool, bin/temporal-ui-server or schema/"; exit 1
fi
kit="${repo_root}/.tools/temporal-server-${SERVER_VERSION}-ui-${UI_VERSION}"
if usable "${kit}"; then echo "${kit}"; exit 0; fi

if ! command -v go >/dev/null 2>&1; then
  say "No Temporal server kit found and no Go toolchain to build one: install Go 1.25+ or set TEMPORAL_SERVER_KIT."
  exit 1
fi

say "Building the Temporal server ${SERVER_VERSION}, its SQL tool and the Web UI server ${UI_VERSION} from source into ${kit}"
say "(go install; about 3 to 6 minutes on 2 cores, once)."
started=$(date +%s)
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
build() { # <module path>@<version> <name in the kit>
  local gobin="${work}/$2" log="${work}/$2.log"
  mkdir -p "${gobin}"
  if ! GOBIN="${gobin}" GOFLAGS="${GOFLAGS:-} -trimpath" go install "$1" >"${log}" 2>&1; then
    cat "${log}" >&2; say "go install $1 failed"; return 1
  fi
  # Two of the three binaries are called `server`: each gets its own GOBIN, then its kit name.
  mv "${gobin}"/* "${kit}.partial/bin/$2"
}
rm -rf "${kit}.partial" && mkdir -p "${kit}.partial/bin"
build "go.temporal.io/server/cmd/server@${SERVER_VERSION}" temporal-server
build "go.temporal.io/server/cmd/tools/sql@${SERVER_VERSION}" temporal-sql-tool
build "github.com/temporalio/ui-server/v2/cmd/server@${UI_VERSION}" temporal-ui-server
module_dir="$(go list -m -f '{{.Dir}}' "go.temporal.io/server@${SERVER_VERSION}" 2>/dev/null || true)"
[[ -n "${module_dir}" ]] || module_dir="$(go env GOMODCACHE)/go.temporal.io/server@${SERVER_VERSION}"
mkdir -p "${kit}.partial/schema"
cp -R "${module_dir}/schema/postgresql" "${kit}.partial/schema/postgresql"
chmod -R u+w "${kit}.partial/schema"
rm -rf "${kit}" && mv "${kit}.partial" "${kit}"
say "Built in $(( $(date +%s) - started ))s: ${kit}"
echo "${kit}"
