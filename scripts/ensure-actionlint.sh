#!/usr/bin/env bash
# Prints the path of a usable `actionlint` (the GitHub Actions workflow linter) on stdout; everything
# else goes to stderr. Lookup order: $ACTIONLINT, then `actionlint` on PATH, then the repo's
# git-ignored .tools/bin. When none is found, builds it from its Go module with `go install` (about
# a minute on 2 cores, once). .ci/run runs it on .github/workflows/*.yml; when shellcheck is on
# PATH, actionlint also runs it on the workflows' `run:` scripts.
set -euo pipefail

ACTIONLINT_VERSION="v1.7.12"
MODULE="github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT_VERSION}"
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools_bin="${repo_root}/.tools/bin"

say() { printf '[actionlint] %s\n' "$*" >&2; }
usable() { [[ -x "$1" ]] && "$1" -version >/dev/null 2>&1; }

if [[ -n "${ACTIONLINT:-}" ]]; then
  if usable "${ACTIONLINT}"; then echo "${ACTIONLINT}"; exit 0; fi
  say "ACTIONLINT=${ACTIONLINT} is not a usable actionlint binary"; exit 1
fi
if on_path="$(command -v actionlint 2>/dev/null)" && usable "${on_path}"; then echo "${on_path}"; exit 0; fi
if usable "${tools_bin}/actionlint"; then echo "${tools_bin}/actionlint"; exit 0; fi

if ! command -v go >/dev/null 2>&1; then
  say "No actionlint found and no Go toolchain to build one: install Go, put actionlint on PATH or set ACTIONLINT."
  exit 1
fi
mkdir -p "${tools_bin}"
say "Building actionlint ${ACTIONLINT_VERSION} from source into ${tools_bin} (go install ${MODULE}; once)."
started=$(date +%s)
log="$(mktemp)"
if ! GOBIN="${tools_bin}" GOFLAGS="${GOFLAGS:-} -trimpath" go install "${MODULE}" >"${log}" 2>&1; then
  cat "${log}" >&2; rm -f "${log}"; say "go install ${MODULE} failed"; exit 1
fi
rm -f "${log}"
usable "${tools_bin}/actionlint" || { say "the built actionlint does not run"; exit 1; }
say "Built in $(( $(date +%s) - started ))s: ${tools_bin}/actionlint"
echo "${tools_bin}/actionlint"
