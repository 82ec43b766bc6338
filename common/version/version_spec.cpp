#include "common/version/version_spec.hpp"

#include <fmt/format.h>

#include "common/util/ascii.hpp"
#include "common/version/requirement_syntax.hpp"

namespace tfwsl {
namespace {

std::string without_spaces(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (!ascii_is_space(c)) out.push_back(c);
  }
  return out;
}

tl::unexpected<Error> spec_error(std::string_view spec, std::string_view why) {
  return make_error(
      ErrorCode::invalid_input,
      fmt::format("invalid version specifier '{}': {}; write it like ==2.15.*, >=2.12,<2.16 or ~=2.15.0", spec, why));
}

Result<VersionClause> parse_clause(std::string_view raw, std::string_view whole) {
  const std::string text = without_spaces(raw);
  VersionClause clause;
  clause.text = text;
  std::string_view rest = text;
  struct OpText {
    std::string_view text;
    VersionClause::Op op;
  };
  // Longest operators first so "===" is not read as "==".
  static constexpr OpText k_ops[] = {
      {"===", VersionClause::Op::arbitrary}, {"~=", VersionClause::Op::compatible},
      {"==", VersionClause::Op::equal},      {"!=", VersionClause::Op::not_equal},
      {"<=", VersionClause::Op::less_equal}, {">=", VersionClause::Op::greater_equal},
      {"<", VersionClause::Op::less},        {">", VersionClause::Op::greater},
  };
  bool have_op = false;
  for (const OpText& o : k_ops) {
    if (rest.substr(0, o.text.size()) == o.text) {
      clause.op = o.op;
      rest.remove_prefix(o.text.size());
      have_op = true;
      break;
    }
  }
  if (!have_op) {
    if (!rest.empty() && rest.front() == '=')
      return spec_error(whole, fmt::format("'{}' uses a single '='; pip needs '=='", text));
    clause.op = VersionClause::Op::equal;  // a bare version
    clause.text = "==" + text;
  }
  if (rest.empty()) return spec_error(whole, fmt::format("'{}' has no version after the operator", text));
  if (rest.size() >= 2 && rest.substr(rest.size() - 2) == ".*") {
    if (clause.op != VersionClause::Op::equal && clause.op != VersionClause::Op::not_equal)
      return spec_error(whole, fmt::format("'{}': a '.*' wildcard only works with == and !=", text));
    clause.wildcard = true;
    rest.remove_suffix(2);
  } else if (rest.find('*') != std::string_view::npos) {
    return spec_error(whole, fmt::format("'{}': '*' may only end the version, as in ==2.15.*", text));
  }
  auto version = Version::parse(rest);
  if (!version) return spec_error(whole, fmt::format("'{}' does not contain a valid version", text));
  clause.version = *version;
  if (clause.op == VersionClause::Op::compatible && clause.version.release.size() < 2)
    return spec_error(whole, fmt::format("'{}': ~= needs at least two segments, e.g. ~=2.15", text));
  return clause;
}

bool prefix_match(const Version& candidate, const Version& prefix) {
  for (std::size_t i = 0; i < prefix.release.size(); ++i) {
    if (candidate.segment(i) != prefix.release[i]) return false;
  }
  return true;
}

}  // namespace

bool VersionClause::allows(const Version& candidate) const {
  switch (op) {
    case Op::equal:
      return wildcard ? prefix_match(candidate, version) : candidate == version;
    case Op::not_equal:
      return wildcard ? !prefix_match(candidate, version) : candidate != version;
    case Op::less_equal:
      return candidate <= version;
    case Op::greater_equal:
      return candidate >= version;
    case Op::less:
      // "<2.11" does not allow 2.11.0rc1 (PEP 440 exclusive ordered comparison).
      if (!(candidate < version)) return false;
      if (!version.is_prerelease() && candidate.is_prerelease() &&
          candidate.truncated(version.release.size()) == version.truncated(version.release.size()) &&
          prefix_match(candidate, version))
        return false;
      return true;
    case Op::greater:
      // ">2.15" does not allow 2.15.post1.
      if (!(candidate > version)) return false;
      if (!version.post && candidate.post &&
          candidate.truncated(candidate.release.size()) == version.truncated(candidate.release.size()))
        return false;
      return true;
    case Op::compatible: {
      // ~=2.15.0 means >=2.15.0, ==2.15.*; ~=2.15 means >=2.15, ==2.*.
      if (candidate < version) return false;
      return prefix_match(candidate, version.truncated(version.release.size() - 1));
    }
    case Op::arbitrary:
      return candidate.to_string() == version.to_string();
  }
  return false;
}

Result<VersionSpec> VersionSpec::parse(std::string_view text) {
  VersionSpec spec;
  const std::string_view trimmed = trim(text);
  if (trimmed.empty()) return spec;
  std::size_t start = 0;
  while (start <= trimmed.size()) {
    std::size_t comma = trimmed.find(',', start);
    if (comma == std::string_view::npos) comma = trimmed.size();
    const std::string_view piece = trim(trimmed.substr(start, comma - start));
    if (piece.empty()) return spec_error(text, "empty clause between commas");
    TFWSL_TRY(clause, parse_clause(piece, text));
    spec.m_clauses.push_back(std::move(clause));
    start = comma + 1;
    if (comma == trimmed.size()) break;
  }
  return spec;
}

bool VersionSpec::allows_prereleases() const {
  for (const auto& c : m_clauses) {
    if (c.version.is_prerelease() && c.op != VersionClause::Op::not_equal) return true;
  }
  return false;
}

bool VersionSpec::allows(const Version& candidate) const {
  if (candidate.is_prerelease() && !allows_prereleases()) return false;
  return allows_installed(candidate);
}

bool VersionSpec::allows_installed(const Version& installed) const {
  for (const auto& c : m_clauses) {
    if (!c.allows(installed)) return false;
  }
  return true;
}

std::string VersionSpec::to_string() const {
  std::string out;
  for (const auto& c : m_clauses) {
    if (!out.empty()) out += ',';
    out += c.text;
  }
  return out;
}

std::string normalize_package_name(std::string_view name) {
  std::string out;
  bool pending_dash = false;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      pending_dash = true;
      continue;
    }
    if (pending_dash && !out.empty()) out.push_back('-');
    pending_dash = false;
    out.push_back(ascii_lower(c));
  }
  return out;
}

Result<Requirement> parse_requirement(std::string_view line_in) {
  auto parts = read_requirement_parts(line_in);
  auto fail = [&](std::string_view why) -> Result<Requirement> {
    return make_error(
        ErrorCode::invalid_input,
        fmt::format("invalid requirement '{}': {}; write it like tensorflow[and-cuda]==2.15.1", trim(line_in), why));
  };
  if (!parts && parts.error().code == ErrorCode::not_found) return tl::unexpected(parts.error());
  if (!parts) return fail(parts.error().message);
  Requirement req;
  req.name_as_written = parts->name;
  req.name = normalize_package_name(req.name_as_written);
  for (const auto& extra : parts->extras) req.extras.push_back(normalize_package_name(extra));
  req.marker = parts->marker;
  req.url = parts->url;
  if (!req.url.empty()) return req;
  const std::string_view rest = parts->version_part;
  if (!rest.empty() && !(rest.front() == '=' || rest.front() == '<' || rest.front() == '>' || rest.front() == '!' ||
                         rest.front() == '~')) {
    return fail(fmt::format("'{}' is neither a version specifier nor a marker", rest));
  }
  auto spec = VersionSpec::parse(rest);
  if (!spec) return fail(spec.error().message);
  req.spec = std::move(*spec);
  req.spec_text = without_spaces(rest);
  return req;
}

namespace {

// One end of an interval of versions.
struct Bound {
  Version at;
  bool inclusive = true;
};

// The first version past every one starting with `prefix`: 2.15 -> 2.16, 2 -> 3.
Version after_prefix(const Version& prefix) {
  Version next;
  next.release = prefix.release;
  ++next.release.back();
  return next;
}

struct Interval {
  Bound low;
  std::optional<Bound> high;  // nothing: unbounded above

  void raise(const Bound& b) {
    if (b.at > low.at || (b.at == low.at && !b.inclusive)) low = b;
  }
  void lower(const Bound& b) {
    if (!high || b.at < high->at || (b.at == high->at && !b.inclusive)) high = b;
  }
  bool empty() const {
    if (!high) return false;
    return high->at < low.at || (high->at == low.at && !(high->inclusive && low.inclusive));
  }
  bool is_point(const Version& v) const {
    return high && low.inclusive && high->inclusive && low.at == v && high->at == v;
  }
};

void narrow(Interval& in, const VersionClause& c) {
  using Op = VersionClause::Op;
  const Version v = c.version.truncated(c.version.release.size());  // the release alone
  switch (c.op) {
    case Op::greater_equal:
      in.raise({c.version, true});
      break;
    case Op::greater:
      in.raise({c.version, false});
      break;
    case Op::less_equal:
      in.lower({c.version, true});
      break;
    case Op::less:
      in.lower({c.version, false});
      break;
    case Op::equal:
    case Op::arbitrary:
      if (c.wildcard) {
        in.raise({v, true});
        in.lower({after_prefix(v), false});
      } else {
        in.raise({c.version, true});
        in.lower({c.version, true});
      }
      break;
    case Op::compatible: {
      in.raise({c.version, true});
      Version prefix = v.truncated(v.release.size() - 1);
      in.lower({after_prefix(prefix), false});
      break;
    }
    case Op::not_equal:
      if (!c.wildcard && in.is_point(c.version)) in.lower({c.version, false});
      break;
  }
}

}  // namespace

bool VersionSpec::admits_series(const Version& series) const {
  Interval in{{series.truncated(series.release.size()), true}, Bound{after_prefix(series), false}};
  for (const auto& clause : m_clauses) narrow(in, clause);
  return !in.empty();
}

}  // namespace tfwsl
