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
    std::string written = manifest_header_line();
    for (const auto& [path, entry] : *parsed) written += format_manifest_line(entry);
    auto again = parse_manifest(written, "fuzz");
    if (!again || *again != *parsed) std::abort();
  }
  // The streaming reader, fed in two pieces cut anywhere, agrees with the whole-text parse.
  ManifestEntries streamed;
  auto keep = [&](const ManifestEntry& entry, std::string_view) { streamed.insert_or_assign(entry.path, entry); };
  ManifestReader reader("fuzz", keep);
  std::size_t cut = size / 3;
  bool read = reader.feed(bytes.substr(0, cut)) && reader.feed(bytes.substr(cut)) && reader.finish();
  if (read != static_cast<bool>(parsed) || (parsed && streamed != *parsed)) std::abort();
  if (!bytes.empty()) {
    auto back = unescape_path(escape_path(bytes));
    if (!back || *back != bytes) std::abort();
  }
  return 0;
}
