#include "verify/gpu_lock.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <thread>

namespace regrapht::verify {
namespace {

EnvGetter Env(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

const char* kSmi = "0, GPU-aaaa-1111\n1, GPU-bbbb-2222\n";

TEST(GpuLockTest, KeyIsTheUuidOfCudaDeviceZero) {
  EXPECT_EQ(GpuLockKey(Env({}), kSmi, "node7"), "GPU-aaaa-1111");
  EXPECT_EQ(GpuLockKey(Env({{"CUDA_VISIBLE_DEVICES", "1,0"}}), kSmi, "node7"), "GPU-bbbb-2222");
  EXPECT_EQ(GpuLockKey(Env({{"CUDA_VISIBLE_DEVICES", "GPU-cccc-3333,GPU-aaaa-1111"}}), kSmi, "node7"),
            "GPU-cccc-3333");
  EXPECT_EQ(GpuLockKey(Env({{"CUDA_VISIBLE_DEVICES", "MIG-dddd/1/2"}}), "", "node7"), "MIG-dddd_1_2");
}

TEST(GpuLockTest, KeyFallsBackToHostAndIndex) {
  EXPECT_EQ(GpuLockKey(Env({{"CUDA_VISIBLE_DEVICES", "3"}}), kSmi, "node7"), "node7-cuda3");
  EXPECT_EQ(GpuLockKey(Env({}), "", "node7.cluster"), "node7.cluster-cuda0");
  EXPECT_EQ(GpuLockKey(Env({{"REGRAPHT_GPU_LOCK_ID", "my gpu"}}), kSmi, "node7"), "my_gpu");
}

TEST(GpuLockTest, DirPrefersTheEnvironmentThenRunLock) {
  auto yes = [](const fs::path&) { return true; };
  auto no = [](const fs::path&) { return false; };
  EXPECT_EQ(GpuLockDir(Env({{"REGRAPHT_GPU_LOCK_DIR", "/x"}}), "/cache", yes), fs::path("/x"));
  EXPECT_EQ(GpuLockDir(Env({}), "/cache", yes), fs::path("/run/lock/regrapht-gpu"));
  EXPECT_EQ(GpuLockDir(Env({}), "/cache", no), fs::path("/cache/gpu-locks"));
}

// One GPU's lock excludes; another GPU's does not.
TEST(GpuLockTest, SameGpuWaitsOtherGpuDoesNot) {
  auto dir = TempDir::Create("rggpulock");
  ASSERT_TRUE(dir.ok());
  fs::path a = dir->path() / "locks" / "GPU-a.lock", b = dir->path() / "locks" / "GPU-b.lock";
  auto held = GpuLock::Acquire(a);
  ASSERT_TRUE(held.ok()) << held.status().ToString();
  std::atomic<bool> got_a{false};
  std::thread waiter([&] {
    auto again = GpuLock::Acquire(a);
    got_a = again.ok();
  });
  auto other = GpuLock::Acquire(b);  // does not block
  ASSERT_TRUE(other.ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(got_a);
  held->reset();
  waiter.join();
  EXPECT_TRUE(got_a);
}

// The machine's timing lock: shared holders (GPU timed runs on different
// GPUs) coexist; an exclusive one (a CPU timed phase) excludes them all.
TEST(GpuLockTest, SharedHoldersCoexistAndExcludeAnExclusiveOne) {
  auto dir = TempDir::Create("rgtiminglock");
  ASSERT_TRUE(dir.ok());
  fs::path m = MachineTimingLockPath(dir->path(), "node 7");
  EXPECT_EQ(m, dir->path() / "node_7-timing.lock");
  auto s1 = GpuLock::Acquire(m, 0.3, nullptr, true);
  auto s2 = GpuLock::Acquire(m, 0.3, nullptr, true);
  ASSERT_TRUE(s1.ok() && s2.ok());
  auto ex = GpuLock::Acquire(m, 0.3);
  ASSERT_FALSE(ex.ok());
  EXPECT_EQ(ex.status().code(), Status::Code::kDeadlineExceeded);
  EXPECT_NE(ex.status().message().find("node_7-timing.lock"), std::string::npos) << ex.status().ToString();
  s1->reset();
  EXPECT_FALSE(GpuLock::Acquire(m, 0.2).ok()) << "one shared holder is left";
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    s2->reset();
  });
  auto later = GpuLock::Acquire(m, 5);
  release.join();
  ASSERT_TRUE(later.ok()) << later.status().ToString();
  EXPECT_GE((*later)->waited_s(), 0.1);
  EXPECT_FALSE(GpuLock::Acquire(m, 0.2, nullptr, true).ok()) << "a shared lock waits for the exclusive one";
}

// A holder that never lets go (a stopped process): the wait ends at the
// deadline with the file named, or when cancelled.
TEST(GpuLockTest, WaitEndsAtTheDeadlineOrOnCancel) {
  auto dir = TempDir::Create("rggpulock");
  ASSERT_TRUE(dir.ok());
  fs::path a = dir->path() / "GPU-a.lock";
  auto held = GpuLock::Acquire(a);
  ASSERT_TRUE(held.ok());
  auto t0 = std::chrono::steady_clock::now();
  auto late = GpuLock::Acquire(a, 0.3);
  double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.status().code(), Status::Code::kDeadlineExceeded);
  EXPECT_NE(late.status().message().find("GPU-a.lock"), std::string::npos) << late.status().ToString();
  EXPECT_NE(late.status().message().find("--gpu-lock-timeout"), std::string::npos) << late.status().ToString();
  EXPECT_GE(waited, 0.3);
  EXPECT_LT(waited, 2.0);
  std::atomic<bool> cancel{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel = true;
  });
  auto cancelled = GpuLock::Acquire(a, 0, &cancel);
  stopper.join();
  ASSERT_FALSE(cancelled.ok());
  EXPECT_EQ(cancelled.status().code(), Status::Code::kCancelled);
  held->reset();
  EXPECT_TRUE(GpuLock::Acquire(a, 0.3).ok());
}

}  // namespace
}  // namespace regrapht::verify
