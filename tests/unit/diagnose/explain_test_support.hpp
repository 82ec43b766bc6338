#pragma once
// Helpers of the explain tests: run the built-in base on a paste, look up a finding.

#include <catch2/catch.hpp>
#include <string>

#include "common/diagnose/explain_engine.hpp"

namespace tfwsl::test::explain {

inline diagnose::Explanation run(const std::string& bytes) {
  const auto& base = diagnose::builtin_signature_base();
  REQUIRE(base);
  return diagnose::explain(bytes, *base);
}

inline const diagnose::Finding* find(const diagnose::Explanation& e, const std::string& id) {
  for (const auto& f : e.findings) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

inline bool has(const diagnose::Explanation& e, const std::string& id) { return find(e, id) != nullptr; }

inline std::string all_fixes(const diagnose::Explanation& e) {
  std::string out;
  for (const auto& f : e.findings) out += f.fix + "\n";
  return out;
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace tfwsl::test::explain
