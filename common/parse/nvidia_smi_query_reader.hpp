#pragma once
// `nvidia-smi -q` / `nvidia-smi -a`: the "==============NVSMI LOG==============" report of padded
// "Label : value" lines, nested under section headings ("Driver Model" / "Current : WDDM",
// "FB Memory Usage" / "Total : 8192 MiB"), one "GPU 00000000:01:00.0" block per GPU. It gives the
// same facts as the table: driver and CUDA version, and per GPU its name, driver model and memory.

#include <string>
#include <string_view>

#include "common/parse/nvidia_smi_parser.hpp"

namespace tfwsl::parse {

class NvidiaSmiQueryReader {
 public:
  // Reads one line (already unwrapped); true when it belonged to a query report, which the caller
  // then does not read as a table or CSV line.
  bool read(std::string_view line, NvidiaSmiResult& result);
  // Ends the report: the last GPU block goes into `result.gpus`.
  void finish(NvidiaSmiResult& result);

 private:
  bool m_active = false;  // a report was recognised ("NVSMI LOG", "Attached GPUs", "Product Name")
  std::string m_section;  // the last heading without a value ("driver model", "fb memory usage")
  bool m_has_gpu = false;
  NvidiaGpu m_gpu;
};

}  // namespace tfwsl::parse
