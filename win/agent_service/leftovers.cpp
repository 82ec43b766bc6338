// The decisions of leftovers.hpp: pure, from the facts the scripts gathered (leftovers_shell.cpp).
#include "win/agent_service/leftovers.hpp"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace tfwsl::agent_service {
namespace {

// The first line of the environment file provision writes (common/provision/env_file.cpp).
constexpr const char* k_env_mark = "# Written by tfwsl provision ";
constexpr const char* k_link_why = "a link where tfwsl's own would be: not followed, not removed";

std::string parent_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string name_of(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

// "<RUN>-<STEP>.log": RUN as provision_executor.cpp's run_id() writes it (20261207T021500Z).
bool is_step_log_name(const std::string& name) {
  if (name.size() < 22 || !name.ends_with(".log") || name[8] != 'T' || name[15] != 'Z' || name[16] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14})
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
  const std::string step = name.substr(17, name.size() - 21);
  return !step.empty() && std::all_of(step.begin(), step.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '.' ||
           c == '_' || c == '-';
  });
}

const FolderEntry* find_entry(const std::vector<FolderEntry>& entries, const std::string& path) {
  for (const auto& e : entries)
    if (e.path == path) return &e;
  return nullptr;
}

std::vector<const FolderEntry*> children(const std::vector<FolderEntry>& entries, const std::string& folder) {
  std::vector<const FolderEntry*> out;
  for (const auto& e : entries)
    if (e.path != folder && parent_of(e.path) == folder) out.push_back(&e);
  return out;
}

class Decider {
 public:
  explicit Decider(const DistroFacts& facts) : m_facts(facts) {}

  std::vector<Leftover> run() {
    if (m_facts.agent.running) {
      Leftover stop =
          item("the running agent (pid " + std::to_string(m_facts.agent.pid) + ")", "", LeftoverRunAs::user);
      stop.kind = LeftoverKind::process;
      stop.pid = m_facts.agent.pid;
      stop.why = "its agent.json names a live tfwsl-agent serve: stopped first";
      m_items.push_back(stop);
    }
    agent();
    state();
    home_folder(m_facts.config, m_facts.home + "/.config/tfwsl", "tfwsl's state folder in the home folder",
                [this](const FolderEntry& e) { return config_file(e); });
    home_folder(
        m_facts.cache, m_facts.home + "/.cache/tfwsl", "tfwsl's cache folder", [](const FolderEntry& e) -> std::string {
          const std::string n = name_of(e.path);
          return n.starts_with("pip-") && n.ends_with(".log") ? "pip's log (tfwsl migrate, tfwsl-agent venv)" : "";
        });
    for (const auto& v : m_facts.venvs) venv(v);
    // Folders last, the deepest first, so each is empty when its turn comes.
    std::stable_partition(m_items.begin(), m_items.end(),
                          [](const Leftover& l) { return l.kind != LeftoverKind::folder || !l.remove; });
    return std::move(m_items);
  }

 private:
  Leftover item(std::string what, std::string path, LeftoverRunAs run_as) const {
    Leftover l;
    l.what = std::move(what);
    l.where = m_facts.where;
    l.path = std::move(path);
    l.run_as = run_as;
    return l;
  }

  void file(const FolderEntry& e, const std::string& what, LeftoverRunAs run_as, const std::string& why) {
    Leftover l = item(what, e.path, run_as);
    l.size = e.size;
    l.why = why;
    m_removed.insert(e.path);
    m_items.push_back(std::move(l));
  }

  void leave(const FolderEntry& e, const std::string& why) {
    Leftover l = item(e.type == 'd' ? "a folder" : e.type == 'l' ? "a link" : "a file", e.path, LeftoverRunAs::here);
    if (e.type == 'f') l.size = e.size;
    l.kind = e.type == 'd' ? LeftoverKind::folder : LeftoverKind::file;
    l.remove = false;
    l.why = e.type == 'l' ? k_link_why : why;
    m_items.push_back(std::move(l));
  }

  // A folder tfwsl made: removed when every entry in it is going, else left alone naming why.
  void folder(const std::vector<FolderEntry>& entries, const std::string& path, const std::string& what,
              LeftoverRunAs run_as) {
    const FolderEntry* self = find_entry(entries, path);
    if (!self) return;
    if (self->type != 'd') return leave(*self, "not a folder");
    std::size_t others = 0;
    for (const auto* c : children(entries, path)) others += m_removed.count(c->path) ? 0 : 1;
    Leftover l = item(what, path, run_as);
    l.kind = LeftoverKind::folder;
    if (others > 0) {
      l.remove = false;
      l.why = "holds " + std::to_string(others) + (others == 1 ? " entry" : " entries") + " tfwsl did not make";
    } else {
      l.why = "empty once tfwsl's files are gone";
      m_removed.insert(path);
    }
    m_items.push_back(std::move(l));
  }

  void agent() {
    const std::string& path = m_facts.agent.agent_path;
    const std::string dir = parent_of(path);
    for (const auto* e : children(m_facts.agent_folder, dir)) {
      if (e->path == path) {
        agent_file(*e);
      } else if (name_of(dir) == "tfwsl") {
        const bool temp = name_of(e->path).starts_with(".tfwsl-agent.") && e->type == 'f';
        if (temp)
          file(*e, "an unfinished copy of an agent install", LeftoverRunAs::root, "the install's temporary name");
        else
          leave(*e, "not the agent tfwsl installs");
      }
    }
    if (name_of(dir) == "tfwsl") folder(m_facts.agent_folder, dir, "the agent's folder", LeftoverRunAs::root);
  }

  void agent_file(const FolderEntry& e) {
    if (e.type != 'f') return leave(e, "not a regular file: not the agent tfwsl installs");
    if (m_facts.agent.installed_version.empty()) return leave(e, "does not answer as tfwsl-agent");
    file(e, "tfwsl-agent " + m_facts.agent.installed_version, LeftoverRunAs::root,
         "answers as tfwsl-agent where tfwsl agent start installs it");
  }

  void state() {
    const std::string& dir = m_facts.state_dir;
    const FolderEntry* self = find_entry(m_facts.state, dir);
    if (self && self->type == 'd') {
      for (const auto* e : children(m_facts.state, dir)) {
        const std::string n = name_of(e->path);
        if (e->type == 'f' && (n == "lock" || n == "journal.jsonl" || n == "processes.jsonl"))
          file(*e, "provision's " + n, LeftoverRunAs::root, "in provision's state folder");
        else if (e->type == 'd' && n == "logs")
          state_logs(e->path);
        else
          leave(*e, "not a file provision writes");
      }
    }
    folder(m_facts.state, dir + "/logs", "provision's step logs folder", LeftoverRunAs::root);
    folder(m_facts.state, dir, "provision's state folder", LeftoverRunAs::root);
    if (!m_facts.default_state_dir) return;
    const std::string parent = parent_of(dir);
    for (const auto* e : children(m_facts.state, parent))
      if (e->path != dir) leave(*e, "not provision's state");
    folder(m_facts.state, parent, "tfwsl's folder in /var/lib", LeftoverRunAs::root);
  }

  void state_logs(const std::string& logs) {
    for (const auto* e : children(m_facts.state, logs)) {
      if (e->type == 'f' && is_step_log_name(name_of(e->path)))
        file(*e, "a provision step's log", LeftoverRunAs::root, "named RUN-STEP.log in provision's logs");
      else
        leave(*e, "not a step log provision names");
    }
  }

  std::string config_file(const FolderEntry& e) const {
    static const std::set<std::string> agent_files{"agent.token", "agent.token.new", "agent.json",  "agent.log",
                                                   "agent.1.log", "agent.2.log",     "agent.3.log", "agent.err"};
    const std::string n = name_of(e.path);
    if (agent_files.count(n)) return "the persistent agent's " + n;
    if (n.ends_with(".env") && marked_env(e.path)) return "provision's environment file";
    if (n.ends_with(".env.fixups") && marked_env(e.path.substr(0, e.path.size() - 7)))
      return "its fix-ups (sourced by provision's environment file)";
    return "";
  }

  bool marked_env(const std::string& path) const {
    for (const auto& [p, line] : m_facts.first_lines)
      if (p == path) return line.starts_with(k_env_mark);
    return false;
  }

  template <class Namer>
  void home_folder(const std::vector<FolderEntry>& entries, const std::string& dir, const std::string& what,
                   Namer namer) {
    const FolderEntry* self = find_entry(entries, dir);
    if (!self) return;
    if (self->type == 'd')
      for (const auto* e : children(entries, dir)) {
        const std::string name = e->type == 'f' ? namer(*e) : "";
        if (!name.empty())
          file(*e, name, LeftoverRunAs::user, "a name tfwsl gives its own files");
        else
          leave(*e, "not one of tfwsl's own files");
      }
    folder(entries, dir, what, LeftoverRunAs::user);
  }

  void venv(const VenvFact& v) {
    if (v.type == '-') return;
    FolderEntry e{v.type, 0, v.path};
    if (v.type != 'd') return leave(e, "not a folder");
    if (!v.has_pyvenv_cfg) return leave(e, "no longer a venv (no pyvenv.cfg)");
    if (v.as != "root" && v.as != m_facts.user)
      return leave(e, "made for " + v.as + ": remove it as that user if you no longer need it");
    Leftover l = item("a venv provision made", v.path, v.as == "root" ? LeftoverRunAs::root : LeftoverRunAs::user);
    l.kind = LeftoverKind::venv;
    l.why = "processes.jsonl records its python -m venv";
    m_items.push_back(std::move(l));
  }

  const DistroFacts& m_facts;
  std::vector<Leftover> m_items;
  std::set<std::string> m_removed;
};

}  // namespace

std::vector<std::pair<std::string, std::string>> recorded_venvs(const std::string& processes_jsonl) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(processes_jsonl);
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object() || j.value("step", "") != "python.venv" || !j.contains("argv") || !j["argv"].is_array())
      continue;
    const auto& argv = j["argv"];
    if (argv.size() != 4 || !argv[1].is_string() || !argv[2].is_string() || !argv[3].is_string()) continue;
    if (argv[1] != "-m" || argv[2] != "venv") continue;
    const std::string path = argv[3].get<std::string>(), as = j.value("as", "");
    if (path.empty() || path[0] != '/' || as.empty()) continue;
    if (std::none_of(out.begin(), out.end(), [&](const auto& v) { return v.first == path; }))
      out.emplace_back(path, as);
  }
  return out;
}

std::vector<Leftover> decide_distro_leftovers(const DistroFacts& facts) { return Decider(facts).run(); }

}  // namespace tfwsl::agent_service
