#pragma once
// Is there room for a push, before anything is copied? Two places fill up:
//   - the Windows drive holding the distro's ext4.vhdx: the virtual disk grows as data lands in the
//     distro, and a host disk that fills up under it can corrupt the VHDX (microsoft/WSL #12067);
//   - the distro's own filesystem (its free space, which the engine's preflight checks again exactly).
// Margins: on the host the data plus max(1 GiB, 10 % of the data), since the vhdx grows in whole
// blocks and Windows itself needs room; in the distro the data plus 1 % (the engine adds its own).

#include <cstdint>
#include <optional>
#include <string>

namespace tfwsl::push {

inline constexpr std::uint64_t k_host_margin_floor = std::uint64_t{1} << 30;

struct RoomVerdict {
  bool checked = false;  // a figure was available
  bool enough = true;    // not checked counts as enough (the reason says why it was not checked)
  std::uint64_t needed = 0;
  std::optional<std::uint64_t> free;
  std::string where;   // "drive C: (C:\Users\me\...\ext4.vhdx)", "the distro's filesystem"
  std::string reason;  // why not checked, or why refused, with the fix
};

std::uint64_t host_bytes_needed(std::uint64_t data_bytes);
std::uint64_t distro_bytes_needed(std::uint64_t data_bytes);

RoomVerdict judge_room(std::uint64_t needed, std::optional<std::uint64_t> free, const std::string& where,
                       const std::string& not_checked_reason, const std::string& fix);

}  // namespace tfwsl::push
