#include "common/parse/tf_log_parser.hpp"

#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "common/parse/ldconfig_parser.hpp"

using namespace tfwsl::parse;

TEST_CASE("tf log: GPU count from the forms TF prints") {
  CHECK(parse_tf_log("Num GPUs Available:  3\n").gpu_count == 3);
  CHECK(parse_tf_log("[PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')]\n").gpu_count == 1);
  CHECK(parse_tf_log("2021-01-01 10:00:00.1: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1862] Adding visible "
                     "gpu devices: 0, 1\n")
            .gpu_count == 2);
  CHECK(parse_tf_log("I x.cc:1] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 21000 MB memory\n"
                     "I x.cc:1] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 21000 MB memory\n")
            .gpu_count == 1);
  CHECK(
      parse_tf_log("W gpu_device.cc:2251] Cannot dlopen some GPU libraries.\nSkipping registering GPU devices...\n[]\n")
          .gpu_count == 0);
  CHECK_FALSE(parse_tf_log("[]\nnothing else\n").gpu_count.has_value());
}

TEST_CASE("tf log: cuDNN versions and the libraries that could not be opened") {
  auto r = parse_tf_log(
      "E0000 00:00:1738697930.2 7665 cuda_dnn.cc:522] Loaded runtime CuDNN library: 9.1.0 but source was compiled "
      "with: 9.3.0.  CuDNN ...\n"
      "W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared "
      "object file: No such file or directory\n"
      "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared object file: No such file "
      "or directory\n");
  CHECK(r.cudnn_runtime == "9.1.0");
  CHECK(r.cudnn_compiled == "9.3.0");
  REQUIRE(r.missing_libraries.size() == 2);
  CHECK(r.missing_libraries[0] == "libcudnn.so.8");
  CHECK(r.missing_libraries[1] == "libcuda.so");
}

TEST_CASE("tf log: the recogniser tells TF logs from other text") {
  CHECK(looks_like_tf_log(
            "2023-07-12 14:59:25.2: I tensorflow/compiler/xla/stream_executor/cuda/cuda_gpu_executor.cc:981] could not "
            "open file to read NUMA node\n") >= 0.75);
  CHECK(looks_like_tf_log("numpy==1.2\nscipy\n") == 0.0);
  CHECK(looks_like_tf_log("error: libfoo.so: cannot open shared object file\n") >= 0.5);
}

TEST_CASE("ldconfig: warnings, cache lines and WSL's library folder") {
  auto r = parse_ldconfig(
      "/sbin/ldconfig.real: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\n"
      "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/wsl/lib/libcuda.so.1\n"
      "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1\n");
  REQUIRE(r.not_symlink.size() == 1);
  CHECK(r.not_symlink[0] == "/usr/lib/wsl/lib/libcuda.so.1");
  CHECK(r.cache.size() == 2);
  CHECK(r.libcuda_in_wsl_lib);
  CHECK(r.libcuda_elsewhere);
  auto listing = parse_ldconfig("``libd3d12.so  libd3d12core.so  libdirectml.so  libdxcore.so``\n");
  CHECK(listing.wsl_lib_files.size() == 4);
  CHECK_FALSE(listing.libcuda_in_wsl_lib);
  CHECK(looks_like_ldconfig("/sbin/ldconfig.real: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\n") >= 0.85);
  CHECK(looks_like_ldconfig("modprobe: FATAL: Module nvidia not found\n", {"lsmod | grep nvidia"}) >= 0.7);
  CHECK(looks_like_ldconfig("hello\n") == 0.0);
}

TEST_CASE("tf log: a value cut with '...' or left empty is no fact") {
  auto cut = parse_tf_log(
      "I0000 cuda_dnn.cc:522] Loaded runtime CuDNN library: 9.1... but source was compiled with: ...\n"
      "W dso_loader.cc:64] Could not load dynamic library '...'; dlerror: ...: cannot open shared object file\n"
      "W dso_loader.cc:64] dlerror: libcud\xE2\x80\xA6: cannot open shared object file: No such file or directory\n"
      "Num GPUs Available: 1...\n"
      "Successfully installed tensorflow-2.1...whl\n");
  CHECK_FALSE(cut.cudnn_runtime.has_value());
  CHECK_FALSE(cut.cudnn_compiled.has_value());
  CHECK(cut.missing_libraries.empty());
  CHECK_FALSE(cut.gpu_count.has_value());
  CHECK_FALSE(cut.tf_version.has_value());
  CHECK(to_json(cut).empty());
  // A line cut right after its label gives nothing either; a sentence's own full stop is no cut.
  auto empty = parse_tf_log("Loaded runtime CuDNN library: \n");
  CHECK_FALSE(empty.cudnn_runtime.has_value());
  auto whole = parse_tf_log(
      "Loaded runtime CuDNN library: 8.1.0 but source was compiled with: 8.6.0.\n"
      "pip download tensorflow-2.15.0-cp311-cp311-manylinux_2_17_x86_64.whl\n");
  CHECK(whole.cudnn_runtime == std::optional<std::string>("8.1.0"));
  CHECK(whole.cudnn_compiled == std::optional<std::string>("8.6.0"));
  CHECK(whole.tf_version == std::optional<std::string>("2.15.0"));
}

TEST_CASE("ldconfig: a cache line is a record only when its path ends in its name") {
  // Cut pastes: a path that stops short said "libcuda elsewhere"; a line cut after "=>" passed for
  // an `ls` of WSL's folder and said "libcuda in /usr/lib/wsl/lib".
  auto cut = parse_ldconfig(
      "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/wsl/li...\n"
      "\tlibcuda.so.1 (libc6,x86-64) =>\n"
      "/sbin/ldconfig.real: ... is not a symbolic link\n");
  CHECK(cut.cache.empty());
  CHECK(cut.not_symlink.empty());
  CHECK_FALSE(cut.libcuda_elsewhere);
  CHECK_FALSE(cut.libcuda_in_wsl_lib);
  CHECK(cut.wsl_lib_files.empty());
  auto quoted = parse_ldconfig("`libcuda.so.1 (libc6,x86-64) => /usr/lib/wsl/lib/libcuda.so.1`\n");
  REQUIRE(quoted.cache.size() == 1);
  CHECK(quoted.cache[0].path == "/usr/lib/wsl/lib/libcuda.so.1");
  CHECK(quoted.libcuda_in_wsl_lib);
}

// fuzz_tf_log found a listed "library" made of NULs, bytes and a run of dots before ".so": a file
// name is only what ls prints in full, so a cut ("libdxcore....so", "libd3d1…so") or a word of other
// bytes lists nothing.
TEST_CASE("ldconfig: a listed library name is a whole file name, never a cut or a run of bytes") {
  const char raw[] =
      "``libd3d12.so  libd3\0\0\0d1\xfe\xff\xff\xf2"
      "2cor.........e.so  libdxcore.so``\n";
  auto fuzzed = parse_ldconfig(std::string(raw, sizeof raw - 1));
  CHECK(fuzzed.wsl_lib_files == std::vector<std::string>{"libd3d12.so", "libdxcore.so"});
  auto cut = parse_ldconfig("libcuda.so  libcuda.so.1  libdxcore....so  libd3d1\xE2\x80\xA6so  libnvidia-ml.so.1\n");
  CHECK(cut.wsl_lib_files == std::vector<std::string>{"libcuda.so", "libcuda.so.1", "libnvidia-ml.so.1"});
}
