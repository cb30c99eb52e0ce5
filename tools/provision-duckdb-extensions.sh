#!/usr/bin/env bash
# Unpacks DuckDB's ducklake, httpfs and postgres_scanner extensions into a local extension directory.
# DuckDB would download them at run time; production pods and this build have no such network, so the
# version-matched PyPI wheels (duckdb-ext-*) are the source. The layout they carry
# (extensions/v<duckdb>/<platform>/<name>.duckdb_extension) is DuckDB's own extension_directory layout.
set -euo pipefail
version="${1:?usage: provision-duckdb-extensions.sh <wheel-version> <target-dir>}"
target="${2:?usage: provision-duckdb-extensions.sh <wheel-version> <target-dir>}"
marker="$target/.provisioned-$version"
if [ -f "$marker" ]; then
  exit 0
fi
python="$(command -v python3 || command -v python)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "[millpond] provisioning DuckDB extensions $version into $target"
"$python" -m pip download --quiet --no-deps --only-binary=:all: \
  --platform manylinux_2_28_x86_64 --python-version 3.11 -d "$work" \
  "duckdb-ext-ducklake==$version" "duckdb-ext-httpfs==$version" "duckdb-ext-postgres==$version"
mkdir -p "$target"
for wheel in "$work"/*.whl; do
  "$python" - "$wheel" "$target" <<'PY'
import sys, zipfile, os
wheel, target = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        prefix = "duckdb_ext/extensions/"
        if name.startswith(prefix) and name.endswith(".duckdb_extension"):
            dest = os.path.join(target, name[len(prefix):])
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with z.open(name) as src, open(dest, "wb") as out:
                out.write(src.read())
PY
done
touch "$marker"
find "$target" -name '*.duckdb_extension' | sed 's/^/[millpond]   /'
