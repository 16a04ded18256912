# Round-trip latency of the transports beside raw IPC floors, and the
# throughput of making input visible to the daemon (bench/rtt.c). Run it with
# bench/run_rtt.sh; results live in docs/benchmarks.md.
# bench_util: bench/bench_util.h, defined in bench/CMakeLists.txt before it
# includes this file. PkgConfig::GRPC: the raw gRPC echo server and client the
# bench measures trnsci's gRPC transport against.
add_executable(bench_rtt ${CMAKE_CURRENT_SOURCE_DIR}/rtt.c)
target_link_libraries(bench_rtt PRIVATE bench_util trnsci PkgConfig::GRPC Threads::Threads m)
add_dependencies(bench_rtt trnscid trnsci_cli)
