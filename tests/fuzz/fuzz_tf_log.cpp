// seeds: tf-gpu-log libcuda
// libs: tfwsl_core_parse
// The TensorFlow-log and ldconfig parsers and the paste cleaner on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/parse/ldconfig_parser.hpp"
#include "common/parse/paste_cleaner.hpp"
#include "common/parse/tf_log_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto cleaned = tfwsl::clean_paste(bytes);
  for (std::string_view text : {bytes, std::string_view(cleaned.text)}) {
    auto log = tfwsl::parse::parse_tf_log(text);
    (void)tfwsl::parse::looks_like_tf_log(text);
    (void)tfwsl::parse::to_json(log).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    auto ld = tfwsl::parse::parse_ldconfig(text);
    (void)tfwsl::parse::looks_like_ldconfig(text, cleaned.commands);
    (void)tfwsl::parse::to_json(ld).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return 0;
}
