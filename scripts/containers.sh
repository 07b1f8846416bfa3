# Helpers the benchmark scripts source to run their databases in
# containers.

# address HOST:PORT of a container's port: its own address on the bridge
# network, as a service reaches a database, not the published port, which
# docker's userland proxy relays through one more process (it cost the
# metered hot key 15% of its req/s here); the published port where the
# bridge is not reachable from the host.
# The server in it may take some seconds to listen.
address() {
  local ip
  ip=$(docker inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$1")
  for _ in $(seq 100); do
    if [[ -n $ip ]] && timeout 1 bash -c "exec 3<>/dev/tcp/$ip/$2" 2>/dev/null; then
      echo "$ip:$2"
      return
    fi
    sleep 0.2
  done
  docker port "$1" "$2" | head -n 1
}
