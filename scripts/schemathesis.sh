#!/usr/bin/env bash
# `npm run test:schemathesis`: schemathesis (checks not_a_server_error and
# response_schema_conformance) against the OpenAPI document served by a full local stack
# (scripts/schemathesis.ts), its stateful phase following the document's links (offers → createOrder
# → getOrder). Exits non-zero on any failure; JUnit report in reports/schemathesis/.
#
# Installs schemathesis 4 with pip when python3 lacks it (into a virtual environment in
# .tools/schemathesis when pip may not install into python3 itself). PYTHON picks the interpreter,
# ST_MAX_EXAMPLES the test cases per operation (100); arguments go to `schemathesis run`.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '[schemathesis] %s\n' "$*" >&2; }

python="${PYTHON:-python3}"
venv=".tools/schemathesis"
has_schemathesis() {
  "$1" -c 'import sys; from importlib.metadata import version; sys.exit(0 if version("schemathesis").split(".")[0] == "4" else 1)' 2>/dev/null
}

if has_schemathesis "${python}"; then
  st_python="${python}"
elif [[ -x "${venv}/bin/python" ]] && has_schemathesis "${venv}/bin/python"; then
  st_python="${venv}/bin/python"
else
  say "installing schemathesis 4 with pip"
  if "${python}" -m pip install --quiet 'schemathesis>=4,<5' && has_schemathesis "${python}"; then
    st_python="${python}"
  else
    say "pip could not install into ${python}; using a virtual environment in ${venv}"
    "${python}" -m venv "${venv}"
    "${venv}/bin/python" -m pip install --quiet 'schemathesis>=4,<5'
    st_python="${venv}/bin/python"
  fi
fi
say "schemathesis $("${st_python}" -c 'from importlib.metadata import version; print(version("schemathesis"))') (${st_python})"

TEMPORAL_CLI_PATH="$(bash scripts/ensure-temporal-cli.sh)"
ST_PYTHON="${st_python}"
export TEMPORAL_CLI_PATH ST_PYTHON

# The runner gets a process group of its own (setsid), so that whatever happens to it, nothing it
# started (Temporal dev server, schemathesis) outlives this script.
setsid node_modules/.bin/tsx scripts/schemathesis.ts "$@" &
runner=$!

stop_runner() {
  kill -TERM -- "-${runner}" 2>/dev/null || return 0
  for _ in $(seq 1 150); do
    kill -0 -- "-${runner}" 2>/dev/null || return 0
    sleep 0.1
  done
  say "processes still running after 15 s; killing them"
  kill -KILL -- "-${runner}" 2>/dev/null || true
}
trap stop_runner EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

rc=0
wait "${runner}" || rc=$?
exit "${rc}"
