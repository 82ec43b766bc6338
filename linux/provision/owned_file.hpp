#pragma once
// Reading, as root, a small file that lies in a user's paths (the environment file and its
// fix-ups) without being led elsewhere: the last component is opened without following a link, and
// the file must be a regular file owned by the expected user. A link planted at ~/.config (or the
// file itself) pointing at a root-only file ends at a file root owns, which is refused, so nothing
// of it reaches the user's processes or the recap.

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace tfwsl::provision {

// The file's bytes; nothing when it is missing, not a regular file, a link, larger than
// `max_bytes`, or (with `owner`) owned by anyone else. No owner: any owner (a probe root's files
// belong to whoever copied them there).
std::optional<std::string> read_owned_file(const std::filesystem::path& path, std::optional<uid_t> owner,
                                           std::size_t max_bytes = 1 << 20);

}  // namespace tfwsl::provision
