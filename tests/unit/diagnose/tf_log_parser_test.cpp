#include <catch2/catch.hpp>

#include "common/parse/ldconfig_parser.hpp"
#include "common/parse/tf_log_parser.hpp"

using namespace tfwsl::parse;

TEST_CASE("tf log: GPU count from the forms TF prints") {
  CHECK(parse_tf_log("Num GPUs Available:  3\n").gpu_count == 3);
  CHECK(parse_tf_log("[PhysicalDevice(name='/physical_device:GPU:0', device_type='GPU')]\n").gpu_count == 1);
  CHECK(parse_tf_log("2021-01-01 10:00:00.1: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1862] Adding visible gpu devices: 0, 1\n")
            .gpu_count == 2);
  CHECK(parse_tf_log("I x.cc:1] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 21000 MB memory\n"
                     "I x.cc:1] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 21000 MB memory\n")
            .gpu_count == 1);
  CHECK(parse_tf_log("W gpu_device.cc:2251] Cannot dlopen some GPU libraries.\nSkipping registering GPU devices...\n[]\n").gpu_count == 0);
  CHECK_FALSE(parse_tf_log("[]\nnothing else\n").gpu_count.has_value());
}

TEST_CASE("tf log: cuDNN versions and the libraries that could not be opened") {
  auto r = parse_tf_log(
      "E0000 00:00:1738697930.2 7665 cuda_dnn.cc:522] Loaded runtime CuDNN library: 9.1.0 but source was compiled with: 9.3.0.  CuDNN ...\n"
      "W dso_loader.cc:64] Could not load dynamic library 'libcudnn.so.8'; dlerror: libcudnn.so.8: cannot open shared object file: No such file or directory\n"
      "Could not load library libcudnn_cnn_infer.so.8. Error: libcuda.so: cannot open shared object file: No such file or directory\n");
  CHECK(r.cudnn_runtime == "9.1.0");
  CHECK(r.cudnn_compiled == "9.3.0");
  REQUIRE(r.missing_libraries.size() == 2);
  CHECK(r.missing_libraries[0] == "libcudnn.so.8");
  CHECK(r.missing_libraries[1] == "libcuda.so");
}

TEST_CASE("tf log: the recogniser tells TF logs from other text") {
  CHECK(looks_like_tf_log("2023-07-12 14:59:25.2: I tensorflow/compiler/xla/stream_executor/cuda/cuda_gpu_executor.cc:981] could not open file to read NUMA node\n") >= 0.75);
  CHECK(looks_like_tf_log("numpy==1.2\nscipy\n") == 0.0);
  CHECK(looks_like_tf_log("error: libfoo.so: cannot open shared object file\n") >= 0.5);
}

TEST_CASE("ldconfig: warnings, cache lines and WSL's library folder") {
  auto r = parse_ldconfig("/sbin/ldconfig.real: /usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\n"
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
