#include "win/fleet/dsc_document.hpp"

#include <fmt/format.h>

#include "common/util/nesting_depth.hpp"

namespace tfwsl::cli::dsc {

namespace {

constexpr std::size_t k_shown_value_chars = 60;

std::string cut_to_shown_size(std::string text) {
  if (text.size() > k_shown_value_chars) text = text.substr(0, k_shown_value_chars - 3) + "...";
  return text;
}

std::string escaped_json(const nlohmann::json& value) {
  return value.dump(-1, ' ', /*ensure_ascii=*/true, nlohmann::json::error_handler_t::replace);
}

}  // namespace

Result<std::string> read_dsc_document(std::istream& in, std::string_view source) {
  std::string text(k_max_dsc_document_bytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > k_max_dsc_document_bytes)
    return make_error(
        ErrorCode::invalid_input,
        fmt::format("the desired state ({}) is more than {} bytes (1 MiB), the most tfwsl dsc reads: pass "
                    "one JSON object of the resource's properties (see `tfwsl dsc schema`)",
                    source, k_max_dsc_document_bytes));
  return text;
}

Result<nlohmann::json> parse_dsc_document(std::string_view text, std::string_view source) {
  // DSC runs get with no input (`dsc resource get -r TYPE`, an export's get) with stdin closed
  // (run_process_async, lib/dsc-lib/src/dscresources/command_resource.rs at PowerShell/DSC
  // 861df432: Stdio::null() when there is no input): no input is the empty instance.
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return nlohmann::json::object();
  TFWSL_TRY_STATUS(check_nesting_depth(text, NestingSyntax::json, fmt::format("the desired state ({})", source)));
  auto desired = nlohmann::json::parse(text, nullptr, false);
  if (desired.is_discarded())
    return make_error(
        ErrorCode::invalid_input,
        fmt::format("the desired state ({}) is not JSON: pass one object, e.g. {{\"memory\": \"16GB\"}}", source));
  return desired;
}

std::string shown_dsc_value(const nlohmann::json& value) { return cut_to_shown_size(escaped_json(value)); }

std::string shown_dsc_name(std::string_view name) {
  const std::string quoted = escaped_json(nlohmann::json(std::string(name)));
  return cut_to_shown_size(quoted.substr(1, quoted.size() - 2));
}

}  // namespace tfwsl::cli::dsc
