#pragma once
// What tfwsl leaves behind in a distro (`tfwsl uninstall`, docs/uninstall.md), decided only from
// what tfwsl itself records or names: the agent `tfwsl agent start` installed (a regular file that
// answers as tfwsl-agent), its state files in ~/.config/tfwsl (agent.token, agent.json, agent.log and
// its rotations, agent.err), the environment files provision wrote there (their first line is
// provision's mark, env_file.hpp), pip's logs in ~/.cache/tfwsl (pip-*.log), provision's state
// folder (lock, journal.jsonl, processes.jsonl, logs/<RUN>-<STEP>.log), and the venvs whose
// `python -m venv PATH` processes.jsonl records. A folder is removed only when nothing else is left
// in it. Anything else is listed as left alone with the reason: a file of another name, a link
// (never followed), a venv made for another user or no longer a venv.
//
// The facts come from scripts run through the DistroShell port (leftovers_shell.cpp): the state
// folder and the agent as root (the privileged path `agent start` installs with), the home
// folder's files as the user. Removal goes the same way, beneath the folder (cd into it, checked
// no link, then one name removed), never through a link.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "win/agent_service/agent_service.hpp"
#include "win/agent_service/distro_shell.hpp"

namespace tfwsl::agent_service {

// provision's state folder when no --state-dir was given (common/provision/provision_state_paths.hpp).
inline constexpr const char* k_leftover_state_dir = "/var/lib/tfwsl/provision";

enum class LeftoverKind { file, folder, venv, process };
enum class LeftoverRunAs { here, user, root };  // here: this side (Windows), not the distro

struct Leftover {
  std::string what;   // "the agent's token", "tfwsl-agent 0.4.0"
  std::string where;  // "in Ubuntu", "on this machine", "on Windows"
  std::string path;
  std::optional<std::uintmax_t> size;  // files; folders and venvs: not counted (not cheap)
  LeftoverKind kind = LeftoverKind::file;
  LeftoverRunAs run_as = LeftoverRunAs::here;
  bool remove = true;  // false: left alone
  std::string why;     // left alone: why; removed: what proves it tfwsl's
  long pid = 0;        // LeftoverKind::process: the agent's pid
};

// One entry of a folder as `find -P DIR -printf '%y\t%s\t%p\0'` gives it: type 'f', 'd', 'l', ...
struct FolderEntry {
  char type = '?';
  std::uintmax_t size = 0;
  std::string path;
};

struct VenvFact {
  std::string path;
  std::string as;   // the user processes.jsonl says it was made as ("root" or a name)
  char type = '-';  // 'd' a folder, 'l' a link, '-' absent, ...
  bool has_pyvenv_cfg = false;
};

struct DistroFacts {
  std::string where;
  std::string user;  // the distro user the home's scripts run as
  std::string home;
  ServiceStatus agent;
  std::vector<FolderEntry> agent_folder;  // the agent's folder and its entries (depth 1)
  std::string state_dir = k_leftover_state_dir;
  bool default_state_dir = true;    // then its parent, /var/lib/tfwsl, goes too when empty
  std::vector<FolderEntry> state;   // the state folder's parent, the folder and below (depth 3)
  std::vector<FolderEntry> config;  // ~/.config/tfwsl and its entries (depth 1)
  std::vector<FolderEntry> cache;   // ~/.cache/tfwsl and its entries (depth 1)
  std::vector<std::pair<std::string, std::string>> first_lines;  // ~/.config/tfwsl/*.env: path, first line
  std::vector<VenvFact> venvs;
};

// The venvs processes.jsonl records: each `python -m venv PATH` of the python.venv step, with the
// user it ran as ("as"); absolute paths only, each once.
std::vector<std::pair<std::string, std::string>> recorded_venvs(const std::string& processes_jsonl);

// What is tfwsl's and what is left alone, in removal order (files before their folders, the
// running agent first).
std::vector<Leftover> decide_distro_leftovers(const DistroFacts& facts);

// The facts, through the shell: the agent's status, then the root part, then the user's part.
Result<DistroFacts> read_distro_facts(DistroShell& shell, const std::string& agent_path, const std::string& state_dir);

// Removes one item decided above (stops the agent for a process item); an error says why not.
Status remove_distro_leftover(DistroShell& shell, const Leftover& item);

}  // namespace tfwsl::agent_service
