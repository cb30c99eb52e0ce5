#!/usr/bin/env bash
# Unpacks the ducklake, httpfs and postgres_scanner extensions of an older DuckDB release (1.4.x) for the tests that
# make a catalog the way this project's earlier releases did (DuckLake format 0.3) and check what the current build
# does with it. That release's wheels are named duckdb-ext-* and carry DuckDB's own extension_directory layout
# (duckdb_ext/extensions/v<duckdb>/<platform>/<name>.duckdb_extension), so they unpack as they are.
set -euo pipefail
version="${1:?usage: provision-legacy-duckdb-extensions.sh <wheel-version> <target-dir>}"
target="${2:?usage: provision-legacy-duckdb-extensions.sh <wheel-version> <target-dir>}"
marker="$target/.provisioned-$version"
if [ -f "$marker" ]; then
  exit 0
fi
python="$(command -v python3 || command -v python)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "[millpond] provisioning legacy DuckDB extensions $version into $target"
"$python" -m pip download --quiet --no-deps --only-binary=:all: \
  --platform manylinux_2_28_x86_64 --python-version 3.11 -d "$work" \
  "duckdb-ext-ducklake==$version" "duckdb-ext-httpfs==$version" "duckdb-ext-postgres==$version"
mkdir -p "$target"
for wheel in "$work"/*.whl; do
  "$python" - "$wheel" "$target" <<'PY'
import os, sys, zipfile
wheel, target = sys.argv[1], sys.argv[2]
prefix = "duckdb_ext/extensions/"
found = 0
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.startswith(prefix) and name.endswith(".duckdb_extension"):
            dest = os.path.join(target, name[len(prefix):])
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with z.open(name) as src, open(dest, "wb") as out:
                out.write(src.read())
            found += 1
if found == 0:
    sys.exit(f"no extension inside {os.path.basename(wheel)}: its layout changed")
PY
done
touch "$marker"
find "$target" -name '*.duckdb_extension' | sed 's/^/[millpond]   /'
