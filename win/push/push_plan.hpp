#pragma once
// `tfwsl data push`'s first half, before anything is copied (docs/datasets.md, "tfwsl data push"):
// SRC resolved through the agent (drive letters under the distro's automount root, \\wsl$ paths of
// this distro; other UNC paths refused with the agent's reason), the target named (--to DIR/NAME,
// default ~/datasets/<SRC's folder name>: the same for the same source, so a second push resumes),
// the data measured on this side, and the room judged on the host drive holding ext4.vhdx and in
// the distro's filesystem. A refusal is an Error; nothing has been written anywhere then.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "win/host/registry.hpp"
#include "win/push/host_free_space.hpp"
#include "win/push/push_agent.hpp"
#include "win/push/room_check.hpp"
#include "win/push/source_tree.hpp"
#include "win/push/vhdx_location.hpp"

namespace tfwsl::push {

struct PushRequest {
  std::string source;  // SRC as given
  std::string name;    // --name; empty: SRC's last folder name
  std::string to;      // --to: the Linux folder the data lands in as TO/NAME; empty: <home>/datasets
  std::string distro;  // --distro: for the registry's vhdx lookup (the agent runs there too)
  bool move = false;
  bool verify = false;
  unsigned jobs = 16;
  // --exclude: names left out at any depth, by the measure here and by the agent's job
  // (common/agent_api/exclude_names.hpp); empty: nothing left out.
  std::vector<std::string> exclude;
  // SRC is a Windows path that the agent resolves (tfwsl.exe); false on the native Linux build,
  // where SRC is a path of this machine and there is no vhdx.
  bool windows = true;
};

struct PushEnvironment {
  PushAgentConnector connect;
  std::function<Result<SourceTree>(const std::string& source, const std::vector<std::string>& exclude)> measure =
      [](const std::string& source, const std::vector<std::string>& exclude) {
        return measure_source_tree(source, exclude);
      };
  const host::Registry* registry = nullptr;  // null: no host drive to check (not Windows)
  const FreeSpace* host_free = nullptr;
  // WSL's default distribution as `wsl -l -v` names it (Windows; empty: unknown): how Windows
  // names the distro in \\wsl.localhost\ when the registry does not say and --distro is not given.
  std::function<std::string()> default_distro;
  std::function<bool()> interrupted = [] { return false; };
  std::function<void(const JobProgress&)> progress = [](const JobProgress&) {};
  std::function<void(std::chrono::milliseconds)> sleep;
  std::chrono::milliseconds poll_interval{std::chrono::milliseconds(250)};
  std::chrono::milliseconds cancel_wait{std::chrono::seconds(60)};  // for a cancelled job to wind down
};

struct PushPlan {
  std::string source_given;
  std::string source_linux;
  std::string mount_type;
  bool slow_mount = false;
  std::string name;
  std::string target;       // Linux path of the data once pushed
  std::string target_root;  // the agent's --root for the target side (an existing folder)
  std::string home;
  std::string distro_name;  // the distro as the agent names it ("" when not WSL)
  bool in_wsl = false;
  SourceTree tree;
  std::optional<VhdxLocation> vhdx;
  RoomVerdict host_room;
  RoomVerdict distro_room;
  std::string agent;  // how the planning agent was reached, for the log
};

// The plan so far is kept in `plan` also when this refuses (for the report).
Status plan_push(PushEnvironment& env, const PushRequest& request, PushPlan& plan);

// The folder name a push of `source` gets without --name: its last component ("C:\data\imgs\" ->
// "imgs"); empty for a drive root.
std::string default_push_name(const std::string& source);

// "\\wsl.localhost\Ubuntu\home\me\datasets\imgs": how Windows programs reach the pushed data.
std::string windows_view_of(const std::string& distro, const std::string& linux_path);

}  // namespace tfwsl::push
