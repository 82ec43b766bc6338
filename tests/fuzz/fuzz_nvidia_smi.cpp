// seeds: nvidia-smi
// Any bytes as nvidia-smi output (table, CSV, failures, pasted): the parser and recogniser must
// neither crash nor list a GPU without a name.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "common/parse/nvidia_smi_parser.hpp"
#include "common/parse/output_recognizer.hpp"
#include "common/parse/paste_cleaner.hpp"

namespace {

void exercise(std::string_view text) {
  using namespace tfwsl::parse;
  const auto result = parse_nvidia_smi(text);
  for (const auto& gpu : result.gpus) {
    if (gpu.complete && gpu.name.empty()) std::abort();
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
