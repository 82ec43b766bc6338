// seeds: * tests/corpus/explain tests/fuzz/visible_text_seeds
// libs: tfwsl_util
// Issue 38, item 4: what reaches a terminal from a file, a paste, a process or the agent goes through
// visible_text, and a printed command through shell_quote. For any bytes: visible_text's result holds
// no control character (C0, DEL, C1), no bidirectional override or line separator and no broken
// UTF-8, says the same as needs_visible_text, and is its own rendering; a command printed from any
// argument vector (the input split at NUL) holds none either, in every shell.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "common/util/shell_quote.hpp"
#include "common/util/visible_text.hpp"

namespace {

void require_shown_safely(std::string_view shown) {
  for (char c : shown)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) std::abort();
  if (tfwsl::needs_visible_text(shown)) std::abort();  // C1, bidi, separators, broken UTF-8
}

std::vector<std::string> argv_of(std::string_view bytes) {
  std::vector<std::string> argv;
  for (std::size_t start = 0; start <= bytes.size() && argv.size() < 16;) {
    std::size_t end = bytes.find('\0', start);
    if (end == std::string_view::npos) end = bytes.size();
    argv.emplace_back(bytes.substr(start, end - start));
    start = end + 1;
  }
  return argv;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::string shown = tfwsl::visible_text(bytes);
  require_shown_safely(shown);
  if (tfwsl::visible_text(shown) != shown) std::abort();
  if (tfwsl::needs_visible_text(bytes) != (shown != bytes)) std::abort();

  const std::vector<std::string> argv = argv_of(bytes);
  require_shown_safely(tfwsl::bash_command(argv));
  require_shown_safely(tfwsl::powershell_command(argv));
  require_shown_safely(tfwsl::cmd_command(argv));
  return 0;
}
