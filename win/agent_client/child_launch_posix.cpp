#include "win/agent_client/child_launch.hpp"

namespace bp = boost::process;

namespace tfwsl::agent_client {

bp::child launch_child(const std::vector<std::string>& argv, const std::filesystem::path& program,
                       const std::map<std::string, std::string>& env, bp::ipstream& out, bp::ipstream& err,
                       bp::opstream& in) {
  // A copy: this_process::environment() is the live environment, and setting a key there would
  // setenv() in this process (racing every other thread that reads its environment).
  bp::environment environment = boost::this_process::environment();
  for (const auto& [k, v] : env) environment[k] = v;
  return bp::child(bp::exe(program.string()), bp::args(std::vector<std::string>(argv.begin() + 1, argv.end())),
                   bp::std_out > out, bp::std_err > err, bp::std_in < in, environment);
}

}  // namespace tfwsl::agent_client
