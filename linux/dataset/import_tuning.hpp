#pragma once
// The copy engine's sizes and limits, shared by its phases (import_job.hpp lists them): chosen
// together, so they live together.

#include <time.h>

#include <cstddef>
#include <cstdint>

namespace tfwsl::dataset::import_detail {

inline constexpr std::size_t k_buffer_bytes = 1 << 20;
// Files this large get their own fsync as soon as they are written (their data dominates); smaller
// ones share one syncfs per batch, since an fsync per small file costs more than copying it.
inline constexpr std::uint64_t k_own_fsync_bytes = 4ull << 20;
// Large files go through copy_file_range when the kernel allows it between these filesystems.
inline constexpr std::uint64_t k_copy_range_min_bytes = 8ull << 20;
inline constexpr std::size_t k_copy_range_chunk = 8u << 20;
inline constexpr std::size_t k_batch_files = 512;
// Staged copies waiting while another batch commits; at this many, a worker waits and commits.
inline constexpr std::size_t k_max_pending_files = 4 * k_batch_files;
inline constexpr std::uint64_t k_batch_bytes = 64ull << 20;
inline constexpr int k_max_attempts = 3;
// Free-space margin: 2 % of the filesystem, at least 1 MiB and at most 256 MiB, plus 1 % of the data.
inline constexpr std::uint64_t k_space_margin_min = 1ull << 20;
inline constexpr std::uint64_t k_space_margin_max = 256ull << 20;
inline constexpr std::size_t k_max_listed_problems = 1000;
inline constexpr std::size_t k_max_listed_unusual = 200;
inline constexpr long k_v9fs_magic = 0x01021997;  // DrvFs (/mnt/c) in WSL 2 is a 9P mount

inline std::int64_t to_ns(const timespec& t) { return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec; }

}  // namespace tfwsl::dataset::import_detail
