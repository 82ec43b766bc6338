#pragma once
// The agent proves it knows the token before the CLI sends it (as Jupyter and VS Code Server defend a loopback port: a
// squatter must never see it): on Windows a process can squat the forwarded 127.0.0.1 port, so the CLI must not hand
// its bearer token to whatever answers.
//
//   CLI  -> POST /v1/challenge  {"nonce":"<64 hex digits, fresh random>"}      (no Authorization)
//   agent-> 200 {"proof":"<hex HMAC-SHA-256(key=token, k_challenge_context + nonce)>"}
//
// The CLI checks the proof with verify_challenge_proof() and only then sends the token. The route
// has no side effect and is still behind the Host/Origin/framing admission rules.

#include <string>
#include <string_view>

namespace tfwsl::agent_api {

inline constexpr std::string_view k_challenge_context = "tfwsl-agent-challenge-v1\n";
inline constexpr std::size_t k_challenge_nonce_min_hex = 32;
inline constexpr std::size_t k_challenge_nonce_max_hex = 128;

bool is_valid_nonce(std::string_view nonce);
std::string challenge_proof(std::string_view token, std::string_view nonce);
bool verify_challenge_proof(std::string_view token, std::string_view nonce, std::string_view proof);

}  // namespace tfwsl::agent_api
