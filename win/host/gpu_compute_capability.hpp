#pragma once
// The GPUs' compute capability as nvidia-smi reports it, read before anything is installed (a
// Blackwell GPU, 12.0, runs no stock TensorFlow wheel). A query of its own,
// `--query-gpu=name,compute_cap`, never a field added to the driver query (host_probe.hpp): a driver
// whose nvidia-smi predates the field (470.x: `Field "compute_cap" is not a valid field to query.`,
// exit 2; huggingface/candle#733, canonical/inference-snaps#128) rejects the whole query, and the
// driver facts must not be lost with it. Not readable is an answer too: the plan says the GPU was
// not checked and goes on.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "common/process/process_runner.hpp"

namespace tfwsl::host {

struct GpuComputeCapability {
  std::string name;  // "NVIDIA GeForce RTX 5090"
  int major = 0, minor = 0;
};

struct GpuReading {
  bool checked = false;                    // every GPU line had a compute capability
  std::vector<GpuComputeCapability> gpus;  // when checked
  std::string not_checked;                 // when not: why ("nvidia-smi.exe was not found")
  std::string source;                      // the nvidia-smi that answered
};

// nvidia-smi's argv: "NAME, M.m" per GPU.
std::vector<std::string> nvidia_smi_compute_cap_argv(const std::string& exe);

// "NVIDIA GeForce RTX 5090, 12.0" lines -> GPUs; nothing when no line has that shape or one GPU's
// capability is not a number ("[N/A]", or an old driver's `Field "compute_cap" is not a valid
// field to query.`): a GPU left out would be a GPU not checked.
std::optional<std::vector<GpuComputeCapability>> parse_compute_cap_query(const std::string& csv);

// The first candidate (host::nvidia_smi_candidates) that starts answers; a timeout, a failing exit
// or output without capabilities is "not checked" with the reason.
GpuReading read_gpu_compute_capabilities(ProcessRunner& runner, const std::vector<std::string>& candidates,
                                         std::chrono::milliseconds timeout = std::chrono::seconds(15));

}  // namespace tfwsl::host
