#pragma once
// When a VM's memory counts as the size asked for. The kernel keeps some memory for itself, so
// MemTotal inside WSL is a few percent under .wslconfig's memory= (16 GB gives about 15.6 GiB); a
// MemTotal inside this band of the configured size means the setting is in effect. One band for
// the doctor's mem.effective (common/judge) and `wslconfig set --apply`'s check (common/wslconfig).

namespace tfwsl {

inline constexpr double k_memtotal_low_ratio = 0.85;   // MemTotal / memory= above this
inline constexpr double k_memtotal_high_ratio = 1.02;  // and below this

}  // namespace tfwsl
