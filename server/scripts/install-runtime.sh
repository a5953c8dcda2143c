#!/usr/bin/env bash
# Installs the production server's node_modules into DIR: the server's own dependencies and nothing else (shared
# is compiled into dist, the front ends are static files, tsx and the embedded database are dev-only).
# The Dockerfile runs it for the runtime image; with --list it also prints what DIR/node_modules holds and fails
# if a development-only package got in:  server/scripts/install-runtime.sh "$(mktemp -d)" --list
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
dir="${1:?usage: install-runtime.sh DIR [--list]}"
mkdir -p "$dir"
cp "$root/package.json" "$root/package-lock.json" "$dir/"
for workspace in shared server client admin; do
  mkdir -p "$dir/$workspace" && cp "$root/$workspace/package.json" "$dir/$workspace/"
done
# --legacy-peer-deps: npm would otherwise add typescript (23 MB), a types-only peer of @trpc/server
(cd "$dir" && npm ci --omit=dev --workspace @gift/server --legacy-peer-deps --no-audit --no-fund --ignore-scripts --loglevel=error)

[ "${2:-}" = "--list" ] || exit 0
cd "$dir/node_modules"
entries="$(ls -d @*/* [!@]* 2>/dev/null)"
echo "runtime node_modules: $(echo "$entries" | wc -l) packages at the top level, $(du -sh . | cut -f1) in all"
for entry in $entries; do printf '  %-36s %s\n' "$entry" "$(du -sh "$entry" | cut -f1)"; done
forbidden=0
for dev in tsx mongodb-memory-server mongodb-memory-server-core @push.rocks/smartmongo esbuild typescript; do
  if [ -e "$dev" ]; then echo "FAIL: $dev is in the runtime node_modules"; forbidden=1; else echo "absent: $dev"; fi
done
exit "$forbidden"
