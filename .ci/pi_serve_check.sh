#!/usr/bin/env bash
# pi_serve_check.sh CLACKS PORT: starts `CLACKS serve` on PORT (a scratch data directory,
# the simulated board's buttons off), waits for its first page to answer 200 and prints
# what the companion printed and the time from exec to that answer, then stops it.
# Fails if the page does not answer within 300 s or the server ends first.
set -euo pipefail
clacks="$1" port="$2"
data="$(mktemp -d)"
out="$data/serve.txt"
started="$(date +%s.%N)"
"$clacks" serve --host 127.0.0.1 --port "$port" --data-dir "$data" > "$out" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$data"' EXIT
code=000
for _ in $(seq 1500); do
  code="$(curl -sL -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/" || true)"
  [ "$code" = 200 ] && break
  kill -0 "$server" 2>/dev/null || { cat "$out"; echo "clacks serve ended before answering" >&2; exit 1; }
  sleep 0.2
done
answered="$(date +%s.%N)"
cat "$out"
if [ "$code" != 200 ]; then
  echo "the first page did not answer 200 within 300 s (last: $code)" >&2
  exit 1
fi
python3 -c "print(f'first page answered 200, {$answered - $started:.1f} s after exec')"
