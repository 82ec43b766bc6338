// seeds: * tests/corpus/explain
// libs: tfwsl_core_diagnose
// The whole `tfwsl explain` pipeline on arbitrary bytes: cleaning, kind detection, every parser,
// the signature base, both output forms. The text form (no colour) holds no control character but
// its line ends, whatever the paste held (issue 38, item 4: evidence lines quote the paste).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/diagnose/explain_engine.hpp"
#include "common/util/text_lines.hpp"
#include "common/util/visible_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& base = tfwsl::diagnose::builtin_signature_base();
  if (!base) std::abort();  // the built-in base must always load
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto explanation = tfwsl::diagnose::explain(bytes, *base);
  (void)tfwsl::diagnose::to_json(explanation).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  const std::string text = tfwsl::diagnose::render_text(explanation);
  if (text.find('\r') != std::string::npos) std::abort();
  for (std::string_view line : tfwsl::lines_of(text))
    if (tfwsl::needs_visible_text(line)) std::abort();
  int code = tfwsl::diagnose::exit_code_for(explanation);
  if (code < 0 || code > 2) std::abort();
  return 0;
}
