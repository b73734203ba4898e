# Sourced by the benches in this folder (static_compare.sh,
# fixed_rate.sh, per_request.sh): starts the targets they load and sets
#   url[TARGET]    the page each is asked for (`/markets?limit=25`)
#   pid_of[TARGET] the process that serves it (nginx: its master, whose
#                  children are the workers)
#   targets        the names, in the order the runs alternate over them
#   clients        identity, then "gzip, br" (what browsers send)
#   work           a temporary folder, removed on exit
#   median_of      FILE KEY1 KEY2 COL: the median of column COL of the
#                  tab-separated rows of FILE whose first two columns are
#                  KEY1 and KEY2 (the rounds of one run, as the benches
#                  print them)
# Targets: nginx (Debian's, 2 workers) serving the server's own answer as
# a static file, with a gzip -9 copy beside it for `gzip_static`; the
# release server; a release proxy on a cache hit (a release server as its
# upstream). With BASELINE_BIN (a server binary kept from another commit)
# also `base` and `base-proxy`, that binary as server and as proxy, so a
# change and its baseline are measured alternating in one run. With
# NGINX_COPY=1 also `nginx-copy`: the same nginx with `sendfile off`, so
# it copies each answer from user space into the socket as we do
# (how much of nginx's lead on identity answers is `sendfile`).
#
# Needs `root` (the checkout) and `target` (the cargo target folder) set.

path='/markets?limit=25'

median_of() {
  awk -F'\t' -v a="$2" -v b="$3" -v col="$4" '$1 == a && $2 == b { print $col }' "$1" |
    sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
key=bench

for tool in nginx wrk curl; do
  command -v "$tool" >/dev/null || { echo "needs $tool: apt-get install -y nginx-light wrk curl" >&2; exit 1; }
done

# shellcheck source=release_server.sh
source "$(dirname "${BASH_SOURCE[0]}")/release_server.sh"

# A free loopback port.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

declare -A url pid_of
targets=(nginx)
clients=(identity "gzip, br")

printf 'upstream-bench\n' >"$work/upstream.key"
# Starts BINARY as a server named NAME and as a proxy named PROXY (in
# front of the upstream, started first).
start_pair() {
  local binary="$1" name="$2" proxy_name="$3" addr
  "$binary" --addr 127.0.0.1:0 --api-key "$key:unlimited" --quiet 2>"$work/$name.log" &
  pids+=($!)
  pid_of[$name]=$!
  addr="$(address "$work/$name.log")"
  url[$name]="http://$addr$path"
  "$binary" --addr 127.0.0.1:0 --upstream "http://$upstream" --upstream-key-file "$work/upstream.key" \
    --api-key "$key:unlimited" --quiet 2>"$work/$proxy_name.log" &
  pids+=($!)
  pid_of[$proxy_name]=$!
  addr="$(address "$work/$proxy_name.log")"
  url[$proxy_name]="http://$addr$path"
  targets+=("$name" "$proxy_name")
}

"$server" --addr 127.0.0.1:0 --api-key upstream-bench:unlimited --quiet 2>"$work/upstream.log" &
pids+=($!)
upstream="$(address "$work/upstream.log")"
start_pair "$server" server proxy
if [[ -n "${BASELINE_BIN:-}" ]]; then
  start_pair "$BASELINE_BIN" base base-proxy
fi

# The static file is the server's own answer.
mkdir -p "$work/www"
curl -sf -H "X-API-Key: $key" "${url[server]}" -o "$work/www/markets.json"
gzip -9 -k "$work/www/markets.json"
chmod -R a+rX "$work/www"
# Starts nginx named NAME with `sendfile SENDFILE;`.
start_nginx() {
  local name="$1" sendfile="$2" port
  port="$(free_port)"
  mkdir -p "$work/$name"
  cat >"$work/$name/nginx.conf" <<CONF
worker_processes 2;
daemon off;
pid $work/$name/nginx.pid;
error_log $work/$name/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 1000000;
  sendfile $sendfile;
  tcp_nopush on;
  server {
    listen 127.0.0.1:$port;
    root $work/www;
    location / {
      default_type application/json;
      gzip_static on;
      try_files /markets.json =404;
    }
  }
}
CONF
  nginx -c "$work/$name/nginx.conf" -p "$work/$name" &
  pids+=($!)
  pid_of[$name]=$!
  url[$name]="http://127.0.0.1:$port$path"
  for _ in $(seq 1 100); do curl -sf "${url[$name]}" -o /dev/null && break; sleep 0.1; done
}
start_nginx nginx on
if [[ -n "${NGINX_COPY:-}" ]]; then
  start_nginx nginx-copy off
  targets+=(nginx-copy)
fi

for t in "${targets[@]}"; do
  # A proxy's entry is stored by a first request; every later one is a hit.
  curl -sf -H "X-API-Key: $key" "${url[$t]}" -o /dev/null
  plain="$(curl -sf -H "X-API-Key: $key" "${url[$t]}" | wc -c)"
  gz="$(curl -sf -H "X-API-Key: $key" -H 'Accept-Encoding: gzip, br' -D "$work/$t.headers" "${url[$t]}" | wc -c)"
  echo "$t: $plain B identity; for \"gzip, br\": $(grep -i '^content-encoding' "$work/$t.headers" | tr -d '\r' || echo 'no content-encoding'), $gz B"
done
