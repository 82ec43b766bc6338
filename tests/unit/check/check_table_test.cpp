// The check table (common/check/check_table.hpp) on its own: every id once and in its category,
// needs that name only checks and preconditions and have no cycles (fold_report would recurse
// forever on one), and the needs the scenarios' faults fold by.
#include "common/check/check_table.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <regex>
#include <set>

using namespace tfwsl;

namespace {

std::vector<std::string> needs_of_id(const std::string& id) {
  const CheckRow* row = find_check_row(id);
  return row ? needs_of(*row) : std::vector<std::string>{};
}

bool needs(const std::string& id, std::string_view need) {
  const auto n = needs_of_id(id);
  return std::find(n.begin(), n.end(), need) != n.end();
}

}  // namespace

TEST_CASE("every check id is in the table once, in the category its name starts with", "[check][table]") {
  // The id's form is the one docs/schema/check.schema.json allowed before it listed the ids.
  static const std::regex k_id_form(R"([a-z]+(\.[a-z0-9-]+)*)");
  std::set<std::string_view> seen;
  for (const auto& row : check_table()) {
    INFO(row.id);
    CHECK(seen.insert(row.id).second);
    CHECK(std::regex_match(std::string(row.id), k_id_form));
    CHECK(row.category == check_category(std::string(row.id)));
    CHECK(find_check_category(row.category) != nullptr);
    CHECK((row.fault == CheckStatus::warn || row.fault == CheckStatus::fail));
    CHECK(find_check_row(row.id) == &row);
    CHECK_FALSE(is_precondition(row.id));
  }
  CHECK(find_check_row("no.such-check") == nullptr);
}

TEST_CASE("every category has checks and leads with one of its own", "[check][table]") {
  for (const auto& category : check_categories()) {
    INFO(category.name);
    const CheckRow* lead = find_check_row(category.lead);
    REQUIRE(lead != nullptr);
    CHECK(lead->category == category.name);
    CHECK_FALSE(category.title.empty());
  }
}

TEST_CASE("needs name only checks of the table and preconditions, never the check itself", "[check][table]") {
  for (const auto& row : check_table()) {
    INFO(row.id);
    std::set<std::string> once;
    for (const auto& need : needs_of(row)) {
      INFO(need);
      CHECK((find_check_row(need) != nullptr || is_precondition(need)));
      CHECK(need != row.id);
      CHECK(once.insert(need).second);
    }
  }
}

TEST_CASE("the needs have no cycles", "[check][table]") {
  std::map<std::string, int> state;  // 1 on the path, 2 done
  std::function<bool(const std::string&)> acyclic = [&](const std::string& id) {
    if (state[id] == 1) return false;
    if (state[id] == 2) return true;
    state[id] = 1;
    for (const auto& n : needs_of_id(id))
      if (!acyclic(n)) return false;
    state[id] = 2;
    return true;
  };
  for (const auto& row : check_table()) {
    INFO(row.id);
    CHECK(acyclic(std::string(row.id)));
  }
}

TEST_CASE("check_ids and check_dependencies are the table, in its order", "[check][table]") {
  const auto& rows = check_table();
  const auto ids = check_ids();
  const auto& dependencies = check_dependencies();
  const std::size_t route_only = check_ids(CheckSource::container).size();
  CHECK(route_only == 6);
  REQUIRE(ids.size() + route_only == rows.size());
  REQUIRE(dependencies.size() == rows.size());
  std::size_t by_source = 0;
  for (auto source : {CheckSource::host, CheckSource::wsl_exe, CheckSource::doctor, CheckSource::agent})
    by_source += check_ids(source).size();
  CHECK(by_source == ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) CHECK(ids[i] == rows[i].id);  // the route's rows come last
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(dependencies[i].id == rows[i].id);
    CHECK(dependencies[i].needs == needs_of(rows[i]));
  }
  CHECK(needs_of_id("gpu.visible").size() == 6);  // the longest row, split at its spaces
  CHECK(needs_of_id("wslconfig.parse").empty());
}

TEST_CASE("the needs pin what the scenarios' faults fold", "[check][table]") {
  CHECK(needs("wsl.agent", "wsl.distro"));
  CHECK(needs("wsl.distro", "wsl.installed"));
  CHECK(needs("tf.gpu", "gpu.visible"));
  CHECK(needs("gpu.visible", "linux.dxg"));
  CHECK(needs("gpu.visible", "linux.libcuda"));
  CHECK(needs("gpu.visible", "host.gpu-driver-model"));  // TCC hides the GPU from WSL
  CHECK(needs("linux.dxg", "wsl.distro"));               // WSL 1 has no /dev/dxg
  for (const auto& id : check_ids(CheckSource::host)) CHECK(needs(id, k_platform_windows));
  for (const auto& id : check_ids(CheckSource::wsl_exe)) CHECK(needs(id, k_platform_windows));
  for (const auto& id : check_ids(CheckSource::agent)) {
    // Each agent-judged check reaches wsl.agent, directly or through another.
    std::function<bool(const std::string&)> reaches = [&](const std::string& at) {
      if (at == "wsl.agent") return true;
      for (const auto& n : needs_of_id(at))
        if (reaches(n)) return true;
      return false;
    };
    INFO(id);
    CHECK(reaches(id));
  }
}
