#include "common/version/driver_version.hpp"

#include <fmt/format.h>

#include <vector>

#include "common/util/ascii.hpp"

namespace tfwsl {
namespace {

struct Field {
  long long value = 0;
  std::size_t digits = 0;
};

}  // namespace

std::string DriverVersion::to_string() const {
  if (patch) return fmt::format("{}.{:02}.{:02}", major, minor, *patch);
  return fmt::format("{}.{:02}", major, minor);
}

std::strong_ordering DriverVersion::operator<=>(const DriverVersion& other) const {
  if (auto c = major <=> other.major; c != 0) return c;
  if (auto c = minor <=> other.minor; c != 0) return c;
  return patch.value_or(0) <=> other.patch.value_or(0);
}

Result<DriverVersion> parse_driver_version(std::string_view raw) {
  const std::string_view text = trim(raw);
  auto fail = [&](std::string_view why) -> Result<DriverVersion> {
    return make_error(ErrorCode::invalid_input,
                      fmt::format("invalid NVIDIA driver version '{}': {}; expected NVIDIA's form such as 537.58 "
                                  "or 525.60.13, or Windows' form such as 31.0.15.3758",
                                  raw, why));
  };
  if (text.empty()) return fail("it is empty");
  std::vector<Field> fields(1);
  for (char c : text) {
    if (c == '.') {
      if (fields.back().digits == 0) return fail("empty field");
      fields.emplace_back();
      continue;
    }
    if (c < '0' || c > '9') return fail(fmt::format("unexpected '{}'", c));
    Field& f = fields.back();
    if (++f.digits > 9) return fail("field too long");
    f.value = f.value * 10 + (c - '0');
  }
  if (fields.back().digits == 0) return fail("empty field");

  DriverVersion v;
  if (fields.size() == 4) {
    // Windows file version A.BB.CC.DDDD: NVIDIA's number is the last five digits of CC and DDDD.
    const Field& cc = fields[2];
    const Field& dddd = fields[3];
    if (cc.value < 10 || dddd.digits != 4)
      return fail(
          "a four-part version must be a Windows NVIDIA driver version whose third field is at least 10 "
          "and whose last field has four digits");
    const long long merged = (cc.value - 10) * 10000 + dddd.value;
    if (merged < 10000) return fail("it maps to a version below 100.00, which this numbering cannot express");
    v.major = static_cast<int>(merged / 100);
    v.minor = static_cast<int>(merged % 100);
    v.windows_form = std::string(text);
    return v;
  }
  if (fields.size() < 2 || fields.size() > 3) return fail("expected two, three or four dot-separated numbers");
  if (fields[0].value > 99999 || fields[1].digits > 3) return fail("out of range");
  v.major = static_cast<int>(fields[0].value);
  v.minor = static_cast<int>(fields[1].value);
  if (fields.size() == 3) {
    if (fields[2].digits > 3) return fail("out of range");
    v.patch = static_cast<int>(fields[2].value);
  }
  return v;
}

}  // namespace tfwsl
