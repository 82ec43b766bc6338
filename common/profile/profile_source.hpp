#pragma once
// Where profile text comes from, and how `extends:` is resolved: relative to the including file on
// disk, among the built-in profiles ("builtin:NAME", or any extends inside a built-in profile), or
// inside an in-memory set of files (tests, the fuzzer) that a reference can never leave.

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl {

struct ProfileText {
  std::string id;            // identity for cycle detection: canonical path, "builtin:NAME", "mem:NAME"
  std::string display_name;  // what error messages show: the path as given, "builtin:NAME"
  std::string text;
};

class ProfileResolver {
 public:
  virtual ~ProfileResolver() = default;
  // The file that `reference` (the value of `extends:` in `from`) names.
  virtual Result<ProfileText> resolve(const ProfileText& from, std::string_view reference) = 0;
};

// Files on disk; "builtin:NAME" names a built-in profile; references inside a built-in profile
// stay among the built-in ones.
class FileProfileResolver final : public ProfileResolver {
 public:
  Result<ProfileText> resolve(const ProfileText& from, std::string_view reference) override;
};

// A fixed set of named texts ("team/base.yaml" -> text); references are relative to the including
// name and may not climb above the set's root. "builtin:NAME" still reaches the built-in profiles.
class InMemoryProfileResolver final : public ProfileResolver {
 public:
  explicit InMemoryProfileResolver(std::map<std::string, std::string> files) : m_files(std::move(files)) {}
  Result<ProfileText> resolve(const ProfileText& from, std::string_view reference) override;
  // The text of one of the files, as a root to load.
  Result<ProfileText> open(const std::string& name) const;

 private:
  std::map<std::string, std::string> m_files;
};

inline constexpr std::size_t k_max_profile_bytes = 1 << 20;  // a profile is a page of YAML, not a megabyte

Result<ProfileText> read_profile_file(const std::filesystem::path& path);

// Built-in profiles: profiles/*.yaml shipped in the binary, except the compatibility data and
// partial bases (names starting with '_'). "builtin:builtin-defaults" is the key table's defaults.
std::vector<std::string> shipped_profile_names();  // {"legacy-native-tf-2.10", "tf-2.15-cuda-12.2", ...}
std::string default_profile_name();                // "tf-2.15-cuda-12.2"
// By name, with or without ".yaml" or "builtin:"; unknown names get a did-you-mean.
Result<ProfileText> open_builtin_profile(std::string_view name);
// What a user typed after --profile: a built-in name, else a path.
Result<ProfileText> open_profile(std::string_view name_or_path);

}  // namespace tfwsl
