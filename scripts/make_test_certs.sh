# Sourced: make_test_certs DIR writes a throwaway CA (ca.pem, ca.key) that signs a server
# certificate for 127.0.0.1 (server.pem, server.key) and a client certificate (client.pem,
# client.key), for checks of TLS and mutual TLS. Needs openssl.
make_test_certs() {
  local dir=$1 ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes) who
  openssl req -x509 "${ec[@]}" -keyout "$dir/ca.key" -out "$dir/ca.pem" -days 2 -subj /CN=wt-test-ca 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1\n' >"$dir/san.ext"
  for who in server client; do
    openssl req "${ec[@]}" -keyout "$dir/$who.key" -out "$dir/$who.csr" -subj "/CN=$who" 2>/dev/null
    openssl x509 -req -in "$dir/$who.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
      -out "$dir/$who.pem" $([ "$who" = server ] && echo -extfile "$dir/san.ext") 2>/dev/null
  done
}
