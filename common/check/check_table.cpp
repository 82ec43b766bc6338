#include "common/check/check_table.hpp"

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace tfwsl {

const std::vector<CheckRow>& check_table() {
  static const std::vector<CheckRow> rows(std::begin(k_check_rows), std::end(k_check_rows));
  return rows;
}

const std::vector<CheckCategory>& check_categories() {
  static const std::vector<CheckCategory> categories{
      {"host", "Windows", checked_id("host.nvidia-driver")},
      {"wsl", "WSL", checked_id("wsl.version")},
      {"wslconfig", ".wslconfig", checked_id("wslconfig.memory")},
      {"linux", "Linux side", checked_id("linux.libcuda")},
      {"gpu", "GPU", checked_id("gpu.visible")},
      {"cuda", "CUDA", checked_id("cuda.toolkit")},
      {"cudnn", "cuDNN", checked_id("cudnn")},
      {"python", "Python", checked_id("python.version")},
      {"tf", "TensorFlow", checked_id("tf.installed")},
      {"mem", "Memory", checked_id("mem.effective")},
      {"disk", "Disk", checked_id("disk.free")},
      {"data", "Data", checked_id("data.location")},
      {"container", "Container route", checked_id("container.engine")},
  };
  return categories;
}

const CheckRow* find_check_row(std::string_view id) {
  const auto& rows = check_table();
  auto it = std::find_if(rows.begin(), rows.end(), [&](const CheckRow& r) { return r.id == id; });
  return it == rows.end() ? nullptr : &*it;
}

const CheckCategory* find_check_category(std::string_view name) {
  const auto& categories = check_categories();
  auto it = std::find_if(categories.begin(), categories.end(), [&](const CheckCategory& c) { return c.name == name; });
  return it == categories.end() ? nullptr : &*it;
}

bool is_precondition(std::string_view id) { return id == k_platform_windows; }

std::vector<std::string> check_ids() {
  std::vector<std::string> ids;
  for (const auto& row : check_table())
    if (row.source != CheckSource::container) ids.emplace_back(row.id);
  return ids;
}

std::vector<std::string> every_check_id() {
  std::vector<std::string> ids;
  for (const auto& row : check_table()) ids.emplace_back(row.id);
  return ids;
}

std::vector<std::string> check_ids(CheckSource source) {
  std::vector<std::string> ids;
  for (const auto& row : check_table())
    if (row.source == source) ids.emplace_back(row.id);
  return ids;
}

std::vector<std::string> needs_of(const CheckRow& row) {
  std::vector<std::string> needs;
  std::string_view rest = row.needs;
  while (!rest.empty()) {
    const auto space = rest.find(' ');
    if (space != 0) needs.emplace_back(rest.substr(0, space));
    if (space == std::string_view::npos) break;
    rest.remove_prefix(space + 1);
  }
  return needs;
}

const DependencyTable& check_dependencies() {
  static const DependencyTable table = [] {
    DependencyTable t;
    for (const auto& row : check_table()) t.push_back({std::string(row.id), needs_of(row)});
    return t;
  }();
  return table;
}

Precondition platform_windows(bool is_windows) {
  return {std::string(k_platform_windows), is_windows, "not Windows: the host and WSL checks do not apply"};
}

}  // namespace tfwsl
