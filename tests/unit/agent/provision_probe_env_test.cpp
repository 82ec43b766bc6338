// Issue 38, item 1: root's `provision --check --user U` reads U's fix-ups file and starts the
// TensorFlow probe as U (setpriv). With a real unprivileged user (skipped without root), the file
// exports LD_PRELOAD, PATH and PYTHONPATH next to the XLA_FLAGS tfwsl writes: none of them reaches
// root's setpriv (ld.so names an LD_PRELOAD it cannot load, in every process that has it) nor the
// probe, whose environment is the fixed one plus XLA_FLAGS.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <string>

#include "common/compat/compat_db.hpp"
#include "common/process/process_runner.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/provision/provision_plan.hpp"
#include "linux/provision/distro_step_checks.hpp"
#include "linux/provision/fixup_env.hpp"
#include "tests/support/test_environment.hpp"
#include "tests/unit/agent/scratch_user.hpp"
#include "tests/unit/agent/user_provision_plan.hpp"

using namespace tfwsl;
using namespace tfwsl::provision;
namespace fs = std::filesystem;

namespace {

// Each missing folder from the home down to `dir`, made and given to the user.
void make_home_folders(const test::ScratchUser& account, const fs::path& dir) {
  fs::path made = account.user().home;
  for (const auto& part : dir.lexically_relative(account.user().home)) {
    made /= part;
    if (fs::exists(fs::symlink_status(made))) continue;
    fs::create_directory(made);
    account.give(made);
  }
}

void write_home_file(const test::ScratchUser& account, const fs::path& file, const std::string& text, unsigned mode) {
  make_home_folders(account, file.parent_path());
  test::write_file(file, text);
  ::chmod(file.c_str(), mode);
  account.give(file);
}

}  // namespace

TEST_CASE("root's probe as the user takes XLA_FLAGS from the fix-ups file and nothing else the user wrote there") {
  test::ScratchUser account;
  const auto plan = test::user_provision_plan(account.user());
  const fs::path home = account.user().home;
  // The venv's "python": the user's script, which writes down who ran it and with what environment.
  write_home_file(account, fs::path(plan.venv) / "bin/python",
                  "#!/bin/sh\n{ id -u; env; } > \"$HOME/probe-saw\"\necho '{}'\n", 0755);
  write_home_file(account, fixups_env_path(plan),
                  "export LD_PRELOAD='/nonexistent/tfwsl-evil.so'\n"
                  "export PATH='" +
                      (home / "bin").string() +
                      "'\n"
                      "export PYTHONPATH='" +
                      (home / "evil").string() + "'\n" +
                      "export XLA_FLAGS='--xla_gpu_cuda_data_dir=/opt/cuda dir/nvcc'\n",
                  0644);
  SystemProcessRunner processes;
  CheckContext c{&plan, "/", &account.user(), nullptr, std::chrono::seconds(30), std::nullopt, &processes};
  (void)check_distro_step(*plan.find("tensorflow.fixups"), c);
  REQUIRE(c.tf);
  CHECK_THAT(c.tf->stderr_text, !Catch::Contains("LD_PRELOAD"));  // no process, root's setpriv first, had it
  const std::string saw = test::read_file(home / "probe-saw");
  CHECK(saw.rfind(std::to_string(account.user().uid) + "\n", 0) == 0);
  CHECK_THAT(saw, Catch::Contains("\nXLA_FLAGS=--xla_gpu_cuda_data_dir=/opt/cuda dir/nvcc\n"));
  CHECK_THAT(saw, Catch::Contains("\nHOME=" + home.string() + "\n"));
  CHECK_THAT(saw, Catch::Contains("\nPATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"));
  CHECK_THAT(saw, !Catch::Contains("LD_PRELOAD") && !Catch::Contains("PYTHONPATH") && !Catch::Contains("tfwsl-evil"));
}
