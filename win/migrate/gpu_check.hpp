#pragma once
// The plan's GPU check: the GPUs read on this machine (host::GpuReading, gathered by the CLI) put to
// the judge that `tfwsl-agent provision` asks (judge::stock_wheels_cannot_run), so a plan whose
// target installs the stock pip TensorFlow is refused before anything changes on a GPU no stock
// wheel runs on (Blackwell), with the way that does (NVIDIA's container). A GPU not read is said
// and not judged.

#include <optional>
#include <string>

#include "win/host/gpu_compute_capability.hpp"
#include "win/migrate/tf_decision.hpp"

namespace tfwsl::migrate {

struct GpuCheck {
  host::GpuReading reading;
  bool judged = false;                 // read, and a target profile to judge it for
  std::optional<std::string> summary;  // refused: the judge's summary ("NVIDIA GeForce RTX 5090 (12.0): no pip ...")
  std::optional<std::string> fix;      // refused: the way that works
  bool refused() const { return summary.has_value(); }
};

// Judged only for a target (a plan that would provision stock wheels), under that profile's policy.
GpuCheck check_gpu(const host::GpuReading& reading, const std::optional<ShippedProfile>& target);

// The problem line of a refused check ("the GPU: ...; nothing was changed: ..."); empty when not refused.
std::string gpu_problem(const GpuCheck& check);

}  // namespace tfwsl::migrate
