#pragma once
// NVIDIA display-driver versions in both numberings (NVIDIA driver release notes give both forms):
//   NVIDIA's own:   "537.58", "546.80", "525.60.13" (Linux adds a third field)
//   Windows file:   "31.0.15.3758" -> 537.58, since NVIDIA keeps its number in the last five digits:
//                   ((third field - 10) * 10000 + fourth field) / 100.
// nvidia-smi (on Windows and inside WSL) prints NVIDIA's form; WMI and the registry print Windows'.

#include <compare>
#include <optional>
#include <string>
#include <string_view>

#include "common/core/error.hpp"

namespace tfwsl {

struct DriverVersion {
  int major = 0;             // 537
  int minor = 0;             // 58 (always printed with two digits: 546.80, 570.05)
  std::optional<int> patch;  // 13 in 525.60.13 (two digits: 470.42.01)
  std::string windows_form;  // "31.0.15.3758" when that is what was parsed, else empty

  std::string to_string() const;  // NVIDIA's form: "537.58", "525.60.13"

  // A three-field number (525.60.13) is a Linux driver's: Windows drivers have two fields in
  // NVIDIA's form, and the Windows file form (31.0.15.3758) converts to two. Such a driver is not
  // the Windows driver WSL shares, and Windows minimums do not apply to it.
  bool is_linux_numbering() const { return patch.has_value(); }

  // Note: Linux and Windows minimums differ for the same CUDA release (NVIDIA CUDA Toolkit Release Notes, Table 3);
  // compare a driver only with a minimum for the same operating system.
  std::strong_ordering operator<=>(const DriverVersion& other) const;
  bool operator==(const DriverVersion& other) const { return (*this <=> other) == 0; }
};

// Accepts both numberings, surrounding spaces, and nvidia-smi's trailing text is not accepted:
// pass just the number. Errors name the text.
Result<DriverVersion> parse_driver_version(std::string_view text);

}  // namespace tfwsl
