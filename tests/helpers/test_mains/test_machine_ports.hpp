#pragma once
// The test programs' settings (tfwsl-test, tfwsl-agent-test): the shipped programs with a port of
// the machine they build (win/tasks/machine.hpp's host, linux/agent/agent_machine.hpp's import files)
// standing in as these settings say, read from the test program's own environment. Nothing here is
// linked into a shipped binary.
//   TFWSL_TEST_HOST_RAM=16GB         the host's RAM as `tfwsl wslconfig` sees it
//   TFWSL_TEST_HOST_PROCESSORS=8     the host's logical processors
//   TFWSL_TEST_HOST_FREE_BYTES=N     every host drive has N free bytes (data push, migrate)
//   TFWSL_TEST_DRIVE_ROOT=/tmp/x/   where migrate finds the Windows drives (D:\data is /tmp/x/d/data)
//   TFWSL_TEST_REPLACE_FAULT=half-written|before-swap   replace_file_atomically ends the process there
//   TFWSL_TEST_KILL_AT=STEP:N        the agent SIGKILLs itself at the Nth dataset-engine step STEP
//                                    (a method of its ImportFiles port: write_chunk, copy_range,
//                                    fsync_file, sync_filesystem, rename_into_place, fsync_folder,
//                                    write_manifest, sync_manifest, unlink_source,
//                                    remove_source_folder; or scan): tfwsl-agent-test only
// A setting that cannot be read ends the program with exit 2 and the reason, so a test never runs
// with a setting silently ignored.

#include <memory>

#include "common/cli/command_line.hpp"
#include "win/app/system_machine.hpp"

namespace tfwsl::test {

// The settings of the CLI's test program: the host the machine uses (the real one where no setting
// says otherwise; null when none is set), and the replace stop port.
std::unique_ptr<cli::HostPort> configure_cli_test_ports(Console& console, cli::SystemHost& real);

}  // namespace tfwsl::test
