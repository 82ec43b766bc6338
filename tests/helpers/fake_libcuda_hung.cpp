// A libcuda.so.1 whose cuInit never returns, as a wedged driver's can: the unit tests load it in the
// agent's library child (tests/unit/agent/library_child_test.cpp) to see that child killed at its
// limit. The other entry points exist only so the probe gets as far as cuInit.
#include <unistd.h>

extern "C" {

int cuInit(unsigned int) {
  for (;;) pause();  // until a signal ends the process: the SIGKILL at the probe's limit
}

int cuDriverGetVersion(int* version) {
  *version = 12030;
  return 0;
}

int cuDeviceGetCount(int* count) {
  *count = 0;
  return 0;
}

int cuDeviceGet(int* device, int) {
  *device = 0;
  return 0;
}

}  // extern "C"
