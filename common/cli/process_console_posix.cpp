#include <unistd.h>

#include <iostream>

#include "common/cli/process_console.hpp"

namespace tfwsl {

Console process_console() {
  return Console{std::cout,
                 std::cerr,
                 isatty(STDOUT_FILENO) == 1,
                 isatty(STDERR_FILENO) == 1,
                 isatty(STDIN_FILENO) == 1,
                 process_environment()};
}

}  // namespace tfwsl
