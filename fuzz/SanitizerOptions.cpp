//===- SanitizerOptions.cpp - how the server fuzz targets report ----------===//
//
// Sanitizer reports end the run with a stack, whatever the environment says.
// Leaks are reported: a request that leaks memory leaks it on every call of
// a long-running server.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "detect_leaks=1:abort_on_error=0:print_stacktrace=1";
}

extern "C" const char *__ubsan_default_options() {
  return "halt_on_error=1:print_stacktrace=1";
}
