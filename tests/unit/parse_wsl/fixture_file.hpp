#pragma once
// A fixture file (the format docs/explain.md describes): "key: value" header lines, a "---" line,
// then the sample exactly as published.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/test_environment.hpp"

namespace tfwsl::test {

struct FixtureFile {
  std::string name;
  std::string category;
  nlohmann::json expect;  // {"kind", "facts", "findings", "absent"}
  std::string body;       // the bytes after the "---" line
};

inline FixtureFile read_fixture(const std::filesystem::path& path) {
  FixtureFile fixture;
  fixture.name = path.filename().string();
  const std::string all = read_file(path);
  const auto separator = all.find("\n---\n");
  const std::string header = all.substr(0, separator);
  fixture.body = separator == std::string::npos ? std::string() : all.substr(separator + 5);
  std::size_t start = 0;
  while (start < header.size()) {
    auto end = header.find('\n', start);
    if (end == std::string::npos) end = header.size();
    const std::string line = header.substr(start, end - start);
    if (line.rfind("category: ", 0) == 0) fixture.category = line.substr(10);
    if (line.rfind("expect: ", 0) == 0) fixture.expect = nlohmann::json::parse(line.substr(8));
    start = end + 1;
  }
  return fixture;
}

// Fixtures whose names start with one of the prefixes, sorted by name.
inline std::vector<std::filesystem::path> fixtures_named(const std::filesystem::path& dir,
                                                         const std::vector<std::string>& prefixes) {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    for (const auto& prefix : prefixes)
      if (name.rfind(prefix, 0) == 0) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The README's comparison: every expected key present; strings, numbers, null compare exactly;
// lists element by element in order (same length). Returns "" when it holds, else where it fails.
inline std::string facts_mismatch(const nlohmann::json& expected, const nlohmann::json& actual,
                                  const std::string& at = "facts") {
  if (expected.is_object()) {
    if (!actual.is_object()) return at + ": expected an object, got " + actual.dump();
    for (const auto& [key, value] : expected.items()) {
      if (!actual.contains(key)) return at + "." + key + ": missing";
      if (auto why = facts_mismatch(value, actual[key], at + "." + key); !why.empty()) return why;
    }
    return {};
  }
  if (expected.is_array()) {
    if (!actual.is_array() || actual.size() != expected.size())
      return at + ": expected " + expected.dump() + ", got " + actual.dump();
    for (std::size_t i = 0; i < expected.size(); ++i)
      if (auto why = facts_mismatch(expected[i], actual[i], at + "[" + std::to_string(i) + "]"); !why.empty())
        return why;
    return {};
  }
  if (expected != actual) return at + ": expected " + expected.dump() + ", got " + actual.dump();
  return {};
}

}  // namespace tfwsl::test
