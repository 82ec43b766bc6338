#include "common/process/process_launch.hpp"

#include <boost/process.hpp>

namespace bp = boost::process;

namespace tfwsl {

bool names_a_path(const std::string& name) { return name.find('/') != std::string::npos; }

bp::child start_child(const ProcessRequest& request, const std::filesystem::path& program, ChildLaunch& launch,
                      boost::asio::io_context& ios) {
  // A copy: this_process::environment() is the live environment, and setting a key there would
  // setenv() in this process (racing every other thread that reads its environment).
  bp::environment environment = boost::this_process::environment();
  for (const auto& [key, value] : request.env) environment[key] = value;
  auto start_dir = request.working_directory.value_or(std::filesystem::current_path());
  std::vector<std::string> args(request.argv.begin() + 1, request.argv.end());
  return bp::child(bp::exe(program.string()), bp::args(args), bp::std_out > launch.out, bp::std_err > launch.err,
                   bp::std_in < boost::asio::buffer(launch.input), environment, bp::start_dir(start_dir.string()),
                   bp::error(launch.error), ios);
}

}  // namespace tfwsl
