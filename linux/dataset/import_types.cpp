#include "linux/dataset/import_types.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "linux/dataset/manifest.hpp"

namespace tfwsl::dataset {

std::string display_path(std::string_view raw) { return escape_path(raw); }

namespace {

agent_api::ImportProblem wire_problem(const FileProblem& problem) {
  return {display_path(problem.path), problem.kind, problem.message};
}

}  // namespace

nlohmann::json to_json(const ImportReport& report) {
  agent_api::ImportResult result;
  result.totals = report.totals;
  for (const auto& p : report.problems) result.problems.push_back(wire_problem(p));
  result.problems_not_listed = report.problems_not_listed;
  for (const auto& name : report.unusual_names) result.windows_unfriendly_names.push_back(display_path(name));
  return agent_api::to_json(result);
}

namespace {

bool valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    std::size_t extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xe ? 2 : (c >> 3) == 0x1e ? 3 : 99;
    if (extra == 99 || i + extra >= s.size()) return false;
    for (std::size_t k = 1; k <= extra; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xc0) != 0x80) return false;
    i += extra + 1;
  }
  return true;
}

}  // namespace

bool is_windows_unfriendly_name(std::string_view name) {
  if (name.empty()) return false;
  if (name.back() == '.' || name.back() == ' ') return true;
  if (!valid_utf8(name)) return true;
  for (unsigned char c : name)
    if (c < 0x20 || std::string_view("<>:\"\\|?*").find(static_cast<char>(c)) != std::string_view::npos) return true;
  std::string stem(name.substr(0, name.find('.')));
  std::transform(stem.begin(), stem.end(), stem.begin(), [](unsigned char c) { return std::toupper(c); });
  static const std::array<std::string_view, 6> k_reserved = {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"};
  if (std::find(k_reserved.begin(), k_reserved.end(), stem) != k_reserved.end()) return true;
  if (stem.size() == 4 && (stem.rfind("COM", 0) == 0 || stem.rfind("LPT", 0) == 0) && stem[3] >= '1' && stem[3] <= '9')
    return true;
  return false;
}

}  // namespace tfwsl::dataset
