#!/usr/bin/env bash
# Unpacks DuckDB's ducklake, httpfs and postgres_scanner extensions into a local extension directory.
# DuckDB would download them at run time; production pods and this build have no such network, so the
# release-matched PyPI wheels (duckdb-extension-*) are the source. Each wheel carries
# duckdb_extension_<name>/extensions/v<duckdb>/<name>.duckdb_extension, without the platform folder of DuckDB's own
# extension_directory layout (<dir>/v<duckdb>/<platform>/<name>.duckdb_extension), so the platform is added here.
# The wheels are built for manylinux2014 x86_64 only, hence linux_amd64.
set -euo pipefail
version="${1:?usage: provision-duckdb-extensions.sh <duckdb-release> <target-dir>}"
target="${2:?usage: provision-duckdb-extensions.sh <duckdb-release> <target-dir>}"
platform="linux_amd64"
marker="$target/.provisioned-$version"
if [ -f "$marker" ]; then
  exit 0
fi
python="$(command -v python3 || command -v python)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "[millpond] provisioning DuckDB extensions $version into $target"
"$python" -m pip download --quiet --no-deps --only-binary=:all: \
  --platform manylinux2014_x86_64 --python-version 3.11 -d "$work" \
  "duckdb-extension-ducklake==$version" "duckdb-extension-httpfs==$version" \
  "duckdb-extension-postgres-scanner==$version"
mkdir -p "$target"
for wheel in "$work"/*.whl; do
  "$python" - "$wheel" "$target" "$platform" <<'PY'
import os, re, sys, zipfile
wheel, target, platform = sys.argv[1], sys.argv[2], sys.argv[3]
layout = re.compile(r"^duckdb_extension_[a-z_]+/extensions/(v[^/]+)/([a-z_]+\.duckdb_extension)$")
found = 0
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        m = layout.match(name)
        if m:
            dest = os.path.join(target, m.group(1), platform, m.group(2))
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
