// seeds: wslconfig
// Any bytes as a .wslconfig: parse, lint, facts, an edit and a removal must neither crash nor
// break the editor's promise that an unedited document serializes to the bytes it came from.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "common/wslconfig/wslconfig_document.hpp"
#include "common/wslconfig/wslconfig_facts.hpp"
#include "common/wslconfig/wslconfig_lint.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tfwsl::wslconfig;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Document doc = Document::parse(bytes);
  if (doc.encoding() == FileEncoding::utf8 || doc.encoding() == FileEncoding::invalid_utf8) {
    if (doc.serialize() != bytes) std::abort();
  }
  LintOptions options;
  options.physical_memory_bytes = 16ULL << 30;
  (void)lint(doc, options);
  (void)facts_of(doc).dump();
  (void)looks_like_wslconfig(bytes);
  doc.set("wsl2", "memory", "16GB");
  const std::string after = doc.serialize();
  // Text with NULs may read back as UTF-16 (the detection wsl.exe's own files need); skip those.
  const bool plain = after.find('\0') == std::string::npos;
  if (plain && Document::parse(after).get("wsl2", "memory") != std::optional<std::string>("16GB")) std::abort();
  doc.unset("wsl2", "memory");
  if (plain && Document::parse(doc.serialize()).get("wsl2", "memory").has_value()) std::abort();
  return 0;
}
