// seeds: requirements tests/corpus/explain tests/fuzz/deep_seeds
// libs: tfwsl_core_diagnose
// The requirements parser on arbitrary bytes (requirements.txt, environment.yml, pyproject.toml,
// setup.cfg, install commands, listings, bullets), then the TensorFlow-range evaluation on whatever
// requirement it found and the fit of the declared Python to it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/compat/compat_db.hpp"
#include "common/diagnose/python_fit.hpp"
#include "common/diagnose/signature_base.hpp"
#include "common/diagnose/tensorflow_range.hpp"
#include "common/parse/requirements_parser.hpp"
#include "common/parse/toml_requirements.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto result = tfwsl::parse::parse_requirements(text);
  // As TOML whatever it looks like: migrate reads any pyproject.toml so (deep dotted keys overflowed
  // toml++'s stack, issue 38).
  (void)tfwsl::parse::read_toml_requirements(text, tfwsl::parse::RequirementsFormat::pyproject_pep621);
  (void)tfwsl::parse::looks_like_requirements(text);
  // Facts may hold any bytes the paste had; explain prints them with invalid UTF-8 replaced.
  (void)tfwsl::parse::to_json(result).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  const auto& base = tfwsl::diagnose::builtin_signature_base();
  if (const auto* tf = tfwsl::parse::find_tensorflow(result); tf && base) {
    (void)tfwsl::diagnose::tensorflow_allows(*tf, *base);
    if (result.python) (void)tfwsl::diagnose::python_conflict(*result.python, *tf, tfwsl::builtin_compat_db());
  }
  for (const auto& req : result.requirements) (void)tfwsl::diagnose::to_pep440_spec(req.spec, req.conda);
  return 0;
}
