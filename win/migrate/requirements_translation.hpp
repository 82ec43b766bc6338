#pragma once
// The requirement files for the WSL venv (docs/migrate.md, "What is translated and why"): TensorFlow
// becomes tensorflow[and-cuda] at the target series, Windows-only and conda CUDA packages are
// dropped (each for a reason in profiles/migrate.yaml), a Keras 2 project on TF >= 2.16 gets
// tf-keras, everything else stays as written, comments and order included. Each file's result is
// a sibling (requirements.txt -> requirements.wsl.txt): the user's files are never overwritten.

#include <string>
#include <string_view>
#include <vector>

#include "win/migrate/migrate_facts.hpp"
#include "win/migrate/project_scan.hpp"
#include "win/migrate/tf_decision.hpp"

namespace tfwsl::migrate {

struct TranslatedRequirement {
  std::string from;  // as written: "tensorflow-gpu==2.10.0"
  std::string to;    // "tensorflow[and-cuda]==2.15.*"
  std::string file;
  int line = 0;
  // The exact pin ("==2.16.1") that the target's series ("==2.16.*") replaces: the plan says so, a
  // decision with a consequence. Empty when the line was no exact pin.
  std::string widened_pin = {};
};

struct DroppedRequirement {
  std::string package;  // PEP 503: "tensorflow-directml-plugin"
  std::string file;
  int line = 0;
  std::string reason;
};

struct FileTranslation {
  std::string source;  // "requirements.txt"
  std::string target;  // "requirements.wsl.txt"
  std::string text;    // the translated file
  bool changed = false;
};

struct Translation {
  std::vector<FileTranslation> files;
  std::vector<TranslatedRequirement> translated;
  std::vector<DroppedRequirement> dropped;
  std::vector<std::string> kept;   // PEP 503 names, each once, in the order first seen
  std::vector<std::string> added;  // "tf-keras==2.16.*"
  std::string diff;                // the changes, unified-diff style
};

Translation translate_requirements(const ProjectScan& scan, const TfDecision& decision, const MigrateFacts& facts);

// "requirements.txt" -> "requirements.wsl.txt", "environment.yml" -> "environment.wsl.yml",
// "Pipfile" -> "Pipfile.wsl".
std::string translated_path(std::string_view path);

}  // namespace tfwsl::migrate
