#pragma once
// The loopback protocol between the wsl.exe stand-in (a Windows program under Wine) and the relay
// (a Linux program): a Windows program under Wine cannot pipe to a Linux process it starts, so the
// stand-in hands `--exec` commands to the relay, which runs them and streams everything back.
//
//   stand-in -> relay: one JSON line {"argv":[...],"distro":"","user":"","cd":"","scenario":"<name>"}
//   then frames both ways: 1 type byte, 4-byte little-endian length, payload
//     'I' stdin bytes (stand-in -> relay; an empty 'I' frame is EOF)
//     'O' stdout bytes, 'E' stderr bytes, 'X' exit code (4-byte little-endian int)  (relay -> stand-in)

#include <cstdint>
#include <string>

namespace tfwsl::standin {

inline constexpr char k_frame_stdin = 'I';
inline constexpr char k_frame_stdout = 'O';
inline constexpr char k_frame_stderr = 'E';
inline constexpr char k_frame_exit = 'X';
// Ctrl-C on the stand-in's console (wsl.exe passes it to the Linux side): no payload.
inline constexpr char k_frame_interrupt = 'C';

inline std::string encode_relay_frame(char type, const std::string& payload) {
  std::string frame(5, '\0');
  frame[0] = type;
  auto n = static_cast<std::uint32_t>(payload.size());
  for (int i = 0; i < 4; ++i) frame[1 + i] = static_cast<char>((n >> (8 * i)) & 0xFF);
  return frame + payload;
}

inline std::uint32_t decode_le32(const char* p) {
  std::uint32_t n = 0;
  for (int i = 0; i < 4; ++i) n |= static_cast<std::uint32_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return n;
}

}  // namespace tfwsl::standin
