#pragma once
// What `tfwsl migrate` does to a project's WSL copy, done by the agent as the distro user, every
// path beneath the project folder's descriptor and never through a symlink (docs/migrate.md,
// "Writing in the distro"): a project ships its own files, links included, so a name such as
// `MIGRATION.md.tfwsl-new -> ../../.bashrc` must lead nowhere. Files are created exclusive
// (O_CREAT | O_EXCL | O_NOFOLLOW) under a random name and renamed through the folder's descriptor
// (renameat); a link, or anything but a regular file, where a file is to be written is refused by
// name. The manifest (size and XXH3-128 of every regular file) is what migrate records of what it
// placed, so that a re-run replaces only files the user has not changed in WSL.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"
#include "linux/dataset/posix_files.hpp"

namespace tfwsl::project {

struct FileDigest {
  std::uint64_t size = 0;
  std::string hash;   // XXH3-128, 32 hex digits (common/util/content_hash.hpp)
  bool link = false;  // a symlink, as itself
  bool operator==(const FileDigest&) const = default;
};
using TreeManifest = std::map<std::string, FileDigest>;  // '/'-separated relative path -> digest

// What may be where a file is written: anything (a regular file or nothing), nothing at all, or
// exactly the file with this hash (what migrate recorded; the user has not changed it since).
struct Expectation {
  enum class Kind { any, absent, hash } kind = Kind::any;
  std::string hash;
  static Expectation parse(const std::string& text);  // "any", "absent", or 32 hex digits
};

// The project folder (the user's own path: links above it are the user's, not the project's);
// created with its parents when asked.
Result<dataset::UniqueFd> open_project_root(const std::filesystem::path& root, bool create);

// A relative path migrate may name: no empty, "." or ".." parts, no leading '/'.
Status check_relative(const std::string& relative);

// Writes `bytes` to root/relative (its folders made beneath root, 0755), whole or not at all.
Status write_beneath(int root_fd, const std::string& relative, std::string_view bytes, const Expectation& expect);

// The file's bytes, nothing when it is not there; an error for a link or a non-file (named).
Result<std::optional<std::string>> read_beneath(int root_fd, const std::string& relative, std::size_t max_bytes);

// Every regular file beneath root, and every symlink as itself (never followed: its digest is its
// target's text), skipping the top-level names in `skip_top` (".tfwsl", ".tfwsl-import").
Result<TreeManifest> manifest_beneath(int root_fd, const std::set<std::string>& skip_top);

struct PlaceRequest {
  std::string path;
  Expectation expect;  // what must be at root/path before it is replaced (absent: nothing)
};
struct PlaceOutcome {
  TreeManifest placed;                                       // what now is at each placed path
  std::vector<std::pair<std::string, std::string>> refused;  // path, why (it changed since it was judged)
};

// Moves each file (or link, as itself) from staging/path to root/path (renameat, folders made
// beneath root), each only when what is at root/path is still what the request expects (a link
// there is never replaced).
Result<PlaceOutcome> place_beneath(int staging_fd, int root_fd, const std::vector<PlaceRequest>& requests);

// Removes parent/name and everything beneath it, following no link (a link is removed as itself).
Status remove_tree(int parent_fd, const std::string& name);

}  // namespace tfwsl::project
