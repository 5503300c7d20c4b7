#!/usr/bin/env bash
# Builds real frps and frpc for every version under tools/frp/versions/ from the Go module proxy,
# into .cache/frp/<version>/ (git-ignored). Idempotent: a version whose go.mod, go.sum and build
# flags are unchanged since its last build is left alone (seconds in all when cached).
#
# Every build is checked against the committed go.sum (-mod=readonly: a module whose hash differs
# or is missing fails the build); GOTOOLCHAIN=local keeps Go from fetching another toolchain.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out_root=${FRP_BIN_DIR:-$root/.cache/frp}
only=${1:-}
for dir in "$root"/tools/frp/versions/v*/; do
  ver=$(basename "$dir")
  [ -n "$only" ] && [ "$only" != "$ver" ] && continue
  out=$out_root/$ver
  tags=""
  # From v0.68 on frp embeds its dashboards' built assets, which the module does not carry.
  minor=$(echo "$ver" | cut -d. -f2)
  [ "$minor" -ge 68 ] && tags="noweb"
  stamp=$( (cat "$dir/go.mod" "$dir/go.sum"; echo "tags=$tags $(go env GOVERSION)") | sha256sum | cut -c1-16)
  if [ -x "$out/frps" ] && [ -x "$out/frpc" ] && [ "$(cat "$out/.stamp" 2>/dev/null)" = "$stamp" ]; then
    continue
  fi
  echo "build-frp: building frps and frpc $ver…"
  mkdir -p "$out"
  rm -f "$out/.stamp"
  (cd "$dir" && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=readonly \
    go build -trimpath ${tags:+-tags "$tags"} -o "$out/" github.com/fatedier/frp/cmd/frps github.com/fatedier/frp/cmd/frpc)
  got=$("$out/frps" -v)
  [ "v$got" = "$ver" ] || { echo "build-frp: $ver built frps that says it is $got" >&2; exit 1; }
  echo "$stamp" >"$out/.stamp"
done
