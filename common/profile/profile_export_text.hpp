#pragma once
// `tfwsl profile export`'s file: where the machine matches a built-in profile, the short form a team
// keeps in its repository (`extends: builtin:NAME` and only what differs from it), else the
// self-contained one. Either way what is written loads as a valid profile in which `profile diff`
// on the same machine finds no drift: the short form is loaded back and checked before it is used.

#include <string>

#include "common/profile/profile.hpp"
#include "common/profile/profile_machine_facts.hpp"

namespace tfwsl {

struct ExportedProfile {
  std::string text;     // the YAML to write
  std::string extends;  // "builtin:tf-2.15-cuda-12.2" for the short form; empty when self-contained
  Profile profile;      // what `text` loads as (the merged profile for the short form), to validate
};

// A built-in profile matches when its TensorFlow specifier allows the installed release and its
// CUDA toolkit, cuDNN and Python series are the machine's (a cuDNN the machine does not show outside
// TensorFlow's wheels does not stand in the way).
ExportedProfile export_machine_profile(const ProfileMachineFacts& machine, const std::string& name);

}  // namespace tfwsl
