#pragma once
// The import manifest: one line per file that reached its final name in the target, written as the
// job goes so that a crash loses at most the files in flight. Resume reads it back.
//
// Format (text, one record per line, after a header line "tfwsl-import-manifest v1"):
//   <xxh3-128 hex> <size> <mtime ns since epoch> <path, %XX-escaped> <xxh64 of the preceding text>
// Paths are relative to the source root and byte-exact: every byte outside 0x21..0x7e, and '%', is
// written as %XX, so names with newlines, spaces, backslashes or non-UTF-8 bytes survive unchanged.
// The trailing check catches a damaged line; a last line without its newline is a write cut short
// by a crash and is ignored, while damage anywhere else makes resume refuse (never a silent restart).

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "common/core/error.hpp"

namespace tfwsl::dataset {

inline constexpr std::string_view k_manifest_header = "tfwsl-import-manifest v1";

struct ManifestEntry {
  std::string path;  // relative to the source root, raw bytes
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;  // the source's mtime when it was read
  std::string hash;           // XXH3-128 of the content, 32 hex digits

  bool operator==(const ManifestEntry&) const = default;
};

// A manifest's records by path, for tests and the fuzz target (the import reads the file through
// ManifestReader into a ManifestIndex). Later records for a path replace earlier ones.
using ManifestEntries = std::unordered_map<std::string, ManifestEntry>;

std::string escape_path(std::string_view raw);
Result<std::string> unescape_path(std::string_view escaped);

// One record, with its newline.
std::string format_manifest_line(const ManifestEntry& entry);

// The header line, with its newline.
std::string manifest_header_line();

// Reads a manifest as it arrives, in pieces of any size, without holding it: each whole record goes
// to on_record with its line (no newline) as soon as its newline is read. A million-record
// manifest is about 100 MB of text.
class ManifestReader {
 public:
  using OnRecord = std::function<void(const ManifestEntry& entry, std::string_view line)>;
  // where: the file's name, for messages.
  ManifestReader(std::string where, OnRecord on_record)
      : m_where(std::move(where)), m_on_record(std::move(on_record)) {}

  // An error names the damaged line; nothing after it is read.
  Status feed(std::string_view piece);
  // At the end of the file: true if it ended with a whole line, so that appends may follow; false
  // if it is empty or its last line was cut short by a crash (that line is ignored).
  Result<bool> finish();

 private:
  Status line(std::string_view line);
  Error corrupt(std::string_view why) const;

  std::string m_where;
  OnRecord m_on_record;
  std::string m_partial;  // a line whose newline has not been read yet
  std::size_t m_line_number = 0;
};

// Parses a whole manifest in memory (tests, the fuzz target). where: the file's name, for messages.
Result<ManifestEntries> parse_manifest(std::string_view text, const std::string& where);

}  // namespace tfwsl::dataset
