#include "common/dataset/path_policy.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace tfwsl::dataset {
namespace fs = std::filesystem;

bool is_same_or_inside(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (o->empty()) continue;  // a trailing separator
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

Result<ResolvedImportPaths> resolve_import_paths(const fs::path& source, const fs::path& target) {
  if (source.empty()) return make_error(ErrorCode::invalid_input, "no source folder given: pass --source DIR");
  if (target.empty()) return make_error(ErrorCode::invalid_input, "no target folder given: pass --target DIR");
  std::error_code ec;
  fs::path real_source = fs::canonical(source, ec);
  if (ec)
    return make_error(ec == std::errc::no_such_file_or_directory ? ErrorCode::not_found : ErrorCode::invalid_input,
                      fmt::format("source '{}' cannot be used: {}; check the path", source.string(), ec.message()));
  struct stat source_stat {};
  if (::stat(real_source.c_str(), &source_stat) != 0 || !S_ISDIR(source_stat.st_mode))
    return make_error(ErrorCode::invalid_input,
                      fmt::format("source '{}' is not a folder: import copies a folder's contents", source.string()));
  fs::path real_target = fs::weakly_canonical(fs::absolute(target, ec), ec);
  if (ec)
    return make_error(ErrorCode::invalid_input,
                      fmt::format("target '{}' cannot be resolved: {}", target.string(), ec.message()));
  struct stat target_stat {};
  if (::stat(real_target.c_str(), &target_stat) == 0) {
    if (!S_ISDIR(target_stat.st_mode))
      return make_error(ErrorCode::invalid_input,
                        fmt::format("target '{}' exists and is not a folder: give a folder to import into",
                                    target.string()));
    if (target_stat.st_dev == source_stat.st_dev && target_stat.st_ino == source_stat.st_ino)
      return make_error(ErrorCode::invalid_input,
                        fmt::format("source '{}' and target '{}' are the same folder: choose a different target",
                                    source.string(), target.string()));
  }
  if (is_same_or_inside(real_target, real_source))
    return make_error(ErrorCode::invalid_input,
                      fmt::format("target '{}' is inside source '{}' (resolved: {} under {}): the import would copy "
                                  "into itself; choose a target outside the source",
                                  target.string(), source.string(), real_target.string(), real_source.string()));
  return ResolvedImportPaths{real_source, real_target};
}

Status check_under_roots(const fs::path& resolved, const std::vector<fs::path>& roots, const char* what) {
  std::string listed;
  for (const auto& root : roots) {
    std::error_code ec;
    fs::path real_root = fs::canonical(root, ec);
    if (ec) continue;  // a root that does not exist allows nothing
    if (is_same_or_inside(resolved, real_root)) return {};
    listed += (listed.empty() ? "" : ", ") + real_root.string();
  }
  if (listed.empty())
    return make_error(ErrorCode::permission,
                      fmt::format("{} '{}' refused: the agent has no data roots; start it with --root DIR", what,
                                  resolved.string()));
  return make_error(ErrorCode::permission,
                    fmt::format("{} '{}' refused: it is not under the agent's data roots ({}); use a path under one "
                                "of them or restart the agent with another --root",
                                what, resolved.string(), listed));
}

}  // namespace tfwsl::dataset
