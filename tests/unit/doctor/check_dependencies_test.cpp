// The one dependency table (common/judge/check_dependencies.hpp), pinned against the doctor's ids.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <set>

#include "common/doctor/doctor_checks.hpp"
#include "common/host/host_checks.hpp"
#include "common/judge/check_dependencies.hpp"

using namespace tfwsl;

TEST_CASE("every id in the dependency table is a doctor check or a precondition", "[doctor][fold]") {
  std::set<std::string> known(doctor::all_check_ids().begin(), doctor::all_check_ids().end());
  std::set<std::string> seen;
  for (const auto& d : judge::check_dependencies()) {
    INFO(d.id);
    CHECK(known.count(d.id) == 1);
    CHECK(seen.insert(d.id).second);  // once
    for (const auto& need : d.needs) {
      INFO(need);
      CHECK((known.count(need) == 1 || need == judge::k_platform_windows));
      CHECK(need != d.id);
    }
  }
  // Every check is in the table, so none is silently left unfolded.
  for (const auto& id : doctor::all_check_ids()) {
    INFO(id);
    CHECK(seen.count(id) == 1);
  }
}

TEST_CASE("the dependency table has no cycles", "[doctor][fold]") {
  std::map<std::string, std::vector<std::string>> needs;
  for (const auto& d : judge::check_dependencies()) needs[d.id] = d.needs;
  std::map<std::string, int> state;  // 1 on the path, 2 done
  std::function<bool(const std::string&)> acyclic = [&](const std::string& id) {
    if (state[id] == 1) return false;
    if (state[id] == 2) return true;
    state[id] = 1;
    for (const auto& n : needs[id])
      if (!acyclic(n)) return false;
    state[id] = 2;
    return true;
  };
  for (const auto& d : judge::check_dependencies()) {
    INFO(d.id);
    CHECK(acyclic(d.id));
  }
}

TEST_CASE("the table pins what the scenarios' faults fold", "[doctor][fold]") {
  auto needs_of = [](const std::string& id) {
    for (const auto& d : judge::check_dependencies())
      if (d.id == id) return d.needs;
    return std::vector<std::string>{};
  };
  auto needs = [&](const std::string& id, const std::string& need) {
    auto n = needs_of(id);
    return std::find(n.begin(), n.end(), need) != n.end();
  };
  CHECK(needs("wsl.agent", "wsl.distro"));
  CHECK(needs("wsl.distro", "wsl.installed"));
  CHECK(needs("tf.gpu", "gpu.visible"));
  CHECK(needs("gpu.visible", "linux.dxg"));
  CHECK(needs("gpu.visible", "linux.libcuda"));
  CHECK(needs("gpu.visible", "host.gpu-driver-model"));  // TCC hides the GPU from WSL
  CHECK(needs("linux.dxg", "wsl.distro"));               // WSL 1 has no /dev/dxg
  for (const char* host : host::k_host_check_ids) CHECK(needs(host, judge::k_platform_windows));
  for (const auto& id : doctor::agent_check_ids()) {
    // Each agent-judged check reaches wsl.agent, directly or through another.
    std::function<bool(const std::string&)> reaches = [&](const std::string& at) {
      if (at == "wsl.agent") return true;
      for (const auto& n : needs_of(at))
        if (reaches(n)) return true;
      return false;
    };
    INFO(id);
    CHECK(reaches(id));
  }
}
