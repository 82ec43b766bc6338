// seeds: wsl-
// Any bytes as wsl.exe output (raw or pasted): decoding, cleaning and every wsl.exe parser and
// recogniser must neither crash nor report impossible facts.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "common/parse/output_recognizer.hpp"
#include "common/parse/paste_cleaner.hpp"
#include "common/parse/wsl_list_parser.hpp"
#include "common/parse/wsl_status_parser.hpp"
#include "common/parse/wsl_version_parser.hpp"
#include "common/text/console_decoder.hpp"

namespace {

void exercise(std::string_view text) {
  using namespace tfwsl::parse;
  const auto list = parse_wsl_list(text);
  for (const auto& d : list.distros) {
    if (d.name.empty()) std::abort();
    if (d.version && *d.version != 1 && *d.version != 2) std::abort();
  }
  (void)to_json(list).dump();
  const auto status = parse_wsl_status(text);
  if (status.default_version && *status.default_version != 1 && *status.default_version != 2) std::abort();
  (void)to_json(status).dump();
  const auto version = parse_wsl_version(text);
  (void)to_json(version).dump();
  if (const auto& w = version.field(WslVersionField::windows)) (void)windows_build_of(*w);
  for (double score : {looks_like_wsl_list(text), looks_like_wsl_status(text), looks_like_wsl_version(text)})
    if (score < 0 || score > 1) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  exercise(bytes);
  exercise(tfwsl::decode_console_output(bytes).text);
  exercise(tfwsl::clean_paste(bytes).text);
  return 0;
}
