#include "verify/build/toolchain.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "core/fake_command_runner.h"

namespace regrapht::verify {
namespace {

TEST(ToolchainTest, ParseArchs) {
  EXPECT_EQ(*ParseArchs("sm_90"), (std::vector<std::string>{"sm_90"}));
  EXPECT_EQ(*ParseArchs("sm_80, sm_90a,sm_80"), (std::vector<std::string>{"sm_80", "sm_90a"}));
  EXPECT_EQ(ParseArchs("native").status().message(),
            "--arch: \"native\" is not an architecture like sm_90 or sm_80");
}

TEST(ToolchainTest, Gencode) {
  EXPECT_EQ(GencodeFlags({"sm_80", "sm_90"}),
            (std::vector<std::string>{"-gencode=arch=compute_80,code=sm_80",
                                      "-gencode=arch=compute_90,code=sm_90",
                                      "-gencode=arch=compute_90,code=compute_90"}));
}

// CUPTI is found beside the toolkit's headers and libraries, or under
// extras/CUPTI; missing either half (or REGRAPHT_NO_CUPTI) leaves it absent.
// Cached timings are keyed by the machine: its CPU model and a hash of its
// id ($REGRAPHT_MACHINE_ID first), never the id itself.
TEST(ToolchainTest, MachineKeyNamesTheCpuAndHashesTheMachineId) {
  EXPECT_EQ(MachineKey("Xeon 8480", "0123abcd").rfind("Xeon 8480 | machine ", 0), 0u);
  EXPECT_EQ(MachineKey("Xeon 8480", "0123abcd").find("0123abcd"), std::string::npos);
  EXPECT_NE(MachineKey("Xeon 8480", "0123abcd"), MachineKey("Xeon 8480", "0123abce"));
  EXPECT_NE(MachineKey("Xeon 8480", "0123abcd"), MachineKey("EPYC 9654", "0123abcd"));
  ::setenv("REGRAPHT_MACHINE_ID", "node-a", 1);
  const std::string a = HostMachineKey();
  ::setenv("REGRAPHT_MACHINE_ID", "node-b", 1);
  const std::string b = HostMachineKey();
  ::unsetenv("REGRAPHT_MACHINE_ID");
  EXPECT_EQ(a, MachineKey(HostCpuModel(), "node-a"));
  EXPECT_NE(a, b);
  EXPECT_EQ(HostMachineKey(), HostMachineKey());
  EXPECT_EQ(HostMachineKey().rfind(HostCpuModel() + " | machine ", 0), 0u);
}

TEST(ToolchainTest, FindsCuptiOrLeavesItAbsent) {
  fs::path root = fs::temp_directory_path() / ("rg-cupti-test-" + std::to_string(::getpid()));
  fs::remove_all(root);
  auto touch = [](const fs::path& p) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "x";
  };
  Toolchain tc;
  tc.cuda_root = root;
  ::unsetenv("REGRAPHT_NO_CUPTI");
  FindCupti(&tc);
  EXPECT_FALSE(tc.has_cupti());
  touch(root / "include" / "cupti.h");
  FindCupti(&tc);
  EXPECT_FALSE(tc.has_cupti()) << "a header without the library";
  touch(root / "extras" / "CUPTI" / "include" / "cupti.h");
  touch(root / "extras" / "CUPTI" / "lib64" / "libcupti.so");
  FindCupti(&tc);
  ASSERT_TRUE(tc.has_cupti());
  EXPECT_EQ(tc.cupti_lib, root / "extras" / "CUPTI" / "lib64");
  touch(root / "lib64" / "libcupti.so");
  FindCupti(&tc);
  EXPECT_EQ(tc.cupti_include, root / "include");
  EXPECT_EQ(tc.cupti_lib, root / "lib64");
  ::setenv("REGRAPHT_NO_CUPTI", "1", 1);
  FindCupti(&tc);
  EXPECT_FALSE(tc.has_cupti());
  ::unsetenv("REGRAPHT_NO_CUPTI");
  fs::remove_all(root);
}

TEST(ToolchainTest, ParsesPtxasLog) {
  const char* log =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z6kernelPfi' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z6kernelPfi\n"
      "    8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads\n"
      "ptxas info    : Used 40 registers, used 1 barriers, 4096 bytes smem, 364 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function '_Z5otherv' for 'sm_80'\n"
      "ptxas info    : Used 8 registers, 356 bytes cmem[0]\n";
  auto k = ParsePtxasLog(log);
  ASSERT_EQ(k.size(), 2u);
  EXPECT_EQ(k[0].kernel, "kernel(float*, int)");
  EXPECT_EQ(k[0].arch, "sm_90");
  EXPECT_EQ(k[0].registers, 40);
  EXPECT_EQ(k[0].shared_bytes, 4096);
  EXPECT_EQ(k[0].constant_bytes, 364);
  EXPECT_EQ(k[0].stack_bytes, 8);
  EXPECT_EQ(k[0].spill_store_bytes, 4);
  EXPECT_EQ(k[0].spill_load_bytes, 12);
  EXPECT_EQ(k[0].barriers, 1);
  EXPECT_EQ(k[1].kernel, "other()");
  EXPECT_EQ(k[1].registers, 8);
}

// A GPU is present when a device node or nvidia-smi says so; the harness's
// own ability to use it is not the question (verify_gpu_test fails, never
// skips, on a GPU machine where the harness cannot build or run).
TEST(ToolchainTest, DetectsAGpuFromDeviceNodesOrNvidiaSmi) {
  fs::path dev = fs::temp_directory_path() / ("rg-dev-test-" + std::to_string(::getpid()));
  fs::remove_all(dev);
  fs::create_directories(dev);
  std::ofstream(dev / "nvidiactl") << "";
  FakeCommandRunner none;
  none.SetHandler([](const CommandSpec&) -> Result<CommandResult> { return Status::NotFound("nvidia-smi"); });
  GpuPresence g = DetectGpu(&none, dev);
  EXPECT_FALSE(g.present) << g.how;  // the control node alone is no GPU
  EXPECT_NE(g.how.find("nvidia-smi lists no GPU"), std::string::npos) << g.how;
  FakeCommandRunner smi;
  smi.SetHandler([](const CommandSpec& s) -> Result<CommandResult> {
    CommandResult r;
    r.exit_code = 0;
    if (s.argv == std::vector<std::string>{"nvidia-smi", "-L"}) r.stdout_text = "GPU 0: NVIDIA H200 (UUID: GPU-1)\n";
    return r;
  });
  g = DetectGpu(&smi, dev);
  EXPECT_TRUE(g.present);
  EXPECT_EQ(g.how, "nvidia-smi: GPU 0: NVIDIA H200 (UUID: GPU-1)");
  std::ofstream(dev / "nvidia0") << "";
  g = DetectGpu(&none, dev);
  EXPECT_TRUE(g.present);
  EXPECT_EQ(g.how, (dev / "nvidia0").string());
  fs::remove_all(dev);
}

}  // namespace
}  // namespace regrapht::verify
