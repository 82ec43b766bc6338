#pragma once
// XXH3-128 as 32 lowercase hex digits, of a byte string or of a stream of chunks. Knows nothing of
// the product; both sides use it for the same reason: the dataset engine hashes a file as it copies
// it and again to verify the copy, migrate records the hash of each file it writes and the agent's
// `tfwsl-agent project manifest` reports the WSL copy's, so the two compare by value. Fast enough
// (tens of GB/s) to cost nothing next to the I/O.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace tfwsl {

class ContentHasher {
 public:
  ContentHasher();
  ~ContentHasher();
  ContentHasher(const ContentHasher&) = delete;
  ContentHasher& operator=(const ContentHasher&) = delete;

  void reset();
  void update(const void* data, std::size_t size);
  // 32 lowercase hex digits (high 64 bits first, as XXH128_canonicalFromHash orders them).
  std::string hex_digest() const;

 private:
  struct State;
  std::unique_ptr<State> m_state;
};

// The hash of a whole byte string.
std::string content_hash(std::string_view bytes);

}  // namespace tfwsl
