#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "linux/dataset/path_policy.hpp"
#include "linux/dataset/posix_files.hpp"

namespace tfwsl::dataset {
namespace fs = std::filesystem;

namespace {

constexpr int k_max_ancestors = 4096;

enum class Ancestry { no, yes, unknown };

// Whether dir_fd's folder, or one of its ancestors up to the root, is `wanted`. ".." is looked up
// by the kernel, which crosses mount points (a bind mount's ".." is its mount point's parent) and
// needs no read permission with O_PATH.
Ancestry folder_or_ancestor_is(int dir_fd, FileId wanted) {
  struct stat st {};
  if (::fstat(dir_fd, &st) != 0) return Ancestry::unknown;
  UniqueFd held;
  int current = dir_fd;
  for (int depth = 0; depth < k_max_ancestors; ++depth) {
    if (file_id(st) == wanted) return Ancestry::yes;
    UniqueFd up(::openat(current, "..", O_PATH | O_DIRECTORY | O_CLOEXEC));
    struct stat parent {};
    if (!up || ::fstat(up.get(), &parent) != 0) return Ancestry::unknown;
    if (file_id(parent) == file_id(st)) return Ancestry::no;  // the root: its ".." is itself
    held = std::move(up);
    current = held.get();
    st = parent;
  }
  return Ancestry::unknown;
}

// Messages name the paths as the caller gave them (the agent shows them to its client), never what
// they resolved to.
tl::unexpected<Error> overlap_error(const fs::path& source, const fs::path& target, const char* how) {
  return make_error(ErrorCode::invalid_input,
                    fmt::format("source '{}' and target '{}' overlap: {}. An import into a folder that holds its "
                                "source (or into the source itself) would write over the source's own files, and "
                                "--move would then delete them; choose a target outside the source and a source "
                                "outside the target",
                                source.string(), target.string(), how));
}

tl::unexpected<Error> cannot_check(const fs::path& what, int error) {
  return make_error(ErrorCode::invalid_input,
                    fmt::format("cannot check that source and target do not overlap: '{}': {}; nothing was touched",
                                what.string(), errno_text(error)));
}

// The deepest existing folder on the way to `target` (which may not exist yet).
fs::path nearest_existing(fs::path target) {
  std::error_code ec;
  while (!target.empty() && !fs::is_directory(target, ec) && target != target.root_path())
    target = target.parent_path();
  return target.empty() ? fs::path("/") : target;
}

}  // namespace

bool is_same_or_inside(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (o->empty()) continue;  // a trailing separator
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

Status check_disjoint_folders(int source_fd, int target_fd, const fs::path& source, const fs::path& target) {
  struct stat source_stat {
  }, target_stat{};
  if (::fstat(source_fd, &source_stat) != 0) return cannot_check(source, errno);
  if (::fstat(target_fd, &target_stat) != 0) return cannot_check(target, errno);
  if (file_id(source_stat) == file_id(target_stat))
    return overlap_error(source, target, "they are the same folder (the same inode by two paths)");
  Ancestry target_in_source = folder_or_ancestor_is(target_fd, file_id(source_stat));
  if (target_in_source == Ancestry::unknown) return cannot_check(target, errno);
  if (target_in_source == Ancestry::yes)
    return overlap_error(source, target,
                         "the target is inside the source (one of its folders is the source, reached by another "
                         "path or a bind mount)");
  Ancestry source_in_target = folder_or_ancestor_is(source_fd, file_id(target_stat));
  if (source_in_target == Ancestry::unknown) return cannot_check(source, errno);
  if (source_in_target == Ancestry::yes)
    return overlap_error(source, target,
                         "the source is inside the target (one of its folders is the target, reached by another "
                         "path or a bind mount)");
  return {};
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
  bool target_exists = ::stat(real_target.c_str(), &target_stat) == 0;
  if (target_exists) {
    if (!S_ISDIR(target_stat.st_mode))
      return make_error(
          ErrorCode::invalid_input,
          fmt::format("target '{}' exists and is not a folder: give a folder to import into", target.string()));
    if (file_id(target_stat) == file_id(source_stat))
      return make_error(ErrorCode::invalid_input,
                        fmt::format("source '{}' and target '{}' are the same folder: choose a different target",
                                    source.string(), target.string()));
  }
  if (is_same_or_inside(real_target, real_source))
    return make_error(ErrorCode::invalid_input,
                      fmt::format("target '{}' is inside source '{}' (resolved: {} under {}): the import would copy "
                                  "into itself; choose a target outside the source",
                                  target.string(), source.string(), real_target.string(), real_source.string()));
  if (is_same_or_inside(real_source, real_target))
    return make_error(ErrorCode::invalid_input,
                      fmt::format("source '{}' is inside target '{}', once symlinks are followed: the import would "
                                  "write over the source's own files, and --move would then delete them; choose a "
                                  "target outside the source and a source outside the target",
                                  source.string(), target.string()));
  // The same folders by other paths (bind mounts, /proc aliases): judged by inode, on open folders.
  UniqueFd source_fd(::open(real_source.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!source_fd) return cannot_check(source, errno);
  fs::path existing = target_exists ? real_target : nearest_existing(real_target.parent_path());
  UniqueFd target_fd(::open(existing.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!target_fd) return cannot_check(target, errno);
  if (target_exists) {
    TFWSL_TRY_STATUS(check_disjoint_folders(source_fd.get(), target_fd.get(), source, target));
  } else {
    // A target still to be created lands inside the source when its nearest existing folder does.
    Ancestry inside = folder_or_ancestor_is(target_fd.get(), file_id(source_stat));
    if (inside == Ancestry::unknown) return cannot_check(target, errno);
    if (inside == Ancestry::yes)
      return overlap_error(source, target,
                           "the target would be created inside the source (its folder is in the source, reached "
                           "by another path or a bind mount)");
  }
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
    return make_error(
        ErrorCode::permission,
        fmt::format("{} '{}' refused: the agent has no data roots; start it with --root DIR", what, resolved.string()));
  return make_error(ErrorCode::permission,
                    fmt::format("{} '{}' refused: it is not under the agent's data roots ({}); use a path under one "
                                "of them or restart the agent with another --root",
                                what, resolved.string(), listed));
}

}  // namespace tfwsl::dataset
