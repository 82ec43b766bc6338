// The scripts of leftovers.hpp: what is there (find -P, which never follows a link, records ended by
// NUL so no file name can forge one), and the removal of one item beneath its folder.
#include <string_view>

#include "common/util/ascii.hpp"
#include "win/agent_service/leftovers.hpp"

namespace tfwsl::agent_service {
namespace {

constexpr const char* k_list_prelude = "list() { find -P \"$@\" -printf '%y\\t%s\\t%p\\0' 2>/dev/null; }\n";

// As root: the agent's folder (all of it when it is tfwsl's own, else the agent alone), the state
// folder (with its parent, /var/lib/tfwsl, when it is the default one), then processes.jsonl.
constexpr const char* k_root_facts_script =
    "agent=\"$1\"; state=\"$2\"; dir=$(dirname -- \"$agent\")\n"
    "printf 'A\\0'\n"
    "if [ \"$(basename -- \"$dir\")\" = tfwsl ]; then list \"$dir\" -maxdepth 1; else list \"$agent\" -maxdepth 0; fi\n"
    "printf 'S\\0'\n"
    "if [ \"$3\" = default ]; then list \"$(dirname -- \"$state\")\" -maxdepth 3; else list \"$state\" -maxdepth 2; "
    "fi\n"
    "printf 'P\\0'\n"
    "p=\"$state/processes.jsonl\"\n"
    "if [ ! -L \"$state\" ] && [ -f \"$p\" ] && [ ! -L \"$p\" ]; then head -c 4194304 -- \"$p\"; fi\n"
    "exit 0\n";

// As the user: who and where, ~/.config/tfwsl, ~/.cache/tfwsl, the first line of each .env there,
// and each venv processes.jsonl names ($@): its type and whether it holds a pyvenv.cfg.
constexpr const char* k_user_facts_script =
    "printf 'U\\t%s\\t%s\\0' \"$(id -un)\" \"$HOME\"\n"
    "c=\"$HOME/.config/tfwsl\"\n"
    "printf 'C\\0'; list \"$c\" -maxdepth 1\n"
    "printf 'K\\0'; list \"$HOME/.cache/tfwsl\" -maxdepth 1\n"
    "printf 'E\\0'\n"
    "if [ ! -L \"$c\" ]; then for f in \"$c\"/*.env; do\n"
    "  if [ -f \"$f\" ] && [ ! -L \"$f\" ]; then printf '%s\\t%s\\0' \"$f\" \"$(head -n 1 -- \"$f\" | head -c 200 | tr "
    "-d '\\0')\"; fi\n"
    "done; fi\n"
    "printf 'V\\0'\n"
    "for v in \"$@\"; do\n"
    "  t=$(find -P \"$v\" -maxdepth 0 -printf '%y' 2>/dev/null); [ -n \"$t\" ] || t=-\n"
    "  cfg=no; if [ \"$t\" = d ] && [ -f \"$v/pyvenv.cfg\" ] && [ ! -L \"$v/pyvenv.cfg\" ]; then cfg=yes; fi\n"
    "  printf '%s\\t%s\\t%s\\0' \"$t\" \"$cfg\" \"$v\"\n"
    "done\n"
    "exit 0\n";

// Root's removals: every folder from the item's up to / must be root's (or this user's) and
// writable by no one else (sticky folders such as /tmp aside), or a link of root's: the rule the
// agent's install and provision's state folder follow, so no other user can swap a folder for a
// link between the check and the removal.
constexpr const char* k_remove_prelude =
    "safe_chain() {\n"
    "  q=\"$1\"\n"
    "  while :; do\n"
    "    if [ -z \"$(find -P \"$q\" -maxdepth 0 \\( \\( -type l -user 0 \\) -o \\( \\( -user 0 -o -user \"$(id -u)\" "
    "\\) "
    "\\( ! -perm /022 -o -perm -1000 \\) \\) \\) -print)\" ]; then\n"
    "      echo \"$q belongs to another user or others may write in it: removed nothing there\" >&2; exit 3\n"
    "    fi\n"
    "    [ \"$q\" = / ] || [ \"$q\" = . ] && break\n"
    "    q=$(dirname -- \"$q\")\n"
    "  done\n"
    "}\n"
    "p=\"$1\"; d=$(dirname -- \"$p\"); n=$(basename -- \"$p\")\n"
    "if [ \"$2\" = root ]; then safe_chain \"$d\"; fi\n"
    "if [ -L \"$d\" ] || [ ! -d \"$d\" ]; then echo \"$d is a link or no folder now: removed nothing there\" >&2; exit "
    "3; fi\n"
    "cd -P -- \"$d\" || exit 3\n"
    "if [ -L \"./$n\" ]; then echo \"$p is a link now: left alone\" >&2; exit 3; fi\n"
    "[ -e \"./$n\" ] || exit 0\n";

constexpr const char* k_remove_file =
    "[ -f \"./$n\" ] || { echo \"$p is no regular file now: left alone\" >&2; exit 3; }\n"
    "rm -f -- \"./$n\"\n";
constexpr const char* k_remove_folder = "rmdir -- \"./$n\"\n";
constexpr const char* k_remove_venv =
    "if [ ! -d \"./$n\" ] || [ ! -f \"./$n/pyvenv.cfg\" ] || [ -L \"./$n/pyvenv.cfg\" ]; then\n"
    "  echo \"$p is no venv now: left alone\" >&2; exit 3\n"
    "fi\n"
    "rm -rf --one-file-system -- \"./$n\"\n";

std::vector<std::string> nul_records(std::string_view text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\0', start)) != std::string_view::npos; start = end + 1)
    out.emplace_back(text.substr(start, end - start));
  return out;
}

std::vector<std::string> tab_fields(const std::string& record, std::size_t count) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (out.size() + 1 < count) {
    const auto tab = record.find('\t', start);
    if (tab == std::string::npos) break;
    out.push_back(record.substr(start, tab - start));
    start = tab + 1;
  }
  out.push_back(record.substr(start));
  return out;
}

std::vector<FolderEntry>* section_of(DistroFacts& facts, const std::string& marker) {
  if (marker == "A") return &facts.agent_folder;
  if (marker == "S") return &facts.state;
  if (marker == "C") return &facts.config;
  if (marker == "K") return &facts.cache;
  return nullptr;
}

// One reply's records into the facts: a one-letter record starts a section; entries are
// "TYPE\tSIZE\tPATH", .env lines "PATH\tFIRST LINE", venvs "TYPE\tCFG\tPATH".
void read_records(DistroFacts& facts, const std::vector<std::string>& records) {
  std::string section;
  for (const auto& r : records) {
    if (r.size() == 1) {
      section = r;
      continue;
    }
    if (r.rfind("U\t", 0) == 0) {
      auto f = tab_fields(r, 3);
      if (f.size() == 3) facts.user = f[1], facts.home = f[2];
    } else if (auto* entries = section_of(facts, section)) {
      auto f = tab_fields(r, 3);
      if (f.size() == 3 && f[0].size() == 1 && !f[1].empty() &&
          f[1].find_first_not_of("0123456789") == std::string::npos)
        entries->push_back({f[0][0], std::stoull(f[1]), f[2]});
    } else if (section == "E") {
      auto f = tab_fields(r, 2);
      if (f.size() == 2) facts.first_lines.emplace_back(f[0], f[1]);
    } else if (section == "V") {
      auto f = tab_fields(r, 3);
      if (f.size() == 3 && f[0].size() == 1) facts.venvs.push_back({f[2], "", f[0][0], f[1] == "yes"});
    }
  }
}

Error script_error(const std::string& what, DistroShell& shell, const ShellReply& reply) {
  std::string err(trim(reply.err.substr(0, 400)));
  return Error{ErrorCode::process,
               what + " " + shell.where() + " failed (exit " + std::to_string(reply.exit_code) +
                   (err.empty() ? ")" : "): " + err),
               reply.out.substr(0, 400),
               {}};
}

Status read_root_facts(DistroShell& shell, DistroFacts& facts, std::string& processes) {
  TFWSL_TRY(reply, shell.sh(std::string(k_list_prelude) + k_root_facts_script,
                            {facts.agent.agent_path, facts.state_dir, facts.default_state_dir ? "default" : "named"},
                            std::nullopt, true));
  if (reply.exit_code != 0)
    return tl::unexpected(script_error("listing the agent and provision's state", shell, reply));
  // The marker follows a record's NUL: a path that ends in "P" cannot pass for it.
  const auto marker = reply.out.find(std::string("\0P\0", 3));
  if (marker != std::string::npos) processes = reply.out.substr(marker + 3);
  read_records(facts,
               nul_records(std::string_view(reply.out).substr(0, marker == std::string::npos ? marker : marker + 1)));
  return {};
}

}  // namespace

Result<DistroFacts> read_distro_facts(DistroShell& shell, const std::string& agent_path, const std::string& state_dir) {
  DistroFacts facts;
  facts.where = shell.where();
  TFWSL_TRY(status, read_service_status(shell, agent_path));
  facts.agent = status;
  facts.default_state_dir = state_dir.empty() || state_dir == k_leftover_state_dir;
  if (!state_dir.empty()) facts.state_dir = state_dir;
  std::string processes;
  TFWSL_TRY_STATUS(read_root_facts(shell, facts, processes));
  const auto venvs = recorded_venvs(processes);
  std::vector<std::string> venv_paths;
  for (const auto& v : venvs) venv_paths.push_back(v.first);
  TFWSL_TRY(reply, shell.sh(std::string(k_list_prelude) + k_user_facts_script, venv_paths, std::nullopt, false));
  if (reply.exit_code != 0)
    return tl::unexpected(script_error("listing tfwsl's files in the home folder", shell, reply));
  read_records(facts, nul_records(reply.out));
  for (auto& v : facts.venvs)
    for (const auto& [path, as] : venvs)
      if (path == v.path) v.as = as;
  return facts;
}

Status remove_distro_leftover(DistroShell& shell, const Leftover& item) {
  if (item.kind == LeftoverKind::process) {
    TFWSL_TRY(stopped, stop_service(shell, ""));
    (void)stopped;  // false: it had stopped since the list was made
    return {};
  }
  const char* body = item.kind == LeftoverKind::folder ? k_remove_folder
                     : item.kind == LeftoverKind::venv ? k_remove_venv
                                                       : k_remove_file;
  const bool root = item.run_as == LeftoverRunAs::root;
  TFWSL_TRY(reply,
            shell.sh(std::string(k_remove_prelude) + body, {item.path, root ? "root" : "user"}, std::nullopt, root));
  if (reply.exit_code != 0) return tl::unexpected(script_error("removing " + item.path, shell, reply));
  return {};
}

}  // namespace tfwsl::agent_service
