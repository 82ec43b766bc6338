#include "common/judge/assess.hpp"

#include "common/judge/verdict_parts.hpp"

namespace tfwsl::judge {

Report assess(const agent_api::LinuxFacts& f, const CheckPolicy& p,
              const std::optional<WindowsMemory>& windows_memory) {
  using namespace detail;
  Report r;
  r.checks = {check_dxg(f),
              check_libcuda(f, p),
              check_no_linux_driver(f),
              check_ldconfig(f),
              check_gpu_visible(f),
              check_compute_capability(f, p),
              check_toolkit(f, p),
              check_cudnn(f, p),
              check_python(f, p),
              check_tf_installed(f, p),
              check_tf_build(f, p),
              check_tf_gpu(f, p),
              check_memory(f, windows_memory),
              check_disk(f, p),
              check_data_location(f)};
  attach_values(r.checks, f, p, windows_memory);
  return r;
}

}  // namespace tfwsl::judge
