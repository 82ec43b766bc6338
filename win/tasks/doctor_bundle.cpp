#include "win/tasks/doctor_bundle.hpp"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "common/text/utf_convert.hpp"
#include "common/util/atomic_file.hpp"
#include "win/tasks/bundle_redaction.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {
namespace {

// One ustar member: 512-byte header, data padded to 512.
std::string tar_member(const std::string& name, const std::string& data) {
  char header[512] = {};
  std::snprintf(header, 100, "%s", name.c_str());
  std::snprintf(header + 100, 8, "%07o", 0644);
  std::snprintf(header + 108, 8, "%07o", 0);
  std::snprintf(header + 116, 8, "%07o", 0);
  std::snprintf(header + 124, 12, "%011llo", static_cast<unsigned long long>(data.size()));
  std::snprintf(header + 136, 12, "%011o", 0);
  header[156] = '0';
  std::memcpy(header + 257, "ustar", 6);
  std::memcpy(header + 263, "00", 2);
  std::memset(header + 148, ' ', 8);
  unsigned sum = 0;
  for (unsigned char c : header) sum += c;
  std::snprintf(header + 148, 8, "%06o", sum);
  std::string out(header, 512);
  out += data;
  out.append((512 - data.size() % 512) % 512, '\0');
  return out;
}

}  // namespace

std::string redact(std::string text, const std::vector<std::string>& user_names) {
  BundleRedactor redactor({user_names, {}});
  redactor.learn_home_names(text);
  return redactor.redact(std::move(text));
}

namespace {

// The distro user, from the agent's facts: the home folder it runs in.
std::vector<std::string> distro_users_of(const nlohmann::json& facts) {
  const auto home = "/agent/info/home"_json_pointer;
  if (!facts.contains(home) || !facts[home].is_string()) return {};
  const std::string user = distro_user_of(facts[home].get<std::string>());
  return user.empty() ? std::vector<std::string>{} : std::vector<std::string>{user};
}

// The bundle's own README: what it holds and what was taken out of it, by kind (never the values).
std::string bundle_readme(const std::vector<std::string>& kinds) {
  std::string text =
      "tfwsl doctor --bundle: summary.json (the report), facts.json (what the host and the distro showed)\n"
      "and report.txt (the report as text), for a support request.\n\n";
  if (kinds.empty()) return text + "Redacted: nothing matched a user name, a home folder or a token.\n";
  text += "Redacted (each replaced by <user> or <redacted>):\n";
  for (const auto& kind : kinds) text += "- " + kind + "\n";
  return text;
}

}  // namespace

std::string doctor_bundle_archive(const doctor::DoctorResult& result, const std::vector<std::string>& user_names) {
  nlohmann::json summary = to_json(result.report);
  summary["wsl_starts"] = result.wsl_starts;
  summary["elapsed_ms"] = result.elapsed.count();
  std::vector<std::string> texts{summary.dump(2), result.facts.dump(2), render_text(result.report, {true, false})};
  BundleRedactor redactor({user_names, distro_users_of(result.facts)});
  for (const auto& text : texts) redactor.learn_home_names(text);  // a name one member shows is redacted in all
  for (auto& text : texts) text = redactor.redact(std::move(text));
  // summary.json first: it is what marks a file as a bundle tfwsl wrote (is_doctor_bundle).
  std::string archive = tar_member("tfwsl-doctor/summary.json", texts[0]) +
                        tar_member("tfwsl-doctor/facts.json", texts[1]) +
                        tar_member("tfwsl-doctor/report.txt", texts[2]) +
                        tar_member("tfwsl-doctor/README.txt", bundle_readme(redactor.redacted_kinds()));
  archive.append(1024, '\0');  // the end-of-archive marker: two zero blocks
  return archive;
}

namespace {

// A bundle tfwsl wrote starts with its summary member: the one kind of file --bundle may replace.
constexpr std::string_view k_first_member = "tfwsl-doctor/summary.json";

// Called only on a regular file (symlink_status), so the read cannot block on a FIFO or a device.
bool is_doctor_bundle(const std::filesystem::path& target) {
  std::ifstream in(target, std::ios::binary);
  std::string head(k_first_member.size(), '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  return in.gcount() == static_cast<std::streamsize>(head.size()) && head == k_first_member;
}

}  // namespace

Status check_bundle_destination(const std::string& path) {
  const std::filesystem::path target = path_from_utf8(path);
  std::error_code ec;
  const auto kind = std::filesystem::symlink_status(target, ec).type();
  if (kind == std::filesystem::file_type::directory)
    return make_error(ErrorCode::invalid_input, "the bundle " + path + " is a folder: name a file, e.g. " +
                                                    path_to_utf8(target / "tfwsl-doctor.tar"));
  if (kind == std::filesystem::file_type::symlink)
    return make_error(ErrorCode::invalid_input,
                      "the bundle " + path + " is a link: name a new file, tfwsl does not write through a link");
  if (kind != std::filesystem::file_type::not_found && kind != std::filesystem::file_type::none &&
      !(kind == std::filesystem::file_type::regular && is_doctor_bundle(target)))
    return make_error(
        ErrorCode::conflict,
        "the bundle " + path + " exists and is not a bundle tfwsl wrote: name a new file, or remove it first");
  const std::filesystem::path folder = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::is_directory(folder, ec))
    return make_error(ErrorCode::not_found,
                      "cannot write the bundle " + path + ": the folder " + path_to_utf8(folder) + " does not exist");
  // Whether the folder takes a new file, with a probe of a random name made exclusively beside it.
  const std::filesystem::path probe = random_temporary_path(target);
  if (!write_new_file(probe, ""))
    return make_error(ErrorCode::io, "cannot write the bundle " + path + ": check that the folder is writable");
  std::filesystem::remove(probe, ec);
  return {};
}

Status write_doctor_bundle(const std::string& path, const doctor::DoctorResult& result) {
  TFWSL_TRY_STATUS(check_bundle_destination(path));  // again: the checks took a while
  std::vector<std::string> users;
  for (const char* var : {"USERNAME", "USER", "LOGNAME"})
    if (auto v = wsl::process_environment_variable(var)) users.push_back(*v);
  const std::string archive = doctor_bundle_archive(result, users);
  // A new file is made exclusively (never through a link); an earlier bundle is replaced atomically.
  const std::filesystem::path target = path_from_utf8(path);
  std::error_code ec;
  const bool earlier = std::filesystem::symlink_status(target, ec).type() == std::filesystem::file_type::regular;
  auto written = earlier ? replace_file_atomically(target, archive) : write_new_file(target, archive);
  if (!written) return make_error(ErrorCode::io, "writing the bundle " + path + " failed: " + written.error().message);
  return {};
}

}  // namespace tfwsl::cli
