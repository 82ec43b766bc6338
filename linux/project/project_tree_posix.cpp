#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/util/content_hash.hpp"
#include "common/util/regular_file.hpp"
#include "linux/project/project_tree.hpp"

namespace tfwsl::project {
namespace {

using dataset::UniqueFd;

constexpr int k_max_depth = 64;

Error io_error(const std::string& what, const std::string& path, int error) {
  return Error{ErrorCode::io, fmt::format("cannot {} {}: {}", what, path, dataset::errno_text(error)), {}};
}

Error link_refused(const std::string& path) {
  return Error{
      ErrorCode::invalid_input,
      fmt::format("{} is a symbolic link (or lies under one) in the project's WSL copy: tfwsl migrate writes no "
                  "file through a link; remove or rename it, then run migrate again",
                  path),
      {}};
}

// The folder `relative` beneath root (made on the way when asked), never through a link.
Result<UniqueFd> open_folder_beneath(int root_fd, const std::string& relative, bool create) {
  UniqueFd current(::fcntl(root_fd, F_DUPFD_CLOEXEC, 0));
  if (!current) return tl::unexpected(io_error("open", "the project folder", errno));
  std::size_t start = 0;
  while (start < relative.size()) {
    const auto slash = relative.find('/', start);
    const std::string part = relative.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    const std::string shown = relative.substr(0, slash);
    UniqueFd next(dataset::open_beneath(current.get(), part, O_RDONLY | O_DIRECTORY));
    if (!next && errno == ENOENT && create) {
      if (::mkdirat(current.get(), part.c_str(), 0755) != 0 && errno != EEXIST)
        return tl::unexpected(io_error("create", shown, errno));
      next = UniqueFd(dataset::open_beneath(current.get(), part, O_RDONLY | O_DIRECTORY));
    }
    if (!next && (errno == ELOOP || errno == EXDEV)) return tl::unexpected(link_refused(shown));
    if (!next && errno == ENOTDIR)
      return tl::unexpected(Error{ErrorCode::invalid_input, shown + " is not a folder", {}});
    if (!next) return tl::unexpected(io_error("open", shown, errno));
    current = std::move(next);
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return current;
}

Result<FileDigest> digest_of(int fd, const std::string& shown) {
  ContentHasher hasher;
  FileDigest out;
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return tl::unexpected(io_error("read", shown, errno));
    if (n == 0) break;
    hasher.update(buffer, static_cast<std::size_t>(n));
    out.size += static_cast<std::uint64_t>(n);
  }
  out.hash = hasher.hex_digest();
  return out;
}

Error not_regular(const std::string& path, mode_t mode) {
  return Error{
      ErrorCode::invalid_input,
      fmt::format("{} is {} in the project's WSL copy: tfwsl reads only regular files there; remove or rename it", path,
                  file_kind_of(mode)),
      {}};
}

// What is at dir/leaf now: nothing, or a regular file's digest; links and non-files are errors.
Result<std::optional<FileDigest>> present_file(int dir_fd, const std::string& leaf, const std::string& shown) {
  struct stat st {};
  if (::fstatat(dir_fd, leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return std::optional<FileDigest>();
    return tl::unexpected(io_error("look at", shown, errno));
  }
  if (S_ISLNK(st.st_mode)) return tl::unexpected(link_refused(shown));
  if (!S_ISREG(st.st_mode))
    return tl::unexpected(
        Error{ErrorCode::invalid_input, shown + " is not a regular file: tfwsl migrate does not replace it", {}});
  // O_NONBLOCK: a FIFO swapped in after the fstatat opens at once; digest_of's read then fails.
  UniqueFd fd(::openat(dir_fd, leaf.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (!fd) return tl::unexpected(errno == ELOOP ? link_refused(shown) : io_error("open", shown, errno));
  TFWSL_TRY(digest, digest_of(fd.get(), shown));
  return std::optional<FileDigest>(digest);
}

// A link is recorded as itself (its target's text), never followed: size is the target's length.
Result<FileDigest> link_digest(int dir_fd, const std::string& leaf, const std::string& shown) {
  std::string target(4096, '\0');
  const ssize_t n = ::readlinkat(dir_fd, leaf.c_str(), target.data(), target.size());
  if (n < 0) return tl::unexpected(io_error("read the link", shown, errno));
  target.resize(static_cast<std::size_t>(n));
  return FileDigest{target.size(), content_hash(std::string("symlink\0", 8) + target), true};
}

// What is staged at dir/leaf: a regular file or a link (moved as itself).
Result<std::optional<FileDigest>> staged_entry(int dir_fd, const std::string& leaf, const std::string& shown) {
  struct stat st {};
  if (::fstatat(dir_fd, leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
    TFWSL_TRY(digest, link_digest(dir_fd, leaf, shown));
    return std::optional<FileDigest>(digest);
  }
  return present_file(dir_fd, leaf, shown);
}

Status check_expected(int dir_fd, const std::string& leaf, const std::string& shown, const Expectation& expect) {
  TFWSL_TRY(present, present_file(dir_fd, leaf, shown));
  if (expect.kind == Expectation::Kind::absent && present)
    return make_error(ErrorCode::conflict, shown + " appeared in the WSL copy since the plan was made: left as it is");
  if (expect.kind == Expectation::Kind::hash && (!present || present->hash != expect.hash))
    return make_error(ErrorCode::conflict, shown + " changed in the WSL copy since the plan was made: left as it is");
  return {};
}

std::string random_suffix() {
  unsigned char bytes[8];
  if (::getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes)) {
    const auto now = static_cast<unsigned long long>(::getpid()) ^ reinterpret_cast<std::uintptr_t>(&bytes);
    std::memcpy(bytes, &now, sizeof bytes);
  }
  std::string out;
  for (unsigned char b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

// A new file in dir with a random name, created exclusive and without following a link.
Result<std::pair<UniqueFd, std::string>> create_temporary(int dir_fd, const std::string& leaf,
                                                          const std::string& shown) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    std::string name = "." + leaf.substr(0, 100) + ".tfwsl-" + random_suffix();
    UniqueFd fd(::openat(dir_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
    if (fd) return std::pair{std::move(fd), std::move(name)};
    if (errno != EEXIST) return tl::unexpected(io_error("create a temporary file beside", shown, errno));
  }
  return tl::unexpected(Error{ErrorCode::io, "cannot find a free temporary name beside " + shown, {}});
}

Status list_folder(int dir_fd, const std::string& prefix, int depth, const std::set<std::string>& skip_top,
                   TreeManifest& out) {
  if (depth > k_max_depth) return make_error(ErrorCode::invalid_input, prefix + " is nested too deep");
  int copy = ::fcntl(dir_fd, F_DUPFD_CLOEXEC, 0);
  DIR* dir = copy < 0 ? nullptr : ::fdopendir(copy);
  if (!dir) {
    if (copy >= 0) ::close(copy);
    return make_error(ErrorCode::io, "cannot list " + (prefix.empty() ? std::string("the project folder") : prefix));
  }
  std::vector<std::string> names;
  while (dirent* e = ::readdir(dir)) {
    const std::string name = e->d_name;
    if (name == "." || name == ".." || (depth == 0 && skip_top.contains(name))) continue;
    names.push_back(name);
  }
  ::closedir(dir);
  for (const auto& name : names) {
    const std::string path = prefix.empty() ? name : prefix + "/" + name;
    struct stat st {};
    if (::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone meanwhile
    if (S_ISDIR(st.st_mode)) {
      UniqueFd sub(::openat(dir_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
      if (sub) TFWSL_TRY_STATUS(list_folder(sub.get(), path, depth + 1, skip_top, out));
    } else if (S_ISLNK(st.st_mode)) {
      TFWSL_TRY(digest, link_digest(dir_fd, name, path));
      out[path] = digest;
    } else if (S_ISREG(st.st_mode)) {
      UniqueFd fd(::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
      if (!fd) continue;
      TFWSL_TRY(digest, digest_of(fd.get(), path));
      out[path] = digest;
    }
  }
  return {};
}

}  // namespace

Expectation Expectation::parse(const std::string& text) {
  if (text == "absent") return {Kind::absent, {}};
  if (text.empty() || text == "any") return {Kind::any, {}};
  return {Kind::hash, text};
}

Status check_relative(const std::string& relative) {
  if (relative.empty() || relative.front() == '/' || relative.find('\0') != std::string::npos)
    return make_error(ErrorCode::invalid_input, fmt::format("'{}' is not a path inside the project", relative));
  std::size_t start = 0;
  while (true) {
    const auto slash = relative.find('/', start);
    const std::string part = relative.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part.empty() || part == "." || part == "..")
      return make_error(ErrorCode::invalid_input,
                        fmt::format("'{}' is not a path inside the project (no empty, '.' or '..' parts)", relative));
    if (slash == std::string::npos) return {};
    start = slash + 1;
  }
}

Result<UniqueFd> open_project_root(const std::filesystem::path& root, bool create) {
  std::error_code ec;
  if (create) std::filesystem::create_directories(root, ec);
  UniqueFd fd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd) return tl::unexpected(io_error("open the project folder", root.string(), errno));
  return fd;
}

Status write_beneath(int root_fd, const std::string& relative, std::string_view bytes, const Expectation& expect) {
  TFWSL_TRY_STATUS(check_relative(relative));
  TFWSL_TRY(dir, open_folder_beneath(root_fd, dataset::parent_of(relative), true));
  const std::string leaf = dataset::leaf_of(relative);
  TFWSL_TRY_STATUS(check_expected(dir.get(), leaf, relative, expect));
  TFWSL_TRY(temporary, create_temporary(dir.get(), leaf, relative));
  auto& [fd, name] = temporary;
  int error = dataset::write_all(fd.get(), bytes.data(), bytes.size());
  if (error == 0 && ::fsync(fd.get()) != 0) error = errno;
  if (error == 0) error = fd.close_checked();
  // rename(2) replaces what is at the name, a link included, without following it.
  if (error == 0 && ::renameat(dir.get(), name.c_str(), dir.get(), leaf.c_str()) != 0) error = errno;
  if (error != 0) {
    ::unlinkat(dir.get(), name.c_str(), 0);
    return tl::unexpected(io_error("write", relative, error));
  }
  return {};
}

Result<std::optional<std::string>> read_beneath(int root_fd, const std::string& relative, std::size_t max_bytes) {
  TFWSL_TRY_STATUS(check_relative(relative));
  // O_NONBLOCK: a FIFO opens at once (and is refused below) instead of waiting for a writer.
  UniqueFd fd(dataset::open_beneath(root_fd, relative, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY));
  if (!fd && errno == ENOENT) return std::optional<std::string>();
  if (!fd && (errno == ELOOP || errno == EXDEV)) return tl::unexpected(link_refused(relative));
  if (!fd) return tl::unexpected(io_error("open", relative, errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return tl::unexpected(io_error("look at", relative, errno));
  if (!S_ISREG(st.st_mode)) return tl::unexpected(not_regular(relative, st.st_mode));
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
    return tl::unexpected(
        Error{ErrorCode::invalid_input, fmt::format("{} is larger than {} bytes", relative, max_bytes), {}});
  std::string out(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::read(fd.get(), out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  out.resize(done);
  return std::optional<std::string>(std::move(out));
}

Result<TreeManifest> manifest_beneath(int root_fd, const std::set<std::string>& skip_top) {
  TreeManifest out;
  TFWSL_TRY_STATUS(list_folder(root_fd, "", 0, skip_top, out));
  return out;
}

Result<PlaceOutcome> place_beneath(int staging_fd, int root_fd, const std::vector<PlaceRequest>& requests) {
  PlaceOutcome out;
  for (const auto& r : requests) {
    TFWSL_TRY_STATUS(check_relative(r.path));
    const std::string leaf = dataset::leaf_of(r.path);
    TFWSL_TRY(from, open_folder_beneath(staging_fd, dataset::parent_of(r.path), false));
    TFWSL_TRY(staged, staged_entry(from.get(), leaf, r.path));
    if (!staged) return make_error(ErrorCode::not_found, r.path + " is not in the staged copy");
    auto to = open_folder_beneath(root_fd, dataset::parent_of(r.path), true);
    if (!to) {
      out.refused.emplace_back(r.path, to.error().message);
      continue;
    }
    if (auto expected = check_expected(to->get(), leaf, r.path, r.expect); !expected) {
      out.refused.emplace_back(r.path, expected.error().message);
      continue;
    }
    if (::renameat(from.get(), leaf.c_str(), to->get(), leaf.c_str()) != 0)
      return tl::unexpected(io_error("place", r.path, errno));
    out.placed[r.path] = *staged;
  }
  return out;
}

Status remove_tree(int parent_fd, const std::string& name) {
  struct stat st {};
  if (::fstatat(parent_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return {};
    return tl::unexpected(io_error("look at", name, errno));
  }
  if (S_ISDIR(st.st_mode)) {
    UniqueFd dir(::openat(parent_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!dir) return tl::unexpected(io_error("open", name, errno));
    int copy = ::fcntl(dir.get(), F_DUPFD_CLOEXEC, 0);
    DIR* listing = copy < 0 ? nullptr : ::fdopendir(copy);
    if (!listing) return tl::unexpected(io_error("list", name, errno));
    std::vector<std::string> names;
    while (dirent* e = ::readdir(listing))
      if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) names.emplace_back(e->d_name);
    ::closedir(listing);
    for (const auto& n : names) TFWSL_TRY_STATUS(remove_tree(dir.get(), n));
    if (::unlinkat(parent_fd, name.c_str(), AT_REMOVEDIR) != 0) return tl::unexpected(io_error("remove", name, errno));
    return {};
  }
  if (::unlinkat(parent_fd, name.c_str(), 0) != 0 && errno != ENOENT)
    return tl::unexpected(io_error("remove", name, errno));
  return {};
}

}  // namespace tfwsl::project
