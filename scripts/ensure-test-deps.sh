#!/usr/bin/env bash
# Installs or starts what the test suite needs, idempotently: Debian's Chromium for the browser
# tests, Debian's pebble for the ACME and DNS tests, and the local PostgreSQL and Redis servers. Says clearly what is missing when it cannot.
set -u
need_root() { [ "$(id -u)" = 0 ] || { echo "ensure-test-deps: run as root (or install $1 yourself)" >&2; return 1; }; }

if [ ! -x /usr/bin/chromium ]; then
  echo "ensure-test-deps: installing Debian's chromium for the browser tests…"
  need_root chromium && { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
    || { echo "ensure-test-deps: could not install chromium (apt-get install chromium)" >&2; exit 1; }
fi

# pebble (an ACME test server) and pebble-challtestsrv (a DNS server whose records the tests set
# over HTTP) are the real peers of the domain and certificate tests; both run on loopback only.
if [ ! -x /usr/bin/pebble ] || [ ! -x /usr/bin/pebble-challtestsrv ]; then
  echo "ensure-test-deps: installing Debian's pebble for the domain and certificate tests…"
  need_root pebble && { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pebble >/dev/null; } \
    || { echo "ensure-test-deps: could not install pebble (apt-get install pebble)" >&2; exit 1; }
fi

pg_ok() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
if ! pg_ok; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    echo "ensure-test-deps: starting PostgreSQL…"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
    for _ in $(seq 1 30); do pg_ok && break; sleep 1; done
  fi
  pg_ok || { echo "ensure-test-deps: PostgreSQL is not reachable on 127.0.0.1:5432 — the PostgreSQL API suite needs it (set TEST_PG_URL to use another server)" >&2; exit 1; }
fi

redis_ok() { redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; }
if [ -z "${TEST_REDIS_URL:-}" ] && ! redis_ok; then
  if command -v redis-server >/dev/null 2>&1; then
    echo "ensure-test-deps: starting Redis…"
    mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log >/dev/null 2>&1 || true
    for _ in $(seq 1 20); do redis_ok && break; sleep 0.5; done
  fi
  redis_ok || { echo "ensure-test-deps: Redis is not reachable on 127.0.0.1:6379 — the Redis tests need it (set TEST_REDIS_URL to use another server)" >&2; exit 1; }
fi
echo "ensure-test-deps: chromium, pebble, PostgreSQL and Redis are ready"
