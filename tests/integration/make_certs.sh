#!/bin/sh
# make_certs.sh DIR — throwaway PKI for the TLS tests: a CA, a server
# certificate for localhost / 127.0.0.1 and a client certificate, all signed
# by the CA, plus a second CA that signed nothing the daemon trusts.
# Keys are EC P-256 (fast to make); certificates last one day.
set -eu
dir=$1
cd "$dir"
q() { "$@" >/dev/null 2>&1; }
for ca in ca other-ca; do
    q openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
        -keyout $ca.key -out $ca.pem -days 1 -subj "/CN=trnsci test $ca"
done
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' > server.ext
printf 'extendedKeyUsage=clientAuth\n' > client.ext
for who in server client; do
    q openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
        -keyout $who.key -out $who.csr -subj "/CN=trnsci test $who"
    q openssl x509 -req -in $who.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
        -out $who.pem -days 1 -extfile $who.ext
done
# A client certificate from a CA the daemon does not trust.
q openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout rogue.key -out rogue.csr -subj "/CN=trnsci test rogue"
q openssl x509 -req -in rogue.csr -CA other-ca.pem -CAkey other-ca.key -CAcreateserial \
    -out rogue.pem -days 1 -extfile client.ext
chmod 600 ./*.key
