#include "win/push/source_tree.hpp"

#include <filesystem>
#include <set>

#include "common/text/utf_convert.hpp"

namespace tfwsl::push {

namespace fs = std::filesystem;

Result<SourceTree> measure_source_tree(const std::string& source_utf8, const std::vector<std::string>& exclude) {
  const fs::path root = path_from_utf8(source_utf8);
  std::error_code ec;
  auto status = fs::status(root, ec);
  if (ec || !fs::exists(status))
    return make_error(ErrorCode::not_found, "'" + source_utf8 + "' does not exist: give the folder to push",
                      ec.message());
  if (!fs::is_directory(status))
    return make_error(ErrorCode::invalid_input, "'" + source_utf8 + "' is not a folder: push the folder that holds it");
  std::set<fs::path> excluded;  // as paths: compared in the platform's own encoding, without conversions
  for (const auto& name : exclude) excluded.insert(path_from_utf8(name));
  SourceTree tree;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
  if (ec) return make_error(ErrorCode::io, "cannot list '" + source_utf8 + "'", ec.message());
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) {  // the iterator cannot go on past a failed step: the engine's own scan reports the rest
      ++tree.unreadable;
      break;
    }
    if ((it.depth() == 0 && it->path().filename() == ".tfwsl-import") || excluded.count(it->path().filename()) != 0) {
      it.disable_recursion_pending();
      continue;
    }
    std::error_code entry_ec;
    auto entry = it->symlink_status(entry_ec);
    if (entry_ec) {
      ++tree.unreadable;
    } else if (fs::is_symlink(entry)) {
      ++tree.files;
    } else if (fs::is_directory(entry)) {
      ++tree.folders;
    } else if (fs::is_regular_file(entry)) {
      ++tree.files;
      auto size = it->file_size(entry_ec);
      if (entry_ec)
        ++tree.unreadable;
      else
        tree.bytes += size;
    }
  }
  return tree;
}

}  // namespace tfwsl::push
