// The compilers regrapht drives, their versions, and parsing of their output.
#pragma once

#include <string>
#include <vector>

#include "core/fs.h"
#include "core/subprocess.h"
#include "regrapht/status.h"

namespace regrapht::verify {

struct Toolchain {
  fs::path nvcc;           // empty if not found
  fs::path cxx;            // host C++ compiler (g++ or $CXX)
  fs::path cuda_root;      // folder holding include/ and lib64/
  std::string nvcc_version;  // "13.0.88"
  std::string cxx_version;   // first line of `g++ --version`
  // CUPTI (the kernel-only time of drop-in calls, docs/bench.md): the folders
  // holding cupti.h and libcupti.so; empty where the toolkit has none.
  fs::path cupti_include, cupti_lib;
  // compute-sanitizer ($REGRAPHT_COMPUTE_SANITIZER, the toolkit's bin/ or
  // extras/compute-sanitizer/, PATH); empty where there is none.
  fs::path sanitizer;

  bool has_nvcc() const { return !nvcc.empty(); }
  bool has_cupti() const { return !cupti_include.empty() && !cupti_lib.empty(); }
};

// Fills tc->cupti_include and cupti_lib from the toolkit at tc->cuda_root
// (include/ and lib64/, or extras/CUPTI/{include,lib64}); both stay empty
// unless both are found, or when $REGRAPHT_NO_CUPTI is set (non-empty).
void FindCupti(Toolchain* tc);

// Finds nvcc ($REGRAPHT_NVCC, PATH, $CUDA_HOME/bin, /usr/local/cuda/bin) and
// the host compiler ($CXX, g++). Missing nvcc is not an error here; the
// verifier reports it when it needs it.
Result<Toolchain> DetectToolchain(CommandRunner* runner);

// "sm_90" or "sm_80,sm_90" -> ["sm_90"] ... Fails on anything that is not
// sm_<digits>[a].
Result<std::vector<std::string>> ParseArchs(const std::string& text);

// -gencode flags for `archs`: SASS for each plus PTX for the newest.
std::vector<std::string> GencodeFlags(const std::vector<std::string>& archs);

// Per-kernel resource usage from `ptxas -v` output.
struct KernelResources {
  std::string kernel;       // demangled when possible
  std::string arch;         // "sm_90"
  int registers = 0;
  int64_t shared_bytes = 0;
  int64_t constant_bytes = 0;
  int64_t stack_bytes = 0;
  int64_t spill_store_bytes = 0;
  int64_t spill_load_bytes = 0;
  int barriers = 0;
};

std::vector<KernelResources> ParsePtxasLog(const std::string& log);

// Whether this machine has an NVIDIA GPU, independently of whether the
// harness can use it: a device node /dev/nvidia<N> under `dev`, or a GPU
// listed by `nvidia-smi -L`. A GPU machine where the harness cannot build or
// run a candidate is then a failure, never a skip (verify_gpu_test).
struct GpuPresence {
  bool present = false;
  std::string how;  // "/dev/nvidia0", "nvidia-smi: GPU 0: NVIDIA H200 (...)", or why none
};
GpuPresence DetectGpu(CommandRunner* runner, const fs::path& dev = "/dev");

// Host CPU model name from /proc/cpuinfo.
std::string HostCpuModel();

// This machine, for the keys of measurements that must never travel between
// machines (the reference's cached timings): the CPU model and a hash of the
// machine's id, "<cpu model> | machine <16 hex digits>". The id (the first
// found): $REGRAPHT_MACHINE_ID, /etc/machine-id, /var/lib/dbus/machine-id,
// else the host name. Two machines with one CPU model differ in their ids
// (nodes sharing a cache folder over NFS); a container image that bakes in
// one /etc/machine-id still differs in the CPU model or needs the override.
std::string HostMachineKey();
// The same from given parts (tests).
std::string MachineKey(const std::string& cpu_model, const std::string& machine_id);

}  // namespace regrapht::verify
