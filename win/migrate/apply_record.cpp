#include "win/migrate/apply_record.hpp"

#include <nlohmann/json.hpp>

#include "common/util/nesting_depth.hpp"

namespace tfwsl::migrate {
namespace {

FileManifest manifest_from(const nlohmann::json& j) {
  FileManifest out;
  if (!j.is_object()) return out;
  for (const auto& [path, d] : j.items()) {
    if (d.is_object() && d.contains("size") && d["size"].is_number_unsigned() && d.contains("hash") &&
        d["hash"].is_string())
      out[path] = {d["size"].get<std::uint64_t>(), d["hash"].get<std::string>(), d.value("link", false)};
  }
  return out;
}

}  // namespace

Result<ApplyRecord> read_apply_record(MigrationPorts& ports, const std::string& root) {
  ApplyRecord record;
  TFWSL_TRY(text, ports.read_linux_file(root, k_record_file));
  if (!text) return record;
  // The record lives in the project's copy, where anything may be written: one nested too deep is no record.
  if (!check_nesting_depth(*text, NestingSyntax::json, k_record_file)) return record;
  auto j = nlohmann::json::parse(*text, nullptr, false);
  if (!j.is_object()) return record;
  if (j.contains("plan") && j["plan"].is_string()) record.digest = j["plan"].get<std::string>();
  if (j.contains("done") && j["done"].is_array())
    for (const auto& step : j["done"])
      if (step.is_string()) record.done.push_back(step.get<std::string>());
  if (j.contains("placed")) record.placed = manifest_from(j["placed"]);
  if (j.contains("written") && j["written"].is_object())
    for (const auto& [path, hash] : j["written"].items())
      if (hash.is_string()) record.written[path] = hash.get<std::string>();
  return record;
}

Status write_apply_record(MigrationPorts& ports, const std::string& root, const ApplyRecord& record) {
  nlohmann::json placed = nlohmann::json::object();
  for (const auto& [path, d] : record.placed) {
    placed[path] = {{"size", d.size}, {"hash", d.hash}};
    if (d.link) placed[path]["link"] = true;
  }
  nlohmann::json j = {{"plan", record.digest}, {"done", record.done}, {"placed", placed}, {"written", record.written}};
  return ports.write_linux_file(root, k_record_file,
                                j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", "any");
}

}  // namespace tfwsl::migrate
