#include "win/agent_service/leftovers.hpp"

#ifndef _WIN32
#include <sys/stat.h>
#include <unistd.h>
#endif

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "common/process/process_runner.hpp"

using namespace tfwsl;
using agent_service::FolderEntry;
using agent_service::Leftover;

namespace {

agent_service::DistroFacts home_facts() {
  agent_service::DistroFacts facts;
  facts.where = "in Test";
  facts.user = "me";
  facts.home = "/home/me";
  facts.agent.agent_path = "/usr/local/lib/tfwsl/tfwsl-agent";
  return facts;
}

const Leftover* find(const std::vector<Leftover>& items, const std::string& path) {
  for (const auto& i : items)
    if (i.path == path) return &i;
  return nullptr;
}

#ifndef _WIN32
std::string write(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p) << text;
  return p.string();
}
#endif

}  // namespace

TEST_CASE("leftovers: only tfwsl's own names go, and a folder only when nothing else is in it", "[leftovers]") {
  auto facts = home_facts();
  facts.config = {{'d', 0, "/home/me/.config/tfwsl"},
                  {'f', 40, "/home/me/.config/tfwsl/agent.token"},
                  {'l', 0, "/home/me/.config/tfwsl/agent.log"},
                  {'f', 90, "/home/me/.config/tfwsl/tf.env"},
                  {'f', 9, "/home/me/.config/tfwsl/tf.env.fixups"},
                  {'f', 9, "/home/me/.config/tfwsl/mine.env"},
                  {'f', 12, "/home/me/.config/tfwsl/profile.yaml"}};
  facts.first_lines = {{"/home/me/.config/tfwsl/tf.env", "# Written by tfwsl provision (profile tf); source it"},
                       {"/home/me/.config/tfwsl/mine.env", "export A=1"}};
  const auto items = agent_service::decide_distro_leftovers(facts);
  REQUIRE(find(items, "/home/me/.config/tfwsl/agent.token"));
  CHECK(find(items, "/home/me/.config/tfwsl/agent.token")->remove);
  CHECK(find(items, "/home/me/.config/tfwsl/agent.token")->size == 40u);
  CHECK(find(items, "/home/me/.config/tfwsl/tf.env")->remove);
  CHECK(find(items, "/home/me/.config/tfwsl/tf.env.fixups")->remove);
  CHECK_FALSE(find(items, "/home/me/.config/tfwsl/mine.env")->remove);      // no provision mark
  CHECK_FALSE(find(items, "/home/me/.config/tfwsl/profile.yaml")->remove);  // the user's
  const Leftover* link = find(items, "/home/me/.config/tfwsl/agent.log");
  REQUIRE(link);
  CHECK_FALSE(link->remove);
  CHECK(link->why.find("not followed") != std::string::npos);
  const Leftover* folder = find(items, "/home/me/.config/tfwsl");
  REQUIRE(folder);
  CHECK_FALSE(folder->remove);
  CHECK(folder->why == "holds 3 entries tfwsl did not make");
}

TEST_CASE("leftovers: provision's state, its step logs, then its folders, deepest last", "[leftovers]") {
  auto facts = home_facts();
  facts.state = {{'d', 0, "/var/lib/tfwsl"},
                 {'d', 0, "/var/lib/tfwsl/provision"},
                 {'f', 0, "/var/lib/tfwsl/provision/lock"},
                 {'f', 300, "/var/lib/tfwsl/provision/journal.jsonl"},
                 {'d', 0, "/var/lib/tfwsl/provision/logs"},
                 {'f', 800, "/var/lib/tfwsl/provision/logs/20261207T021500Z-apt.packages.log"}};
  const auto items = agent_service::decide_distro_leftovers(facts);
  std::vector<std::string> order;
  for (const auto& i : items) {
    CHECK(i.remove);
    CHECK(i.run_as == agent_service::LeftoverRunAs::root);
    order.push_back(i.path);
  }
  CHECK(order == std::vector<std::string>{"/var/lib/tfwsl/provision/lock", "/var/lib/tfwsl/provision/journal.jsonl",
                                          "/var/lib/tfwsl/provision/logs/20261207T021500Z-apt.packages.log",
                                          "/var/lib/tfwsl/provision/logs", "/var/lib/tfwsl/provision",
                                          "/var/lib/tfwsl"});
}

TEST_CASE("leftovers: the venvs processes.jsonl records, as the user they were made for", "[leftovers]") {
  const std::string jsonl =
      R"({"step":"python.venv","pid":5,"argv":["python3.10","-m","venv","/home/me/.venvs/tf-2.15"],"as":"me"})"
      "\n"
      R"({"step":"python.venv","pid":6,"argv":["python3.10","-m","venv","/home/ann/.venvs/tf"],"as":"ann"})"
      "\nnot json\n"
      R"({"step":"apt.packages","pid":7,"argv":["apt-get","install","-y","python3-venv"],"as":"root"})"
      "\n"
      R"({"step":"python.venv","pid":8,"argv":["python3.10","-m","venv","relative/venv"],"as":"me"})"
      "\n";
  const auto venvs = agent_service::recorded_venvs(jsonl);
  REQUIRE(venvs.size() == 2);
  CHECK(venvs[0] == std::pair<std::string, std::string>{"/home/me/.venvs/tf-2.15", "me"});
  auto facts = home_facts();
  facts.venvs = {{"/home/me/.venvs/tf-2.15", "me", 'd', true},
                 {"/home/ann/.venvs/tf", "ann", 'd', true},
                 {"/home/me/.venvs/gone", "me", '-', false},
                 {"/home/me/.venvs/emptied", "me", 'd', false}};
  const auto items = agent_service::decide_distro_leftovers(facts);
  REQUIRE(items.size() == 3);
  CHECK(items[0].kind == agent_service::LeftoverKind::venv);
  CHECK(items[0].remove);
  CHECK(items[0].run_as == agent_service::LeftoverRunAs::user);
  CHECK_FALSE(items[1].remove);  // another user's
  CHECK_FALSE(items[2].remove);  // no pyvenv.cfg: no longer a venv
}

#ifndef _WIN32
// The removal scripts run in a POSIX shell (the distro's): here a local one, so not on Windows.
TEST_CASE("leftovers: a removal never goes through a link, nor as root in a folder others may write", "[leftovers]") {
  namespace fs = std::filesystem;
  const fs::path d = fs::temp_directory_path() / ("tfwsl-leftovers-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d / "real");
  const std::string token = write(d / "real" / "agent.token", "secret");
  fs::create_directory_symlink(d / "real", d / "linked");
  SystemProcessRunner runner;
  agent_service::LocalDistroShell shell(runner);
  Leftover item;
  item.path = (d / "linked" / "agent.token").string();
  item.run_as = agent_service::LeftoverRunAs::user;
  auto through_link = agent_service::remove_distro_leftover(shell, item);
  CHECK_FALSE(through_link);
  CHECK(fs::exists(token));

  fs::create_directories(d / "loose");
  ::chmod((d / "loose").c_str(), 0777);
  item.path = write(d / "loose" / "lock", "");
  item.run_as = agent_service::LeftoverRunAs::root;
  auto loose = agent_service::remove_distro_leftover(shell, item);
  REQUIRE_FALSE(loose);
  CHECK(loose.error().message.find("others may write") != std::string::npos);
  CHECK(fs::exists(item.path));

  item.path = token;  // the real folder: removed
  CHECK(agent_service::remove_distro_leftover(shell, item));
  CHECK_FALSE(fs::exists(token));
  fs::remove_all(d);
}
#endif
