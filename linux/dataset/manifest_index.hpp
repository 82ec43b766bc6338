#pragma once
// What earlier runs imported, as the resume check asks it: "is there a record for this path with
// this size and mtime?" A map of whole records (path twice, hash as text) took about 330 bytes a
// file, so a re-run over a million files held 330 MB; here a record is two 64-bit keys (16 bytes):
// XXH3-64 of the path, and XXH3-64 of the path, size and mtime together. --verify and --move also
// need the record itself (its size, mtime and content hash: 48 bytes in all), kept only for them.
//
// Two different paths with the same 64-bit key (odds about n^2 / 2^65: 3e-8 for a million records)
// would let one path's record stand for the other's only if its size and mtime key matched too and
// the target held a file of that size at that name; the index accepts that, as rsync's quick check
// accepts size and mtime alone.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "linux/dataset/manifest.hpp"

namespace tfwsl::dataset {

class ManifestIndex {
 public:
  // keep_records: keep each record's size, mtime and hash for lookup() (--verify, --move).
  explicit ManifestIndex(bool keep_records = false) : m_keep_records(keep_records) {}

  // At most this many records will be added (an estimate from the file's size): the vector never
  // reallocates, and the pages of capacity never written are never resident.
  void reserve(std::size_t records);
  // Records in file order: a later record for a path replaces an earlier one. Then finish(), once.
  void add(const ManifestEntry& entry);
  void finish();

  std::size_t size() const { return m_keep_records ? m_full.size() : m_keys.size(); }
  bool empty() const { return size() == 0; }
  bool contains(std::string_view path) const;
  // Whether the path's record has this size and mtime.
  bool matches(std::string_view path, std::uint64_t size, std::int64_t mtime_ns) const;
  // The path's whole record; only when built with keep_records.
  std::optional<ManifestEntry> lookup(std::string_view path) const;

 private:
  struct Key {
    std::uint64_t path;
    std::uint64_t state;  // path, size and mtime
  };
  struct Full {
    Key key;
    std::uint64_t size;
    std::int64_t mtime_ns;
    std::uint64_t hash_high, hash_low;
  };

  bool m_keep_records;
  std::vector<Key> m_keys;   // without keep_records; sorted by path key once finished
  std::vector<Full> m_full;  // with keep_records
};

// XXH3-64 of a path, as the index and the manifest's compaction key records by.
std::uint64_t manifest_path_key(std::string_view path);

}  // namespace tfwsl::dataset
