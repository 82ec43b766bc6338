#pragma once
// "What is this paste?": every kind's recogniser scores the cleaned text (and the commands seen at
// its prompts); the best score of at least 0.5 wins, "unknown" otherwise.

#include <string>
#include <vector>

#include "common/parse/paste_cleaner.hpp"

namespace tfwsl::diagnose {

struct KindScore {
  std::string kind;  // wsl-list, wsl-status, wsl-version, nvidia-smi, tf-log, ldconfig, wslconfig, requirements
  double score = 0;
};

// Every kind with its score, best first.
std::vector<KindScore> score_kinds(const CleanedPaste& paste);

// The best kind of scores (as score_kinds orders them), or "unknown" when none reaches 0.5.
std::string kind_of(const std::vector<KindScore>& scores);

// The best kind, or "unknown" when no recogniser reaches 0.5.
std::string detect_kind(const CleanedPaste& paste);

}  // namespace tfwsl::diagnose
