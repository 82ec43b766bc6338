#include "common/profile/profile_extends.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace tfwsl {

std::vector<ProfileLayer> read_extends_chain(const ProfileText& root, ProfileResolver& resolver, std::size_t max_depth,
                                             std::vector<ProfileIssue>& issues) {
  std::vector<ProfileLayer> layers;
  std::vector<std::string> chain{root.id};
  std::vector<std::string> chain_names{root.display_name};
  ProfileText current = root;
  for (;;) {
    auto layer = read_profile_layer(current, issues);
    if (!layer) break;
    const Setting<std::string> extends = layer->extends;
    layers.push_back(std::move(*layer));
    if (!extends.has_value()) break;
    const SourceLocation at = extends.where;
    if (layers.size() > max_depth) {
      issues.push_back({IssueSeverity::error, at, fmt::format("extends goes more than {} files deep", max_depth),
                        "extend a profile that extends fewer files"});
      break;
    }
    auto next = resolver.resolve(current, *extends);
    if (!next) {
      issues.push_back({IssueSeverity::error, at, fmt::format("extends '{}': {}", *extends, next.error().message),
                        "point extends at an existing profile, relative to this file (or builtin:NAME)"});
      break;
    }
    if (std::find(chain.begin(), chain.end(), next->id) != chain.end()) {
      std::string cycle;
      for (const auto& n : chain_names) cycle += n + " -> ";
      cycle += next->display_name;
      issues.push_back({IssueSeverity::error, at, fmt::format("extends cycle: {}", cycle),
                        "remove the extends that leads back to a file already in the chain"});
      break;
    }
    chain.push_back(next->id);
    chain_names.push_back(next->display_name);
    current = std::move(*next);
  }
  return layers;
}

}  // namespace tfwsl
