#include "common/judge/judge_table.hpp"

#include "common/check/check_rows.hpp"
#include "common/judge/verdict_parts.hpp"

namespace tfwsl::judge {
namespace {

using namespace detail;
using In = const JudgeInput&;

constexpr CheckJudge k_judges[] = {
    {checked_id("linux.dxg"), [](In in) { return check_dxg(in.facts); }, nullptr},
    {checked_id("linux.libcuda"), [](In in) { return check_libcuda(in.facts, in.policy); }, nullptr},
    {checked_id("linux.no-linux-driver"), [](In in) { return check_no_linux_driver(in.facts); }, nullptr},
    {checked_id("linux.ldconfig"), [](In in) { return check_ldconfig(in.facts); }, nullptr},
    {checked_id("gpu.visible"), [](In in) { return check_gpu_visible(in.facts); }, nullptr},
    {checked_id("gpu.compute-capability"), [](In in) { return check_compute_capability(in.facts, in.policy); },
     nullptr},
    {checked_id("cuda.toolkit"), [](In in) { return check_toolkit(in.facts, in.policy); },
     [](In in) { return toolkit_values(in.facts, in.policy); }},
    {checked_id("cudnn"), [](In in) { return check_cudnn(in.facts, in.policy); },
     [](In in) { return cudnn_values(in.facts, in.policy); }},
    {checked_id("python.version"), [](In in) { return check_python(in.facts, in.policy); },
     [](In in) { return python_values(in.facts, in.policy); }},
    {checked_id("tf.installed"), [](In in) { return check_tf_installed(in.facts, in.policy); },
     [](In in) { return tf_values(in.facts, in.policy); }},
    {checked_id("tf.build"), [](In in) { return check_tf_build(in.facts, in.policy); }, nullptr},
    {checked_id("tf.gpu"), [](In in) { return check_tf_gpu(in.facts, in.policy); }, nullptr},
    {checked_id("mem.effective"), [](In in) { return check_memory(in.facts, in.windows_memory); },
     [](In in) { return memory_values(in.facts, in.windows_memory); }},
    {checked_id("disk.free"), [](In in) { return check_disk(in.facts, in.policy); },
     [](In in) { return disk_values(in.facts, in.policy); }},
    {checked_id("data.location"), [](In in) { return check_data_location(in.facts); }, nullptr},
};

}  // namespace

std::span<const CheckJudge> check_judges() { return k_judges; }

}  // namespace tfwsl::judge
