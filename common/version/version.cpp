#include "common/version/version.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "common/util/ascii.hpp"

namespace tfwsl {
namespace {

// Reads a run of digits; false when there is none or it would overflow an int.
bool read_number(std::string_view text, std::size_t& pos, int& out) {
  const std::size_t start = pos;
  long long value = 0;
  while (pos < text.size() && ascii_is_digit(text[pos])) {
    value = value * 10 + (text[pos] - '0');
    if (value > 1'000'000'000LL) return false;
    ++pos;
  }
  if (pos == start) return false;
  out = static_cast<int>(value);
  return true;
}

bool consume_word(std::string_view text, std::size_t& pos, std::string_view word) {
  if (text.size() - pos < word.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (ascii_lower(text[pos + i]) != word[i]) return false;
  }
  pos += word.size();
  return true;
}

// PEP 440 allows ".", "-" or "_" before pre/post/dev labels.
void skip_separator(std::string_view text, std::size_t& pos) {
  if (pos < text.size() && (text[pos] == '.' || text[pos] == '-' || text[pos] == '_')) ++pos;
}

int phase(const Version& v) {
  // dev-only < pre < final < post (a post release of a pre release is rare; order it after the pre).
  if (v.pre_kind == Version::PreKind::none && !v.post && v.dev) return 0;
  if (v.pre_kind != Version::PreKind::none) return 1;
  if (!v.post) return 2;
  return 3;
}

}  // namespace

Result<Version> Version::parse(std::string_view raw) {
  const std::string_view text = trim(raw);
  auto fail = [&](std::string_view why) -> Result<Version> {
    return make_error(ErrorCode::invalid_input,
                      fmt::format("invalid version '{}': {}; write it like 2.15 or 2.15.1", raw, why));
  };
  if (text.empty()) return fail("it is empty");
  std::size_t pos = 0;
  if (text[pos] == 'v' || text[pos] == 'V') ++pos;
  Version v;
  for (;;) {
    int segment = 0;
    if (!read_number(text, pos, segment)) return fail("expected a number");
    v.release.push_back(segment);
    if (v.release.size() > 16) return fail("too many segments");
    if (pos + 1 < text.size() && text[pos] == '.' && ascii_is_digit(text[pos + 1])) {
      ++pos;
      continue;
    }
    break;
  }
  // Pre-release: a, alpha, b, beta, c, rc, pre, preview.
  {
    std::size_t p = pos;
    skip_separator(text, p);
    PreKind kind = PreKind::none;
    if (consume_word(text, p, "alpha") || consume_word(text, p, "a")) {
      kind = PreKind::alpha;
    } else if (consume_word(text, p, "beta") || consume_word(text, p, "b")) {
      kind = PreKind::beta;
    } else if (consume_word(text, p, "rc") || consume_word(text, p, "preview") || consume_word(text, p, "pre") ||
               consume_word(text, p, "c")) {
      kind = PreKind::rc;
    }
    if (kind != PreKind::none) {
      skip_separator(text, p);
      int n = 0;
      if (p < text.size() && ascii_is_digit(text[p]) && !read_number(text, p, n))
        return fail("pre-release number too large");
      v.pre_kind = kind;
      v.pre_number = n;
      pos = p;
    }
  }
  {
    std::size_t p = pos;
    skip_separator(text, p);
    if (consume_word(text, p, "post") || consume_word(text, p, "rev") || consume_word(text, p, "r")) {
      skip_separator(text, p);
      int n = 0;
      if (p < text.size() && ascii_is_digit(text[p]) && !read_number(text, p, n))
        return fail("post-release number too large");
      v.post = n;
      pos = p;
    }
  }
  {
    std::size_t p = pos;
    skip_separator(text, p);
    if (consume_word(text, p, "dev")) {
      skip_separator(text, p);
      int n = 0;
      if (p < text.size() && ascii_is_digit(text[p]) && !read_number(text, p, n)) return fail("dev number too large");
      v.dev = n;
      pos = p;
    }
  }
  if (pos < text.size() && text[pos] == '+') {
    // Local label: letters, digits and dots only.
    if (pos + 1 == text.size()) return fail("empty local label after '+'");
    for (std::size_t i = pos + 1; i < text.size(); ++i) {
      const char c = text[i];
      if (!(ascii_is_digit(c) || (ascii_lower(c) >= 'a' && ascii_lower(c) <= 'z') || c == '.' || c == '-' || c == '_'))
        return fail(fmt::format("unexpected '{}' in local label", c));
    }
    pos = text.size();
  }
  if (pos != text.size()) return fail(fmt::format("unexpected '{}'", text.substr(pos)));
  return v;
}

Version Version::truncated(std::size_t n) const {
  Version v;
  for (std::size_t i = 0; i < n; ++i) v.release.push_back(segment(i));
  return v;
}

std::string Version::to_string() const {
  std::string out;
  for (std::size_t i = 0; i < release.size(); ++i) {
    if (i) out += '.';
    out += std::to_string(release[i]);
  }
  switch (pre_kind) {
    case PreKind::alpha:
      out += fmt::format("a{}", pre_number);
      break;
    case PreKind::beta:
      out += fmt::format("b{}", pre_number);
      break;
    case PreKind::rc:
      out += fmt::format("rc{}", pre_number);
      break;
    case PreKind::none:
      break;
  }
  if (post) out += fmt::format(".post{}", *post);
  if (dev) out += fmt::format(".dev{}", *dev);
  return out;
}

std::strong_ordering Version::operator<=>(const Version& other) const {
  const std::size_t n = std::max(release.size(), other.release.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (auto c = segment(i) <=> other.segment(i); c != 0) return c;
  }
  if (auto c = phase(*this) <=> phase(other); c != 0) return c;
  if (auto c = pre_kind <=> other.pre_kind; c != 0) return c;
  if (auto c = pre_number <=> other.pre_number; c != 0) return c;
  if (auto c = post.value_or(-1) <=> other.post.value_or(-1); c != 0) return c;
  // Within the same phase a dev release comes before the release it leads up to.
  const long long mine = dev ? *dev : (1LL << 40);
  const long long theirs = other.dev ? *other.dev : (1LL << 40);
  return mine <=> theirs;
}

Version version_literal(std::string_view text) {
  auto v = Version::parse(text);
  if (!v) throw std::invalid_argument(v.error().message);
  return *v;
}

}  // namespace tfwsl
