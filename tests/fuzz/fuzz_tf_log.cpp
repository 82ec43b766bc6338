// seeds: tf-gpu-log libcuda tests/corpus/explain
// libs: tfwsl_core_parse
// The TensorFlow-log and ldconfig parsers and the paste cleaner on arbitrary bytes: no crash, and
// no fact made of nothing or of a cut value: versions and library names are shown in full (no
// "..." cut marker), and an ldconfig cache record's path ends in its name.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/parse/ldconfig_parser.hpp"
#include "common/parse/paste_cleaner.hpp"
#include "common/parse/tf_log_parser.hpp"

namespace {

bool shown(const std::string& value) {
  return !value.empty() && value.find("...") == std::string::npos && value.find("\xE2\x80\xA6") == std::string::npos;
}

void check_facts(const tfwsl::parse::TfLogResult& log, const tfwsl::parse::LdconfigResult& ld) {
  for (const auto* version : {&log.cudnn_runtime, &log.cudnn_compiled, &log.tf_version, &log.compute_capability})
    if (*version && !shown(**version)) std::abort();
  for (const auto& library : log.missing_libraries)
    if (!shown(library)) std::abort();
  for (const auto& entry : ld.cache) {
    const std::string tail = "/" + entry.name;
    if (entry.name.empty() || entry.path.size() <= tail.size() ||
        entry.path.compare(entry.path.size() - tail.size(), tail.size(), tail) != 0)
      std::abort();
  }
  for (const auto& name : ld.wsl_lib_files)
    if (!shown(name)) std::abort();
  for (const auto& path : ld.not_symlink)
    if (!shown(path)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto cleaned = tfwsl::clean_paste(bytes);
  for (std::string_view text : {bytes, std::string_view(cleaned.text)}) {
    auto log = tfwsl::parse::parse_tf_log(text);
    (void)tfwsl::parse::looks_like_tf_log(text);
    (void)tfwsl::parse::to_json(log).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    auto ld = tfwsl::parse::parse_ldconfig(text);
    check_facts(log, ld);
    (void)tfwsl::parse::looks_like_ldconfig(text, cleaned.commands);
    (void)tfwsl::parse::to_json(ld).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return 0;
}
