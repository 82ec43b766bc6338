#include "common/agent_api/challenge.hpp"

#include "common/agent_api/sha256.hpp"
#include "common/agent_api/token.hpp"

namespace tfwsl::agent_api {

bool is_valid_nonce(std::string_view nonce) {
  if (nonce.size() < k_challenge_nonce_min_hex || nonce.size() > k_challenge_nonce_max_hex) return false;
  for (char c : nonce)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
  return true;
}

std::string challenge_proof(std::string_view token, std::string_view nonce) {
  std::string message(k_challenge_context);
  message.append(nonce);
  return to_hex(hmac_sha256(token, message));
}

bool verify_challenge_proof(std::string_view token, std::string_view nonce, std::string_view proof) {
  return constant_time_equal(challenge_proof(token, nonce), proof);
}

}  // namespace tfwsl::agent_api
