#include "win/commands/doctor_bundle.hpp"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/text/utf_convert.hpp"
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

Status check_bundle_destination(const std::string& path) {
  const std::filesystem::path target = path_from_utf8(path);
  std::error_code ec;
  if (std::filesystem::is_directory(target, ec))
    return make_error(ErrorCode::invalid_input, "the bundle " + path + " is a folder: name a file, e.g. " +
                                                    path_to_utf8(target / "tfwsl-doctor.tar"));
  const std::filesystem::path folder = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  if (!std::filesystem::is_directory(folder, ec))
    return make_error(ErrorCode::not_found, "cannot write the bundle " + path + ": the folder " + path_to_utf8(folder) +
                                                " does not exist");
  const bool existed = std::filesystem::exists(target, ec);
  {
    std::ofstream probe(target, std::ios::binary | std::ios::app);
    if (!probe)
      return make_error(ErrorCode::io, "cannot write the bundle " + path + ": check that the folder is writable");
  }
  if (!existed) std::filesystem::remove(target, ec);
  return {};
}

Status write_doctor_bundle(const std::string& path, const doctor::DoctorResult& result) {
  std::vector<std::string> users;
  for (const char* var : {"USERNAME", "USER", "LOGNAME"})
    if (auto v = wsl::process_environment_variable(var)) users.push_back(*v);
  const std::string archive = doctor_bundle_archive(result, users);
  std::ofstream out(path_from_utf8(path), std::ios::binary | std::ios::trunc);
  if (!out) return make_error(ErrorCode::io, "cannot write the bundle " + path + ": check the folder exists and is writable");
  out.write(archive.data(), static_cast<std::streamsize>(archive.size()));
  if (!out) return make_error(ErrorCode::io, "writing the bundle " + path + " failed");
  return {};
}

}  // namespace tfwsl::cli
