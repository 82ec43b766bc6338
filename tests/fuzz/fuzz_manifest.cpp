// seeds: tests/fuzz/manifest_seeds
// Any bytes as an import manifest (it lives in the target, where anything may damage it): parsing
// must neither crash nor accept what it cannot give back. What it accepts, compaction's writer must
// turn into a manifest that parses to the same records; and any raw path must survive the %XX
// escaping byte for byte.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "linux/dataset/manifest.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tfwsl::dataset;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto parsed = parse_manifest(bytes, "fuzz");
  if (parsed) {
    for (const auto& [path, entry] : *parsed)
      if (path != entry.path || path.empty()) std::abort();
    auto again = parse_manifest(format_manifest(*parsed), "fuzz");
    if (!again || *again != *parsed) std::abort();
  }
  if (!bytes.empty()) {
    auto back = unescape_path(escape_path(bytes));
    if (!back || *back != bytes) std::abort();
  }
  return 0;
}
