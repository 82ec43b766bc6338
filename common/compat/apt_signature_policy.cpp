#include "common/compat/apt_signature_policy.hpp"

#include <fmt/format.h>

#include "common/compat/compat_db.hpp"
#include "common/compat/ubuntu_release.hpp"
#include "common/core/builtin_data.hpp"
#include "common/util/yaml_document.hpp"

namespace tfwsl {
namespace {

Result<std::string> policy_text(const YAML::Node& node, const char* key, std::string_view source) {
  auto text = yaml_scalar(node[key]);
  if (!text || text->empty())
    return make_error(ErrorCode::parse,
                      fmt::format("{}: '{}' is missing or not a value", yaml_position(source, node.Mark()), key));
  return *text;
}

Result<SqvDistro> read_distro(const YAML::Node& node, std::string_view source) {
  TFWSL_TRY(distro, policy_text(node, "distro", source));
  TFWSL_TRY(apt, policy_text(node, "apt", source));
  TFWSL_TRY(cited, policy_text(node, "source", source));
  return SqvDistro{distro, apt, cited};
}

Result<SignedRepository> read_repository(const YAML::Node& node, std::string_view source) {
  TFWSL_TRY(id, policy_text(node, "id", source));
  TFWSL_TRY(url, policy_text(node, "url", source));
  TFWSL_TRY(key, policy_text(node, "key", source));
  TFWSL_TRY(refused, policy_text(node, "refused_by_sqv", source));
  TFWSL_TRY(cited, policy_text(node, "source", source));
  if (refused != "true" && refused != "false")
    return make_error(ErrorCode::parse,
                      fmt::format("{}: refused_by_sqv must be true or false", yaml_position(source, node.Mark())));
  return SignedRepository{id, url, key, refused == "true", cited};
}

}  // namespace

const SqvDistro* AptSignaturePolicy::sqv_distro(std::string_view distro, std::string_view default_ubuntu) const {
  if (distro == "Ubuntu") distro = default_ubuntu;
  for (const auto& entry : distros)
    if (entry.distro == distro) return &entry;
  return nullptr;
}

const SignedRepository* AptSignaturePolicy::repository(std::string_view id) const {
  for (const auto& entry : repositories)
    if (entry.id == id) return &entry;
  return nullptr;
}

const SignedRepository* AptSignaturePolicy::repository_of_url(std::string_view url) const {
  for (const auto& entry : repositories)
    if (url.rfind(entry.url, 0) == 0) return &entry;
  return nullptr;
}

Result<AptSignaturePolicy> load_apt_signature_policy(std::string_view yaml, std::string_view source_name) {
  TFWSL_TRY(root, parse_yaml_document(yaml, source_name));
  if (yaml_scalar(root["schema"]).value_or("") != "1")
    return make_error(ErrorCode::parse, fmt::format("{}: schema must be 1", source_name));
  AptSignaturePolicy policy;
  TFWSL_TRY(from, policy_text(root, "sha1_rejected_from", source_name));
  policy.sha1_rejected_from = from;
  for (const auto& node : root["distros"]) {
    TFWSL_TRY(distro, read_distro(node, source_name));
    policy.distros.push_back(std::move(distro));
  }
  for (const auto& node : root["repositories"]) {
    TFWSL_TRY(repository, read_repository(node, source_name));
    policy.repositories.push_back(std::move(repository));
  }
  return policy;
}

const AptSignaturePolicy& builtin_apt_signature_policy() {
  static const AptSignaturePolicy policy = builtin_or_abort(
      load_apt_signature_policy(builtin_apt_signatures_yaml(), "profiles/apt-signatures.yaml (built in)"),
      "apt signature policy");
  return policy;
}

std::optional<std::string> cuda_repository_refusal(std::string_view distro, const AptSignaturePolicy& policy) {
  const auto& db = builtin_compat_db();
  const Version ubuntu = db.wsl_default_ubuntu();
  const std::string default_ubuntu = fmt::format("Ubuntu-{}", ubuntu_release_text(ubuntu));
  const SqvDistro* sqv = policy.sqv_distro(distro, default_ubuntu);
  const SignedRepository* cuda = policy.repository("cuda");
  if (!sqv || !cuda || !cuda->refused_by_sqv) return std::nullopt;
  return fmt::format(
      "{}'s apt {} refuses NVIDIA's CUDA repository: its key {} is bound by SHA1, which apt's sqv rejects since {} "
      "({})",
      distro, sqv->apt, cuda->key.substr(cuda->key.size() - 8), policy.sha1_rejected_from, cuda->source);
}

}  // namespace tfwsl
