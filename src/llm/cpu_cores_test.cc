#include "llm/cpu_cores.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace regrapht::llm {
namespace {

// A fake /sys/devices/system/cpu: one (package, core) pair per logical CPU.
class CpuCoresTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto dir = MakeTempDir("cpu-cores-test");
    ASSERT_TRUE(dir.ok());
    dir_ = *dir;
  }
  void TearDown() override { (void)RemoveAll(dir_); }
  void Cpus(const std::vector<std::pair<int, int>>& package_core) {
    for (size_t i = 0; i < package_core.size(); ++i) {
      fs::path topo = dir_ / ("cpu" + std::to_string(i)) / "topology";
      fs::create_directories(topo);
      std::ofstream(topo / "physical_package_id") << package_core[i].first << "\n";
      std::ofstream(topo / "core_id") << package_core[i].second << "\n";
    }
  }
  fs::path dir_;
};

TEST_F(CpuCoresTest, HyperthreadsOfOneCoreCountOnce) {
  Cpus({{0, 0}, {0, 1}, {0, 0}, {0, 1}});  // 2 cores, 2 threads each
  EXPECT_EQ(CountPhysicalCores(dir_), 2);
}

TEST_F(CpuCoresTest, TheSameCoreIdOnTwoPackagesIsTwoCores) {
  Cpus({{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 0}, {0, 1}, {1, 0}, {1, 1}});
  EXPECT_EQ(CountPhysicalCores(dir_), 4);
}

TEST_F(CpuCoresTest, CountingStopsAtTheFirstMissingCpu) {
  Cpus({{0, 0}, {0, 1}, {0, 2}});
  fs::remove_all(dir_ / "cpu1");
  EXPECT_EQ(CountPhysicalCores(dir_), 1);
}

TEST_F(CpuCoresTest, NoTopologyCountsNone) { EXPECT_EQ(CountPhysicalCores(dir_), 0); }

TEST(PhysicalCoresTest, ThisMachineCountsWhatSysfsSays) {
  const int logical = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int counted = CountPhysicalCores("/sys/devices/system/cpu");
  // sysfs's count where it has one (a container may see the host's CPUs
  // there), the logical CPUs where it has none.
  EXPECT_EQ(PhysicalCores(), counted > 0 ? counted : logical);
}

}  // namespace
}  // namespace regrapht::llm
