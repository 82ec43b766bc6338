// The one content hasher both sides use (common/util/content_hash.hpp): its reference value and
// that a stream cut into any chunks hashes as the whole.
#include "common/util/content_hash.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

using tfwsl::content_hash;
using tfwsl::ContentHasher;

TEST_CASE("the content hash is XXH3-128 in canonical hex", "[util]") {
  // XXH3_128bits("") from xxHash's own test vectors.
  CHECK(content_hash("") == "99aa06d3014798d86001c324468d497f");
  CHECK(content_hash("hello world").size() == 32);
  CHECK(content_hash("hello world") != content_hash("hello worle"));
}

TEST_CASE("a stream hashed in any chunks gives the whole string's hash, and reset starts over", "[util]") {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += std::to_string(i * 7919) + ",";
  for (std::size_t chunk : {std::size_t{1}, std::size_t{7}, std::size_t{240}, std::size_t{4096}, text.size()}) {
    ContentHasher hasher;
    for (std::size_t at = 0; at < text.size(); at += chunk)
      hasher.update(text.data() + at, std::min(chunk, text.size() - at));
    CHECK(hasher.hex_digest() == content_hash(text));
  }
  ContentHasher hasher;
  hasher.update("stale", 5);
  hasher.reset();
  hasher.update("hello world", 11);
  CHECK(hasher.hex_digest() == content_hash("hello world"));
}
