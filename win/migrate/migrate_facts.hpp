#pragma once
// The facts `tfwsl migrate` decides and translates by: which series it prefers, from which series
// tf.keras is Keras 3, what it drops and why, which TensorFlow distributions it renames, the Keras 2
// APIs that Keras 3 removed, and the dataset engine's measured speed. They live in
// profiles/migrate.yaml (each entry names its source) and are built into tfwsl.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"
#include "common/version/version.hpp"

namespace tfwsl::migrate {

struct DropRule {
  std::string package;  // PEP 503 name
  std::string reason;
  bool conda_only = false;   // only a conda package (environment.yml outside pip:)
  bool pinned_only = false;  // only when a version is pinned
  // It brought TensorFlow (the DirectML plugin requires tensorflow-cpu): where no requirement names
  // TensorFlow itself, the line becomes the target's TensorFlow instead of a dropped one.
  bool brings_tensorflow = false;
};

struct Rename {
  std::string from;  // tensorflow-gpu
  std::string to;    // tensorflow
};

struct KerasApi {
  std::string text;  // what to look for in code: "fit_generator("
  std::string what;  // what it is, for the report
};

struct ImportSpeed {
  double files_per_second = 0;
  double bytes_per_second = 0;
  std::string source;
};

struct MigrateFacts {
  Version preferred_series;  // 2.15
  Version keras3_from;       // 2.16
  std::vector<DropRule> drops;
  std::vector<Rename> renames;
  std::vector<KerasApi> keras2_only_apis;
  std::vector<std::string> tensorflow_lockstep;  // packages whose X.Y runs only with TensorFlow X.Y
  ImportSpeed import_speed;

  const DropRule* find_drop(std::string_view package) const;
  const Rename* find_rename(std::string_view package) const;
  // Whole seconds an import of this many files and bytes is estimated to take (at least 1 for any data).
  std::uint64_t estimate_seconds(std::uint64_t files, std::uint64_t bytes) const;
};

Result<MigrateFacts> load_migrate_facts(std::string_view yaml_text, std::string_view source_name);

// profiles/migrate.yaml as built in; a built-in file that fails to load is a build defect and
// aborts with the reason (a unit test loads it).
const MigrateFacts& builtin_migrate_facts();
std::string_view builtin_migrate_facts_yaml();

}  // namespace tfwsl::migrate
