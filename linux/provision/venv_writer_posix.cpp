#include <fmt/format.h>
#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <string>

#include "linux/provision/venv_writer.hpp"

namespace tfwsl::provision {
namespace {

namespace fs = std::filesystem;

// The first existing folder on the venv's real path that is not root's alone, or nothing.
std::optional<std::string> folder_others_may_write(const fs::path& real) {
  fs::path prefix;
  for (const auto& part : real) {
    prefix /= part;
    struct stat st {};
    if (::lstat(prefix.c_str(), &st) != 0) break;  // from here on, root creates it
    if (!S_ISDIR(st.st_mode)) return fmt::format("{} (not a folder)", prefix.string());
    if (st.st_uid != 0) return fmt::format("{} (owned by uid {})", prefix.string(), st.st_uid);
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
      return fmt::format("{} (writable by others, mode {:o})", prefix.string(), st.st_mode & 07777);
  }
  return std::nullopt;
}

}  // namespace

bool lies_inside(const std::string& path, const std::string& home) {
  if (home.empty() || path.empty() || path.front() != '/' || home.front() != '/') return false;
  const fs::path p = fs::path(path).lexically_normal(), h = fs::path(home).lexically_normal();
  const auto rel = p.lexically_relative(h);
  return !rel.empty() && rel != "." && *rel.begin() != "..";
}

Result<VenvWriter> venv_writer(const std::string& venv, const DistroUser& user) {
  if (venv.empty() || venv.front() != '/')
    return make_error(ErrorCode::invalid_input, fmt::format("python.venv '{}' is not an absolute path", venv),
                      "write it as ~/.venvs/NAME or a full path");
  if (lies_inside(venv, user.home)) return VenvWriter::user;
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(fs::path(venv).lexically_normal(), ec);
  if (ec)
    return make_error(ErrorCode::invalid_input, fmt::format("cannot resolve python.venv {}: {}", venv, ec.message()));
  if (lies_inside(real.string(), user.home))
    return make_error(
        ErrorCode::invalid_input,
        fmt::format("python.venv {} leads into {}'s home through a link ({})", venv, user.name, real.string()),
        "write the path inside the home as it is (e.g. ~/.venvs/NAME)");
  if (auto unsafe = folder_others_may_write(real))
    return make_error(
        ErrorCode::invalid_input,
        fmt::format("python.venv {} is outside {}'s home ({}) and not in a folder only root may write: {}", venv,
                    user.name, user.home, *unsafe),
        "put the venv inside the user's home (e.g. python.venv: ~/.venvs/tf), or in a folder that root owns and "
        "nobody else may write (then root creates it and the user only reads it)");
  return VenvWriter::root;
}

}  // namespace tfwsl::provision
