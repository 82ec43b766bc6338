#pragma once
// The scan's files and symlinks, packed: a million-file tree must fit the import's memory bound
// (under 64 MiB: docs/datasets.md, "Memory"), and a vector of structs holding a std::string path each took
// about 150 bytes a file before a single byte was copied. Here an item is 20 bytes (its folder's
// number, its leaf name's place in shared blocks, its size, mode and flags) plus its leaf name;
// the folder's path is stored once. No storage ever moves once written (blocks, not one growing
// buffer), so the peak is the content, not twice it while a vector reallocates.

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tfwsl::dataset {

enum class ItemKind { file, symlink };

// One file or symlink as the copy phase sees it (ScanItems::at builds it with its whole path).
struct ScannedItem {
  std::string path;  // relative to the root, raw bytes
  ItemKind kind = ItemKind::file;
  std::uint64_t size = 0;
  mode_t mode = 0;
  bool already_imported = false;  // set by the import's resume check (ScanOptions::visit)
};

class ScanItems {
 public:
  using FolderNumber = std::uint32_t;

  // A listed folder ("" is the root, otherwise "a/b"), numbered for add(). Not thread-safe: the
  // scan calls it and add() under its own lock.
  FolderNumber add_folder(std::string_view path);
  // An item of `folder` named `leaf` (at most 255 bytes, as on every Linux filesystem);
  // item.path is not read.
  void add(FolderNumber folder, std::string_view leaf, const ScannedItem& item);

  std::size_t size() const { return m_items.size(); }
  bool empty() const { return m_items.empty(); }
  ScannedItem at(std::size_t index) const;
  std::string path(std::size_t index) const;
  std::string_view leaf(std::size_t index) const { return name_of(m_items[index]); }
  std::uint64_t file_size(std::size_t index) const { return m_items[index].size(); }
  bool already_imported(std::size_t index) const { return m_items[index].flags & k_imported; }

  // By path, byte by byte (what the scan hands over).
  void sort_by_path();
  // Items of at least `large_bytes` first, by path within each group: the order a stable sort by
  // size class gives a list sorted by path, without the stable sort's buffer of half the list.
  void sort_large_first(std::uint64_t large_bytes);

  // Every item, built whole; for tests and small trees.
  std::vector<ScannedItem> all() const;

  class const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = ScannedItem;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = ScannedItem;
    const_iterator(const ScanItems& items, std::size_t index) : m_items(&items), m_index(index) {}
    ScannedItem operator*() const { return m_items->at(m_index); }
    const_iterator& operator++() {
      ++m_index;
      return *this;
    }
    bool operator==(const const_iterator& other) const { return m_index == other.m_index; }

   private:
    const ScanItems* m_items;
    std::size_t m_index;
  };
  const_iterator begin() const { return {*this, 0}; }
  const_iterator end() const { return {*this, size()}; }

 private:
  static constexpr std::uint8_t k_symlink = 1;
  static constexpr std::uint8_t k_imported = 2;
  static constexpr std::size_t k_block_bytes = 1 << 20;

  // 20 bytes: the size is two halves so that the struct needs no 8-byte alignment.
  struct Packed {
    FolderNumber folder;
    std::uint32_t name_at;  // block * k_block_bytes + offset, see m_name_blocks
    std::uint32_t size_low, size_high;
    std::uint16_t mode;  // st_mode's 16 bits: type and permissions
    std::uint8_t name_length;
    std::uint8_t flags;
    std::uint64_t size() const { return (std::uint64_t{size_high} << 32) | size_low; }
  };
  static_assert(sizeof(Packed) == 20);

  std::string_view name_of(const Packed& item) const;
  std::uint32_t store_name(std::string_view leaf);
  bool path_less(const Packed& a, const Packed& b) const;

  std::deque<Packed> m_items;
  std::vector<std::string> m_folder_prefixes;  // "" for the root, "a/b/" otherwise
  std::vector<std::unique_ptr<char[]>> m_name_blocks;
  std::size_t m_block_used = k_block_bytes;  // bytes used of the last block
};

}  // namespace tfwsl::dataset
