#pragma once
// The hash migrate records of the files it places and writes: XXH3-128 as 32 hex digits, the same
// digest the agent's `tfwsl-agent project manifest` gives (linux/dataset/content_hash.hpp), so
// what migrate wrote and what is in the WSL copy now compare by value.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace tfwsl::migrate {

std::string content_hash(std::string_view bytes);

// The same hash over chunks (a file read piece by piece).
class ContentHashStream {
 public:
  ContentHashStream();
  ~ContentHashStream();
  ContentHashStream(const ContentHashStream&) = delete;
  ContentHashStream& operator=(const ContentHashStream&) = delete;
  void update(const void* data, std::size_t size);
  std::string hex_digest() const;

 private:
  struct State;
  std::unique_ptr<State> m_state;
};

}  // namespace tfwsl::migrate
