#include <unistd.h>

#include <boost/process.hpp>
#include <boost/process/extend.hpp>

#include "common/process/contained_child.hpp"
#include "common/process/process_launch.hpp"

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
  const pid_t parent = ::getpid();
  // Last, after the pipes are in place: the guardian closes its copies, the program keeps them.
  auto contain = bp::extend::on_exec_setup([parent](auto&) { contain_child(parent, ParentDeath::kill_group); });
  return bp::child(bp::exe(program.string()), bp::args(args), bp::std_out > launch.out.pipe(),
                   bp::std_err > launch.err.pipe(), bp::std_in < boost::asio::buffer(launch.input), environment,
                   bp::start_dir(start_dir.string()), bp::error(launch.error), ios, contain);
}

bool child_has_ended(bp::child& child) { return has_ended(child.id()); }

void end_child_tree(bp::child& child) { kill_group(child.id()); }

}  // namespace tfwsl
