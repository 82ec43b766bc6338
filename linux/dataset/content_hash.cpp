#include "linux/dataset/content_hash.hpp"

#include <xxhash.h>

#include <new>

namespace tfwsl::dataset {

struct ContentHasher::State {
  XXH3_state_t* xxh = nullptr;
};

ContentHasher::ContentHasher() : m_state(std::make_unique<State>()) {
  m_state->xxh = XXH3_createState();
  if (m_state->xxh == nullptr) throw std::bad_alloc();
  reset();
}

ContentHasher::~ContentHasher() { XXH3_freeState(m_state->xxh); }

void ContentHasher::reset() { XXH3_128bits_reset(m_state->xxh); }

void ContentHasher::update(const void* data, std::size_t size) { XXH3_128bits_update(m_state->xxh, data, size); }

std::string ContentHasher::hex_digest() const {
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, XXH3_128bits_digest(m_state->xxh));
  static constexpr char k_digits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(32);
  for (unsigned char byte : canonical.digest) {
    hex.push_back(k_digits[byte >> 4]);
    hex.push_back(k_digits[byte & 0xf]);
  }
  return hex;
}

std::string hash_bytes(const std::string& bytes) {
  ContentHasher hasher;
  hasher.update(bytes.data(), bytes.size());
  return hasher.hex_digest();
}

}  // namespace tfwsl::dataset
