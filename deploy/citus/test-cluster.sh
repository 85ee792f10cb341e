#!/usr/bin/env bash
# `make test-cluster`: build Citus once (cached), start a coordinator and two workers on localhost,
# run the cluster test suite against the coordinator (tests/cluster/suite.py says which tests), and
# tear the cluster down whatever the outcome. Offline. Not part of `make test`.
#
#   CITUS_SOURCE=../shared/vendor/citus-14.0.1.tar.gz make test-cluster
#
# CITUS_PORT (9700: the coordinator; workers take the next ports), CITUS_BASE (the nodes' data),
# PYTEST_ARGS (extra pytest arguments) may be set.
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHON=${PYTHON:-.venv/bin/python}
PORT=${CITUS_PORT:-9700}
BASE=${CITUS_BASE:-${TMPDIR:-/tmp}/neuromem-citus-$PORT}

PGINSTALL=$(PYTHON="$PYTHON" deploy/citus/build.sh | tail -n 1)
"$PYTHON" deploy/citus/cluster.py destroy --base "$BASE"
# on a failure, what the nodes logged (a worker's own error often explains the coordinator's)
on_exit() {
    status=$?
    if [ "$status" -ne 0 ]; then
        echo "==> the nodes' last errors:"
        grep -h -E "ERROR|FATAL|PANIC|terminated by signal" "$BASE"/node*/server.log 2>/dev/null | tail -n 40 || true
    fi
    "$PYTHON" deploy/citus/cluster.py destroy --base "$BASE"
}
trap on_exit EXIT
URL=$("$PYTHON" deploy/citus/cluster.py start --pginstall "$PGINSTALL" --base "$BASE" --port "$PORT" --workers 2)
echo "==> Citus cluster up: coordinator $URL"
SUITE=$("$PYTHON" -c 'from tests.cluster.suite import ON_CLUSTER; print(" ".join(ON_CLUSTER))')
NEUROMEM_TEST_CLUSTER_URL=$URL NEUROMEM_TEST_CLUSTER_DIR=$BASE \
    "$PYTHON" -m pytest -n 2 -q -m cluster ${PYTEST_ARGS:-} $SUITE
