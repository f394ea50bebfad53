#!/usr/bin/env bash
# Prints the path of a usable `temporal` CLI on stdout; everything else goes to stderr.
# Lookup order: $TEMPORAL_CLI, then `temporal` on PATH, then the repo's git-ignored .tools/bin.
# When none is found, builds it from source with `go install` (the CLI embeds the dev server and Web UI).
set -euo pipefail

TEMPORAL_CLI_VERSION="v1.5.1"
CLI_MODULE="github.com/temporalio/cli"
MODULE="${CLI_MODULE}/cmd/temporal@${TEMPORAL_CLI_VERSION}"
# Checksums of the CLI module itself (as the Go checksum database lists them), for builds where
# that database cannot be reached.
CLI_SUM="h1:0RZMk14BWxz44Xg6ciDQvpfAMffoG3J7/K03ql80teY="
CLI_GOMOD_SUM="h1:8lfULNGZ1Y2sobXSpY+2qQ4vgR4hYLuTLpqnCIl9Au4="
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools_bin="${repo_root}/.tools/bin"

say() { printf '[temporal-cli] %s\n' "$*" >&2; }

if [[ -n "${TEMPORAL_CLI:-}" ]]; then
  if [[ -x "${TEMPORAL_CLI}" ]]; then echo "${TEMPORAL_CLI}"; exit 0; fi
  say "TEMPORAL_CLI=${TEMPORAL_CLI} is not an executable file"; exit 1
fi
if on_path="$(command -v temporal 2>/dev/null)"; then echo "${on_path}"; exit 0; fi
if [[ -x "${tools_bin}/temporal" ]]; then echo "${tools_bin}/temporal"; exit 0; fi

if ! command -v go >/dev/null 2>&1; then
  say "No temporal CLI found and no Go toolchain to build one."
  say "Install Go 1.25+ or put a temporal binary on PATH (or set TEMPORAL_CLI)."
  exit 1
fi
go_minor="$(go env GOVERSION | sed -E 's/^go1\.([0-9]+).*/\1/')"
if [[ "${go_minor}" =~ ^[0-9]+$ ]] && (( go_minor < 25 )); then
  say "Temporal CLI ${TEMPORAL_CLI_VERSION} needs Go 1.25 or newer; found $(go env GOVERSION)."
  exit 1
fi

mkdir -p "${tools_bin}"
# Two test runs started at once on a fresh machine would each build it: the second waits for the first.
exec 9>"${tools_bin}/.temporal-cli.lock"
if ! flock -n 9; then
  say "Another process is building the Temporal CLI; waiting for it."
  flock 9
  if [[ -x "${tools_bin}/temporal" ]]; then echo "${tools_bin}/temporal"; exit 0; fi
fi
say "Building the Temporal CLI ${TEMPORAL_CLI_VERSION} from source into ${tools_bin}"
say "(go install ${MODULE}; about 5 minutes on 2 cores and ~3 GB of Go caches, once)."
started=$(date +%s)
log="$(mktemp)"
# Without the checksum database: verify the CLI module against the checksums pinned above, then build
# it inside a throwaway module whose go.sum is the CLI's own, so every dependency is still verified.
build_without_checksum_db() {
  local json dir sum gomod_sum work
  json="$(GONOSUMDB="${CLI_MODULE}" go mod download -json "${CLI_MODULE}@${TEMPORAL_CLI_VERSION}")" || return 1
  dir="$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p' <<<"${json}")"
  sum="$(sed -n 's/^[[:space:]]*"Sum": "\(.*\)",$/\1/p' <<<"${json}")"
  gomod_sum="$(sed -n 's/^[[:space:]]*"GoModSum": "\(.*\)",$/\1/p' <<<"${json}")"
  if [[ "${sum}" != "${CLI_SUM}" || "${gomod_sum}" != "${CLI_GOMOD_SUM}" ]]; then
    say "checksum mismatch for ${CLI_MODULE}@${TEMPORAL_CLI_VERSION}: got ${sum} / ${gomod_sum}"
    return 1
  fi
  work="$(mktemp -d)"
  printf 'module temporalclibuild\n\n%s\n\nrequire %s %s\n' "$(grep -m1 '^go ' "${dir}/go.mod")" "${CLI_MODULE}" "${TEMPORAL_CLI_VERSION}" >"${work}/go.mod"
  cp "${dir}/go.sum" "${work}/go.sum"
  chmod u+w "${work}/go.sum"
  printf '%s %s %s\n%s %s/go.mod %s\n' "${CLI_MODULE}" "${TEMPORAL_CLI_VERSION}" "${CLI_SUM}" "${CLI_MODULE}" "${TEMPORAL_CLI_VERSION}" "${CLI_GOMOD_SUM}" >>"${work}/go.sum"
  (cd "${work}" && go build -trimpath -o "${tools_bin}/temporal" "${CLI_MODULE}/cmd/temporal")
  local rc=$?
  rm -rf "${work}"
  return ${rc}
}

if ! GOBIN="${tools_bin}" GOFLAGS="${GOFLAGS:-} -trimpath" go install "${MODULE}" >"${log}" 2>&1; then
  if grep -qE 'sumdb|sum\.golang\.org|verifying module' "${log}"; then
    say "The Go checksum database could not be reached; verifying the CLI module against pinned"
    say "checksums and its dependencies against the CLI's own go.sum instead."
    build_without_checksum_db >"${log}" 2>&1 || { cat "${log}" >&2; rm -f "${log}"; exit 1; }
  else
    cat "${log}" >&2; rm -f "${log}"; exit 1
  fi
fi
rm -f "${log}"
say "Built in $(( $(date +%s) - started ))s: ${tools_bin}/temporal"
echo "${tools_bin}/temporal"
