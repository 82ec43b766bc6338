// The shapes real pastes come in (issue 14, "Shapes to learn"), through the whole engine: kind,
// facts and the finding each shape must give.
#include <catch2/catch.hpp>
#include <string>

#include "common/diagnose/explain_engine.hpp"
#include "tests/unit/diagnose/explain_test_support.hpp"

using namespace tfwsl::diagnose;
using namespace tfwsl::test::explain;

TEST_CASE("shapes: TF 1.x-2.3 'Found device N with properties' lists the GPU, also after a CUDA init failure") {
  auto old =
      run("2019-05-01 10:00:00.1: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1433] Found device 0 with "
          "properties: \nname: TITAN RTX major: 7 minor: 5 memoryClockRate(GHz): 1.77\npciBusID: 0000:01:00.0\n"
          "2019-05-01 10:00:00.2: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1433] Found device 1 with "
          "properties: \nname: TITAN RTX major: 7 minor: 5 memoryClockRate(GHz): 1.77\n");
  CHECK(old.kind == "tf-log");
  CHECK(old.facts["gpu_count"] == 2);
  CHECK(has(old, "tf.gpu-listed"));
  auto mixed =
      run("2020-01-01 10:00:00.1: E tensorflow/stream_executor/cuda/cuda_driver.cc:318] failed call to cuInit: "
          "CUDA_ERROR_UNKNOWN: unknown error\n2020-01-01 10:00:01.1: I tensorflow/stream_executor/platform/"
          "default/dso_loader.cc:44] Successfully opened dynamic library libcudart.so.10.1\n2020-01-01 "
          "10:00:01.2: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1555] Found device 0 with properties: \n"
          "pciBusID: 0000:01:00.0 name: TITAN RTX computeCapability: 7.5\n");
  CHECK(mixed.facts["gpu_count"] == 1);
  CHECK(mixed.facts["compute_capability"] == "7.5");
  CHECK(has(mixed, "tf.gpu-listed"));
}

TEST_CASE("shapes: a Python REPL where libcuda.so fails while libcuda.so.1 loads") {
  auto e =
      run(">>> import ctypes\n>>> ctypes.cdll.LoadLibrary('libcuda.so.1')\n<CDLL 'libcuda.so.1', handle 1a2b at 0x7f>\n"
          ">>> ctypes.cdll.LoadLibrary('libcuda.so')\nTraceback (most recent call last):\n"
          "  File \"<stdin>\", line 1, in <module>\n"
          "OSError: libcuda.so: cannot open shared object file: No such file or directory\n");
  CHECK(e.kind == "tf-log");
  CHECK(has(e, "libcuda.unversioned-missing"));
  CHECK_FALSE(has(e, "libcuda.linux-driver"));
}

TEST_CASE("shapes: listings of WSL's GPU library folder, from PowerShell and from ls -l") {
  auto powershell = run(
      "PS C:\\> Get-ChildItem C:\\Windows\\System32\\lxss\\lib\n\n    Directory: C:\\Windows\\System32\\lxss\\lib\n\n"
      "Mode                 LastWriteTime         Length Name\n"
      "----                 -------------         ------ ----\n"
      "-a----         5/10/2024   3:00 PM         162016 libcuda.so\n"
      "-a----         5/10/2024   3:00 PM         162016 libcuda.so.1\n"
      "-a----         5/10/2024   3:00 PM         791232 libdxcore.so\n"
      "-a----         5/10/2024   3:00 PM        5541264 libd3d12.so\n");
  CHECK(powershell.kind == "ldconfig");
  CHECK(powershell.facts["libcuda_in_wsl_lib"] == true);
  CHECK_FALSE(has(powershell, "libcuda.dxcore-missing"));
  CHECK_FALSE(has(powershell, "libcuda.missing-from-wsl-lib"));
  auto no_dxcore =
      run("$ ls -l /usr/lib/wsl/lib\ntotal 10000\n"
          "-r-xr-xr-x 1 root root   162016 May 10 15:00 libcuda.so\n"
          "-r-xr-xr-x 1 root root   162016 May 10 15:00 libcuda.so.1\n"
          "-r-xr-xr-x 1 root root   234568 May 10 15:00 libnvidia-ml.so.1\n");
  CHECK(no_dxcore.kind == "ldconfig");
  CHECK(has(no_dxcore, "libcuda.dxcore-missing"));
  // `ls /usr/lib/wsl/lib/libcuda*` shows only what the glob matched: it says nothing of libdxcore.
  auto filtered =
      run("$ ls -l /usr/lib/wsl/lib/libcuda*\n"
          "-r-xr-xr-x 1 root root   162016 May 10 15:00 /usr/lib/wsl/lib/libcuda.so\n"
          "-r-xr-xr-x 1 root root   162016 May 10 15:00 /usr/lib/wsl/lib/libcuda.so.1\n");
  CHECK_FALSE(has(filtered, "libcuda.dxcore-missing"));
}

TEST_CASE("shapes: conda env export triples and the nested pip list") {
  auto e =
      run("name: tf\nchannels:\n  - defaults\ndependencies:\n  - _tflow_select=2.1.0=gpu\n"
          "  - cudatoolkit=10.0.130=0\n  - cudnn=7.6.5=cuda10.0_0\n  - python=3.6.9=h265db76_0\n"
          "  - tensorflow-gpu=1.13.1=h0d30ee6_0\n  - pip:\n    - keras==2.2.4\nprefix: /home/me/anaconda3/envs/tf\n");
  CHECK(e.kind == "requirements");
  CHECK(e.facts["tensorflow"]["package"] == "tensorflow-gpu");
  // The contract's spec is the version, the build string apart (issue 44; the parser keeps it as written).
  CHECK(e.facts["tensorflow"]["spec"] == "==1.13.1");
  CHECK(e.facts["tensorflow"]["build"] == "h0d30ee6_0");
  CHECK(e.facts["packages"] == nlohmann::json({"keras"}));
  CHECK(has(e, "req.tensorflow-gpu"));
  CHECK(has(e, "req.tf1"));
  CHECK(has(e, "req.conda-cuda"));
}

TEST_CASE("shapes: pip install in a Dockerfile, a conda list table, markdown bullets") {
  auto docker =
      run("FROM nvidia/cuda:11.2.2-cudnn8-runtime-ubuntu20.04\nRUN apt-get update && apt-get install -y python3-pip\n"
          "RUN pip3 install --no-cache-dir tensorflow==2.8.0 \\\n    numpy pandas\n");
  CHECK(docker.kind == "requirements");
  CHECK(docker.facts["tensorflow"]["spec"] == "==2.8.0");
  CHECK(docker.facts["packages"] == nlohmann::json({"tensorflow", "numpy", "pandas"}));
  auto listing =
      run("# packages in environment at /home/me/miniconda3/envs/tf:\n#\n"
          "# Name                    Version                   Build  Channel\n"
          "numpy                     1.19.2           py38h54aff64_0\n"
          "tensorflow-gpu            2.2.0                    pypi_0    pypi\n");
  CHECK(listing.kind == "requirements");
  CHECK(listing.facts["tensorflow"] == nlohmann::json({{"package", "tensorflow-gpu"}, {"spec", "==2.2.0"}}));
  CHECK(has(listing, "req.tensorflow-gpu"));
  auto bullets = run("My setup:\n- Windows 10\n- Tensorflow=2.2.0\n- tensorflow-gpu  2.2.0  <pip>\n- CUDA 10.1\n");
  CHECK(bullets.kind == "requirements");
  CHECK(bullets.facts["tensorflow"]["package"] == "tensorflow");
  CHECK(has(bullets, "req.native-gpu-ok"));
}

TEST_CASE("shapes: wsl.exe rows without the header, an old wsl.exe rejecting --list, nvidia-smi -q") {
  auto rows = run("PS C:\\> wsl -l -v\nUbuntu-20.04    Running   1\ndocker-desktop   Stopped 2\n");
  CHECK(rows.kind == "wsl-list");
  CHECK(rows.facts["wsl1_distros"] == nlohmann::json({"Ubuntu-20.04"}));
  CHECK(has(rows, "wsl.distro-wsl1"));
  auto too_old =
      run("C:\\>wsl --list\nInvalid command line option: --list\nUsage: wsl [option] ...\n\nOptions:\n"
          "    -d, --distribution <DistributionName>\n        Launch the specified distribution.\n");
  CHECK(too_old.kind == "wsl-list");
  CHECK(has(too_old, "wsl.cli-too-old"));
  CHECK_FALSE(has(too_old, "wsl.no-distro"));
  auto query =
      run("PS C:\\> nvidia-smi -q | findstr Version\nDriver Version                            : 510.06\n"
          "CUDA Version                              : 11.6\n");
  CHECK(query.kind == "nvidia-smi");
  CHECK(query.facts["driver_version"] == "510.06");
  CHECK(has(query, "gpu.driver-too-old"));
}
