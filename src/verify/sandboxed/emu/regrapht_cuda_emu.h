// regrapht's CUDA emulator: runs a candidate's kernels on the CPU so that a
// machine without a GPU can still check correctness (never speed).
//
// The candidate is rewritten by verify/emulate.cc (kernel launches become
// regrapht_emu::Launch calls, `extern __shared__` arrays become pointers into
// the block's dynamic shared memory) and compiled by the host C++ compiler
// with this header forced in. Each CUDA thread is a fiber with its own stack;
// the threads of a block run on one OS thread and switch only at
// __syncthreads, warp collectives (__shfl*_sync, __ballot_sync, __syncwarp,
// cooperative-groups tiles) and grid syncs, so a missing barrier shows up as
// a wrong answer instead of passing by luck. Blocks run one after another in
// increasing linear order; a cooperative launch runs every block on its own
// OS thread so that grid.sync() works. `__shared__` variables are
// thread_local statics, which gives each block (each OS thread) its own copy.
//
// What it does not model: timing, memory coalescing, the difference between
// host and device pointers, data races between blocks other than through
// the order above, texture filtering (only tex1Dfetch on linear memory), CUDA
// libraries, and anything that needs the real hardware. A construct it does
// not support fails to compile here; the verifier reports that as "not
// emulated", never as the candidate's fault.
//
// Exit status 86 and a message on stderr: the emulator found an error the
// GPU would report (bad launch configuration, deadlock at a barrier, grid
// sync outside a cooperative launch).
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// ---- the checker (regrapht_emu_check.cc, linked into every emulated program) ----

extern "C" {
void* regrapht_emu_alloc(size_t bytes, int kind);  // kind: 0 device, 1 managed, 2 pinned host
int regrapht_emu_free(void* p, int kind);          // 1: not a live allocation of that kind
int regrapht_emu_copy(void* dst, const void* src, size_t n);
int regrapht_emu_fill(void* dst, int value, size_t n);  // 1: not device memory
void regrapht_emu_host_sync();
int regrapht_emu_kind_of(const void* p);  // the live allocation's kind, or -1: host memory
void regrapht_emu_launch_begin(const char* kernel, unsigned gx, unsigned gy, int coop);
void regrapht_emu_launch_end();
void* regrapht_emu_block_begin(unsigned linear, unsigned bx, unsigned by, unsigned bz, unsigned bdx,
                               unsigned bdy, unsigned nthreads, size_t dyn_smem);
void regrapht_emu_block_end();
void* regrapht_emu_shared(unsigned id, size_t bytes, size_t align);
void regrapht_emu_thread(int t, unsigned x, unsigned y, unsigned z);
void regrapht_emu_sync_block();
void regrapht_emu_sync_warp(unsigned w);
unsigned long long regrapht_emu_schedule(unsigned long long salt);
}

// ---- keywords -----------------------------------------------------------------

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __constant__
#define __managed__
#define __grid_constant__
#define __shared__ static thread_local
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __CUDA_EMULATED__ 1
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif

// ---- vector types ---------------------------------------------------------------

#define RG_EMU_VEC1(T, N, A)                \
  struct __attribute__((aligned(A))) N##1 { \
    T x;                                    \
  };
#define RG_EMU_VEC2(T, N, A)                \
  struct __attribute__((aligned(A))) N##2 { \
    T x, y;                                 \
  };                                        \
  inline N##2 make_##N##2(T x, T y) { return N##2 {x, y}; }
#define RG_EMU_VEC3(T, N) \
  struct N##3 {           \
    T x, y, z;            \
  };                      \
  inline N##3 make_##N##3(T x, T y, T z) { return N##3 {x, y, z}; }
#define RG_EMU_VEC4(T, N, A)                \
  struct __attribute__((aligned(A))) N##4 { \
    T x, y, z, w;                           \
  };                                        \
  inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4 {x, y, z, w}; }
#define RG_EMU_VECS(T, N, A2, A4) \
  RG_EMU_VEC1(T, N, sizeof(T))    \
  RG_EMU_VEC2(T, N, A2) RG_EMU_VEC3(T, N) RG_EMU_VEC4(T, N, A4)

RG_EMU_VECS(float, float, 8, 16)
RG_EMU_VECS(double, double, 16, 16)
RG_EMU_VECS(int, int, 8, 16)
RG_EMU_VECS(unsigned int, uint, 8, 16)
RG_EMU_VECS(short, short, 4, 8)
RG_EMU_VECS(unsigned short, ushort, 4, 8)
RG_EMU_VECS(signed char, char, 2, 4)
RG_EMU_VECS(unsigned char, uchar, 2, 4)
RG_EMU_VECS(long, long, 16, 16)
RG_EMU_VECS(unsigned long, ulong, 16, 16)
RG_EMU_VECS(long long, longlong, 16, 16)
RG_EMU_VECS(unsigned long long, ulonglong, 16, 16)

struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};

// ---- runtime API types ------------------------------------------------------------

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorHostMemoryNotRegistered = 713,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorStreamCaptureUnsupported = 900,
  cudaErrorUnknown = 999,
};
typedef cudaError_t cudaError;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrTextureAlignment = 14,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
enum cudaMemPoolAttr {
  cudaMemPoolReuseFollowEventDependencies = 1,
  cudaMemPoolReuseAllowOpportunistic = 2,
  cudaMemPoolReuseAllowInternalDependencies = 3,
  cudaMemPoolAttrReleaseThreshold = 4
};

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaGraphInstantiateFlagAutoFreeOnLaunch 1

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int concurrentKernels;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  int cooperativeLaunch;
  int memoryBusWidth;
  int asyncEngineCount;
  int unifiedAddressing;
  int managedMemory;
  int pciBusID;
};

namespace regrapht_emu {
struct Stream;
struct Graph;
struct Event {
  std::chrono::steady_clock::time_point t;
  Stream* stream = nullptr;  // where it was last recorded (a created stream), or null
};
}  // namespace regrapht_emu
typedef regrapht_emu::Stream* cudaStream_t;
typedef regrapht_emu::Event* cudaEvent_t;
typedef regrapht_emu::Graph* cudaGraph_t;
typedef regrapht_emu::Graph* cudaGraphExec_t;
typedef struct regrapht_emu_node* cudaGraphNode_t;
typedef void* cudaMemPool_t;
#define cudaStreamLegacy ((cudaStream_t)0)
#define cudaStreamPerThread ((cudaStream_t)0)

// ---- the emulator's core ---------------------------------------------------------

// The emulator's own machinery (scheduler, barriers, warp exchange, built-in
// variables) is compiled without the checker's instrumentation: its loads and
// stores touch only the emulator's bookkeeping, never memory of the
// candidate, and instrumented they were about a third of a small kernel's
// emulated time. Nothing marked so may dereference a candidate's pointer.
#define RG_EMU_INTERNAL __attribute__((no_sanitize("thread", "bounds")))
extern "C" [[noreturn]] __attribute__((weak)) void regrapht_driver_not_emulated(int line);
namespace regrapht_emu {

// Device inline assembly (rewritten by verify/emulate.cc into this call):
// the driver seals what ran so far and stops.
[[noreturn]] inline void NotEmulated(int line) {
  if (regrapht_driver_not_emulated) regrapht_driver_not_emulated(line);
  std::fprintf(stderr, "regrapht CUDA emulator: inline assembly at line %d is not emulated\n", line);
  std::_Exit(88);
}

[[noreturn]] inline void Fatal(const char* what) {
  std::fprintf(stderr, "regrapht CUDA emulator: %s\n", what);
  std::fflush(stderr);
  std::_Exit(86);
}

constexpr unsigned kMaxThreadsPerBlock = 1024;
constexpr int kSms = 8;  // the emulated device is small: cooperative grids stay small
constexpr int kMaxThreadsPerSm = 2048;
constexpr size_t kSharedPerBlock = 48 * 1024;
constexpr size_t kSharedOptin = 227 * 1024;

enum class St : unsigned char { kReady, kBarrier, kWarp, kGrid, kDone };

struct Fiber {
  void* sp = nullptr;
  uint3 tid{0, 0, 0};
  unsigned linear = 0;
  St st = St::kReady;
  unsigned long long ready_at = 0;  // first scheduler pass it may run in
};

struct Warp {
  unsigned alive = 0;    // lanes that exist and have not exited
  unsigned arrived = 0;  // lanes waiting at the pending collective
  unsigned expect = 0;   // lanes the pending collective waits for
  unsigned gen = 0;      // completed collectives
  unsigned char vals[4][32][16];
  unsigned present[4];  // lanes that deposited a value in a generation
};

struct GridBarrier {
  std::mutex mu;
  std::condition_variable cv;
  int participants = 0;
  int arrived = 0;
  unsigned long long gen = 0;
  void ArriveAndWait() {
    std::unique_lock<std::mutex> l(mu);
    unsigned long long g = gen;
    if (++arrived == participants) {
      arrived = 0;
      ++gen;
      cv.notify_all();
      return;
    }
    cv.wait(l, [&] { return gen != g; });
  }
  void Drop() {
    std::lock_guard<std::mutex> l(mu);
    --participants;
    if (participants > 0 && arrived == participants) {
      arrived = 0;
      ++gen;
      cv.notify_all();
    }
  }
};

struct Block {
  uint3 bid{0, 0, 0};
  dim3 bdim, gdim;
  unsigned nthreads = 0;
  unsigned alive = 0;
  unsigned bar_arrived = 0;
  int bar_acc_count = 0, bar_acc_or = 0, bar_acc_and = 1;
  int bar_result_count = 0, bar_result_or = 0, bar_result_and = 1;
  unsigned grid_arrived = 0;
  // Scheduler passes so far. A fiber woken during a pass runs in the next
  // one, so no lane of a warp runs more than one collective ahead of a lane
  // that has yet to read the previous one's values (whatever the order).
  unsigned long long pass = 0;
  std::vector<Fiber> fibers;
  std::vector<Warp> warps;
  // fibers.data() and warps.data() while the block runs: the uninstrumented
  // machinery indexes these (std::vector's members are instrumented code,
  // which it cannot inline).
  Fiber* fib = nullptr;
  Warp* wps = nullptr;
  void* sched_sp = nullptr;
  const std::function<void()>* body = nullptr;
  unsigned char* dyn_smem = nullptr;
  GridBarrier* grid = nullptr;  // set for cooperative launches
  unsigned long long linear = 0;  // linear block index
};

inline thread_local Block* tl_block = nullptr;
inline thread_local Fiber* tl_fiber = nullptr;

RG_EMU_INTERNAL inline unsigned char* DynSmem() { return tl_block->dyn_smem; }
RG_EMU_INTERNAL inline unsigned LaneId() { return tl_fiber->linear & 31u; }

}  // namespace regrapht_emu

// Stack switch: saves the callee-saved registers and the FP control words on
// the current stack, stores the stack pointer in *save and continues on `to`.
#if defined(__x86_64__)
extern "C" void regrapht_emu_switch(void** save, void* to);
__asm__(R"(
  .text
  .weak regrapht_emu_switch
  .type regrapht_emu_switch,@function
regrapht_emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size regrapht_emu_switch, .-regrapht_emu_switch
)");
#else
#error "the regrapht CUDA emulator supports x86-64 hosts only"
#endif

namespace regrapht_emu {

constexpr size_t kStackBytes = 256 * 1024;

// Fiber stacks of one OS thread, reused across blocks; a guard page below each.
struct StackPool {
  std::vector<unsigned char*> stacks;
  // The first `n` stacks (made as needed).
  RG_EMU_INTERNAL unsigned char* const* Reserve(size_t n) {
    while (stacks.size() < n) {
      size_t total = kStackBytes + 4096;
      void* p = mmap(nullptr, total, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) Fatal("cannot map a fiber stack (out of memory)");
      mprotect(p, 4096, PROT_NONE);
      stacks.push_back(static_cast<unsigned char*>(p) + 4096);
    }
    return stacks.data();
  }
  ~StackPool() {
    for (auto* s : stacks) munmap(s - 4096, kStackBytes + 4096);
  }
};
inline thread_local StackPool tl_stacks;

RG_EMU_INTERNAL inline void WakeBarrier(Block* b) {
  if (b->bar_arrived == 0 || b->bar_arrived < b->alive) return;
  b->bar_result_count = b->bar_acc_count;
  b->bar_result_or = b->bar_acc_or;
  b->bar_result_and = b->bar_acc_and;
  b->bar_acc_count = 0;
  b->bar_acc_or = 0;
  b->bar_acc_and = 1;
  b->bar_arrived = 0;
  regrapht_emu_sync_block();
  for (Fiber* f = b->fib; f != b->fib + b->nthreads; ++f)
    if (f->st == St::kBarrier) {
      f->st = St::kReady;
      f->ready_at = b->pass + 1;
    }
}

RG_EMU_INTERNAL inline void WakeWarp(Block* b, unsigned w) {
  Warp& wp = b->wps[w];
  if (wp.arrived == 0) return;
  unsigned need = wp.expect & wp.alive;
  if ((wp.arrived & need) != need) return;
  ++wp.gen;
  wp.arrived = 0;
  regrapht_emu_sync_warp(w);
  for (unsigned lane = 0; lane < 32; ++lane) {
    unsigned t = w * 32 + lane;
    if (t < b->nthreads && b->fib[t].st == St::kWarp) {
      b->fib[t].st = St::kReady;
      b->fib[t].ready_at = b->pass + 1;
    }
  }
}

RG_EMU_INTERNAL inline void WakeGrid(Block* b) {
  if (b->grid_arrived == 0 || b->grid_arrived < b->alive) return;
  b->grid_arrived = 0;
  b->grid->ArriveAndWait();  // the whole block waits here for the other blocks
  for (Fiber* f = b->fib; f != b->fib + b->nthreads; ++f)
    if (f->st == St::kGrid) {
      f->st = St::kReady;
      f->ready_at = b->pass + 1;
    }
}

RG_EMU_INTERNAL inline void Suspend(St st) {
  Fiber* f = tl_fiber;
  f->st = st;
  regrapht_emu_switch(&f->sp, tl_block->sched_sp);
}

extern "C" RG_EMU_INTERNAL inline void regrapht_emu_fiber_entry() {
  Block* b = tl_block;
  (*b->body)();
  Fiber* f = tl_fiber;
  f->st = St::kDone;
  --b->alive;
  b->wps[f->linear / 32].alive &= ~(1u << (f->linear & 31u));
  WakeBarrier(b);
  WakeWarp(b, f->linear / 32);
  if (b->grid) WakeGrid(b);
  void* dummy;
  regrapht_emu_switch(&dummy, b->sched_sp);
  __builtin_unreachable();
}

// A bijection of [0, n): j -> (a*j + c) mod n with a coprime to n.
struct Perm {
  unsigned long long n, a, c;
  Perm(unsigned long long count, unsigned long long seed) : n(count ? count : 1), a(1), c(0) {
    if (n < 2) return;
    c = seed % n;
    a = 1 + (seed >> 20) % (n - 1);  // in [1, n - 1]; 1 is always coprime
    while (Gcd(a, n) != 1) a = a + 1 < n ? a + 1 : 1;
  }
  static unsigned long long Gcd(unsigned long long x, unsigned long long y) {
    while (y) {
      unsigned long long t = x % y;
      x = y;
      y = t;
    }
    return x;
  }
  unsigned long long operator()(unsigned long long j) const {
    if (n <= (1ull << 32)) return (a * j + c) % n;  // a, j < n: no overflow
    return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * j + c) % n);
  }
  // The element after `i = (*this)(j)`, that is (*this)(j + 1), without a division.
  unsigned long long Next(unsigned long long i) const { return i >= n - a ? i - (n - a) : i + a; }
};

RG_EMU_INTERNAL inline void RunBlock(Block* b) {
  const unsigned n = b->nthreads;
  const unsigned nwarps = (n + 31) / 32;
  b->fibers.assign(n, Fiber{});
  b->fib = b->fibers.data();
  // A warp's values need no reset (`present` says which are valid): only
  // its counters, not the 2 KiB of values, are cleared for every block.
  b->warps.resize(nwarps);
  b->wps = b->warps.data();
  for (unsigned w = 0; w < nwarps; ++w) {
    Warp& wp = b->wps[w];
    unsigned lanes = std::min(32u, n - w * 32);
    wp.alive = lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1);
    wp.arrived = wp.expect = wp.gen = 0;
    std::memset(wp.present, 0, sizeof wp.present);
  }
  b->alive = n;
  b->bar_arrived = 0;
  b->grid_arrived = 0;
  unsigned char* const* stacks = tl_stacks.Reserve(n);
  for (unsigned i = 0; i < n; ++i) {
    Fiber& f = b->fib[i];
    f.linear = i;
    f.tid = uint3{i % b->bdim.x, (i / b->bdim.x) % b->bdim.y, i / (b->bdim.x * b->bdim.y)};
    unsigned char* stack = stacks[i];
    // Stack tops staggered by a cache line per fiber: page-aligned tops would
    // all fall into the same few cache sets, and every switch would miss.
    uintptr_t top = (reinterpret_cast<uintptr_t>(stack) + kStackBytes - (i % 64) * 64) & ~uintptr_t{15};
    uint64_t* s = reinterpret_cast<uint64_t*>(top);
    *--s = 0;  // fake return address of the entry function (keeps the ABI's alignment)
    *--s = reinterpret_cast<uint64_t>(&regrapht_emu_fiber_entry);
    for (int r = 0; r < 6; ++r) *--s = 0;
    *--s = 0x1F80ull | (0x037Full << 32);  // default MXCSR and x87 control word
    f.sp = s;
  }
  tl_block = b;
  // Threads run in a seeded order that differs between calls (docs/emulator.md).
  Perm order(n, regrapht_emu_schedule(0x7468726561647321ull ^ b->linear));
  b->pass = 0;
  const unsigned first = static_cast<unsigned>(order(0));
  while (b->alive > 0) {
    bool ran = false, waiting = false;
    unsigned i = first;
    for (unsigned j = 0; j < n; ++j, i = static_cast<unsigned>(order.Next(i))) {
      Fiber& f = b->fib[i];
      if (f.st != St::kReady) continue;
      if (f.ready_at > b->pass) {
        waiting = true;
        continue;
      }
      ran = true;
      tl_fiber = &f;
      regrapht_emu_thread(static_cast<int>(i), f.tid.x, f.tid.y, f.tid.z);
      regrapht_emu_switch(&b->sched_sp, f.sp);
      regrapht_emu_thread(-1, 0, 0, 0);
    }
    ++b->pass;
    if (!ran && !waiting && b->alive > 0) {
      char msg[256];
      unsigned at_bar = 0, at_warp = 0, at_grid = 0;
      for (Fiber* f = b->fib; f != b->fib + n; ++f) {
        at_bar += f->st == St::kBarrier;
        at_warp += f->st == St::kWarp;
        at_grid += f->st == St::kGrid;
      }
      std::snprintf(
          msg, sizeof msg,
          "deadlock in block (%u,%u,%u): %u threads at __syncthreads, %u at a warp collective, "
          "%u at grid sync, none can proceed",
          b->bid.x, b->bid.y, b->bid.z, at_bar, at_warp, at_grid);
      Fatal(msg);
    }
  }
  tl_fiber = nullptr;
  if (b->grid) b->grid->Drop();
}

// ---- barriers and warp collectives --------------------------------------------------

RG_EMU_INTERNAL inline void SyncThreads(int pred = 0) {
  Block* b = tl_block;
  if (!b) Fatal("__syncthreads() called outside a kernel");
  ++b->bar_arrived;
  b->bar_acc_count += pred != 0;
  b->bar_acc_or |= pred != 0;
  b->bar_acc_and &= pred != 0;
  if (b->bar_arrived >= b->alive) {
    WakeBarrier(b);
    return;
  }
  Suspend(St::kBarrier);
}

// Deposits `bytes` for this lane and waits for the lanes in `mask`; returns
// the generation whose values to read.
RG_EMU_INTERNAL inline unsigned WarpArrive(unsigned mask, const void* bytes, size_t size) {
  Block* b = tl_block;
  if (!b) Fatal("warp collective called outside a kernel");
  Fiber* f = tl_fiber;
  unsigned w = f->linear / 32, lane = f->linear & 31u;
  Warp& wp = b->wps[w];
  unsigned g = wp.gen;
  unsigned slot = g & 3u;
  if (wp.arrived == 0) {
    wp.expect = mask;
    wp.present[slot] = 0;
  } else {
    wp.expect |= mask;
  }
  std::memcpy(wp.vals[slot][lane], bytes, size);
  wp.present[slot] |= 1u << lane;
  wp.arrived |= 1u << lane;
  unsigned need = wp.expect & wp.alive;
  if ((wp.arrived & need) == need) {
    WakeWarp(b, w);
  } else {
    Suspend(St::kWarp);
  }
  return g;
}

template <class T>
RG_EMU_INTERNAL inline T WarpRead(unsigned g, unsigned src_lane, T own) {
  Warp& wp = tl_block->wps[tl_fiber->linear / 32];
  unsigned slot = g & 3u;
  if (src_lane >= 32 || !(wp.present[slot] & (1u << src_lane))) return own;
  T v;
  std::memcpy(&v, wp.vals[slot][src_lane], sizeof(T));
  return v;
}

template <class T>
RG_EMU_INTERNAL inline T Shfl(unsigned mask, T v, int src, int width) {
  static_assert(sizeof(T) <= 16 && std::is_trivially_copyable<T>::value,
                "shuffle of an unsupported type");
  unsigned g = WarpArrive(mask, &v, sizeof(T));
  unsigned lane = LaneId();
  unsigned base = lane & ~static_cast<unsigned>(width - 1);
  return WarpRead(g, base + (static_cast<unsigned>(src) & static_cast<unsigned>(width - 1)), v);
}
template <class T>
RG_EMU_INTERNAL inline T ShflUp(unsigned mask, T v, unsigned delta, int width) {
  unsigned g = WarpArrive(mask, &v, sizeof(T));
  unsigned lane = LaneId();
  unsigned base = lane & ~static_cast<unsigned>(width - 1);
  if (lane - base < delta) return v;
  return WarpRead(g, lane - delta, v);
}
template <class T>
RG_EMU_INTERNAL inline T ShflDown(unsigned mask, T v, unsigned delta, int width) {
  unsigned g = WarpArrive(mask, &v, sizeof(T));
  unsigned lane = LaneId();
  unsigned base = lane & ~static_cast<unsigned>(width - 1);
  if (lane - base + delta >= static_cast<unsigned>(width)) return v;
  return WarpRead(g, lane + delta, v);
}
template <class T>
RG_EMU_INTERNAL inline T ShflXor(unsigned mask, T v, int lane_mask, int width) {
  unsigned g = WarpArrive(mask, &v, sizeof(T));
  unsigned lane = LaneId();
  unsigned base = lane & ~static_cast<unsigned>(width - 1);
  unsigned src = lane ^ static_cast<unsigned>(lane_mask);
  if (src < base || src >= base + static_cast<unsigned>(width)) return v;
  return WarpRead(g, src, v);
}
RG_EMU_INTERNAL inline unsigned Ballot(unsigned mask, int pred) {
  int p = pred != 0;
  unsigned g = WarpArrive(mask, &p, sizeof p);
  Warp& wp = tl_block->wps[tl_fiber->linear / 32];
  unsigned slot = g & 3u, r = 0;
  for (unsigned l = 0; l < 32; ++l) {
    if (!((mask & wp.present[slot]) & (1u << l))) continue;
    int v;
    std::memcpy(&v, wp.vals[slot][l], sizeof v);
    if (v) r |= 1u << l;
  }
  return r;
}

// Lanes of `mask` whose value equals this lane's.
template <class T>
RG_EMU_INTERNAL inline unsigned MatchAny(unsigned mask, T v) {
  static_assert(sizeof(T) <= 8 && std::is_integral<T>::value,
                "__match_any_sync of an unsupported type");
  unsigned g = WarpArrive(mask, &v, sizeof(T));
  Warp& wp = tl_block->wps[tl_fiber->linear / 32];
  unsigned slot = g & 3u, r = 0;
  for (unsigned l = 0; l < 32; ++l) {
    if (!((mask & wp.present[slot]) & (1u << l))) continue;
    T u;
    std::memcpy(&u, wp.vals[slot][l], sizeof(T));
    if (u == v) r |= 1u << l;
  }
  return r;
}

// ---- launches ---------------------------------------------------------------------------

struct LaunchConfig {
  dim3 grid, block;
  size_t smem = 0;
  cudaStream_t stream = nullptr;
  const char* name = "kernel";
};
inline LaunchConfig Cfg(dim3 grid, dim3 block, size_t smem = 0, cudaStream_t stream = nullptr) {
  return LaunchConfig{grid, block, smem, stream, "kernel"};
}

inline cudaError_t& LastError() {
  static cudaError_t e = cudaSuccess;
  return e;
}

RG_EMU_INTERNAL inline void CheckConfig(const LaunchConfig& c) {
  unsigned long long threads = 1ull * c.block.x * c.block.y * c.block.z;
  char msg[200];
  if (threads == 0 || threads > kMaxThreadsPerBlock || c.block.z > 64 || c.block.x > 1024 ||
      c.block.y > 1024) {
    std::snprintf(msg, sizeof msg, "invalid launch configuration: block (%u,%u,%u)", c.block.x,
                  c.block.y, c.block.z);
    Fatal(msg);
  }
  if (c.grid.x == 0 || c.grid.y == 0 || c.grid.z == 0 || c.grid.y > 65535 || c.grid.z > 65535 ||
      c.grid.x > 2147483647u) {
    std::snprintf(msg, sizeof msg, "invalid launch configuration: grid (%u,%u,%u)", c.grid.x,
                  c.grid.y, c.grid.z);
    Fatal(msg);
  }
  if (c.smem > kSharedOptin) {
    std::snprintf(msg, sizeof msg, "dynamic shared memory of %zu bytes exceeds the device's %zu",
                  c.smem, kSharedOptin);
    Fatal(msg);
  }
}

RG_EMU_INTERNAL inline void RunGrid(const LaunchConfig& c, const std::function<void()>& body) {
  CheckConfig(c);
  Block b;
  b.bdim = c.block;
  b.gdim = c.grid;
  b.nthreads = c.block.x * c.block.y * c.block.z;
  b.body = &body;
  Block* outer_block = tl_block;
  Fiber* outer_fiber = tl_fiber;
  if (outer_block) Fatal("kernel launched from device code (dynamic parallelism is not emulated)");
  regrapht_emu_launch_begin(c.name, c.grid.x, c.grid.y, 0);
  // Blocks run one after another in a seeded order that differs between calls.
  unsigned long long nblocks = 1ull * c.grid.x * c.grid.y * c.grid.z;
  Perm order(nblocks, regrapht_emu_schedule(0x626c6f636b732121ull));
  for (unsigned long long k = 0; k < nblocks; ++k) {
    unsigned long long i = order(k);
    b.linear = i;
    b.bid = uint3{static_cast<unsigned>(i % c.grid.x), static_cast<unsigned>((i / c.grid.x) % c.grid.y),
                  static_cast<unsigned>(i / (1ull * c.grid.x * c.grid.y))};
    b.dyn_smem = static_cast<unsigned char*>(regrapht_emu_block_begin(
        static_cast<unsigned>(i), b.bid.x, b.bid.y, b.bid.z, c.block.x, c.block.y, b.nthreads, c.smem));
    RunBlock(&b);
    regrapht_emu_block_end();
  }
  regrapht_emu_launch_end();
  tl_block = outer_block;
  tl_fiber = outer_fiber;
}

inline unsigned long long MaxCoResidentBlocks(unsigned threads, size_t smem) {
  unsigned by_threads = kMaxThreadsPerSm / std::max(1u, threads);
  unsigned by_smem = smem ? static_cast<unsigned>(kSharedOptin / smem) : 32u;
  return 1ull * kSms * std::min({by_threads, by_smem, 32u});
}

inline cudaError_t RunCooperative(const LaunchConfig& c, const std::function<void()>& body) {
  CheckConfig(c);
  unsigned threads = c.block.x * c.block.y * c.block.z;
  unsigned long long nblocks = 1ull * c.grid.x * c.grid.y * c.grid.z;
  if (nblocks > MaxCoResidentBlocks(threads, c.smem))
    return LastError() = cudaErrorCooperativeLaunchTooLarge;
  GridBarrier gb;
  gb.participants = static_cast<int>(nblocks);
  regrapht_emu_launch_begin(c.name, c.grid.x, c.grid.y, 1);
  std::vector<std::thread> workers;
  for (unsigned long long i = 0; i < nblocks; ++i) {
    workers.emplace_back([&, i] {
      Block b;
      b.bdim = c.block;
      b.gdim = c.grid;
      b.nthreads = threads;
      b.body = &body;
      b.grid = &gb;
      b.linear = i;
      b.bid = uint3{static_cast<unsigned>(i % c.grid.x),
                    static_cast<unsigned>((i / c.grid.x) % c.grid.y),
                    static_cast<unsigned>(i / (1ull * c.grid.x * c.grid.y))};
      b.dyn_smem = static_cast<unsigned char*>(regrapht_emu_block_begin(
          static_cast<unsigned>(i), b.bid.x, b.bid.y, b.bid.z, c.block.x, c.block.y, threads, c.smem));
      RunBlock(&b);
      regrapht_emu_block_end();
    });
  }
  for (auto& t : workers) t.join();
  regrapht_emu_launch_end();
  return cudaSuccess;
}

}  // namespace regrapht_emu

// ---- streams, graphs, events ----------------------------------------------------------------

namespace regrapht_emu {
struct Graph {
  std::vector<std::function<void()>> ops;
};
// Work on a stream the candidate created runs when something synchronises
// with it, as late as CUDA allows, never earlier (docs/emulator.md,
// "Asynchronous work"): a call that returns before its work is done leaves
// that work pending, and the driver, which compares the outputs as they are
// when the function returns, sees the stale data a caller would.
struct Stream {
  Graph* capturing = nullptr;
  bool created = false;   // by cudaStreamCreate*: its work waits for a synchronisation
  bool blocking = true;   // not cudaStreamNonBlocking: legacy-stream work waits for it
  std::vector<std::function<void()>> pending;
};
inline Stream* Default() {
  static Stream s;
  return &s;
}
inline Stream* S(cudaStream_t s) { return s ? s : Default(); }
// Created streams, and destroyed ones whose work had not run yet (CUDA
// finishes that work after cudaStreamDestroy returns).
inline std::vector<Stream*>& Streams() {
  static std::vector<Stream*> v;
  return v;
}

// Runs everything pending on `st`, in order (work may queue more).
inline void Drain(Stream* st) {
  while (st && !st->pending.empty()) {
    std::vector<std::function<void()>> ops;
    ops.swap(st->pending);
    for (auto& op : ops) op();
  }
}
// What legacy-stream work waits for: every blocking stream's earlier work.
inline void DrainBlocking() {
  for (size_t i = 0; i < Streams().size(); ++i) {
    if (Streams()[i]->blocking) Drain(Streams()[i]);
  }
}
inline void DrainAll() {
  for (size_t i = 0; i < Streams().size(); ++i) Drain(Streams()[i]);
}

// Runs `op` in `s`'s order: recorded while the stream is captured, queued on
// a created stream, at once on the legacy stream (after the blocking
// streams' earlier work).
template <class F>
inline void Submit(cudaStream_t s, F&& op) {
  Stream* st = S(s);
  if (st->capturing) {
    st->capturing->ops.emplace_back(std::forward<F>(op));
  } else if (st->created) {
    st->pending.emplace_back(std::forward<F>(op));
  } else {
    DrainBlocking();
    op();
  }
}

// Host memory the candidate registered with cudaHostRegister (pinned: an
// asynchronous copy to or from it really is asynchronous).
inline std::vector<std::pair<const char*, size_t>>& Registered() {
  static std::vector<std::pair<const char*, size_t>> v;
  return v;
}
// Device, managed or pinned memory: an asynchronous copy involving only
// these runs in stream order; pageable host memory makes the copy
// synchronous (CUDA stages it, or returns only once it is done).
inline bool NotPageable(const void* p) {
  if (regrapht_emu_kind_of(p) >= 0) return true;
  const char* c = static_cast<const char*>(p);
  for (const auto& [base, n] : Registered()) {
    if (c >= base && c < base + n) return true;
  }
  return false;
}
// An asynchronous copy on `s`: queued when both sides may be read or written
// later; otherwise the stream's earlier work runs first and the copy now.
template <class F>
inline void SubmitCopy(cudaStream_t s, const void* dst, const void* src, F&& op) {
  Stream* st = S(s);
  if (st->created && !st->capturing && !(NotPageable(dst) && NotPageable(src))) {
    Drain(st);
    op();
    return;
  }
  Submit(s, std::forward<F>(op));
}

template <class F>
inline void Launch(const LaunchConfig& c, F&& body, const char* name = "kernel") {
  std::function<void()> fn(std::forward<F>(body));
  LaunchConfig cc = c;
  cc.name = name;
  Submit(c.stream, [cc, fn] { RunGrid(cc, fn); });
}
}  // namespace regrapht_emu

// ---- device memory ------------------------------------------------------------------------

namespace regrapht_emu {
// Device memory comes from the checker's arena: bounds-checked, filled with
// 0xFF bytes (NaN / -1, never zero: a kernel relying on zeroed memory is wrong
// on a GPU too).
inline void* DeviceAlloc(size_t bytes) { return regrapht_emu_alloc(bytes, 0); }

// The storage of a static __shared__ variable (`id` numbers the declarations
// of the translation unit): fresh 0xFF bytes for every block, bounds-checked.
template <class T>
inline T& Shared(unsigned id) {
  size_t align = alignof(T) > 16 ? alignof(T) : 16;
  return *static_cast<T*>(regrapht_emu_shared(id, sizeof(T), align));
}
}  // namespace regrapht_emu

inline cudaError_t cudaMalloc(void** p, size_t bytes) {
  *p = regrapht_emu::DeviceAlloc(bytes);
  return *p ? cudaSuccess : (regrapht_emu::LastError() = cudaErrorMemoryAllocation);
}
template <class T>
inline cudaError_t cudaMalloc(T** p, size_t bytes) {
  return cudaMalloc(reinterpret_cast<void**>(p), bytes);
}
inline cudaError_t cudaMallocAsync(void** p, size_t bytes, cudaStream_t) {
  return cudaMalloc(p, bytes);
}
template <class T>
inline cudaError_t cudaMallocAsync(T** p, size_t bytes, cudaStream_t s) {
  return cudaMallocAsync(reinterpret_cast<void**>(p), bytes, s);
}
inline cudaError_t cudaMallocHost(void** p, size_t bytes) {
  *p = regrapht_emu_alloc(bytes, 2);
  return *p ? cudaSuccess : (regrapht_emu::LastError() = cudaErrorMemoryAllocation);
}
inline cudaError_t cudaMallocManaged(void** p, size_t bytes, unsigned = 1) {
  *p = regrapht_emu_alloc(bytes, 1);
  return *p ? cudaSuccess : (regrapht_emu::LastError() = cudaErrorMemoryAllocation);
}
template <class T>
inline cudaError_t cudaMallocManaged(T** p, size_t bytes, unsigned f = 1) {
  return cudaMallocManaged(reinterpret_cast<void**>(p), bytes, f);
}
inline cudaError_t cudaMemPrefetchAsync(const void*, size_t, int, cudaStream_t = nullptr) {
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaMallocHost(T** p, size_t bytes) {
  return cudaMallocHost(reinterpret_cast<void**>(p), bytes);
}
inline cudaError_t cudaHostAlloc(void** p, size_t bytes, unsigned) {
  return cudaMallocHost(p, bytes);
}
template <class T>
inline cudaError_t cudaHostAlloc(T** p, size_t bytes, unsigned f) {
  return cudaHostAlloc(reinterpret_cast<void**>(p), bytes, f);
}
inline cudaError_t cudaMallocPitch(void** p, size_t* pitch, size_t width, size_t height) {
  *pitch = (width + 511) & ~size_t{511};
  return cudaMalloc(p, *pitch * height);
}
template <class T>
inline cudaError_t cudaMallocPitch(T** p, size_t* pitch, size_t width, size_t height) {
  return cudaMallocPitch(reinterpret_cast<void**>(p), pitch, width, height);
}
// cudaFree and cudaFreeHost synchronise the device; cudaFreeAsync frees in
// its stream's order.
inline cudaError_t cudaFree(void* p) {
  regrapht_emu::DrainAll();
  if (regrapht_emu_free(p, 0) == 0 || regrapht_emu_free(p, 1) == 0) return cudaSuccess;
  return regrapht_emu::LastError() = cudaErrorInvalidValue;
}
inline cudaError_t cudaFreeAsync(void* p, cudaStream_t s) {
  regrapht_emu::Submit(s, [p] { (void)(regrapht_emu_free(p, 0) == 0 || regrapht_emu_free(p, 1) == 0); });
  return cudaSuccess;
}
inline cudaError_t cudaFreeHost(void* p) {
  regrapht_emu::DrainAll();
  if (regrapht_emu_free(p, 2) == 0) return cudaSuccess;
  return regrapht_emu::LastError() = cudaErrorInvalidValue;
}
inline cudaError_t cudaHostRegister(void* p, size_t n, unsigned) {
  regrapht_emu::Registered().emplace_back(static_cast<const char*>(p), n);
  return cudaSuccess;
}
// Mapped host memory: with unified addressing the device pointer is the
// host pointer.
inline cudaError_t cudaHostGetDevicePointer(void** d, void* h, unsigned) {
  *d = h;
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaHostGetDevicePointer(T** d, void* h, unsigned f) {
  return cudaHostGetDevicePointer(reinterpret_cast<void**>(d), h, f);
}
inline cudaError_t cudaHostUnregister(void* p) {
  auto& r = regrapht_emu::Registered();
  for (size_t i = 0; i < r.size(); ++i) {
    if (r[i].first == p) {
      r.erase(r.begin() + static_cast<long>(i));
      return cudaSuccess;
    }
  }
  return regrapht_emu::LastError() = cudaErrorHostMemoryNotRegistered;
}

inline cudaError_t cudaMemcpy(void* dst, const void* src, size_t n,
                              cudaMemcpyKind = cudaMemcpyDefault) {
  regrapht_emu::DrainBlocking();  // the legacy stream: after the blocking streams' work
  regrapht_emu_copy(dst, src, n);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t n,
                                   cudaMemcpyKind = cudaMemcpyDefault, cudaStream_t s = nullptr) {
  regrapht_emu::SubmitCopy(s, dst, src, [=] { regrapht_emu_copy(dst, src, n); });
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch,
                                size_t width, size_t height, cudaMemcpyKind = cudaMemcpyDefault) {
  regrapht_emu::DrainBlocking();
  for (size_t r = 0; r < height; ++r)
    regrapht_emu_copy(static_cast<char*>(dst) + r * dpitch, static_cast<const char*>(src) + r * spitch,
                      width);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                                     size_t width, size_t height,
                                     cudaMemcpyKind k = cudaMemcpyDefault,
                                     cudaStream_t s = nullptr) {
  regrapht_emu::SubmitCopy(s, dst, src, [=] {
    for (size_t r = 0; r < height; ++r)
      regrapht_emu_copy(static_cast<char*>(dst) + r * dpitch, static_cast<const char*>(src) + r * spitch, width);
  });
  (void)k;
  return cudaSuccess;
}
inline cudaError_t cudaMemset(void* p, int v, size_t n) {
  regrapht_emu::DrainBlocking();
  if (regrapht_emu_fill(p, v, n) != 0) return regrapht_emu::LastError() = cudaErrorInvalidValue;
  return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void* p, int v, size_t n, cudaStream_t s = nullptr) {
  regrapht_emu::Submit(s, [=] { regrapht_emu_fill(p, v, n); });
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t n, size_t offset = 0,
                                      cudaMemcpyKind = cudaMemcpyHostToDevice) {
  if (offset + n > sizeof(T)) return regrapht_emu::LastError() = cudaErrorInvalidValue;
  regrapht_emu::DrainBlocking();
  regrapht_emu_copy(reinterpret_cast<char*>(const_cast<T*>(&symbol)) + offset, src, n);
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, size_t n,
                                           size_t offset = 0,
                                           cudaMemcpyKind = cudaMemcpyHostToDevice,
                                           cudaStream_t s = nullptr) {
  if (offset + n > sizeof(T)) return regrapht_emu::LastError() = cudaErrorInvalidValue;
  char* dst = reinterpret_cast<char*>(const_cast<T*>(&symbol)) + offset;
  regrapht_emu::SubmitCopy(s, dst, src, [=] { regrapht_emu_copy(dst, src, n); });
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t n, size_t offset = 0,
                                        cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  if (offset + n > sizeof(T)) return regrapht_emu::LastError() = cudaErrorInvalidValue;
  regrapht_emu::DrainBlocking();
  regrapht_emu_copy(dst, reinterpret_cast<const char*>(&symbol) + offset, n);
  return cudaSuccess;
}
template <class T>
inline cudaError_t cudaGetSymbolAddress(void** p, const T& symbol) {
  *p = const_cast<T*>(&symbol);
  return cudaSuccess;
}

// ---- device, errors, synchronisation --------------------------------------------------------

inline cudaError_t cudaGetDeviceCount(int* n) {
  *n = 1;
  return cudaSuccess;
}
inline cudaError_t cudaGetDevice(int* d) {
  *d = 0;
  return cudaSuccess;
}
inline cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : cudaErrorInvalidDevice; }
inline cudaError_t cudaDeviceSynchronize() {
  regrapht_emu::DrainAll();
  regrapht_emu_host_sync();
  return cudaSuccess;
}
inline cudaError_t cudaDeviceReset() { return cudaSuccess; }
inline cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }
// The driver's synchronisation after each call (verify/driver/rg_driver.h):
// whatever the candidate left pending runs now, after the driver has seen
// the outputs as they were when the function returned.
extern "C" __attribute__((weak)) void regrapht_emu_device_sync() { cudaDeviceSynchronize(); }
inline cudaError_t cudaGetLastError() {
  cudaError_t e = regrapht_emu::LastError();
  regrapht_emu::LastError() = cudaSuccess;
  return e;
}
inline cudaError_t cudaPeekAtLastError() { return regrapht_emu::LastError(); }
inline const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess:
      return "no error";
    case cudaErrorInvalidValue:
      return "invalid argument";
    case cudaErrorMemoryAllocation:
      return "out of memory";
    case cudaErrorInvalidConfiguration:
      return "invalid configuration argument";
    case cudaErrorCooperativeLaunchTooLarge:
      return "too many blocks in cooperative launch";
    default:
      return "unknown error";
  }
}
inline const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case cudaSuccess:
      return "cudaSuccess";
    case cudaErrorInvalidValue:
      return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation:
      return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration:
      return "cudaErrorInvalidConfiguration";
    case cudaErrorCooperativeLaunchTooLarge:
      return "cudaErrorCooperativeLaunchTooLarge";
    default:
      return "cudaErrorUnknown";
  }
}
inline cudaError_t cudaDriverGetVersion(int* v) {
  *v = 13000;
  return cudaSuccess;
}
inline cudaError_t cudaRuntimeGetVersion(int* v) {
  *v = 13000;
  return cudaSuccess;
}

inline cudaError_t cudaDeviceGetAttribute(int* v, cudaDeviceAttr a, int) {
  using namespace regrapht_emu;
  switch (a) {
    case cudaDevAttrMaxThreadsPerBlock:
      *v = 1024;
      break;
    case cudaDevAttrMaxBlockDimX:
    case cudaDevAttrMaxBlockDimY:
      *v = 1024;
      break;
    case cudaDevAttrMaxBlockDimZ:
      *v = 64;
      break;
    case cudaDevAttrMaxGridDimX:
      *v = 2147483647;
      break;
    case cudaDevAttrMaxGridDimY:
    case cudaDevAttrMaxGridDimZ:
      *v = 65535;
      break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
      *v = static_cast<int>(kSharedPerBlock);
      break;
    case cudaDevAttrTotalConstantMemory:
      *v = 65536;
      break;
    case cudaDevAttrWarpSize:
      *v = 32;
      break;
    case cudaDevAttrMaxRegistersPerBlock:
    case cudaDevAttrMaxRegistersPerMultiprocessor:
      *v = 65536;
      break;
    case cudaDevAttrClockRate:
      *v = 1980000;
      break;
    case cudaDevAttrTextureAlignment:
      *v = 512;
      break;
    case cudaDevAttrMultiProcessorCount:
      *v = kSms;
      break;
    case cudaDevAttrComputeCapabilityMajor:
      *v = 9;
      break;
    case cudaDevAttrComputeCapabilityMinor:
      *v = 0;
      break;
    case cudaDevAttrL2CacheSize:
      *v = 50 * 1024 * 1024;
      break;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
      *v = kMaxThreadsPerSm;
      break;
    case cudaDevAttrGlobalMemoryBusWidth:
      *v = 6144;
      break;
    case cudaDevAttrMemoryClockRate:
      *v = 2619000;
      break;
    case cudaDevAttrCooperativeLaunch:
      *v = 1;
      break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
      *v = static_cast<int>(kSharedOptin);
      break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
      *v = 228 * 1024;
      break;
    case cudaDevAttrMaxBlocksPerMultiprocessor:
      *v = 32;
      break;
    default:
      *v = 0;
      return regrapht_emu::LastError() = cudaErrorInvalidValue;
  }
  return cudaSuccess;
}
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int) {
  using namespace regrapht_emu;
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "regrapht CUDA emulator (CPU)");
  p->totalGlobalMem = size_t{16} << 30;
  p->sharedMemPerBlock = kSharedPerBlock;
  p->regsPerBlock = 65536;
  p->warpSize = 32;
  p->memPitch = size_t{1} << 31;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
  p->maxThreadsDim[2] = 64;
  p->maxGridSize[0] = 2147483647;
  p->maxGridSize[1] = p->maxGridSize[2] = 65535;
  p->totalConstMem = 65536;
  p->major = 9;
  p->minor = 0;
  p->textureAlignment = 512;
  p->multiProcessorCount = kSms;
  p->canMapHostMemory = 1;
  p->concurrentKernels = 1;
  p->l2CacheSize = 50 * 1024 * 1024;
  p->maxThreadsPerMultiProcessor = kMaxThreadsPerSm;
  p->sharedMemPerMultiprocessor = 228 * 1024;
  p->regsPerMultiprocessor = 65536;
  p->sharedMemPerBlockOptin = kSharedOptin;
  p->maxBlocksPerMultiProcessor = 32;
  p->cooperativeLaunch = 1;
  p->memoryBusWidth = 6144;
  p->unifiedAddressing = 1;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
inline cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) { return cudaSuccess; }
template <class F>
inline cudaError_t cudaFuncSetAttribute(F, cudaFuncAttribute, int) {
  return cudaSuccess;
}
template <class F>
inline cudaError_t cudaFuncSetCacheConfig(F, cudaFuncCache) {
  return cudaSuccess;
}

template <class F>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* n, F, int block_size,
                                                                 size_t smem) {
  *n = static_cast<int>(regrapht_emu::MaxCoResidentBlocks(static_cast<unsigned>(block_size), smem) /
                        regrapht_emu::kSms);
  return cudaSuccess;
}
template <class F>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid, int* block, F, size_t smem = 0,
                                                      int limit = 0) {
  int b = limit > 0 ? std::min(limit, 1024) : 1024;
  *block = b;
  *min_grid = static_cast<int>(regrapht_emu::MaxCoResidentBlocks(static_cast<unsigned>(b), smem));
  return cudaSuccess;
}

inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned flags) {
  *s = new regrapht_emu::Stream();
  (*s)->created = true;
  (*s)->blocking = (flags & cudaStreamNonBlocking) == 0;
  regrapht_emu::Streams().push_back(*s);
  return cudaSuccess;
}
inline cudaError_t cudaStreamCreate(cudaStream_t* s) { return cudaStreamCreateWithFlags(s, cudaStreamDefault); }
inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t* s, unsigned flags, int) {
  return cudaStreamCreateWithFlags(s, flags);
}
// CUDA finishes a destroyed stream's work later: it stays pending until
// something synchronises. The stream object is never freed (events recorded
// on it may still name it; a candidate's run is one short process).
inline cudaError_t cudaStreamDestroy(cudaStream_t s) {
  if (!s || !s->created) return regrapht_emu::LastError() = cudaErrorInvalidValue;
  if (s->pending.empty()) {
    auto& v = regrapht_emu::Streams();
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] == s) v.erase(v.begin() + static_cast<long>(i));
    }
  }
  return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  if (regrapht_emu::S(s)->created)
    regrapht_emu::Drain(s);
  else
    regrapht_emu::DrainBlocking();
  regrapht_emu_host_sync();
  return cudaSuccess;
}
// A query finishes the stream's work (a loop polling it would never end
// otherwise): the emulator synchronises there.
inline cudaError_t cudaStreamQuery(cudaStream_t s) { return cudaStreamSynchronize(s); }
inline cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t e, unsigned = 0) {
  if (e) regrapht_emu::Drain(e->stream);  // the event's work, done before the waiter's later work
  return cudaSuccess;
}
typedef void (*cudaHostFn_t)(void*);
inline cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void* data) {
  regrapht_emu::Submit(s, [fn, data] { fn(data); });
  return cudaSuccess;
}
typedef void (*cudaStreamCallback_t)(cudaStream_t, cudaError_t, void*);
inline cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void* data, unsigned) {
  regrapht_emu::Submit(s, [s, cb, data] { cb(s, cudaSuccess, data); });
  return cudaSuccess;
}
inline cudaError_t cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode) {
  regrapht_emu::S(s)->capturing = new regrapht_emu::Graph();
  return cudaSuccess;
}
inline cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t* g) {
  *g = regrapht_emu::S(s)->capturing;
  regrapht_emu::S(s)->capturing = nullptr;
  return *g ? cudaSuccess : cudaErrorInvalidValue;
}
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t* e, cudaGraph_t g, unsigned long long = 0) {
  *e = new regrapht_emu::Graph(*g);
  return cudaSuccess;
}
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t* e, cudaGraph_t g, cudaGraphNode_t*, char*,
                                        size_t) {
  return cudaGraphInstantiate(e, g);
}
inline cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* e, cudaGraph_t g,
                                                 unsigned long long = 0) {
  return cudaGraphInstantiate(e, g);
}
// The launch owns a copy of the graph's work: a candidate may destroy the
// executable graph while the launch is still queued, as CUDA allows.
inline cudaError_t cudaGraphLaunch(cudaGraphExec_t e, cudaStream_t s) {
  auto ops = std::make_shared<std::vector<std::function<void()>>>(e->ops);
  regrapht_emu::Submit(s, [ops] {
    for (auto& op : *ops) op();
  });
  return cudaSuccess;
}
inline cudaError_t cudaGraphDestroy(cudaGraph_t g) {
  delete g;
  return cudaSuccess;
}
inline cudaError_t cudaGraphExecDestroy(cudaGraphExec_t e) {
  delete e;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* p, int) {
  *p = nullptr;
  return cudaSuccess;
}
inline cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t, cudaMemPoolAttr, void*) {
  return cudaSuccess;
}

inline cudaError_t cudaEventCreate(cudaEvent_t* e) {
  *e = new regrapht_emu::Event();
  return cudaSuccess;
}
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned) { return cudaEventCreate(e); }
// An event whose record is still queued is freed after that record runs (CUDA
// lets a candidate destroy it at once; the pending work still completes).
inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
  if (e && e->stream && !e->stream->pending.empty()) {
    e->stream->pending.emplace_back([e] { delete e; });
  } else {
    delete e;
  }
  return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = nullptr) {
  regrapht_emu::Stream* st = regrapht_emu::S(s);
  e->stream = st->created ? st : nullptr;
  regrapht_emu::Submit(s, [e] { e->t = std::chrono::steady_clock::now(); });
  return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  if (e) regrapht_emu::Drain(e->stream);
  regrapht_emu_host_sync();
  return cudaSuccess;
}
inline cudaError_t cudaEventQuery(cudaEvent_t e) { return cudaEventSynchronize(e); }
inline cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) {
  regrapht_emu::Drain(a->stream);
  regrapht_emu::Drain(b->stream);
  *ms = std::chrono::duration<float, std::milli>(b->t - a->t).count();
  return cudaSuccess;
}

// cudaLaunchCooperativeKernel / cudaLaunchKernel: arguments arrive as an
// array of pointers to each argument.
namespace regrapht_emu {
template <class... A, size_t... I>
inline std::function<void()> BindArgs(void (*f)(A...), void** args, std::index_sequence<I...>) {
  return [f, vals = std::make_tuple(*static_cast<std::decay_t<A>*>(args[I])...)] {
    std::apply(f, vals);
  };
}
}  // namespace regrapht_emu
template <class... A>
inline cudaError_t cudaLaunchCooperativeKernel(void (*f)(A...), dim3 grid, dim3 block, void** args,
                                               size_t smem = 0, cudaStream_t s = nullptr) {
  auto fn = regrapht_emu::BindArgs(f, args, std::index_sequence_for<A...>{});
  auto cfg = regrapht_emu::Cfg(grid, block, smem, s);
  // Run at once (its error is the call's): the stream's earlier work first.
  regrapht_emu::Stream* st = regrapht_emu::S(s);
  if (st->capturing) {
    st->capturing->ops.emplace_back([cfg, fn] { regrapht_emu::RunCooperative(cfg, fn); });
    return cudaSuccess;
  }
  if (st->created)
    regrapht_emu::Drain(st);
  else
    regrapht_emu::DrainBlocking();
  return regrapht_emu::RunCooperative(cfg, fn);
}
template <class... A>
inline cudaError_t cudaLaunchKernel(void (*f)(A...), dim3 grid, dim3 block, void** args,
                                    size_t smem = 0, cudaStream_t s = nullptr) {
  auto fn = regrapht_emu::BindArgs(f, args, std::index_sequence_for<A...>{});
  regrapht_emu::Launch(regrapht_emu::Cfg(grid, block, smem, s), fn);
  return cudaSuccess;
}

// ---- built-in variables ----------------------------------------------------------------------

// Values, not lvalues (as in CUDA, where they cannot be assigned): reading
// one is a call to an uninstrumented function, not two checked loads.
namespace regrapht_emu {
RG_EMU_INTERNAL inline uint3 ThreadIdx() { return tl_fiber->tid; }
RG_EMU_INTERNAL inline uint3 BlockIdx() { return tl_block->bid; }
RG_EMU_INTERNAL inline dim3 BlockDim() { return tl_block->bdim; }
RG_EMU_INTERNAL inline dim3 GridDim() { return tl_block->gdim; }
}  // namespace regrapht_emu
#define threadIdx (::regrapht_emu::ThreadIdx())
#define blockIdx (::regrapht_emu::BlockIdx())
#define blockDim (::regrapht_emu::BlockDim())
#define gridDim (::regrapht_emu::GridDim())
#define warpSize 32

// ---- synchronisation and warp intrinsics -------------------------------------------------------

inline void __syncthreads() { regrapht_emu::SyncThreads(); }
inline int __syncthreads_count(int p) {
  regrapht_emu::SyncThreads(p);
  return regrapht_emu::tl_block->bar_result_count;
}
inline int __syncthreads_or(int p) {
  regrapht_emu::SyncThreads(p);
  return regrapht_emu::tl_block->bar_result_or;
}
inline int __syncthreads_and(int p) {
  regrapht_emu::SyncThreads(p);
  return regrapht_emu::tl_block->bar_result_and;
}
inline void __syncwarp(unsigned mask = 0xffffffffu) {
  int z = 0;
  regrapht_emu::WarpArrive(mask, &z, sizeof z);
}
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __nanosleep(unsigned) {}
// Address-space conversions (used to feed inline PTX, which stops the run where
// it is reached: docs/emulator.md). One address space here.
inline size_t __cvta_generic_to_shared(const void* p) { return reinterpret_cast<size_t>(p); }
inline size_t __cvta_generic_to_global(const void* p) { return reinterpret_cast<size_t>(p); }
[[noreturn]] inline void __trap() { regrapht_emu::Fatal("__trap() called"); }
inline unsigned __activemask() {
  return regrapht_emu::tl_block->warps[regrapht_emu::tl_fiber->linear / 32].alive;
}
inline unsigned __lanemask_lt() { return (1u << regrapht_emu::LaneId()) - 1; }

template <class T>
inline T __shfl_sync(unsigned mask, T v, int src, int width = 32) {
  return regrapht_emu::Shfl(mask, v, src, width);
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T v, unsigned delta, int width = 32) {
  return regrapht_emu::ShflUp(mask, v, delta, width);
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32) {
  return regrapht_emu::ShflDown(mask, v, delta, width);
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = 32) {
  return regrapht_emu::ShflXor(mask, v, lane_mask, width);
}
inline unsigned __ballot_sync(unsigned mask, int pred) { return regrapht_emu::Ballot(mask, pred); }
inline int __any_sync(unsigned mask, int pred) { return regrapht_emu::Ballot(mask, pred) != 0; }
inline int __all_sync(unsigned mask, int pred) {
  unsigned r = regrapht_emu::Ballot(mask, pred);
  auto& wp = regrapht_emu::tl_block->warps[regrapht_emu::tl_fiber->linear / 32];
  return (r & mask & wp.alive) == (mask & wp.alive);
}
template <class T>
inline unsigned __match_any_sync(unsigned mask, T v) {
  return regrapht_emu::MatchAny(mask, v);
}
template <class T>
inline unsigned __match_all_sync(unsigned mask, T v, int* pred) {
  unsigned same = regrapht_emu::MatchAny(mask, v);
  auto& wp = regrapht_emu::tl_block->warps[regrapht_emu::tl_fiber->linear / 32];
  *pred = (same & wp.alive & mask) == (mask & wp.alive);
  return *pred ? mask : 0u;
}
template <class T>
inline T __reduce_add_sync(unsigned mask, T v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(mask, v, o);
  return v;
}
template <class T>
inline T __reduce_min_sync(unsigned mask, T v) {
  for (int o = 16; o > 0; o >>= 1) v = std::min(v, __shfl_xor_sync(mask, v, o));
  return v;
}
template <class T>
inline T __reduce_max_sync(unsigned mask, T v) {
  for (int o = 16; o > 0; o >>= 1) v = std::max(v, __shfl_xor_sync(mask, v, o));
  return v;
}

// ---- atomics (real atomics: cooperative launches run blocks in parallel)
// -------------------------

namespace regrapht_emu {
template <class T, class F>
inline T AtomicUpdate(T* p, F f) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 2,
                "atomic of an unsupported size");
  using U = std::conditional_t<sizeof(T) == 8, unsigned long long,
                               std::conditional_t<sizeof(T) == 4, unsigned, unsigned short>>;
  U* up = reinterpret_cast<U*>(p);
  U old_bits = __atomic_load_n(up, __ATOMIC_SEQ_CST);
  for (;;) {
    T old_val;
    std::memcpy(&old_val, &old_bits, sizeof(T));
    T new_val = f(old_val);
    U new_bits;
    std::memcpy(&new_bits, &new_val, sizeof(T));
    if (__atomic_compare_exchange_n(up, &old_bits, new_bits, false, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST))
      return old_val;
  }
}
}  // namespace regrapht_emu

#define RG_EMU_ATOMIC(NAME, T, EXPR)                                                 \
  inline T NAME(T* p, T v) {                                                         \
    return regrapht_emu::AtomicUpdate(p, [v](T o) { return static_cast<T>(EXPR); }); \
  }                                                                                  \
  inline T NAME##_block(T* p, T v) { return NAME(p, v); }                            \
  inline T NAME##_system(T* p, T v) { return NAME(p, v); }
#define RG_EMU_ATOMIC_INTS(NAME, EXPR)          \
  RG_EMU_ATOMIC(NAME, int, EXPR)                \
  RG_EMU_ATOMIC(NAME, unsigned int, EXPR)       \
  RG_EMU_ATOMIC(NAME, unsigned long long, EXPR) \
  RG_EMU_ATOMIC(NAME, long long, EXPR)

RG_EMU_ATOMIC_INTS(atomicAdd, o + v)
RG_EMU_ATOMIC(atomicAdd, float, o + v)
RG_EMU_ATOMIC(atomicAdd, double, o + v)
RG_EMU_ATOMIC(atomicSub, int, o - v)
RG_EMU_ATOMIC(atomicSub, unsigned int, o - v)
RG_EMU_ATOMIC_INTS(atomicExch, v)
RG_EMU_ATOMIC(atomicExch, float, v)
RG_EMU_ATOMIC_INTS(atomicMin, (v < o ? v : o))
RG_EMU_ATOMIC_INTS(atomicMax, (v > o ? v : o))
RG_EMU_ATOMIC(atomicMin, float, (v < o ? v : o))
RG_EMU_ATOMIC(atomicMax, float, (v > o ? v : o))
RG_EMU_ATOMIC(atomicMin, double, (v < o ? v : o))
RG_EMU_ATOMIC(atomicMax, double, (v > o ? v : o))
RG_EMU_ATOMIC(atomicAnd, int, o& v)
RG_EMU_ATOMIC(atomicAnd, unsigned int, o& v)
RG_EMU_ATOMIC(atomicAnd, unsigned long long, o& v)
RG_EMU_ATOMIC(atomicOr, int, o | v)
RG_EMU_ATOMIC(atomicOr, unsigned int, o | v)
RG_EMU_ATOMIC(atomicOr, unsigned long long, o | v)
RG_EMU_ATOMIC(atomicXor, int, o ^ v)
RG_EMU_ATOMIC(atomicXor, unsigned int, o ^ v)
RG_EMU_ATOMIC(atomicXor, unsigned long long, o ^ v)
RG_EMU_ATOMIC(atomicInc, unsigned int, (o >= v ? 0u : o + 1))
RG_EMU_ATOMIC(atomicDec, unsigned int, ((o == 0 || o > v) ? v : o - 1))

#define RG_EMU_CAS(T)                                                                         \
  inline T atomicCAS(T* p, T compare, T val) {                                                \
    __atomic_compare_exchange_n(p, &compare, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    return compare;                                                                           \
  }                                                                                           \
  inline T atomicCAS_block(T* p, T c, T v) { return atomicCAS(p, c, v); }                     \
  inline T atomicCAS_system(T* p, T c, T v) { return atomicCAS(p, c, v); }
RG_EMU_CAS(int)
RG_EMU_CAS(unsigned int)
RG_EMU_CAS(unsigned long long)
RG_EMU_CAS(unsigned short)

// ---- loads and stores with cache hints
// -----------------------------------------------------------

template <class T>
inline T __ldg(const T* p) {
  return *p;
}
template <class T>
inline T __ldcg(const T* p) {
  return *p;
}
template <class T>
inline T __ldca(const T* p) {
  return *p;
}
template <class T>
inline T __ldcs(const T* p) {
  return *p;
}
template <class T>
inline T __ldlu(const T* p) {
  return *p;
}
template <class T>
inline T __ldcv(const T* p) {
  return *p;
}
template <class T>
inline void __stcg(T* p, T v) {
  *p = v;
}
template <class T>
inline void __stcs(T* p, T v) {
  *p = v;
}
template <class T>
inline void __stwb(T* p, T v) {
  *p = v;
}
template <class T>
inline void __stwt(T* p, T v) {
  *p = v;
}

// ---- integer and float intrinsics
// ------------------------------------------------------------------

inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
inline unsigned long long __brevll(unsigned long long x) {
  unsigned long long r = 0;
  for (int i = 0; i < 64; ++i) r |= ((x >> i) & 1ull) << (63 - i);
  return r;
}
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  unsigned long long v = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i)
    r |= static_cast<unsigned>((v >> (((s >> (4 * i)) & 7u) * 8)) & 0xffu) << (8 * i);
  return r;
}
// SIMD-within-a-word intrinsics: four unsigned bytes or two halfwords.
namespace regrapht_emu {
template <class F>
inline unsigned PerByte(unsigned a, unsigned b, F f) {
  unsigned r = 0;
  for (int i = 0; i < 4; ++i)
    r |= (f((a >> (8 * i)) & 0xffu, (b >> (8 * i)) & 0xffu) & 0xffu) << (8 * i);
  return r;
}
template <class F>
inline unsigned PerHalf(unsigned a, unsigned b, F f) {
  unsigned r = 0;
  for (int i = 0; i < 2; ++i)
    r |= (f((a >> (16 * i)) & 0xffffu, (b >> (16 * i)) & 0xffffu) & 0xffffu) << (16 * i);
  return r;
}
}  // namespace regrapht_emu
inline unsigned __vminu4(unsigned a, unsigned b) {
  return regrapht_emu::PerByte(a, b, [](unsigned x, unsigned y) { return x < y ? x : y; });
}
inline unsigned __vmaxu4(unsigned a, unsigned b) {
  return regrapht_emu::PerByte(a, b, [](unsigned x, unsigned y) { return x > y ? x : y; });
}
inline unsigned __vabsdiffu4(unsigned a, unsigned b) {
  return regrapht_emu::PerByte(a, b, [](unsigned x, unsigned y) { return x > y ? x - y : y - x; });
}
inline unsigned __vadd4(unsigned a, unsigned b) {
  return regrapht_emu::PerByte(a, b, [](unsigned x, unsigned y) { return x + y; });
}
inline unsigned __vsub4(unsigned a, unsigned b) {
  return regrapht_emu::PerByte(a, b, [](unsigned x, unsigned y) { return x - y; });
}
inline unsigned __vaddus4(unsigned a, unsigned b) {
  return regrapht_emu::PerByte(a, b,
                               [](unsigned x, unsigned y) { return x + y > 255 ? 255u : x + y; });
}
inline unsigned __vsubus4(unsigned a, unsigned b) {
  return regrapht_emu::PerByte(a, b, [](unsigned x, unsigned y) { return x > y ? x - y : 0u; });
}
inline unsigned __vavgu4(unsigned a, unsigned b) {
  return regrapht_emu::PerByte(a, b, [](unsigned x, unsigned y) { return (x + y + 1) / 2; });
}
inline unsigned __vcmpgeu4(unsigned a, unsigned b) {
  return regrapht_emu::PerByte(a, b, [](unsigned x, unsigned y) { return x >= y ? 0xffu : 0u; });
}
inline unsigned __vcmpeq4(unsigned a, unsigned b) {
  return regrapht_emu::PerByte(a, b, [](unsigned x, unsigned y) { return x == y ? 0xffu : 0u; });
}
inline unsigned __vminu2(unsigned a, unsigned b) {
  return regrapht_emu::PerHalf(a, b, [](unsigned x, unsigned y) { return x < y ? x : y; });
}
inline unsigned __vmaxu2(unsigned a, unsigned b) {
  return regrapht_emu::PerHalf(a, b, [](unsigned x, unsigned y) { return x > y ? x : y; });
}
inline unsigned __vadd2(unsigned a, unsigned b) {
  return regrapht_emu::PerHalf(a, b, [](unsigned x, unsigned y) { return x + y; });
}
inline unsigned __vsub2(unsigned a, unsigned b) {
  return regrapht_emu::PerHalf(a, b, [](unsigned x, unsigned y) { return x - y; });
}

inline int __mul24(int a, int b) { return (a << 8 >> 8) * (b << 8 >> 8); }
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) {
  return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline long long __mul64hi(long long a, long long b) {
  return static_cast<long long>((static_cast<__int128>(a) * b) >> 64);
}
inline unsigned __sad(int a, int b, unsigned c) {
  return c + static_cast<unsigned>(a > b ? a - b : b - a);
}
inline unsigned __usad(unsigned a, unsigned b, unsigned c) { return c + (a > b ? a - b : b - a); }
inline long long clock64() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline int __float_as_int(float f) {
  int i;
  std::memcpy(&i, &f, 4);
  return i;
}
inline unsigned __float_as_uint(float f) {
  unsigned i;
  std::memcpy(&i, &f, 4);
  return i;
}
inline float __int_as_float(int i) {
  float f;
  std::memcpy(&f, &i, 4);
  return f;
}
inline float __uint_as_float(unsigned i) {
  float f;
  std::memcpy(&f, &i, 4);
  return f;
}
inline long long __double_as_longlong(double d) {
  long long i;
  std::memcpy(&i, &d, 8);
  return i;
}
inline double __longlong_as_double(long long i) {
  double d;
  std::memcpy(&d, &i, 8);
  return d;
}
inline int __double2hiint(double d) { return static_cast<int>(__double_as_longlong(d) >> 32); }
inline int __double2loint(double d) { return static_cast<int>(__double_as_longlong(d)); }
inline double __hiloint2double(int hi, int lo) {
  return __longlong_as_double((static_cast<long long>(hi) << 32) | static_cast<unsigned>(lo));
}

inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline int __float2int_rd(float x) { return static_cast<int>(std::floor(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(std::ceil(x)); }
inline unsigned __float2uint_rn(float x) { return static_cast<unsigned>(std::nearbyint(x)); }
inline unsigned __float2uint_rz(float x) { return static_cast<unsigned>(x); }
inline unsigned __float2uint_rd(float x) { return static_cast<unsigned>(std::floor(x)); }
inline long long __float2ll_rn(float x) { return static_cast<long long>(std::nearbyint(x)); }
inline long long __float2ll_rz(float x) { return static_cast<long long>(x); }
inline int __double2int_rn(double x) { return static_cast<int>(std::nearbyint(x)); }
inline int __double2int_rz(double x) { return static_cast<int>(x); }
inline long long __double2ll_rn(double x) { return static_cast<long long>(std::nearbyint(x)); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned x) { return static_cast<float>(x); }
inline float __ll2float_rn(long long x) { return static_cast<float>(x); }
inline double __int2double_rn(int x) { return static_cast<double>(x); }
inline double __ll2double_rn(long long x) { return static_cast<double>(x); }

inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline float __powf(float a, float b) { return std::pow(a, b); }
inline void __sincosf(float x, float* s, float* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline double __dsqrt_rn(double x) { return std::sqrt(x); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline double __drcp_rn(double x) { return 1.0 / x; }
inline float __frsqrt_rn(float x) { return 1.0f / std::sqrt(x); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __fmaf_rz(float a, float b, float c) { return std::fma(a, b, c); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }
inline float norm3df(float a, float b, float c) { return std::sqrt(a * a + b * b + c * c); }
inline float rnorm3df(float a, float b, float c) { return 1.0f / std::sqrt(a * a + b * b + c * c); }
inline double norm3d(double a, double b, double c) { return std::sqrt(a * a + b * b + c * c); }
inline double rnorm3d(double a, double b, double c) {
  return 1.0 / std::sqrt(a * a + b * b + c * c);
}
inline float rhypotf(float a, float b) { return 1.0f / std::hypot(a, b); }
inline float normcdff(float x) { return 0.5f * std::erfc(-x / std::sqrt(2.0f)); }
inline double normcdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }
#if !defined(__GLIBC__) || __GLIBC__ < 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ < 41)
inline float sinpif(float x) { return std::sin(x * 3.14159265358979323846f); }
inline float cospif(float x) { return std::cos(x * 3.14159265358979323846f); }
inline double sinpi(double x) { return std::sin(x * 3.14159265358979323846); }
inline double cospi(double x) { return std::cos(x * 3.14159265358979323846); }
#endif

// CUDA's overloaded min/max for every arithmetic type pair.
#define RG_EMU_MINMAX(R, A, B)                                                            \
  inline R min(A a, B b) {                                                                \
    return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); \
  }                                                                                       \
  inline R max(A a, B b) {                                                                \
    return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); \
  }
RG_EMU_MINMAX(int, int, int)
RG_EMU_MINMAX(unsigned int, unsigned int, unsigned int)
RG_EMU_MINMAX(unsigned int, int, unsigned int)
RG_EMU_MINMAX(unsigned int, unsigned int, int)
RG_EMU_MINMAX(long, long, long)
RG_EMU_MINMAX(unsigned long, unsigned long, unsigned long)
RG_EMU_MINMAX(unsigned long, long, unsigned long)
RG_EMU_MINMAX(unsigned long, unsigned long, long)
RG_EMU_MINMAX(long long, long long, long long)
RG_EMU_MINMAX(unsigned long long, unsigned long long, unsigned long long)
RG_EMU_MINMAX(unsigned long long, long long, unsigned long long)
RG_EMU_MINMAX(unsigned long long, unsigned long long, long long)
RG_EMU_MINMAX(float, float, float)
RG_EMU_MINMAX(double, double, double)
RG_EMU_MINMAX(double, float, double)
RG_EMU_MINMAX(double, double, float)

// ---- textures: tex1Dfetch on linear memory
// ---------------------------------------------------------

typedef unsigned long long cudaTextureObject_t;
enum cudaResourceType {
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3
};
enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3
};
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
struct cudaChannelFormatDesc {
  int x, y, z, w;
  cudaChannelFormatKind f;
};
template <class T>
inline cudaChannelFormatDesc cudaCreateChannelDesc() {
  cudaChannelFormatKind k = std::is_floating_point<T>::value ? cudaChannelFormatKindFloat
                            : std::is_signed<T>::value       ? cudaChannelFormatKindSigned
                                                             : cudaChannelFormatKindUnsigned;
  return cudaChannelFormatDesc{static_cast<int>(8 * sizeof(T)), 0, 0, 0, k};
}
inline cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                   cudaChannelFormatKind f) {
  return cudaChannelFormatDesc{x, y, z, w, f};
}
struct cudaResourceDesc {
  cudaResourceType resType;
  union {
    struct {
      void* array;
    } array;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
  } res;
};
struct cudaTextureDesc {
  cudaTextureAddressMode addressMode[3];
  cudaTextureFilterMode filterMode;
  cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned maxAnisotropy;
  int mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
struct cudaResourceViewDesc;
namespace regrapht_emu {
inline std::vector<const void*>& Textures() {
  static std::vector<const void*> t;
  return t;
}
}  // namespace regrapht_emu
inline cudaError_t cudaCreateTextureObject(cudaTextureObject_t* t, const cudaResourceDesc* r,
                                           const cudaTextureDesc* d, const cudaResourceViewDesc*) {
  if (r->resType != cudaResourceTypeLinear || (d && d->readMode != cudaReadModeElementType) ||
      (d && d->filterMode != cudaFilterModePoint)) {
    regrapht_emu::Fatal("only point-sampled, element-type textures on linear memory are emulated");
  }
  regrapht_emu::Textures().push_back(r->res.linear.devPtr);
  *t = regrapht_emu::Textures().size();
  return cudaSuccess;
}
inline cudaError_t cudaDestroyTextureObject(cudaTextureObject_t) { return cudaSuccess; }
template <class T>
inline T tex1Dfetch(cudaTextureObject_t t, int i) {
  if (t == 0 || t > regrapht_emu::Textures().size())
    regrapht_emu::Fatal("tex1Dfetch on an invalid texture object");
  return static_cast<const T*>(regrapht_emu::Textures()[t - 1])[i];
}
template <class T>
inline void tex1Dfetch(T* out, cudaTextureObject_t t, int i) {
  *out = tex1Dfetch<T>(t, i);
}

// ---- cooperative groups
// ----------------------------------------------------------------------------

namespace cooperative_groups {
namespace detail_emu {
inline unsigned LinearTid() { return regrapht_emu::tl_fiber->linear; }
inline unsigned BlockThreads() { return regrapht_emu::tl_block->nthreads; }
}  // namespace detail_emu

struct thread_block {
  void sync() const { __syncthreads(); }
  unsigned thread_rank() const { return detail_emu::LinearTid(); }
  unsigned size() const { return detail_emu::BlockThreads(); }
  unsigned num_threads() const { return detail_emu::BlockThreads(); }
  dim3 group_index() const { return dim3(blockIdx); }
  dim3 thread_index() const { return dim3(threadIdx); }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }
};
inline thread_block this_thread_block() { return thread_block{}; }

struct grid_group {
  void sync() const {
    regrapht_emu::Block* b = regrapht_emu::tl_block;
    if (!b->grid)
      regrapht_emu::Fatal("grid.sync() outside a cooperative launch (cudaLaunchCooperativeKernel)");
    ++b->grid_arrived;
    if (b->grid_arrived >= b->alive) {
      regrapht_emu::WakeGrid(b);
      return;
    }
    regrapht_emu::Suspend(regrapht_emu::St::kGrid);
  }
  bool is_valid() const { return regrapht_emu::tl_block->grid != nullptr; }
  unsigned long long num_blocks() const { return 1ull * gridDim.x * gridDim.y * gridDim.z; }
  unsigned long long block_rank() const {
    return blockIdx.x + 1ull * gridDim.x * (blockIdx.y + 1ull * gridDim.y * blockIdx.z);
  }
  unsigned long long size() const { return num_blocks() * detail_emu::BlockThreads(); }
  unsigned long long num_threads() const { return size(); }
  unsigned long long thread_rank() const {
    return block_rank() * detail_emu::BlockThreads() + detail_emu::LinearTid();
  }
  dim3 group_dim() const { return gridDim; }
  dim3 dim_blocks() const { return gridDim; }
};
inline grid_group this_grid() { return grid_group{}; }
inline void sync(const thread_block& g) { g.sync(); }
inline void sync(const grid_group& g) { g.sync(); }

template <unsigned N>
struct thread_block_tile {
  static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0,
                "tile size must be a power of two up to 32");
  static constexpr unsigned size() { return N; }
  static constexpr unsigned num_threads() { return N; }
  unsigned thread_rank() const { return detail_emu::LinearTid() % N; }
  unsigned meta_group_rank() const { return detail_emu::LinearTid() / N; }
  unsigned meta_group_size() const { return (detail_emu::BlockThreads() + N - 1) / N; }
  unsigned base_lane() const { return regrapht_emu::LaneId() & ~(N - 1); }
  unsigned mask() const { return (N == 32 ? 0xffffffffu : ((1u << N) - 1)) << base_lane(); }
  void sync() const { __syncwarp(mask()); }
  template <class T>
  T shfl(T v, int src) const {
    return regrapht_emu::Shfl(mask(), v, src, N);
  }
  template <class T>
  T shfl_up(T v, unsigned d) const {
    return regrapht_emu::ShflUp(mask(), v, d, N);
  }
  template <class T>
  T shfl_down(T v, unsigned d) const {
    return regrapht_emu::ShflDown(mask(), v, d, N);
  }
  template <class T>
  T shfl_xor(T v, int m) const {
    return regrapht_emu::ShflXor(mask(), v, m, N);
  }
  unsigned ballot(int pred) const { return regrapht_emu::Ballot(mask(), pred) >> base_lane(); }
  int any(int pred) const { return ballot(pred) != 0; }
  int all(int pred) const { return ballot(pred) == (N == 32 ? 0xffffffffu : ((1u << N) - 1)); }
};
template <unsigned N, class Parent>
inline thread_block_tile<N> tiled_partition(const Parent&) {
  return thread_block_tile<N>{};
}
template <unsigned N>
inline void sync(const thread_block_tile<N>& t) {
  t.sync();
}

template <class T>
struct plus {
  T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct less {
  T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T>
struct greater {
  T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T>
struct bit_and {
  T operator()(T a, T b) const { return a & b; }
};
template <class T>
struct bit_or {
  T operator()(T a, T b) const { return a | b; }
};
template <class T>
struct bit_xor {
  T operator()(T a, T b) const { return a ^ b; }
};
template <unsigned N, class T, class Op>
inline T reduce(const thread_block_tile<N>& g, T v, Op op) {
  for (unsigned o = N / 2; o > 0; o /= 2) v = op(v, g.shfl_xor(v, static_cast<int>(o)));
  return v;
}
template <unsigned N, class T, class Op>
inline T inclusive_scan(const thread_block_tile<N>& g, T v, Op op) {
  for (unsigned o = 1; o < N; o *= 2) {
    T u = g.shfl_up(v, o);
    if (g.thread_rank() >= o) v = op(v, u);
  }
  return v;
}
template <unsigned N, class T>
inline T inclusive_scan(const thread_block_tile<N>& g, T v) {
  return inclusive_scan(g, v, plus<T>());
}
template <unsigned N, class T, class Op>
inline T exclusive_scan(const thread_block_tile<N>& g, T v, Op op) {
  T inc = inclusive_scan(g, v, op);
  T prev = g.shfl_up(inc, 1);
  return g.thread_rank() == 0 ? T{} : prev;
}
template <unsigned N, class T>
inline T exclusive_scan(const thread_block_tile<N>& g, T v) {
  return exclusive_scan(g, v, plus<T>());
}
}  // namespace cooperative_groups
