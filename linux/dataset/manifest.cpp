#include "linux/dataset/manifest.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <charconv>

namespace tfwsl::dataset {
namespace {

constexpr char k_hex[] = "0123456789ABCDEF";

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::uint64_t line_check_value(std::string_view body) { return XXH64(body.data(), body.size(), 0); }

std::string line_check(std::string_view body) { return fmt::format("{:016x}", line_check_value(body)); }

// The five space-separated fields of a record, without allocating; false if there are not five.
bool split_fields(std::string_view line, std::string_view (&fields)[5]) {
  std::size_t start = 0;
  for (int i = 0; i < 4; ++i) {
    std::size_t space = line.find(' ', start);
    if (space == std::string_view::npos) return false;
    fields[i] = line.substr(start, space - start);
    start = space + 1;
  }
  fields[4] = line.substr(start);
  return fields[4].find(' ') == std::string_view::npos;
}

// Hashes and checks are written as lower-case hex of a fixed width; anything else is damage.
bool is_lower_hex(std::string_view text, std::size_t digits) {
  if (text.size() != digits) return false;
  for (char c : text)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

bool check_matches(std::string_view field, std::string_view body) {
  std::uint64_t value = 0;
  if (!is_lower_hex(field, 16)) return false;
  auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value, 16);
  return ec == std::errc() && end == field.data() + field.size() && value == line_check_value(body);
}

template <class T>
bool parse_number(std::string_view text, T& value) {
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::string escape_path(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (unsigned char c : raw) {
    if (c > 0x20 && c < 0x7f && c != '%') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(k_hex[c >> 4]);
      out.push_back(k_hex[c & 0xf]);
    }
  }
  return out;
}

Result<std::string> unescape_path(std::string_view escaped) {
  std::string out;
  out.reserve(escaped.size());
  for (std::size_t i = 0; i < escaped.size(); ++i) {
    char c = escaped[i];
    if (c != '%') {
      out.push_back(c);
      continue;
    }
    if (i + 2 >= escaped.size()) return make_error(ErrorCode::parse, "truncated %XX escape in a manifest path");
    int hi = hex_value(escaped[i + 1]);
    int lo = hex_value(escaped[i + 2]);
    if (hi < 0 || lo < 0) return make_error(ErrorCode::parse, "bad %XX escape in a manifest path");
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  if (out.empty()) return make_error(ErrorCode::parse, "empty path in a manifest record");
  return out;
}

std::string format_manifest_line(const ManifestEntry& entry) {
  std::string body = fmt::format("{} {} {} {}", entry.hash, entry.size, entry.mtime_ns, escape_path(entry.path));
  std::string check = line_check(body);
  return body + ' ' + check + '\n';
}

std::string manifest_header_line() { return std::string(k_manifest_header) + '\n'; }

Error ManifestReader::corrupt(std::string_view why) const {
  return Error{ErrorCode::parse,
               fmt::format("the import manifest {} is damaged at line {} ({}); resume refuses to guess. Move it "
                           "aside to start the import afresh: files already in the target are copied again, "
                           "nothing is deleted",
                           m_where, m_line_number, why)};
}

Status ManifestReader::line(std::string_view line) {
  ++m_line_number;
  if (m_line_number == 1) {
    if (line != k_manifest_header) return tl::unexpected(corrupt("not a tfwsl import manifest header"));
    return {};
  }
  std::string_view fields[5];
  if (!split_fields(line, fields)) return tl::unexpected(corrupt("wrong number of fields"));
  std::string_view body = line.substr(0, line.size() - fields[4].size() - 1);
  if (!check_matches(fields[4], body)) return tl::unexpected(corrupt("check value does not match"));
  ManifestEntry entry;
  if (!is_lower_hex(fields[0], 32)) return tl::unexpected(corrupt("bad hash"));
  entry.hash = std::string(fields[0]);
  if (!parse_number(fields[1], entry.size)) return tl::unexpected(corrupt("bad size"));
  if (!parse_number(fields[2], entry.mtime_ns)) return tl::unexpected(corrupt("bad mtime"));
  auto path = unescape_path(fields[3]);
  if (!path) return tl::unexpected(corrupt(path.error().message));
  entry.path = std::move(*path);
  m_on_record(entry, line);
  return {};
}

Status ManifestReader::feed(std::string_view piece) {
  while (!piece.empty()) {
    std::size_t newline = piece.find('\n');
    if (newline == std::string_view::npos) {
      m_partial.append(piece);
      return {};
    }
    Status done;
    if (m_partial.empty()) {
      done = line(piece.substr(0, newline));
    } else {
      m_partial.append(piece.substr(0, newline));
      done = line(m_partial);
      m_partial.clear();
    }
    if (!done) return done;
    piece.remove_prefix(newline + 1);
  }
  return {};
}

Result<bool> ManifestReader::finish() {
  if (m_partial.empty()) return m_line_number > 0;
  // A record cut short by a crash: that file is simply copied again. A cut-short header must
  // still be a prefix of the real one.
  ++m_line_number;
  if (m_line_number == 1 && k_manifest_header.substr(0, m_partial.size()) != m_partial)
    return tl::unexpected(corrupt("not a tfwsl import manifest header"));
  return false;
}

Result<ManifestEntries> parse_manifest(std::string_view text, const std::string& where) {
  ManifestEntries entries;
  auto keep = [&](const ManifestEntry& entry, std::string_view) { entries.insert_or_assign(entry.path, entry); };
  ManifestReader reader(where, keep);
  TFWSL_TRY_STATUS(reader.feed(text));
  TFWSL_TRY_STATUS(reader.finish());
  return entries;
}

}  // namespace tfwsl::dataset
