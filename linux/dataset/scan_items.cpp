#include "linux/dataset/scan_items.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

namespace tfwsl::dataset {
namespace {

// a1a2 < b1b2, byte by byte as std::string compares, without building either string.
bool joined_less(std::string_view a1, std::string_view a2, std::string_view b1, std::string_view b2) {
  while (true) {
    if (a1.empty()) std::swap(a1, a2);
    if (b1.empty()) std::swap(b1, b2);
    if (a1.empty() || b1.empty()) return a1.empty() && !b1.empty();  // the one that ends first is less
    std::size_t n = std::min(a1.size(), b1.size());
    if (int c = std::memcmp(a1.data(), b1.data(), n); c != 0) return c < 0;
    a1.remove_prefix(n);
    b1.remove_prefix(n);
  }
}

}  // namespace

ScanItems::FolderNumber ScanItems::add_folder(std::string_view path) {
  if (m_folder_prefixes.size() >= std::numeric_limits<FolderNumber>::max())
    throw std::length_error("the scan found more than 4 billion folders");
  m_folder_prefixes.push_back(path.empty() ? std::string() : std::string(path) + '/');
  return static_cast<FolderNumber>(m_folder_prefixes.size() - 1);
}

std::uint32_t ScanItems::store_name(std::string_view leaf) {
  if (m_block_used + leaf.size() > k_block_bytes) {
    if (m_name_blocks.size() >= std::numeric_limits<std::uint32_t>::max() / k_block_bytes)
      throw std::length_error("the scan's file names exceed 4 GiB");
    m_name_blocks.emplace_back(new char[k_block_bytes]);  // uninitialised: only used bytes count
    m_block_used = 0;
  }
  auto at = static_cast<std::uint32_t>((m_name_blocks.size() - 1) * k_block_bytes + m_block_used);
  std::memcpy(m_name_blocks.back().get() + m_block_used, leaf.data(), leaf.size());
  m_block_used += leaf.size();
  return at;
}

void ScanItems::add(FolderNumber folder, std::string_view leaf, const ScannedItem& item) {
  if (leaf.size() > std::numeric_limits<std::uint8_t>::max())
    throw std::length_error("a file name longer than 255 bytes: " + std::string(leaf.substr(0, 64)));
  Packed packed{};
  packed.folder = folder;
  packed.name_at = store_name(leaf);
  packed.size_low = static_cast<std::uint32_t>(item.size);
  packed.size_high = static_cast<std::uint32_t>(item.size >> 32);
  packed.mode = static_cast<std::uint16_t>(item.mode);
  packed.name_length = static_cast<std::uint8_t>(leaf.size());
  packed.flags = static_cast<std::uint8_t>((item.kind == ItemKind::symlink ? k_symlink : 0) |
                                           (item.already_imported ? k_imported : 0));
  m_items.push_back(packed);
}

std::string_view ScanItems::name_of(const Packed& item) const {
  return {m_name_blocks[item.name_at / k_block_bytes].get() + item.name_at % k_block_bytes, item.name_length};
}

std::string ScanItems::path(std::size_t index) const {
  const Packed& item = m_items[index];
  std::string path = m_folder_prefixes[item.folder];
  path += name_of(item);
  return path;
}

ScannedItem ScanItems::at(std::size_t index) const {
  const Packed& packed = m_items[index];
  ScannedItem item;
  item.path = path(index);
  item.kind = (packed.flags & k_symlink) ? ItemKind::symlink : ItemKind::file;
  item.size = packed.size();
  item.mode = packed.mode;
  item.already_imported = packed.flags & k_imported;
  return item;
}

bool ScanItems::path_less(const Packed& a, const Packed& b) const {
  if (a.folder == b.folder) return name_of(a) < name_of(b);
  return joined_less(m_folder_prefixes[a.folder], name_of(a), m_folder_prefixes[b.folder], name_of(b));
}

void ScanItems::sort_by_path() {
  std::sort(m_items.begin(), m_items.end(), [this](const Packed& a, const Packed& b) { return path_less(a, b); });
}

void ScanItems::sort_large_first(std::uint64_t large_bytes) {
  std::sort(m_items.begin(), m_items.end(), [this, large_bytes](const Packed& a, const Packed& b) {
    bool a_large = a.size() >= large_bytes, b_large = b.size() >= large_bytes;
    if (a_large != b_large) return a_large;
    return path_less(a, b);
  });
}

std::vector<ScannedItem> ScanItems::all() const {
  std::vector<ScannedItem> items;
  items.reserve(size());
  for (std::size_t i = 0; i < size(); ++i) items.push_back(at(i));
  return items;
}

}  // namespace tfwsl::dataset
