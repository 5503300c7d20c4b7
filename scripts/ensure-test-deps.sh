#!/usr/bin/env bash
# Installs and starts what the test suite needs, idempotently, on a machine that starts no service
# for us: Debian's Chromium and CJK fonts for the browser tests, pebble for the ACME and DNS tests,
# PostgreSQL (a test role and database of our own) and Redis, and real frps/frpc built from the Go
# module proxy for the real-frp suite. Says exactly what is missing when it cannot.
#
# Writes the PostgreSQL URL the suites use to $BURROW_TEST_STATE/pg.url (0600); scripts/test.mjs
# reads it. Set TEST_PG_URL / TEST_REDIS_URL to use servers of your own instead.
set -u
cd "$(dirname "$0")/.."
state=${BURROW_TEST_STATE:-${XDG_STATE_HOME:-$HOME/.local/state}/burrow-test}
mkdir -p "$state" && chmod 700 "$state"

fail() { echo "ensure-test-deps: $*" >&2; exit 1; }
is_root() { [ "$(id -u)" = 0 ]; }

# --- Debian packages ---------------------------------------------------------------------------
# package -> a file that proves it is installed
declare -A pkgs=(
  [chromium]=/usr/bin/chromium
  [fonts-noto-cjk]=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
  [pebble]=/usr/bin/pebble
  [redis-server]=/usr/bin/redis-server
  [iproute2]=/usr/bin/ss
)
missing=()
for p in "${!pkgs[@]}"; do [ -e "${pkgs[$p]}" ] || missing+=("$p"); done
# the server, not only psql (postgresql-client also fills /usr/lib/postgresql/<v>/bin)
compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || missing+=(postgresql)
# An explicit TEST_PG_URL / TEST_REDIS_URL means the caller brings that server.
if [ -n "${TEST_PG_URL:-}" ]; then missing=("${missing[@]/postgresql/}"); fi
if [ -n "${TEST_REDIS_URL:-}" ]; then missing=("${missing[@]/redis-server/}"); fi
read -r -a missing <<<"${missing[*]}"
if [ "${#missing[@]}" -gt 0 ]; then
  echo "ensure-test-deps: installing Debian's ${missing[*]}…"
  is_root || fail "not root: install these Debian packages yourself: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # policy-rc.d: the package scripts must not try to start services (there is no init here); we
  # start what we need below, on loopback.
  apt-get update -qq >/dev/null 2>&1 || echo "ensure-test-deps: apt-get update failed; trying the cached lists" >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$state/apt.log" 2>&1 ||
    { tail -20 "$state/apt.log" >&2; fail "could not install ${missing[*]} (apt-get install ${missing[*]}; log: $state/apt.log)"; }
  for p in "${missing[@]}"; do
    [ -z "${pkgs[$p]:-}" ] || [ -e "${pkgs[$p]}" ] || fail "$p was installed but ${pkgs[$p]} is not there"
  done
fi

# --- PostgreSQL --------------------------------------------------------------------------------
# Debian's cluster asks for a password on 127.0.0.1 and has no database for us. We add a role and a
# database of our own through the local socket as the postgres user (peer authentication, as
# Debian sets it up), with a random password kept in $state: the server's own configuration is
# never changed.
if [ -z "${TEST_PG_URL:-}" ]; then
  pg_ok() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
  if ! pg_ok; then
    ver=$(ls /usr/lib/postgresql | sort -V | tail -1)
    if [ -z "$(ls /etc/postgresql 2>/dev/null)" ]; then
      echo "ensure-test-deps: creating PostgreSQL $ver's cluster…"
      pg_createcluster "$ver" main >/dev/null || fail "pg_createcluster $ver main failed"
    fi
    cluster=$(ls /etc/postgresql | sort -V | tail -1)
    echo "ensure-test-deps: starting PostgreSQL $cluster…"
    pg_ctlcluster --skip-systemctl-redirect "$cluster" main start >/dev/null 2>&1 || true
    for _ in $(seq 1 30); do pg_ok && break; sleep 1; done
    pg_ok || fail "PostgreSQL does not answer on 127.0.0.1:5432 (pg_ctlcluster $cluster main start; see /var/log/postgresql) — the PostgreSQL suites need it (or set TEST_PG_URL)"
  fi
  url_file="$state/pg.url"
  psql_as_postgres() { (cd / && runuser -u postgres -- psql -v ON_ERROR_STOP=1 -qAt "$@"); }
  if [ ! -s "$url_file" ] || ! psql "$(cat "$url_file")" -qAtc 'select 1' >/dev/null 2>&1; then
    is_root || fail "PostgreSQL has no test role for us and we are not root (set TEST_PG_URL to a superuser's URL)"
    pw=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
    # A superuser: the suites create databases, roles (the managed-database tests) and extensions.
    psql_as_postgres -c "do \$\$ begin
        if exists (select from pg_roles where rolname = 'burrow_test') then
          alter role burrow_test with login superuser password '$pw';
        else create role burrow_test with login superuser password '$pw'; end if; end \$\$;" ||
      fail "could not create the PostgreSQL role burrow_test"
    psql_as_postgres -c "select 1 from pg_database where datname = 'burrow_test'" | grep -q 1 ||
      psql_as_postgres -c "create database burrow_test owner burrow_test" || fail "could not create the database burrow_test"
    (umask 077 && echo "postgres://burrow_test:$pw@127.0.0.1:5432/burrow_test" >"$url_file")
    psql "$(cat "$url_file")" -qAtc 'select 1' >/dev/null 2>&1 ||
      fail "the role burrow_test cannot sign in on 127.0.0.1 with its password (check pg_hba.conf allows scram-sha-256 or md5 there)"
  fi
fi

# --- Redis -------------------------------------------------------------------------------------
redis_ok() { redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; }
if [ -z "${TEST_REDIS_URL:-}" ] && ! redis_ok; then
  echo "ensure-test-deps: starting Redis on 127.0.0.1:6379…"
  mkdir -p "$state/redis"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir "$state/redis" --logfile "$state/redis/redis.log" >/dev/null 2>&1 || true
  for _ in $(seq 1 20); do redis_ok && break; sleep 0.5; done
  redis_ok || fail "Redis does not answer on 127.0.0.1:6379 (log: $state/redis/redis.log) — the Redis tests need it (or set TEST_REDIS_URL)"
fi

# --- real frps and frpc ------------------------------------------------------------------------
command -v go >/dev/null 2>&1 || fail "Go is not installed: the real-frp suite builds frps and frpc with it (tools/frp/README.md)"
bash tools/frp/build.sh || fail "could not build frps/frpc from the Go module proxy (see above; tools/frp/README.md)"

echo "ensure-test-deps: chromium, fonts, pebble, PostgreSQL, Redis and frp $(ls tools/frp/versions | tr '\n' ' ')are ready"
