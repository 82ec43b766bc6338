#pragma once
// `tfwsl profile export`'s file: where the machine matches a built-in profile, the short form a team
// keeps in its repository (`extends: builtin:NAME` and only what differs from it), else the
// self-contained one. Either way what is written loads as a valid profile in which `profile diff`
// on the same machine finds no drift: the short form is loaded back and checked before it is used.

#include <string>
#include <vector>

#include "common/profile/profile.hpp"
#include "common/profile/profile_machine_facts.hpp"

namespace tfwsl {

// A required key the exported profile lacks because the machine does not show it (no TensorFlow
// installed): said in export's own words, not as an error of a file the user is not writing.
struct ExportMissingKey {
  std::string key;  // "tensorflow.version"
  std::string why;  // "this machine has no TensorFlow installed"
};

struct ExportedProfile {
  std::string text;                       // the YAML to write
  std::string extends;                    // "builtin:tf-2.15-cuda-12.2" for the short form; empty when self-contained
  Profile profile;                        // what `text` loads as (the merged profile for the short form), to validate
  std::vector<ExportMissingKey> missing;  // required keys neither the machine nor the base gives
};

// `profile export --base PROFILE`: the profile the export extends, filling what the machine does
// not show. `reference` is what the file's `extends:` says (builtin:NAME, or a path relative to the
// written file); `profile` the base as loaded and merged.
struct ExportBase {
  std::string reference;
  Profile profile;
};

// Without a base, a built-in profile matches when its TensorFlow specifier allows the installed
// release and its CUDA toolkit, cuDNN and Python series are the machine's (a cuDNN the machine does
// not show outside TensorFlow's wheels does not stand in the way). With a base, the file extends it
// and sets only the machine's values that differ from it.
ExportedProfile export_machine_profile(const ProfileMachineFacts& machine, const std::string& name,
                                       const ExportBase* base = nullptr);

}  // namespace tfwsl
