/*
 * transport.c — chooses the transport from the address form.
 */
#include <string.h>

#include "client/transport.h"

trn_transport *trn_transport_open(const char *address) {
    if (strncmp(address, "unix:", 5) == 0)
        return trn_transport_local_open(address + 5);
    if (strncmp(address, "grpc+unix:", 10) == 0)
        return trn_transport_grpc_open(address + 5); /* gRPC's own "unix:/path" */
    return trn_transport_grpc_open(address);
}
