// The GPU timing lock: timed runs on one GPU never overlap, whichever
// process (thread, shard, Slurm task, user) starts them, while runs on
// different GPUs of one node proceed in parallel.
//
// One lock file per GPU, in a node-local folder shared by every process:
//
//   /run/lock/regrapht-gpu/GPU-5f3c...e1.lock     CUDA device 0 of this process, by UUID
//   /run/lock/regrapht-gpu/node7-cuda1.lock       no UUID known: host name + index
//
// Which GPU is CUDA's device 0 here (GpuLockKey), first match wins:
//   1. $REGRAPHT_GPU_LOCK_ID, taken as the name (an escape hatch);
//   2. the first entry of $CUDA_VISIBLE_DEVICES when it is a UUID
//      ("GPU-..." or "MIG-...");
//   3. its index (the first entry of $CUDA_VISIBLE_DEVICES, else 0) looked up
//      in `nvidia-smi --query-gpu=index,uuid` (nvidia-smi numbers GPUs in PCI
//      order, as CUDA does for identical GPUs or with CUDA_DEVICE_ORDER=PCI_BUS_ID);
//   4. host name + index, when nvidia-smi is missing or does not list it.
// The folder (GpuLockDir): $REGRAPHT_GPU_LOCK_DIR, else /run/lock/regrapht-gpu
// (node-local, not made private per job by Slurm's job_container plugins),
// else <cache>/gpu-locks. Lock files are flock()ed; they are made world
// writable so that tasks of different users on one GPU exclude each other.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/fs.h"
#include "regrapht/status.h"

namespace regrapht::verify {

using EnvGetter = std::function<std::optional<std::string>(const std::string& name)>;

// The name of this process's CUDA device 0, safe as a file name.
// `nvidia_smi_csv`: the output of `nvidia-smi --query-gpu=index,uuid
// --format=csv,noheader` ("" when it could not run).
std::string GpuLockKey(const EnvGetter& env, const std::string& nvidia_smi_csv, const std::string& hostname);

// The folder for lock files (see above); `writable` says whether a folder can
// be used (tests pass a fake).
fs::path GpuLockDir(const EnvGetter& env, const fs::path& cache_dir,
                    const std::function<bool(const fs::path&)>& writable);

// The machine's timing lock, in the same folder as the GPU locks (`dir`:
// GpuLockDir), one per host: "<host>-timing.lock". CPU timed phases (the
// reference's timing, a --cpu-candidate's) hold it exclusively; a GPU timed
// run holds it shared beside its GPU's lock. So no CPU timing overlaps any
// other regrapht timed phase on this host, while timed runs on different
// GPUs still overlap one another (docs/trust.md, "Timed phases").
fs::path MachineTimingLockPath(const fs::path& dir, const std::string& hostname);

// A flock() on `path`, exclusive or shared, held until destruction.
class GpuLock {
 public:
  // Waits until the lock is held, at most `timeout_s` seconds (0: no limit)
  // and until `cancel` (may be null) is set; `shared`: a shared lock (many
  // holders; excludes only an exclusive one). IoError when the file cannot
  // be opened; DeadlineExceeded naming the file when another process held
  // the lock all that time (a long timed run, or a holder that is stopped);
  // Cancelled when `cancel` was set.
  static Result<std::unique_ptr<GpuLock>> Acquire(const fs::path& path, double timeout_s = 0,
                                                  const std::atomic<bool>* cancel = nullptr, bool shared = false);
  ~GpuLock();
  GpuLock(const GpuLock&) = delete;
  GpuLock& operator=(const GpuLock&) = delete;

  // Seconds Acquire waited for the lock.
  double waited_s() const { return waited_s_; }

 private:
  GpuLock(int fd, double waited_s) : fd_(fd), waited_s_(waited_s) {}
  int fd_;
  double waited_s_;
};

}  // namespace regrapht::verify
