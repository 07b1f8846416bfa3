#!/usr/bin/env bash
# Builds every local image the end-to-end tests need (each script is a no-op
# when its image already exists), so this is cheap to call before every run.
set -euo pipefail
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
"$dir/postgres.sh"
"$dir/ferretdb.sh"
