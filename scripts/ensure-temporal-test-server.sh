#!/usr/bin/env bash
# Prints the path of a launcher for Temporal's time-skipping test server (Java), building it when
# missing: Maven fetches io.temporal:temporal-test-server from Maven Central into .tools, javac
# compiles LoopbackTestServer (the same server bound to 127.0.0.1). Needs Java 17 and Maven.
# Output: the launcher's path on stdout; progress on stderr.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SRC="${ROOT}/scripts/temporal-test-server"
DIR="${ROOT}/.tools/temporal-test-server"
LAUNCHER="${DIR}/run"
log() { echo "[temporal-test-server] $*" >&2; }

if [[ -n "${TEMPORAL_TEST_SERVER:-}" ]]; then
  [[ -x "${TEMPORAL_TEST_SERVER}" ]] || { log "TEMPORAL_TEST_SERVER=${TEMPORAL_TEST_SERVER} is not executable"; exit 1; }
  echo "${TEMPORAL_TEST_SERVER}"
  exit 0
fi
# Rebuilt when the pom or the launcher's source changes.
STAMP="$(cat "${SRC}/pom.xml" "${SRC}/LoopbackTestServer.java" | sha256sum | cut -c1-16)"
if [[ -x "${LAUNCHER}" && -f "${DIR}/stamp" && "$(cat "${DIR}/stamp")" == "${STAMP}" ]]; then
  echo "${LAUNCHER}"
  exit 0
fi
command -v java >/dev/null || { log "java not found (Java 17 is needed)"; exit 1; }
command -v mvn >/dev/null || { log "mvn not found"; exit 1; }
log "fetching io.temporal:temporal-test-server with Maven into ${DIR} (once, about a minute)"
rm -rf "${DIR}"
mkdir -p "${DIR}/classes"
mvn -q -B -f "${SRC}/pom.xml" dependency:copy-dependencies -DoutputDirectory="${DIR}/lib" >&2
javac -nowarn -cp "${DIR}/lib/*" -d "${DIR}/classes" "${SRC}/LoopbackTestServer.java" >&2
cat > "${LAUNCHER}" <<LAUNCH
#!/usr/bin/env bash
exec java -Xss512k -XX:TieredStopAtLevel=1 -cp "${DIR}/classes:${DIR}/lib/*" LoopbackTestServer "\$@"
LAUNCH
chmod +x "${LAUNCHER}"
echo "${STAMP}" > "${DIR}/stamp"
log "ready: ${LAUNCHER}"
echo "${LAUNCHER}"
