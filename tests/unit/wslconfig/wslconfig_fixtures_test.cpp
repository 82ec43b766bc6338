// The shared .wslconfig fixtures: setting memory changes exactly one line (or adds one, with the
// [wsl2] header when the file lacks it) and leaves every other byte as it was, also when the file
// arrives as UTF-16 or with a BOM; the facts and lint findings match the `expect:` line.

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <iostream>

#include "common/text/utf_convert.hpp"
#include "common/wslconfig/wslconfig_facts.hpp"
#include "common/wslconfig/wslconfig_lint.hpp"
#include "tests/unit/parse_wsl/fixture_file.hpp"

using namespace tfwsl;
using namespace tfwsl::wslconfig;

namespace {

std::size_t count_lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

// "" when `after` is `before` with one line's content changed, or with lines inserted that are
// exactly the new assignment (and the section header when `header_allowed`); else why not.
std::string edit_is_minimal(const std::string& before, const std::string& after, const std::string& new_line,
                            bool header_allowed) {
  std::size_t prefix = 0;
  while (prefix < before.size() && prefix < after.size() && before[prefix] == after[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < before.size() - prefix && suffix < after.size() - prefix &&
         before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix])
    ++suffix;
  const std::string removed = before.substr(prefix, before.size() - prefix - suffix);
  const std::string added = after.substr(prefix, after.size() - prefix - suffix);
  if (removed.find('\n') != std::string::npos) return "more than one line changed: removed '" + removed + "'";
  if (added.find('\n') == std::string::npos) {
    // Within one line: that line, whole, must now be the assignment.
    const auto newline_before = prefix == 0 ? std::string::npos : after.rfind('\n', prefix - 1);
    const std::size_t start = newline_before == std::string::npos ? 0 : newline_before + 1;
    std::string line = after.substr(start, after.find('\n', start) - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::string folded = line;
    for (char& c : folded) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool assignment = folded.find("memory") != std::string::npos && line.find("16GB") != std::string::npos;
    return assignment ? "" : "the changed line is not the assignment: " + line;
  }
  if (!removed.empty()) return "a changed line became several: '" + added + "'";
  // Pure insertion: its lines (ends aside) are the header (optional) and the assignment.
  std::vector<std::string> lines;
  std::string current;
  for (char c : added) {
    if (c == '\n') {
      lines.push_back(current);
      current.clear();
    } else if (c != '\r') {
      current.push_back(c);
    }
  }
  if (!current.empty()) lines.push_back(current);
  lines.erase(std::remove(lines.begin(), lines.end(), std::string()), lines.end());
  if (lines == std::vector<std::string>{new_line}) return "";
  if (header_allowed && lines == std::vector<std::string>{"[wsl2]", new_line}) return "";
  return "inserted something else: '" + added + "'";
}

std::string to_utf16le_with_bom(const std::string& utf8) {
  std::string bytes = "\xFF\xFE";
  for (char16_t c : utf8_to_utf16(utf8)) {
    bytes.push_back(static_cast<char>(c & 0xFF));
    bytes.push_back(static_cast<char>(c >> 8));
  }
  return bytes;
}

}  // namespace

TEST_CASE("every shared wslconfig fixture: set memory is a one-line edit, facts and findings match",
          "[wslconfig][fixtures]") {
  const auto dir = test::fixtures_dir();
  const auto files = test::fixtures_named(dir, {"wslconfig"});
  REQUIRE_FALSE(files.empty());
  std::size_t passed = 0;
  for (const auto& path : files) {
    const test::FixtureFile f = test::read_fixture(path);
    INFO(f.name);
    bool ok = true;
    const Document original = Document::parse(f.body);
    const bool had_section = std::any_of(original.lines().begin(), original.lines().end(), [](const Line& l) {
      return l.kind == LineKind::section && l.section == "wsl2";
    });
    for (const std::string& bytes : {f.body, "\xEF\xBB\xBF" + f.body, to_utf16le_with_bom(f.body)}) {
      Document doc = Document::parse(bytes);
      doc.set("wsl2", "memory", "16GB");
      const std::string out = doc.serialize();
      const std::string why = edit_is_minimal(f.body, out, "memory=16GB", !had_section);
      CHECK(why == "");
      CHECK(out.rfind("\xEF\xBB\xBF", 0) != 0);
      CHECK(count_lines(out) <= count_lines(f.body) + 2);
      CHECK(Document::parse(out).get("wsl2", "memory") == std::optional<std::string>("16GB"));
      ok = ok && why.empty();
    }
    const auto facts = facts_of(original);
    const std::string mismatch = test::facts_mismatch(f.expect["facts"], facts);
    INFO("facts " << facts.dump());
    CHECK(mismatch == "");
    const auto findings = lint(original);
    auto has = [&](const std::string& id) {
      return std::any_of(findings.begin(), findings.end(), [&](const Finding& x) { return x.id == id; });
    };
    for (const auto& id : f.expect["findings"]) {
      const std::string s = id.get<std::string>();
      if (s.rfind("wslconfig.", 0) != 0) continue;
      INFO("expected finding " << s);
      CHECK(has(s));
      ok = ok && has(s);
    }
    for (const auto& id : f.expect["absent"]) {
      const std::string s = id.get<std::string>();
      if (s.rfind("wslconfig.", 0) != 0) continue;
      INFO("absent finding " << s);
      CHECK_FALSE(has(s));
      ok = ok && !has(s);
    }
    CHECK(looks_like_wslconfig(f.body) >= 0.5);
    if (ok && mismatch.empty()) ++passed;
  }
  std::cout << "shared wslconfig fixtures: " << passed << " of " << files.size() << " pass\n";
  CHECK(passed == files.size());
}
