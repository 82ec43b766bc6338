// tfwsl-test.exe: tfwsl.exe with its host port standing in as the test settings say (test_machine_ports.hpp).
#include "tests/helpers/test_mains/test_machine_ports.hpp"
#include "win/app/program_main.hpp"

int wmain(int argc, wchar_t** argv) {
  return tfwsl::cli::run_program(argc, argv, tfwsl::test::configure_cli_test_ports);
}
