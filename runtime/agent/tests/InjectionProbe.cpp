// Does what the CUDA driver does at cuInit when CUDA_INJECTION64_PATH is
// set: loads that library and calls its InitializeInjection. Run against
// CUDA's stub driver library, it lets tests start the real agent on a
// machine without a GPU.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

int main() {
  const char *path = std::getenv("CUDA_INJECTION64_PATH");
  if (!path)
    return 3;
  void *agent = dlopen(path, RTLD_NOW);
  if (!agent) {
    std::printf("dlopen: %s\n", dlerror());
    return 4;
  }
  auto initialize = reinterpret_cast<int (*)()>(dlsym(agent, "InitializeInjection"));
  if (!initialize)
    return 5;
  std::printf("InitializeInjection returned %d\n", initialize());
  return 0;
}
