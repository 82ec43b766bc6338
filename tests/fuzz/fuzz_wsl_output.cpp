// seeds: wsl- tests/corpus/explain
// Any bytes as wsl.exe output (raw or pasted): decoding, cleaning and every wsl.exe parser and
// recogniser must neither crash nor report impossible facts: no version, build or status value
// that is empty or was cut ("10.0.2..." is no Windows build).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/parse/output_recognizer.hpp"
#include "common/parse/paste_cleaner.hpp"
#include "common/parse/wsl_list_parser.hpp"
#include "common/parse/wsl_status_parser.hpp"
#include "common/parse/wsl_version_parser.hpp"
#include "common/text/console_decoder.hpp"

namespace {

// A fact that was shown: a word, with no "..." / U+2026 cut marker in it.
bool shown(const std::string& value) {
  return !value.empty() && value.find("...") == std::string::npos && value.find("\xE2\x80\xA6") == std::string::npos;
}

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
  if (status.default_distribution && !shown(*status.default_distribution)) std::abort();
  if (status.kernel_version && !shown(*status.kernel_version)) std::abort();
  (void)to_json(status).dump();
  const auto version = parse_wsl_version(text);
  (void)to_json(version).dump();
  for (const auto& field : version.fields)
    if (field && !shown(*field)) std::abort();
  if (const auto& w = version.field(WslVersionField::windows)) (void)windows_build_of(*w);
  // A Windows version found in free text has its whole build, which windows_build_of reads.
  const std::string windows = find_windows_version(text);
  if (!windows.empty() && (!shown(windows) || !windows_build_of(windows))) std::abort();
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
