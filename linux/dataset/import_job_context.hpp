#pragma once
// What every phase of a running job reports to: the port its risky calls go through, the progress,
// the problem list and the stop. The job owns them; the phases hold this by reference.

#include "linux/dataset/import_files.hpp"
#include "linux/dataset/import_job_stop.hpp"
#include "linux/dataset/import_problems.hpp"
#include "linux/dataset/progress.hpp"

namespace tfwsl::dataset::import_detail {

struct JobContext {
  ImportFiles& files;
  ProgressTracker& progress;
  ProblemList& problems;
  JobStop& stop;
};

}  // namespace tfwsl::dataset::import_detail
