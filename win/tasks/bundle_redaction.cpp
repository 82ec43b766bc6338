#include "win/tasks/bundle_redaction.hpp"

#include <algorithm>
#include <cctype>

#include "common/util/ascii.hpp"

namespace tfwsl::cli {
namespace {

constexpr std::string_view k_user_mark = "<user>";

bool is_separator(char c) { return c == '\\' || c == '/'; }

// Letters, digits, '_' and '-' continue a name ("me" is not in "memory", "me2" or "me-too");
// separators (\\ / . : space quotes) end it. Bytes of UTF-8 sequences count as letters.
bool is_name_char(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return u >= 0x80 || std::isalnum(u) || c == '_' || c == '-';
}

// A home folder's name ends at a separator, a quote, a control character or what cannot be in a
// Windows file name; a Windows profile folder may hold spaces ("C:\Users\Jane Doe"), a Linux home not.
bool ends_home_name(char c, bool windows_style) {
  const unsigned char u = static_cast<unsigned char>(c);
  if (u < 0x20 || is_separator(c)) return true;
  if (c == ' ') return !windows_style;
  return std::string_view("\"'<>|:*?,;").find(c) != std::string_view::npos;
}

// Windows's own profile folders are nobody's name.
bool is_shared_profile(std::string_view name) {
  for (std::string_view shared : {"public", "default", "default user", "all users", "defaultapppool"})
    if (iequals(name, shared)) return true;
  return false;
}

// Where a home folder's name starts after `pos`, a case-blind "users" or "home" path component: a
// separator before it, one or more after it. npos when `pos` is not one.
std::size_t home_name_start(const std::string& lower, std::size_t pos, std::size_t length) {
  if (pos == 0 || !is_separator(lower[pos - 1])) return std::string::npos;
  std::size_t at = pos + length;
  if (at >= lower.size() || !is_separator(lower[at])) return std::string::npos;
  while (at < lower.size() && is_separator(lower[at])) ++at;
  return at;
}

bool same_name(std::string_view a, const std::vector<std::string>& names) {
  return std::any_of(names.begin(), names.end(), [a](const std::string& n) { return iequals(a, n); });
}

// Runs of 32 or more hex digits (tokens, nonces, proofs) become <redacted>.
std::string redact_hex_runs(const std::string& text, bool& found) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t j = i;
    while (j < text.size() && std::isxdigit(static_cast<unsigned char>(text[j]))) ++j;
    if (j - i >= 32) {
      out += "<redacted>";
      found = true;
    } else {
      out.append(text, i, std::max<std::size_t>(j - i, 1));
    }
    i = std::max(j, i + 1);
  }
  return out;
}

// Calls `each(name_start, name_end, windows_style)` for every home folder's name in `text`.
template <class Each>
void for_each_home_name(const std::string& text, Each each) {
  const std::string lower = ascii_lower(text);
  for (std::size_t pos = 0; pos < lower.size(); ++pos) {
    const bool windows_style = lower.compare(pos, 5, "users") == 0;
    if (!windows_style && lower.compare(pos, 4, "home") != 0) continue;
    const std::size_t start = home_name_start(lower, pos, windows_style ? 5 : 4);
    if (start == std::string::npos) continue;
    std::size_t end = start;
    while (end < text.size() && !ends_home_name(text[end], windows_style)) ++end;
    while (end > start && text[end - 1] == ' ') --end;
    const std::string_view name(text.data() + start, end - start);
    if (end > start && name != k_user_mark && !is_shared_profile(name)) each(start, end);
    pos = std::max(pos, end == start ? start : end - 1);
  }
}

}  // namespace

std::string distro_user_of(std::string_view home) {
  while (!home.empty() && home.back() == '/') home.remove_suffix(1);
  const std::size_t slash = home.find_last_of('/');
  if (slash == std::string_view::npos || home.substr(0, slash) != "/home") return "";
  return std::string(home.substr(slash + 1));
}

BundleRedactor::BundleRedactor(RedactedNames names) : m_names(std::move(names)) {}

void BundleRedactor::learn_home_names(std::string_view text) {
  const std::string copy(text);
  for_each_home_name(copy, [&](std::size_t start, std::size_t end) {
    const std::string name = copy.substr(start, end - start);
    if (!same_name(name, m_home_names)) m_home_names.push_back(name);
  });
}

std::string BundleRedactor::redact_home_paths(const std::string& text) {
  std::string out;
  std::size_t from = 0;
  for_each_home_name(text, [&](std::size_t start, std::size_t end) {
    const std::string_view name(text.data() + start, end - start);
    m_windows_user = m_windows_user || same_name(name, m_names.windows_users);
    m_distro_user = m_distro_user || same_name(name, m_names.distro_users);
    m_home_path = true;
    out.append(text, from, start - from);
    out += k_user_mark;
    from = end;
  });
  out.append(text, from, std::string::npos);
  return out;
}

std::string BundleRedactor::redact_names(std::string text, const std::vector<std::string>& names, bool& found) {
  for (const auto& name : names) {
    if (name.size() < 2) continue;  // one letter would blank half the text
    const std::string lower_name = ascii_lower(name);
    const std::string lower = ascii_lower(text);  // ASCII folding keeps every byte's position
    std::string out;
    std::size_t from = 0;
    for (std::size_t pos = 0; (pos = lower.find(lower_name, pos)) != std::string::npos;) {
      const std::size_t end = pos + name.size();
      if ((pos > 0 && is_name_char(text[pos - 1])) || (end < text.size() && is_name_char(text[end]))) {
        ++pos;
        continue;
      }
      out.append(text, from, pos - from);
      out += k_user_mark;
      found = true;
      from = pos = end;
    }
    out.append(text, from, std::string::npos);
    text = std::move(out);
  }
  return text;
}

std::string BundleRedactor::redact(std::string text) {
  text = redact_home_paths(text);
  text = redact_names(std::move(text), m_names.windows_users, m_windows_user);
  text = redact_names(std::move(text), m_names.distro_users, m_distro_user);
  text = redact_names(std::move(text), m_home_names, m_home_path);
  return redact_hex_runs(text, m_token);
}

std::vector<std::string> BundleRedactor::redacted_kinds() const {
  std::vector<std::string> kinds;
  if (m_windows_user) kinds.push_back("Windows user name");
  if (m_distro_user) kinds.push_back("distro user name");
  if (m_home_path) kinds.push_back("home paths");
  if (m_token) kinds.push_back("token-shaped values (runs of 32 or more hex digits)");
  return kinds;
}

}  // namespace tfwsl::cli
