#include "common/util/content_hash.hpp"

#include <xxhash.h>

#include <new>

namespace tfwsl {
namespace {

std::string hex_of(XXH128_hash_t hash) {
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, hash);
  static constexpr char k_digits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(32);
  for (unsigned char byte : canonical.digest) {
    hex.push_back(k_digits[byte >> 4]);
    hex.push_back(k_digits[byte & 0xf]);
  }
  return hex;
}

}  // namespace

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

std::string ContentHasher::hex_digest() const { return hex_of(XXH3_128bits_digest(m_state->xxh)); }

std::string content_hash(std::string_view bytes) { return hex_of(XXH3_128bits(bytes.data(), bytes.size())); }

}  // namespace tfwsl
