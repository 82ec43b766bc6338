#include "common/util/plural.hpp"

namespace tfwsl {

std::string_view plural_noun(std::uint64_t n, std::string_view one, std::string_view many) {
  return n == 1 ? one : many;
}

std::string plural(std::uint64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(plural_noun(n, one, many));
}

}  // namespace tfwsl
