// seeds: profiles tests/fuzz/deep_seeds
// libs: tfwsl_core_profile
// libFuzzer target for the profile loader: arbitrary bytes as a profile file, with `extends`
// resolved inside an in-memory set (a fixed base file and the built-in profiles) so nothing on disk
// is ever read, then validation against the built-in compatibility data, emit, and a reload of the
// emitted text. Any crash, sanitizer report, or a round trip that loses data is a bug.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "common/profile/profile_emitter.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace tfwsl;
  if (size > k_max_profile_bytes) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  InMemoryProfileResolver resolver({
      {"fuzz/profile.yaml", text},
      {"fuzz/base.yaml", "distro: Ubuntu-22.04\npython: { version: \"3.10\" }\n"},
      {"fuzz/self.yaml", text},  // lets the input extend itself: a cycle the loader must catch
  });
  auto root = resolver.open("fuzz/profile.yaml");
  if (!root) std::abort();
  ProfileLoadOptions options;
  options.overrides = {"wsl.memory=8GB"};
  ProfileLoadResult loaded = load_profile(*root, resolver, options);
  if (!loaded.profile) return 0;
  for (const auto& issue : loaded.issues) (void)issue.to_string();
  (void)flatten_profile(*loaded.profile);

  // Whatever loaded must emit to YAML that loads back to the same settings.
  const std::string emitted = emit_profile(*loaded.profile);
  InMemoryProfileResolver again({{"again.yaml", emitted}});
  ProfileLoadOptions raw;
  raw.apply_builtin_defaults = false;
  raw.validate = false;
  ProfileLoadResult reloaded = load_profile(*again.open("again.yaml"), again, raw);
  if (!reloaded.profile || has_errors(reloaded.issues)) std::abort();
  if (emit_profile(*reloaded.profile) != emitted) std::abort();
  return 0;
}
