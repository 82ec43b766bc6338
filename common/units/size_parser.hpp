#pragma once
// Sizes as WSL's .wslconfig understands them (memory=, swap=, defaultVhdSize=): a decimal integer
// followed by nothing (bytes) or B, K/KB, M/MB, G/GB, T/TB, binary multiples (2^10 .. 2^40).
// Rules follow wsl.exe's ParseMemorySize (microsoft/WSL src/shared/inc/stringshared.h and its unit
// test ParseMemorySize_LegacyForms): leading blanks are skipped, the unit is upper-case
// and follows the digits directly ("1 B" is rejected), nothing may trail it. A value wsl.exe would
// reject gets an error naming the value and the fix, because WSL itself only warns and ignores it.

#include <cstdint>
#include <string>
#include <string_view>

#include "common/core/error.hpp"

namespace tfwsl {

// "16GB" -> 17179869184. Errors (ErrorCode::invalid_input) name the text and say how to write it.
Result<std::uint64_t> parse_wsl_size(std::string_view text);

// The exact form wsl.exe reads back to the same number, with the largest unit that divides evenly:
// 17179869184 -> "16GB", 3072 -> "3KB", 1000 -> "1000B", 0 -> "0B".
std::string format_wsl_size(std::uint64_t bytes);

// For people, sizes read as common/util/byte_size_text.hpp writes them ("16.0 GiB").

}  // namespace tfwsl
