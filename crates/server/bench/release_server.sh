# Sourced by the benches in this folder (targets.sh, rebuild_cost.sh):
# the release server they load, a temporary folder and the clean-up of
# what they start. Sets
#   server   the server binary: SERVER_BIN (a server built already, a
#            commit's binary kept to compare against), else the release
#            build of this checkout
#   work     a temporary folder, removed on exit
#   pids     the processes a bench starts (append each), killed on exit
# and defines `address LOG` (waits for the server's "listening on" line).
#
# Needs `root` (the checkout) and `target` (the cargo target folder) set.

server="${SERVER_BIN:-}"
if [[ -z "$server" ]]; then
  cargo build --quiet --release -p predmarket-server --bin predmarket-server \
    --manifest-path "$root/Cargo.toml"
  server="$target/release/predmarket-server"
fi
work="$(mktemp -d)"
chmod 755 "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Waits for "listening on http://ADDR" in a log and prints ADDR.
address() {
  for _ in $(seq 1 600); do
    if addr="$(grep -o 'listening on http://[0-9.:]*' "$1" | head -1)" && [[ -n "$addr" ]]; then
      echo "${addr#listening on http://}"
      return 0
    fi
    sleep 0.1
  done
  echo "no listening line in $1" >&2
  cat "$1" >&2
  return 1
}

