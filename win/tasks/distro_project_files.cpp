#include "win/tasks/distro_project_files.hpp"

#include <fmt/format.h>

#include <chrono>
#include <nlohmann/json.hpp>

namespace tfwsl::cli {
namespace {

constexpr auto k_timeout = std::chrono::minutes(10);

migrate::FileManifest manifest_from(const nlohmann::json& files) {
  migrate::FileManifest out;
  if (!files.is_object()) return out;
  for (const auto& [path, d] : files.items())
    if (d.is_object())
      out[path] = {d.value("size", std::uint64_t{0}), d.value("hash", std::string()), d.value("link", false)};
  return out;
}

}  // namespace

Result<nlohmann::json> DistroProjectFiles::ask(std::vector<std::string> argv, std::optional<std::string> input) {
  const std::string what = "tfwsl-agent project " + argv.front();
  argv.insert(argv.begin(), {m_agent, "project"});
  TFWSL_TRY(reply, m_commands.run(argv, std::move(input), k_timeout));
  auto j = nlohmann::json::parse(reply.out, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return make_error(ErrorCode::process, fmt::format("{} exited {} without its JSON answer", what, reply.exit_code),
                      reply.err.substr(0, 4000));
  if (reply.exit_code != 0 || j.contains("error"))
    return make_error(ErrorCode::io, j.value("error", fmt::format("{} exited {}", what, reply.exit_code)));
  return j;
}

Status DistroProjectFiles::write(const std::string& root, const std::string& relative, const std::string& text,
                                 const std::string& expect) {
  // The agent's answer to a write says nothing beyond success, which ask() has checked.
  TFWSL_TRY_STATUS(ask({"write", "--root", root, "--path", relative, "--expect", expect}, text));
  return {};
}

Result<std::optional<std::string>> DistroProjectFiles::read(const std::string& root, const std::string& relative) {
  TFWSL_TRY(answer, ask({"read", "--root", root, "--path", relative}, std::nullopt));
  if (!answer.value("exists", false) || !answer.contains("text") || !answer["text"].is_string())
    return std::optional<std::string>();
  return std::optional<std::string>(answer["text"].get<std::string>());
}

Result<std::optional<migrate::FileManifest>> DistroProjectFiles::manifest(const std::string& root) {
  TFWSL_TRY(answer, ask({"manifest", "--root", root}, std::nullopt));
  if (!answer.value("exists", false)) return std::optional<migrate::FileManifest>();
  return std::optional<migrate::FileManifest>(manifest_from(answer.value("files", nlohmann::json::object())));
}

Result<migrate::PlaceOutcome> DistroProjectFiles::place(const std::string& staging, const std::string& root,
                                                        const std::vector<migrate::PlaceRequest>& files) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& f : files) list.push_back({{"path", f.path}, {"expect", f.expect}});
  TFWSL_TRY(answer, ask({"place", "--root", root, "--from", staging}, nlohmann::json{{"files", list}}.dump()));
  migrate::PlaceOutcome out;
  out.placed = manifest_from(answer.value("placed", nlohmann::json::object()));
  for (const auto& r : answer.value("refused", nlohmann::json::array()))
    out.refused.emplace_back(r.value("path", std::string()), r.value("why", std::string()));
  return out;
}

}  // namespace tfwsl::cli
