// import_failure_hint (win/migrate/import_failure_hint.hpp): why migrate's import check failed, from
// the last lines tfwsl-agent venv verify returns. The tracebacks are CPython 3.10's own format
// (https://docs.python.org/3/library/traceback.html), as `python -c "import train"` prints them.
#include "win/migrate/import_failure_hint.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using tfwsl::migrate::import_failure_hint;

TEST_CASE("a module that loads its data at import: the hint says top-level code, and the Windows path",
          "[migrate][import]") {
  const std::vector<std::string> output = {
      "Traceback (most recent call last):",
      "  File \"<string>\", line 1, in <module>",
      "  File \"/home/ada/projects/flowers/train.py\", line 9, in <module>",
      "    images = np.load(\"D:\\\\data\\\\flowers\\\\images.npy\")",
      "  File \"/home/ada/.venvs/tf-2.15/lib/python3.10/site-packages/numpy/lib/npyio.py\", line 427, in load",
      "    fid = stack.enter_context(open(os_fspath(file), \"rb\"))",
      "FileNotFoundError: [Errno 2] No such file or directory: 'D:\\\\data\\\\flowers\\\\images.npy'"};
  const auto hint = import_failure_hint(output, "train");
  REQUIRE(hint);
  CHECK(hint->find("loading train runs its top-level code, and that code raised FileNotFoundError") !=
        std::string::npos);
  CHECK(hint->find("if __name__ == \"__main__\":") != std::string::npos);
  CHECK(hint->find("Windows path") != std::string::npos);
  CHECK(hint->find("tfwsl-paths.json") != std::string::npos);
}

TEST_CASE("TensorFlow's own file error at load time is a file error too, and a Linux path is not called Windows",
          "[migrate][import]") {
  const std::vector<std::string> output = {
      "  File \"/home/ada/projects/p/model.py\", line 4, in <module>",
      "tensorflow.python.framework.errors_impl.NotFoundError: /home/ada/projects/p/weights.h5; No such file or "
      "directory"};
  const auto hint = import_failure_hint(output, "model");
  REQUIRE(hint);
  CHECK(hint->find("raised NotFoundError") != std::string::npos);
  CHECK(hint->find("a file at load time that is not there in WSL") != std::string::npos);
  CHECK(hint->find("Windows path") == std::string::npos);
}

TEST_CASE("a missing module is the venv's, any other error is top-level code, no exception no hint",
          "[migrate][import]") {
  auto hint = import_failure_hint({"Traceback (most recent call last):", "  File \"<string>\", line 1, in <module>",
                                   "ModuleNotFoundError: No module named 'cv2'"},
                                  "train");
  REQUIRE(hint);
  CHECK(hint->find("imports a module the venv does not have") != std::string::npos);
  hint = import_failure_hint(
      {"  File \"/p/train.py\", line 3, in <module>", "    raise ValueError(\"bad\")", "ValueError: bad"}, "train.py");
  REQUIRE(hint);
  CHECK(hint->find("loading train.py runs its top-level code, and that code raised ValueError") != std::string::npos);
  CHECK(hint->find("Windows path") == std::string::npos);
  CHECK_FALSE(import_failure_hint({"import train ran past 120 s and was stopped"}, "train"));
  CHECK_FALSE(import_failure_hint({}, "train"));
}
