// render_text (common/check/check_text.cpp): one line per category, whatever folded, and its mark the
// worst of its checks, the folded ones included.
#include <catch2/catch.hpp>
#include <string>

#include "common/check/check.hpp"

using namespace tfwsl;

namespace {

// The TCC GPU of docs/samples/tcc-gpu.txt: the Windows check fails, two GPU checks are its echoes.
Report tcc_gpu_report() {
  Report report;
  report.checks.push_back(
      make_check("host.gpu-driver-model", CheckStatus::fail, "RTX A6000 runs in TCC mode", "switch it to WDDM"));
  report.checks.push_back(make_check("gpu.visible", CheckStatus::fail, "no GPU visible to CUDA: CUDA_ERROR_NO_DEVICE"));
  report.checks.back().blocked_by = "host.gpu-driver-model";
  report.checks.push_back(make_check("gpu.compute-capability", CheckStatus::skip, "no GPU to check"));
  report.checks.back().blocked_by = "host.gpu-driver-model";
  report.checks.push_back(make_check("cuda.toolkit", CheckStatus::ok, "CUDA toolkit 12.2.140"));
  report.checks.push_back(
      make_check("gpu.driver-parity", CheckStatus::ok, "Windows and WSL see the same driver, 546.80"));
  return report;
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a category whose checks folded under another's fault has one line, marked by its worst check") {
  RenderOptions wide;
  wide.width = 200;  // one line each, so that the test reads them whole
  const std::string text = render_text(tcc_gpu_report(), wide);
  INFO(text);
  CHECK(count_of(text, "] GPU: ") == 1);  // before: three lines, one per folded check of the category
  CHECK(text.find("[\xE2\x9C\x97] GPU: Windows and WSL see the same driver, 546.80") != std::string::npos);
  CHECK(text.find("[\xE2\x9C\x93] GPU") == std::string::npos);  // before: ✓ although gpu.visible fails
  CHECK(text.find("1 failing because of host.gpu-driver-model") != std::string::npos);
  CHECK(text.find("CUDA_ERROR_NO_DEVICE") == std::string::npos);  // the echo itself stays folded
  CHECK(count_of(text, "] CUDA") == 1);
}
