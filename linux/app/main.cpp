// tfwsl-agent: runs inside the WSL distro. All logic lives in tfwsl_agent_lib; this is the shipped
// program, with the real machine behind every port.
#include "linux/app/agent_program.hpp"

int main(int argc, char** argv) { return tfwsl::agent::run_agent_program(argc, argv, {}); }
