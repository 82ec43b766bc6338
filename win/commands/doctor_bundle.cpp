#include "win/commands/doctor_bundle.hpp"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "common/text/utf_convert.hpp"
#include "common/util/atomic_file.hpp"
#include "common/wsl/wsl_client.hpp"

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

// Letters, digits, '_' and '-' continue a name ("me" is not in "memory", "me2" or "me-too");
// separators (\\ / . : space quotes) end it. Bytes of UTF-8 sequences count as letters.
bool is_name_char(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return u >= 0x80 || std::isalnum(u) || c == '_' || c == '-';
}

// Runs of 32 or more hex digits (tokens, nonces, proofs) become <redacted>.
std::string redact_hex_runs(const std::string& text) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t j = i;
    while (j < text.size() && std::isxdigit(static_cast<unsigned char>(text[j]))) ++j;
    if (j - i >= 32) {
      out += "<redacted>";
      i = j;
    } else if (j > i) {
      out.append(text, i, j - i);
      i = j;
    } else {
      out += text[i++];
    }
  }
  return out;
}

}  // namespace

std::string redact(std::string text, const std::vector<std::string>& user_names) {
  for (const auto& name : user_names) {
    if (name.size() < 2) continue;  // one letter would blank half the text
    std::string out;
    std::size_t from = 0;
    for (std::size_t pos = 0; (pos = text.find(name, pos)) != std::string::npos;) {
      const std::size_t end = pos + name.size();
      const bool whole = (pos == 0 || !is_name_char(text[pos - 1])) && (end == text.size() || !is_name_char(text[end]));
      if (!whole) {
        ++pos;
        continue;
      }
      out.append(text, from, pos - from);
      out += "<user>";
      from = pos = end;
    }
    out.append(text, from, std::string::npos);
    text = std::move(out);
  }
  return redact_hex_runs(text);
}

std::string doctor_bundle_archive(const doctor::DoctorResult& result, const std::vector<std::string>& user_names) {
  nlohmann::json summary = to_json(result.report);
  summary["wsl_starts"] = result.wsl_starts;
  summary["elapsed_ms"] = result.elapsed.count();
  std::string archive = tar_member("tfwsl-doctor/summary.json", redact(summary.dump(2), user_names)) +
                        tar_member("tfwsl-doctor/facts.json", redact(result.facts.dump(2), user_names)) +
                        tar_member("tfwsl-doctor/report.txt", redact(render_text(result.report, {true, false}), user_names));
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
    return make_error(ErrorCode::invalid_input, "the bundle " + path + " is a link: name a new file, tfwsl does not write through a link");
  if (kind != std::filesystem::file_type::not_found && kind != std::filesystem::file_type::none &&
      !(kind == std::filesystem::file_type::regular && is_doctor_bundle(target)))
    return make_error(ErrorCode::conflict, "the bundle " + path +
                                               " exists and is not a bundle tfwsl wrote: name a new file, or remove it first");
  const std::filesystem::path folder = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::is_directory(folder, ec))
    return make_error(ErrorCode::not_found, "cannot write the bundle " + path + ": the folder " + path_to_utf8(folder) +
                                                " does not exist");
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
