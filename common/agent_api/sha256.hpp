#pragma once
// SHA-256 and HMAC-SHA-256 (FIPS 180-4, RFC 2104), small and dependency-free: the agent links no
// crypto library (no shared-library dependencies, portable to any Ubuntu), and the Windows CLI needs
// the same function to check the agent's challenge proof.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace tfwsl::agent_api {

using Sha256Digest = std::array<std::uint8_t, 32>;

Sha256Digest sha256(std::string_view data);
Sha256Digest hmac_sha256(std::string_view key, std::string_view message);

std::string to_hex(const std::uint8_t* data, std::size_t size);
inline std::string to_hex(const Sha256Digest& digest) { return to_hex(digest.data(), digest.size()); }

}  // namespace tfwsl::agent_api
