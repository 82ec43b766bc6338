#include "win/migrate/local_project_manifest.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "common/text/utf_convert.hpp"
#include "common/util/content_hash.hpp"
#include "win/migrate/apply_plan.hpp"

namespace tfwsl::migrate {

FileManifest local_project_manifest(const std::filesystem::path& root, bool copy_git) {
  const auto skips = project_copy_skips(copy_git);
  FileManifest out;
  std::error_code ec;
  std::filesystem::recursive_directory_iterator it(root, std::filesystem::directory_options::skip_permission_denied,
                                                   ec);
  for (std::filesystem::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    if (it->is_directory(entry_ec) && !it->is_symlink(entry_ec)) {
      if (std::find(skips.begin(), skips.end(), path_to_utf8(it->path().filename())) != skips.end())
        it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file(entry_ec) || it->is_symlink(entry_ec)) continue;
    std::ifstream in(it->path(), std::ios::binary);
    ContentHasher hash;
    std::uint64_t size = 0;
    std::vector<char> buffer(1 << 16);
    while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
      hash.update(buffer.data(), static_cast<std::size_t>(in.gcount()));
      size += static_cast<std::uint64_t>(in.gcount());
    }
    std::string relative = path_to_utf8(it->path().lexically_relative(root));
    std::replace(relative.begin(), relative.end(), '\\', '/');
    out[relative] = {size, hash.hex_digest()};
  }
  return out;
}

}  // namespace tfwsl::migrate
