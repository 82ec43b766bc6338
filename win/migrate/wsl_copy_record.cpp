#include "win/migrate/wsl_copy_record.hpp"

#include <fmt/format.h>

#include <chrono>

#include "common/text/utf_convert.hpp"
#include "common/util/atomic_file.hpp"
#include "common/util/linked_folder.hpp"
#include "common/util/nesting_depth.hpp"
#include "common/util/regular_file.hpp"
#include "common/util/visible_text.hpp"

namespace tfwsl::migrate {
namespace {

// "~/x" under `home`; an absolute path as it is.
std::string under_home(const std::string& path, const std::string& home) {
  if (path == "~") return home;
  if (path.rfind("~/", 0) == 0) return home + path.substr(1);
  return path;
}

std::map<std::string, std::string> string_map(const nlohmann::json& object) {
  std::map<std::string, std::string> out;
  if (!object.is_object()) return out;
  for (const auto& [key, value] : object.items())
    if (value.is_string()) out[key] = value.get<std::string>();
  return out;
}

std::string text_field(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool is_environment_name(const std::string& key) {
  if (key.empty() || (key[0] >= '0' && key[0] <= '9')) return false;
  for (char c : key)
    if (!(c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

// A record ships with a project folder, and a cloned project may carry one nobody here wrote: the
// variables that decide which code a program loads or a shell runs are never taken from it (migrate
// records only what the code needs, TF_USE_LEGACY_KERAS).
bool changes_what_runs(const std::string& key) {
  static const char* const k_loaders[] = {"PATH",     "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE",
                                          "BASH_ENV", "ENV",        "SHELL",      "VIRTUAL_ENV",   "IFS"};
  if (key.rfind("LD_", 0) == 0) return true;
  for (const char* name : k_loaders)
    if (key == name) return true;
  return false;
}

tl::unexpected<Error> not_a_record(const std::string& name, const std::string& why) {
  return make_error(ErrorCode::invalid_input,
                    fmt::format("{} is not a record tfwsl migrate wrote ({}); run `tfwsl migrate` on the project "
                                "again to write it anew",
                                name, why));
}

}  // namespace

std::string project_folder_name(const WslCopyRecord& record) {
  const auto slash = record.linux_path.find_last_of('/');
  return slash == std::string::npos ? record.linux_path : record.linux_path.substr(slash + 1);
}

std::int64_t seconds_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

WslCopyRecord wsl_copy_record(const MigratePlan& resolved, const std::string& home,
                              const std::vector<StepResult>& steps, std::int64_t now) {
  const ShippedProfile& target = *resolved.decision.target;
  WslCopyRecord record;
  record.windows_path = resolved.project_source;
  record.distro = target.distro;
  record.linux_path = under_home(resolved.project_linux_path, home);
  record.profile = target.name;
  record.venv = under_home(target.venv, home);
  record.python = target.python;
  // Keras 2 code on a Keras 3 TensorFlow needs tf-keras chosen before TensorFlow loads.
  if (resolved.decision.legacy_keras) record.env["TF_USE_LEGACY_KERAS"] = "1";
  const nlohmann::json path_map = path_map_json(resolved);
  for (const auto& [windows, linux] : path_map.items())
    if (linux.is_string()) record.path_map[windows] = linux.get<std::string>();
  record.main = main_entry(resolved.scan);
  for (const auto& step : steps)
    if (step.step == "check" && step.ran) record.gpu = {true, step.detail, now};
  return record;
}

WslCopyRecord updated_record(const WslCopyRecord& before, WslCopyRecord now) {
  if (now.gpu.checked_at == 0) now.gpu = before.gpu;
  return now;
}

bool same_but_check_time(const WslCopyRecord& before, const WslCopyRecord& now) {
  WslCopyRecord timed = now;
  timed.gpu.checked_at = before.gpu.checked_at;
  return timed == before;
}

std::string wsl_copy_record_text(const WslCopyRecord& record) {
  const nlohmann::json j = {
      {"schema", k_wsl_copy_schema},
      {"version", k_wsl_copy_version},
      {"windows_path", record.windows_path},
      {"distro", record.distro},
      {"linux_path", record.linux_path},
      {"profile", record.profile},
      {"venv", record.venv},
      {"python", record.python},
      {"env", record.env},
      {"path_map", record.path_map},
      {"main", {{"module", record.main.module}, {"script", record.main.script}}},
      {"gpu", {{"ok", record.gpu.ok}, {"summary", record.gpu.summary}, {"checked_at", record.gpu.checked_at}}}};
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Result<WslCopyRecord> parse_wsl_copy_record(std::string_view text, const std::string& name) {
  TFWSL_TRY_STATUS(check_nesting_depth(text, NestingSyntax::json, name));
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return not_a_record(name, "not a JSON object");
  if (text_field(j, "schema") != k_wsl_copy_schema) return not_a_record(name, "another schema");
  WslCopyRecord record;
  record.windows_path = text_field(j, "windows_path");
  record.distro = text_field(j, "distro");
  record.linux_path = text_field(j, "linux_path");
  record.profile = text_field(j, "profile");
  record.venv = text_field(j, "venv");
  record.python = text_field(j, "python");
  if (record.distro.empty() || record.linux_path.empty() || record.venv.empty())
    return not_a_record(name, "no distro, WSL copy or venv");
  if (record.linux_path[0] != '/' || record.venv[0] != '/')
    return not_a_record(name, "the WSL copy and the venv must be absolute Linux paths");
  if (const auto env = j.find("env"); env != j.end()) record.env = string_map(*env);
  if (const auto map = j.find("path_map"); map != j.end()) record.path_map = string_map(*map);
  for (const auto& [key, value] : record.env)
    if (!is_environment_name(key) || changes_what_runs(key))
      return not_a_record(name, "env sets " + visible_text(key) + ", which no record of migrate's sets");
  if (const auto main = j.find("main"); main != j.end() && main->is_object())
    record.main = {text_field(*main, "module"), text_field(*main, "script")};
  if (const auto gpu = j.find("gpu"); gpu != j.end() && gpu->is_object()) {
    const auto ok = gpu->find("ok");
    record.gpu.ok = ok != gpu->end() && ok->is_boolean() && ok->get<bool>();
    record.gpu.summary = text_field(*gpu, "summary");
    const auto at = gpu->find("checked_at");
    if (at != gpu->end() && at->is_number_integer()) record.gpu.checked_at = at->get<std::int64_t>();
  }
  return record;
}

Status write_local_wsl_copy_record(const std::filesystem::path& project, const WslCopyRecord& record) {
  const std::filesystem::path relative = path_from_utf8(k_wsl_copy_record);
  if (auto linked = first_linked_folder(project, relative))
    return make_error(ErrorCode::invalid_input,
                      fmt::format("{} is a link or not a folder: tfwsl writes no record through it; remove it, "
                                  "then run migrate again",
                                  visible_text(shown_path(*linked))));
  const std::filesystem::path file = project / relative;
  std::error_code ec;
  std::filesystem::create_directory(file.parent_path(), ec);
  if (ec)
    return make_error(ErrorCode::io,
                      fmt::format("cannot make {}: {}", visible_text(shown_path(file.parent_path())), ec.message()));
  const RegularFileRead there = read_regular_file(file, k_wsl_copy_max_bytes);
  if (there.problem == FileReadProblem::missing) return replace_file_atomically(file, wsl_copy_record_text(record));
  const auto before = there.problem == FileReadProblem::none ? parse_wsl_copy_record(there.bytes, shown_path(file))
                                                             : Result<WslCopyRecord>(tl::unexpected(Error{}));
  if (!before)
    return make_error(ErrorCode::invalid_input,
                      fmt::format("{} is there and is not a record tfwsl wrote: it is left as it is; move it away, "
                                  "then run migrate again",
                                  visible_text(shown_path(file))));
  const WslCopyRecord next = updated_record(*before, record);
  if (same_but_check_time(*before, next)) return {};
  return replace_file_atomically(file, wsl_copy_record_text(next));
}

}  // namespace tfwsl::migrate
