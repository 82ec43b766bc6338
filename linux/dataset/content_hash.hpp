#pragma once
// XXH3-128 over a stream of chunks: the hash a file gets while it is copied, and again when its
// copy is re-read to verify it. Fast enough (tens of GB/s) to cost nothing next to the I/O.

#include <cstddef>
#include <memory>
#include <string>

namespace tfwsl::dataset {

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

// The hash of a whole byte string (tests, small inputs).
std::string hash_bytes(const std::string& bytes);

}  // namespace tfwsl::dataset
