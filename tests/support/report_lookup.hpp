#pragma once
// The check with this id in a report; the test fails on the spot when the report lacks it.

#include <catch2/catch.hpp>
#include <string>

#include "common/check/check.hpp"

namespace tfwsl::test {

inline const CheckResult& require_check(const Report& report, const std::string& id) {
  const auto* c = report.find(id);
  INFO("check id: " << id);
  REQUIRE(c != nullptr);
  return *c;
}

}  // namespace tfwsl::test
