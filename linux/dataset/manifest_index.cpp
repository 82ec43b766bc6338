#include "linux/dataset/manifest_index.hpp"

#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <charconv>
#include <string>

namespace tfwsl::dataset {
namespace {

std::uint64_t state_key(std::string_view path, std::uint64_t size, std::int64_t mtime_ns) {
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, path.data(), path.size());
  XXH3_64bits_update(&state, &size, sizeof size);
  XXH3_64bits_update(&state, &mtime_ns, sizeof mtime_ns);
  return XXH3_64bits_digest(&state);
}

std::uint64_t hex_half(std::string_view hex) {
  std::uint64_t value = 0;
  std::from_chars(hex.data(), hex.data() + hex.size(), value, 16);
  return value;
}

std::uint64_t path_of(const auto& item) {
  if constexpr (requires { item.key; })
    return item.key.path;
  else
    return item.path;
}

// Sorted by path key, the last of each run of equal keys kept: records were added in file order,
// and a stable sort keeps that order within a run, so the last is the latest record. The stable
// sort's buffer is half the vector at most, and it sorts in place when none can be had. (No
// shrink_to_fit: its copy would double the peak; reserve() keeps the untouched tail unresident.)
template <typename T>
void sort_keep_latest(std::vector<T>& items) {
  std::stable_sort(items.begin(), items.end(), [](const T& a, const T& b) { return path_of(a) < path_of(b); });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i + 1 < items.size() && path_of(items[i + 1]) == path_of(items[i])) continue;
    items[kept++] = items[i];
  }
  items.resize(kept);
}

template <typename T>
const T* find_path(const std::vector<T>& items, std::uint64_t key) {
  auto it = std::lower_bound(items.begin(), items.end(), key,
                             [](const T& item, std::uint64_t k) { return path_of(item) < k; });
  return it != items.end() && path_of(*it) == key ? &*it : nullptr;
}

}  // namespace

std::uint64_t manifest_path_key(std::string_view path) { return XXH3_64bits(path.data(), path.size()); }

void ManifestIndex::reserve(std::size_t records) {
  if (m_keep_records)
    m_full.reserve(records);
  else
    m_keys.reserve(records);
}

void ManifestIndex::add(const ManifestEntry& entry) {
  Key key{manifest_path_key(entry.path), state_key(entry.path, entry.size, entry.mtime_ns)};
  if (!m_keep_records) return m_keys.push_back(key);
  std::string_view hash = entry.hash;  // 32 lower-case hex digits: the parser checked
  m_full.push_back({key, entry.size, entry.mtime_ns, hex_half(hash.substr(0, 16)), hex_half(hash.substr(16, 16))});
}

void ManifestIndex::finish() {
  if (m_keep_records)
    sort_keep_latest(m_full);
  else
    sort_keep_latest(m_keys);
}

bool ManifestIndex::contains(std::string_view path) const {
  std::uint64_t key = manifest_path_key(path);
  return m_keep_records ? find_path(m_full, key) != nullptr : find_path(m_keys, key) != nullptr;
}

bool ManifestIndex::matches(std::string_view path, std::uint64_t size, std::int64_t mtime_ns) const {
  std::uint64_t key = manifest_path_key(path);
  const Key* found = nullptr;
  if (m_keep_records) {
    if (const Full* full = find_path(m_full, key)) found = &full->key;
  } else {
    found = find_path(m_keys, key);
  }
  return found != nullptr && found->state == state_key(path, size, mtime_ns);
}

std::optional<ManifestEntry> ManifestIndex::lookup(std::string_view path) const {
  const Full* full = m_keep_records ? find_path(m_full, manifest_path_key(path)) : nullptr;
  if (full == nullptr) return std::nullopt;
  return ManifestEntry{std::string(path), full->size, full->mtime_ns,
                       fmt::format("{:016x}{:016x}", full->hash_high, full->hash_low)};
}

}  // namespace tfwsl::dataset
