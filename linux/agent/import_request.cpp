#include "linux/agent/import_request.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "common/agent_api/exclude_names.hpp"
#include "linux/dataset/path_policy.hpp"

namespace tfwsl::agent {

namespace fs = std::filesystem;

namespace {

// Values as the client sent them, before any syscall: a NUL would cut the C string the kernel reads
// (so "/data/a\u0000b" would open "/data/a"), and control characters have no place in a folder a
// person names.
Status check_path_text(const std::string& value, const char* field) {
  for (std::size_t i = 0; i < value.size(); ++i) {
    auto c = static_cast<unsigned char>(value[i]);
    if (c == 0)
      return make_error(ErrorCode::invalid_input,
                        fmt::format("'{}' contains a NUL byte (\\u0000) at byte {}: a path cannot hold one", field, i));
    if (c < 0x20 || c == 0x7f)
      return make_error(ErrorCode::invalid_input,
                        fmt::format("'{}' contains a control character (0x{:02x}) at byte {}: give the path without it",
                                    field, c, i));
  }
  if (value.size() > k_max_path_bytes)
    return make_error(ErrorCode::invalid_input,
                      fmt::format("'{}' is {} bytes long; a Linux path has at most {} bytes (PATH_MAX)", field,
                                  value.size(), k_max_path_bytes));
  if (value.front() != '/')
    return make_error(ErrorCode::invalid_input,
                      fmt::format("'{}' must be an absolute path (starting with '/'): a relative one would be taken "
                                  "from the agent's own working directory",
                                  field));
  return {};
}

std::string roots_text(const std::vector<fs::path>& roots) {
  std::string out;
  for (const auto& root : roots) out += (out.empty() ? "" : ", ") + root.string();
  return out;
}

// The roots refusal in the client's terms (dataset::check_under_roots names the resolved path).
Status check_under_roots_as_given(const fs::path& resolved, const std::string& given, const char* what,
                                  const std::vector<fs::path>& roots) {
  auto inside = dataset::check_under_roots(resolved, roots, what);
  if (inside) return {};
  spdlog::debug("import request: {} '{}' (resolved '{}') refused: {}", what, given, resolved.string(),
                inside.error().message);
  if (roots.empty())
    return make_error(
        ErrorCode::permission,
        fmt::format("{} '{}' refused: the agent has no data roots; start it with --root DIR", what, given));
  return make_error(ErrorCode::permission,
                    fmt::format("{} '{}' refused: after following symlinks it is not under the agent's data roots "
                                "({}); use a path under one of them or restart the agent with another --root",
                                what, given, roots_text(roots)));
}

fs::path normal_without_trailing_slash(const fs::path& path) {
  auto text = path.lexically_normal().string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

// The roots and "target inside source" checks ahead of dataset::resolve_import_paths, whose messages
// for those cases show the resolved paths; what is left for it to refuse (a missing source, a target
// that is a file) it words with the paths as given.
Status check_before_resolving(const std::string& source, const std::string& target,
                              const std::vector<fs::path>& roots) {
  std::error_code source_ec, target_ec;
  auto real_source = normal_without_trailing_slash(fs::canonical(source, source_ec));
  auto real_target = normal_without_trailing_slash(fs::weakly_canonical(target, target_ec));
  if (!source_ec) TFWSL_TRY_STATUS(check_under_roots_as_given(real_source, source, "source", roots));
  if (!target_ec) TFWSL_TRY_STATUS(check_under_roots_as_given(real_target, target, "target", roots));
  if (!source_ec && !target_ec && dataset::is_same_or_inside(real_target, real_source))
    return make_error(ErrorCode::invalid_input,
                      fmt::format("target '{}' is source '{}' or inside it, once symlinks are followed: the import "
                                  "would copy into itself; choose a target outside the source",
                                  target, source));
  return {};
}

// "exclude": an array of base names (common/agent_api/exclude_names.hpp says which are allowed).
Status parse_exclude(const nlohmann::json& value, std::vector<std::string>& names) {
  const auto not_names =
      make_error(ErrorCode::invalid_input, "'exclude' must be an array of file or folder names (strings)");
  if (!value.is_array()) return not_names;
  std::vector<std::string> parsed;
  for (const auto& name : value) {
    if (!name.is_string()) return not_names;
    parsed.push_back(name.get<std::string>());
  }
  TFWSL_TRY_STATUS(agent_api::check_exclude_names(parsed, "exclude"));
  names = std::move(parsed);
  return {};
}

Status parse_options(const nlohmann::json& body, dataset::ImportOptions& options) {
  if (body.contains("mode")) {
    if (!body["mode"].is_string() || (body["mode"] != "copy" && body["mode"] != "move"))
      return make_error(ErrorCode::invalid_input, "'mode' must be \"copy\" or \"move\"");
    options.move = body["mode"] == "move";
  }
  if (body.contains("verify")) {
    if (!body["verify"].is_boolean()) return make_error(ErrorCode::invalid_input, "'verify' must be true or false");
    options.verify = body["verify"].get<bool>();
  }
  if (body.contains("jobs")) {
    if (!body["jobs"].is_number_integer() || body["jobs"].get<long long>() < 1 ||
        body["jobs"].get<long long>() > static_cast<long long>(dataset::k_max_jobs))
      return make_error(ErrorCode::invalid_input,
                        fmt::format("'jobs' must be a whole number from 1 to {}", dataset::k_max_jobs));
    options.jobs = body["jobs"].get<unsigned>();
  }
  if (body.contains("exclude")) TFWSL_TRY_STATUS(parse_exclude(body["exclude"], options.exclude));
  return {};
}

}  // namespace

Status check_path_field(const nlohmann::json& body, const char* field) {
  if (!body.contains(field) || !body[field].is_string() || body[field].get<std::string>().empty())
    return make_error(ErrorCode::invalid_input, fmt::format("the body needs a non-empty string field '{}'", field));
  return check_path_text(body[field].get<std::string>(), field);
}

Result<ImportRequest> parse_import_request(const nlohmann::json& body, const std::vector<fs::path>& roots) {
  for (const char* field : {"source", "target"}) TFWSL_TRY_STATUS(check_path_field(body, field));
  ImportRequest request;
  request.source_given = body["source"].get<std::string>();
  request.target_given = body["target"].get<std::string>();
  TFWSL_TRY_STATUS(parse_options(body, request.options));
  TFWSL_TRY_STATUS(check_before_resolving(request.source_given, request.target_given, roots));
  auto resolved = dataset::resolve_import_paths(request.source_given, request.target_given);
  if (!resolved) {
    spdlog::debug("import request: '{}' -> '{}' refused: {}", request.source_given, request.target_given,
                  resolved.error().message);
    return tl::unexpected(std::move(resolved).error());
  }
  auto source = normal_without_trailing_slash(resolved->source);
  auto target = normal_without_trailing_slash(resolved->target);
  // Again on what the import will use: a symlink on the way may have changed since the first look.
  TFWSL_TRY_STATUS(check_under_roots_as_given(source, request.source_given, "source", roots));
  TFWSL_TRY_STATUS(check_under_roots_as_given(target, request.target_given, "target", roots));
  spdlog::debug("import request: source '{}' is '{}', target '{}' is '{}'", request.source_given, source.string(),
                request.target_given, target.string());
  request.options.source = source;
  request.options.target = target;
  request.target_key = target.string();
  return request;
}

}  // namespace tfwsl::agent
