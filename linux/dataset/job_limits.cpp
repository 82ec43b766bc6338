#include "linux/dataset/job_limits.hpp"

#include <algorithm>

#include "linux/dataset/tree_scan.hpp"

namespace tfwsl::dataset {

unsigned import_thread_cost(unsigned jobs) { return 1 + std::max(jobs, k_default_scan_threads); }

}  // namespace tfwsl::dataset
