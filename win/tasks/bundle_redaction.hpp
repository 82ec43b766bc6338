#pragma once
// What `tfwsl doctor --bundle` leaves out, so that a support bundle does not say who the user is:
// the Windows user's name, the distro user's name, every home folder's name in a path, and anything
// token-shaped. Names are matched in any ASCII case (Windows names are case-blind: USERNAME=Robert
// owns C:\Users\robert), in both path styles and as JSON escapes them (C:\Users\x, C:\\Users\\x,
// /mnt/c/Users/x, /home/x, \\wsl.localhost\Ubuntu\home\x).

#include <string>
#include <string_view>
#include <vector>

namespace tfwsl::cli {

struct RedactedNames {
  std::vector<std::string> windows_users;  // USERNAME / USER / LOGNAME of this process
  std::vector<std::string> distro_users;   // the distro user's, from the agent's facts (its home)
};

class BundleRedactor {
 public:
  explicit BundleRedactor(RedactedNames names);

  // Takes the name of every home folder `text` holds (the part after Users\ or home/), so that the
  // name is redacted in every member, including where it stands alone.
  void learn_home_names(std::string_view text);

  // The text with each home folder's name in a path and each known name as a whole word made
  // <user>, and each run of 32 or more hex digits made <redacted>; remembers what it replaced.
  std::string redact(std::string text);

  // What was replaced, as kinds, in a fixed order: "Windows user name", "distro user name",
  // "home paths", "token-shaped values (runs of 32 or more hex digits)".
  std::vector<std::string> redacted_kinds() const;

 private:
  std::string redact_home_paths(const std::string& text);
  std::string redact_names(std::string text, const std::vector<std::string>& names, bool& found);

  RedactedNames m_names;
  std::vector<std::string> m_home_names;
  bool m_windows_user = false;
  bool m_distro_user = false;
  bool m_home_path = false;
  bool m_token = false;
};

// The distro user's name: the last part of the agent's home folder (/home/rt3bob), when it is one.
std::string distro_user_of(std::string_view home);

}  // namespace tfwsl::cli
