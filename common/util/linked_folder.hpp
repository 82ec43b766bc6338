#pragma once
// Whether a relative path's folders, below a base folder the caller trusts, are plain folders: a
// symbolic link, or on Windows any reparse point (a junction, a mount point), leads a write made by
// path somewhere else, so a writer refuses the path instead of following it. POSIX: lstat of each
// component; Windows: GetFileAttributesW and FILE_ATTRIBUTE_REPARSE_POINT (libstdc++'s
// symlink_status does not report junctions).

#include <filesystem>
#include <optional>

namespace tfwsl {

// The first folder of `relative`'s parent, below `base`, that exists and is a link, a reparse point
// or not a folder (as base / component...); nullopt when every existing one is a plain folder. A
// missing folder ends the walk: nothing below it exists yet.
std::optional<std::filesystem::path> first_linked_folder(const std::filesystem::path& base,
                                                         const std::filesystem::path& relative);

namespace detail {
// One component: true for a plain folder, or when nothing is there (`missing` then says so).
bool is_plain_folder_or_missing(const std::filesystem::path& path, bool& missing);
}  // namespace detail

}  // namespace tfwsl
