#pragma once
// Facts of texts that are not TensorFlow's own output but say something tfwsl can name: the GPU's
// compute capability as another framework states it ("CUDA capability sm_120"), and the repository
// key apt's sqv rejected ("Signing key on EB69...3BF863CC is not bound"), with its owner when the
// signature base knows the key (constant nvidia_cuda_repo_key).

#include <nlohmann/json.hpp>
#include <string_view>

#include "common/diagnose/signature_base.hpp"

namespace tfwsl::diagnose {

// Adds `compute_capability` ("12.0", when the facts have none yet) and `apt_key`
// ({fingerprint, owner?}) found in the head of `text`.
void add_foreign_facts(std::string_view text, const SignatureBase& base, nlohmann::json& facts);

}  // namespace tfwsl::diagnose
