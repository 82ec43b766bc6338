// seeds: nvidia-smi tests/corpus/explain
// Any bytes as nvidia-smi output (table, CSV, failures, pasted): the parser and recogniser must
// neither crash nor call a GPU complete without a name, where a name is a letter or digit at least
// (nvidia-smi's "..." cut marker, dots or blanks name nothing), nor give a cut name as a whole one.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/parse/nvidia_smi_parser.hpp"
#include "common/parse/output_recognizer.hpp"
#include "common/parse/paste_cleaner.hpp"

namespace {

bool has_letter_or_digit(const std::string& name) {
  return std::any_of(name.begin(), name.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); });
}

void exercise(std::string_view text) {
  using namespace tfwsl::parse;
  const auto result = parse_nvidia_smi(text);
  for (const auto& gpu : result.gpus) {
    if (gpu.complete && !has_letter_or_digit(gpu.name)) std::abort();
    // A name reported as shown in full (to_json's gpus) carries no cut marker.
    if (gpu.complete && !gpu.name_truncated &&
        (gpu.name.find("...") != std::string::npos || gpu.name.find("\xE2\x80\xA6") != std::string::npos))
      std::abort();
    if (gpu.memory_mib && *gpu.memory_mib < 0) std::abort();
  }
  (void)to_json(result).dump();
  const double score = looks_like_nvidia_smi(text);
  if (score < 0 || score > 1) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  exercise(bytes);
  exercise(tfwsl::clean_paste(bytes).text);
  return 0;
}
