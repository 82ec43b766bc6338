// seeds: tests/fuzz/dsc_seeds tests/fuzz/deep_seeds
// libs: tfwsl_cli
// Any bytes as the desired state `tfwsl dsc get|test|set` reads on stdin, which a fleet engine passes
// on from a configuration document (issue 38: 200,000 nested arrays crashed `dsc test`): the bounded
// read, the depth bound, the JSON parse and both resources' reading of the instance, against an
// invoker that answers as tfwsl's own commands do. No crash, and no error that carries a raw control
// character or more than an excerpt of the input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "win/fleet/dsc_document.hpp"
#include "win/fleet/dsc_profile_resource.hpp"
#include "win/fleet/dsc_wslconfig_resource.hpp"

namespace {

using nlohmann::json;
using tfwsl::cli::Invocation;

// `wslconfig show|set --json` and `provision --check|--yes --json` as they answer when all is well.
class CannedInvoker final : public tfwsl::cli::TfwslInvoker {
 public:
  tfwsl::Result<Invocation> run(const std::vector<std::string>& args) override {
    if (args.size() >= 2 && args[0] == "wslconfig" && args[1] == "show") return Invocation{0, shown().dump(), ""};
    if (args.size() >= 2 && args[0] == "wslconfig") return Invocation{0, planned().dump(), ""};
    return Invocation{0, recap().dump(), ""};
  }

 private:
  static json shown() {
    json values = json::array();
    values.push_back({{"section", "wsl2"}, {"key", "memory"}, {"value", "8GB"}, {"source", "file"}});
    values.push_back({{"section", "experimental"}, {"key", "sparseVhd"}, {"value", "true"}, {"source", "file"}});
    return {{"command", "show"}, {"file", "C:\\Users\\me\\.wslconfig"}, {"values", values}};
  }
  static json planned() {
    return {{"command", "set"},
            {"changes", json::array({{{"section", "wsl2"}, {"key", "memory"}, {"before", "8GB"}, {"after", "16GB"}}})},
            {"written", true}};
  }
  static json recap() {
    return {{"recap",
             {{"steps", json::array({{{"id", "cuda.toolkit"}, {"result", "ok"}, {"message", "12.2"}}})},
              {"counts", {{"ok", 1}, {"changed", 0}, {"failed", 0}, {"skipped", 0}}}}}};
  }
};

// What a DSC engine shows the person: one short line, nothing a terminal acts on.
void check_error(const tfwsl::Error& error) {
  if (error.message.size() > 600) std::abort();
  for (const char c : error.message)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) std::abort();
}

template <class T>
void check(const tfwsl::Result<T>& result) {
  if (!result) check_error(result.error());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  const auto text = tfwsl::cli::dsc::read_dsc_document(in, "stdin");
  if (!text) return check_error(text.error()), 0;
  const auto desired = tfwsl::cli::dsc::parse_dsc_document(*text, "stdin");
  if (!desired) return check_error(desired.error()), 0;
  CannedInvoker tfwsl;
  check(tfwsl::cli::dsc::wslconfig_get(*desired, tfwsl));
  check(tfwsl::cli::dsc::wslconfig_test(*desired, tfwsl));
  check(tfwsl::cli::dsc::wslconfig_set(*desired, tfwsl));
  check(tfwsl::cli::dsc::profile_test(*desired, tfwsl));
  check(tfwsl::cli::dsc::profile_set(*desired, tfwsl));
  return 0;
}
