#include "win/push/room_check.hpp"

#include <algorithm>

#include "common/util/byte_size_text.hpp"
#include "win/push/progress_text.hpp"

namespace tfwsl::push {

std::uint64_t host_bytes_needed(std::uint64_t data_bytes) {
  return data_bytes + std::max(k_host_margin_floor, data_bytes / 10);
}

std::uint64_t distro_bytes_needed(std::uint64_t data_bytes) { return data_bytes + data_bytes / 100; }

RoomVerdict judge_room(std::uint64_t needed, std::optional<std::uint64_t> free, const std::string& where,
                       const std::string& not_checked_reason, const std::string& fix) {
  RoomVerdict verdict;
  verdict.needed = needed;
  verdict.where = where;
  verdict.free = free;
  if (!free) {
    verdict.reason = not_checked_reason;
    return verdict;
  }
  verdict.checked = true;
  verdict.enough = *free >= needed;
  if (!verdict.enough)
    verdict.reason = where + " has " + format_bytes(*free) + " free, the push needs " + format_bytes(needed) +
                     " (the data and a margin): " + fix;
  return verdict;
}

}  // namespace tfwsl::push
