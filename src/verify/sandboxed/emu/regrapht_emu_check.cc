// The emulator's checker: what `--emulate` sees that a plain CPU run would not.
//
// Linked into every emulated candidate (built once per toolchain, never with
// the candidate's flags). The candidate and regrapht_cuda_emu.h are compiled
// with -fsanitize=thread -fsanitize=bounds, but linked with THIS file instead
// of the sanitizer runtimes: every load, store and atomic of the candidate
// arrives here as a __tsan_* call, every constant-size array index that is out
// of range as a __ubsan_handle_out_of_bounds call. From those it checks
//
//   bounds      device memory (cudaMalloc, cudaMallocManaged, pinned host
//               memory, static and dynamic __shared__) lives in one arena
//               with a state byte per byte; a kernel access to a byte that is
//               not inside a live allocation is an error naming the kernel,
//               block, thread and the allocation it missed (exit 86);
//               host code touching cudaMalloc'ed memory is the same error
//               (it would fault on a GPU);
//   races       per 4-byte granule the last write and the last read
//               (thread, "stamp"). In __shared__ memory two accesses of
//               different threads, one a write, with no __syncthreads (or,
//               within a warp, no warp collective) between them are a race
//               (exit 87). In global memory (and __device__ variables) two
//               unordered writes -- within a block or across blocks of one
//               launch -- are a race when they stored different values (a
//               lost update: a histogram without atomics); same-value writes
//               (a flag many threads set) are allowed, and whether a read
//               that races with a write changes the result is left to the
//               seeded schedule (blocks and threads run in a different order
//               in each of the two calls of a test case);
//   provenance  a "device-produced" bit per byte, set by kernel writes and
//               device memsets, copied by device-to-device copies, cleared by
//               host-to-device copies. Device-to-host copies put the 4-byte
//               words that device code produced into a Bloom filter; the
//               driver asks, after each call, whether every output element
//               that changed is such a word (docs/emulator.md: host_compute).
//
// Stamps come from one counter that advances at every kernel, block and
// barrier start; blocks run one after another, so an access with a stamp
// below the current block's start belongs to an earlier block. Cooperative
// launches run blocks in parallel OS threads: there, bounds and provenance are
// checked but races are not.
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

constexpr size_t kArenaBytes = size_t{4} << 30;  // the emulated device's memory
constexpr size_t kRedzone = 256;
constexpr size_t kSharedPool = 512 * 1024;   // per OS thread: dynamic + static __shared__
constexpr size_t kSharedLimit = 227 * 1024;  // the device's opt-in maximum per block
constexpr size_t kBloomBits = size_t{1} << 26;

// State byte bits.
enum : unsigned char {
  kLive = 1,    // inside a live allocation
  kShared = 2,  // __shared__ memory of the running block
  kHostOk = 4,  // managed or pinned: host code may touch it
  kDevVal = 8,  // the byte's value was produced on the device
  kFreed = 16,  // was cudaFree'd
  // Copied in from host memory and not written since: a byte a kernel left
  // alone. A word whose bytes a kernel wrote in part (a struct store the
  // compiler narrowed to the bytes that change) still came from the device.
  kHostIn = 32,
};

enum Kind { kDevice = 0, kManaged = 1, kPinned = 2, kSharedVar = 3, kDynShared = 4 };
const char* KindName(int k) {
  switch (k) {
    case kDevice:
      return "cudaMalloc";
    case kManaged:
      return "cudaMallocManaged";
    case kPinned:
      return "pinned host (cudaMallocHost)";
    case kSharedVar:
      return "__shared__";
    default:
      return "dynamic __shared__";
  }
}

struct Alloc {
  size_t size;
  int kind;
  bool live;
};

struct Pending {  // a write-write conflict whose values decide whether it is a race
  unsigned char* addr;
  size_t n;
  unsigned char before[4];
  size_t where;    // arena offset of the granule, SIZE_MAX: a __device__ variable
  uint64_t other;  // the earlier write
  int rel;         // its relation (same block / other block)
};

struct SharedVar {
  unsigned id;
  size_t bytes;
  unsigned char* p;
};

// What the OS thread is running now. Plain data, so that reaching it from
// the access hooks costs no thread_local initialisation check.
struct Ctx {
  bool in_kernel;  // a fiber (CUDA thread) is running
  bool internal;   // inside the emulator's launch machinery
  bool races;
  unsigned thread;  // linear thread id in the block
  unsigned tx, ty, tz;
  unsigned bx, by, bz;
  unsigned bdx, bdy;
  uint64_t block_start, last_block_sync;
  uint64_t* warp_sync;  // per warp: stamp of its last collective
  size_t nwarps;
  unsigned char* pool;  // this OS thread's __shared__ pool
  size_t pool_used, pool_dirty;
  size_t dyn_bytes;     // the block's dynamic shared memory
  size_t shared_bytes;  // dynamic + static shared memory of the block
  uint64_t host_reads;
  uint64_t work;  // accesses checked and threads resumed on this OS thread (regrapht_emu_work)
};
constinit thread_local Ctx tl{};

// The parts of the context that own memory (reached only off the hot path).
struct CtxMem {
  std::vector<uint64_t> warp_sync;
  std::vector<SharedVar> shared_vars;
  std::vector<Pending> pending;
};
CtxMem& Mem() {
  static thread_local CtxMem m;
  return m;
}

struct Launch {
  const char* kernel = "kernel";
  uint64_t start = 0;
  bool coop = false;
  unsigned gx = 1, gy = 1;
  std::vector<uint64_t> block_starts;  // by execution order
  std::vector<uint32_t> block_linear;
};

unsigned char* g_arena = nullptr;
unsigned char* g_state = nullptr;
uint64_t* g_race = nullptr;  // two words per 4-byte granule: last write, last read
size_t g_bump = 0;
std::map<size_t, Alloc> g_allocs;      // by arena offset
std::multimap<size_t, size_t> g_free;  // size -> offset of freed ranges
std::mutex g_mu;
uint64_t g_stamp = 1;
Launch g_launch;
unsigned char* g_data = nullptr;  // the executable's .data/.bss (__device__ variables)
size_t g_data_size = 0;
unsigned char* g_data_state = nullptr;
uint64_t* g_data_race = nullptr;
uint64_t* g_bloom = nullptr;
uint64_t g_bloom_count = 0;
uint64_t g_sched_seed = 1;
bool g_provenance = true;
// Host ranges that device-to-host copies filled with device-produced data in
// this call: host code reading them is post-processing a device result, not
// computing from the inputs (HostDidTheWork in the driver).
struct Delivered {
  uintptr_t begin, end;
};
std::vector<Delivered> g_delivered;

bool InDelivered(uintptr_t a) {
  for (const auto& d : g_delivered)
    if (a >= d.begin && a < d.end) return true;
  return false;
}
uint64_t g_launches = 0;
// Work of cooperative launches' block threads (each OS thread folds its own
// count in when its block ends).
std::atomic<uint64_t> g_coop_work{0};
// What resuming a CUDA thread costs, in accesses: a stack switch each way and
// the scheduler's bookkeeping take about as long as this many checked loads.
constexpr uint64_t kResumeWork = 16;

extern "C" char __data_start[], _end[];

[[noreturn]] void Die(int code, const std::string& msg) {
  std::fprintf(stderr, "regrapht CUDA emulator: %s\n", msg.c_str());
  std::fflush(stderr);
  std::_Exit(code);
}

void* MapOrDie(size_t bytes, const char* what) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) Die(86, std::string("cannot reserve ") + what + " (out of address space)");
  return p;
}

void InitArena() {
  if (g_arena) return;
  g_arena = static_cast<unsigned char*>(MapOrDie(kArenaBytes, "the emulated device memory"));
  g_state = static_cast<unsigned char*>(MapOrDie(kArenaBytes, "the emulator's memory state"));
  g_race = static_cast<uint64_t*>(MapOrDie(kArenaBytes / 4 * 16, "the emulator's race shadow"));
  g_bloom = static_cast<uint64_t*>(MapOrDie(kBloomBits / 8, "the emulator's value filter"));
  g_data = reinterpret_cast<unsigned char*>(__data_start);
  g_data_size = static_cast<size_t>(reinterpret_cast<unsigned char*>(_end) - g_data);
  size_t dsz = (g_data_size + 4095) & ~size_t{4095};
  g_data_state = static_cast<unsigned char*>(MapOrDie(dsz, "the emulator's data state"));
  g_data_race =
      static_cast<uint64_t*>(MapOrDie(dsz / 4 * 16 + 16, "the emulator's data race shadow"));
}

std::string Coords(unsigned x, unsigned y, unsigned z) {
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}
std::string Here() {
  return "kernel " + std::string(g_launch.kernel) + ", block " + Coords(tl.bx, tl.by, tl.bz) +
         " thread " + Coords(tl.tx, tl.ty, tl.tz);
}
std::string ThreadName(unsigned t) {
  unsigned x = t % tl.bdx, y = (t / tl.bdx) % tl.bdy, z = t / (tl.bdx * tl.bdy);
  return "thread " + Coords(x, y, z);
}

std::string DescribeShared(size_t off);

// "offset 12 of a 4000-byte cudaMalloc allocation" or "8 bytes past the end of ...".
std::string Describe(size_t off) {
  const size_t pool_off = tl.pool ? static_cast<size_t>(tl.pool - g_arena) : 0;
  if (tl.pool && off >= pool_off && off < pool_off + kSharedPool) {
    if (off - pool_off < tl.pool_used) return DescribeShared(off);
    // Past every __shared__ byte of the block: nothing of it lives there.
    // The pool sits after the allocations made before the first launch, so
    // this is a global pointer run past its buffer (or a wild one).
    for (auto it = g_allocs.upper_bound(off); it != g_allocs.begin();) {
      --it;
      if (it->second.kind == kSharedVar || it->second.kind == kDynShared) continue;
      return std::to_string(off - (it->first + it->second.size)) + " bytes past the end of a " +
             std::to_string(it->second.size) + "-byte " + KindName(it->second.kind) +
             (it->second.live ? " allocation" : " allocation that was already freed");
    }
    return "device memory outside every allocation";
  }
  auto it = g_allocs.upper_bound(off);
  std::string best;
  if (it != g_allocs.begin()) {
    auto lo = std::prev(it);
    size_t end = lo->first + lo->second.size;
    std::string what = std::to_string(lo->second.size) + "-byte " + KindName(lo->second.kind) +
                       (lo->second.live ? " allocation" : " allocation that was already freed");
    if (off < end) return "offset " + std::to_string(off - lo->first) + " of a " + what;
    best = std::to_string(off - end) + " bytes past the end of a " + what;
    if (it == g_allocs.end() || off - end <= it->first - off) return best;
  }
  if (it != g_allocs.end()) {
    return std::to_string(it->first - off) + " bytes before the start of a " +
           std::to_string(it->second.size) + "-byte " + KindName(it->second.kind) + " allocation";
  }
  return best.empty() ? "device memory outside every allocation" : best;
}

// Shared memory of the running block: its dynamic part and its variables.
std::string DescribeShared(size_t off) {
  size_t rel = off - static_cast<size_t>(tl.pool - g_arena);
  if (rel < tl.dyn_bytes) {
    return "offset " + std::to_string(rel) + " of the block's " + std::to_string(tl.dyn_bytes) +
           "-byte dynamic shared memory";
  }
  const SharedVar* best = nullptr;
  for (const auto& v : Mem().shared_vars) {
    size_t start = static_cast<size_t>(v.p - tl.pool);
    if (start <= rel && (!best || start > static_cast<size_t>(best->p - tl.pool))) best = &v;
  }
  if (best) {
    size_t start = static_cast<size_t>(best->p - tl.pool);
    std::string what = "a " + std::to_string(best->bytes) + "-byte __shared__ variable";
    if (rel < start + best->bytes) return "offset " + std::to_string(rel - start) + " of " + what;
    return std::to_string(rel - start - best->bytes) + " bytes past the end of " + what;
  }
  if (tl.dyn_bytes)
    return std::to_string(rel - tl.dyn_bytes) + " bytes past the end of the block's " +
           std::to_string(tl.dyn_bytes) + "-byte dynamic shared memory";
  return "shared memory outside every __shared__ variable";
}

[[noreturn]] void OutOfBounds(size_t off, size_t n, int how) {
  const char* verb = how == 0 ? "read" : how == 1 ? "write" : "atomic";
  std::string where = tl.in_kernel ? Here() : std::string("host code");
  unsigned char s = g_state[off];
  if (s & kFreed)
    Die(86, std::string("use after cudaFree: ") + verb + " of " + std::to_string(n) + " bytes in " +
                where + " at " + Describe(off));
  Die(86, std::string("out-of-bounds ") + verb + " of " + std::to_string(n) + " bytes in " + where +
              ": " + Describe(off));
}

// ---- races -------------------------------------------------------------------------

// An access: stamp (48 bits) | multi | valid | byte mask in the granule (4) | thread (10).
constexpr uint64_t kValid = 1u << 14, kMulti = 1u << 15;
uint64_t Pack(uint64_t stamp, unsigned thread, unsigned mask) {
  return stamp << 16 | kValid | uint64_t{mask} << 10 | thread;
}
unsigned MaskOf(uint64_t a) { return static_cast<unsigned>(a >> 10) & 15u; }
uint64_t StampOf(uint64_t a) { return a >> 16; }
unsigned ThreadOf(uint64_t a) { return static_cast<unsigned>(a & 1023); }

// Index of the block (in execution order) that made an access with `stamp`.
size_t BlockOfStamp(uint64_t stamp) {
  auto& v = g_launch.block_starts;
  auto it = std::upper_bound(v.begin(), v.end(), stamp);
  return it == v.begin() ? 0 : static_cast<size_t>(it - v.begin() - 1);
}

// 0: ordered before now (or stale); 1: same block, unordered; 2: another block.
// Inlined into the shared-read fast path below (the hot path of kernels that
// stream a tile through __shared__ memory).
[[gnu::always_inline]] inline int Relation(uint64_t acc, bool shared) {
  if (!(acc & kValid)) return 0;
  uint64_t s = StampOf(acc);
  if (s < g_launch.start) return 0;
  if (s < tl.block_start) return shared ? 0 : 2;
  unsigned t = ThreadOf(acc);
  if (t == tl.thread || s < tl.last_block_sync) return 0;
  unsigned w = t >> 5;
  if (w == (tl.thread >> 5) && w < tl.nwarps && s < tl.warp_sync[w]) return 0;
  return 1;
}

std::string Other(uint64_t acc, int rel) {
  if (rel == 1) return ThreadName(ThreadOf(acc)) + " of the same block";
  size_t k = BlockOfStamp(StampOf(acc));
  uint32_t lin = k < g_launch.block_linear.size() ? g_launch.block_linear[k] : 0;
  unsigned gx = std::max(1u, g_launch.gx), gy = std::max(1u, g_launch.gy);
  return ThreadName(ThreadOf(acc)) + " of block " +
         Coords(lin % gx, (lin / gx) % gy, lin / (gx * gy));
}

[[noreturn]] void Race(const char* mine, const char* theirs, uint64_t acc, int rel,
                       const std::string& what) {
  Die(87, std::string("race in ") + Here() + " " + mine + " " + what + " that " + Other(acc, rel) +
              " " + theirs +
              (rel == 1 ? " with no __syncthreads() or warp synchronisation between them"
                        : " in the same launch (blocks are not ordered)"));
}

// `where`: the granule's arena offset, or SIZE_MAX for a __device__ variable.
std::string WhatAt(size_t where) {
  return where == SIZE_MAX ? "a __device__ variable" : Describe(where);
}

// Checks an access of the running thread to the bytes `mask` of the granule
// whose race words are e[0] (last write) and e[1] (last read), then records it.
void RaceCheck(uint64_t* e, unsigned char* granule, unsigned mask, int how, bool shared,
               size_t where) {
  uint64_t now = Pack(g_stamp, tl.thread, mask);
  int rw = (MaskOf(e[0]) & mask) ? Relation(e[0], shared) : 0;
  if (how == 0) {
    if (rw != 0) Race("reads", "wrote", e[0], rw, WhatAt(where));
    int rr = Relation(e[1], shared);
    uint64_t keep = rr != 0 ? (e[1] & kMulti) | (uint64_t{MaskOf(e[1])} << 10) : 0;
    if (rr != 0 && ThreadOf(e[1]) != tl.thread) keep |= kMulti;
    e[1] = now | keep;
    return;
  }
  int rr = (MaskOf(e[1]) & mask) ? Relation(e[1], shared) : 0;
  if (rr != 0 && (ThreadOf(e[1]) != tl.thread || (e[1] & kMulti)))
    Race("writes", "read", e[1], rr, WhatAt(where));
  if (rw != 0 && Mem().pending.size() < 4096) {
    unsigned lo = static_cast<unsigned>(__builtin_ctz(mask)),
             n = static_cast<unsigned>(__builtin_popcount(mask));
    Pending p{granule + lo, n, {}, where, e[0], rw};
    std::memcpy(p.before, p.addr, n);
    Mem().pending.push_back(p);
  }
  e[0] = now;
  e[1] = 0;
}

// Two unordered writes are a race unless the second wrote what the first did.
void FlushPending() {
  for (const auto& p : Mem().pending) {
    if (std::memcmp(p.addr, p.before, p.n) != 0) {
      Die(87, "race in " + Here() + ": two threads wrote different values to " + WhatAt(p.where) +
                  " (written by " + Other(p.other, p.rel) +
                  " too) with nothing ordering the writes");
    }
  }
  Mem().pending.clear();
}

// ---- the access hook -------------------------------------------------------------------

// The bytes of granule g that the access [off, off + n) touches.
inline unsigned GranuleMask(size_t off, size_t n, size_t g) {
  size_t lo = std::max(off, g * 4) - g * 4, hi = std::min(off + n, g * 4 + 4) - g * 4;
  return ((1u << (hi - lo)) - 1u) << lo;
}

inline bool AllLive(const unsigned char* st, size_t n) {
  if (n == 4) {
    uint32_t w;
    std::memcpy(&w, st, 4);
    return (w & 0x01010101u) == 0x01010101u;
  }
  if (n == 8) {
    uint64_t w;
    std::memcpy(&w, st, 8);
    return (w & 0x0101010101010101ull) == 0x0101010101010101ull;
  }
  for (size_t i = 0; i < n; ++i)
    if (!(st[i] & kLive)) return false;
  return true;
}

// The slow paths stay out of line so that the hooks' fast path (an address
// that is not device memory, a global read) needs no stack frame.
[[gnu::noinline]] void ArenaAccessFull(size_t off, size_t n, int how);

// A kernel's aligned 4- or 8-byte read of live __shared__ memory with race
// checks on: exactly what ArenaAccessFull and RaceCheck do for it (one or two
// granules, mask 0xF), without their calls and re-checks. A read that races
// with a write takes the full path, which reports it; it is looked for
// before any granule is updated, so the full path sees them untouched.
// False: not handled here.
template <size_t N>
[[gnu::always_inline]] inline bool SharedRead(size_t off) {
  static_assert(N == 4 || N == 8);
  uint64_t* e = g_race + off / 2;  // 2 words per 4-byte granule
  for (size_t g = 0; g < N / 4; ++g) {
    uint64_t w = e[2 * g];
    if (MaskOf(w) != 0 && Relation(w, true) != 0) return false;  // a race: the full path names it
  }
  uint64_t now = Pack(g_stamp, tl.thread, 0xFu);
  for (size_t g = 0; g < N / 4; ++g) {
    uint64_t w = e[2 * g], r = e[2 * g + 1];
    if (!((w | r) & kValid)) {
      e[2 * g + 1] = now;
      continue;
    }
    int rr = Relation(r, true);
    uint64_t keep = rr != 0 ? (r & kMulti) | (uint64_t{MaskOf(r)} << 10) : 0;
    if (rr != 0 && ThreadOf(r) != tl.thread) keep |= kMulti;
    e[2 * g + 1] = now | keep;
  }
  return true;
}

// A kernel's aligned 4- or 8-byte write to live global memory (`n` bytes,
// state bytes `s8`) in a launch that is not cooperative: its bytes become
// device-produced; with race checks on, when no earlier write of the launch
// is unordered with it, the granules' last write becomes this one and their
// last read is cleared. Exactly what ArenaAccessFull and RaceCheck do then;
// anything else (a possible race) takes the full path. False: not handled.
template <size_t N>
[[gnu::always_inline]] inline bool GlobalWrite(size_t off, uint64_t s8) {
  uint64_t* e = g_race + off / 2;
  if (tl.races) {
    for (size_t g = 0; g < N / 4; ++g) {
      if (MaskOf(e[2 * g]) != 0 && Relation(e[2 * g], false) != 0) return false;
      if (e[2 * g + 1] & kValid) return false;
    }
  }
  if constexpr (N == 4) {
    uint32_t s4 = static_cast<uint32_t>(s8) | 0x08080808u;
    std::memcpy(g_state + off, &s4, 4);
  } else {
    s8 |= 0x0808080808080808ull;
    std::memcpy(g_state + off, &s8, 8);
  }
  if (!tl.races) return true;
  uint64_t now = Pack(g_stamp, tl.thread, 0xFu);
  for (size_t g = 0; g < N / 4; ++g) {
    e[2 * g] = now;
    e[2 * g + 1] = 0;
  }
  return true;
}

// Global-memory reads in a kernel: bounds only; shared-memory reads and
// global-memory writes: the fast paths above.
[[gnu::always_inline]] inline void ArenaAccess(size_t off, size_t n, int how) {
  if (how == 1 && tl.in_kernel && (n == 4 || n == 8) && (off & (n - 1)) == 0 && off + 8 <= kArenaBytes &&
      !g_launch.coop) {
    uint64_t s8;
    std::memcpy(&s8, g_state + off, 8);
    uint64_t live = 0x0101010101010101ull >> (64 - 8 * n), shared = 0x0202020202020202ull >> (64 - 8 * n);
    if ((s8 & live) == live && !(s8 & shared)) {
      if (n == 4 && GlobalWrite<4>(off, s8)) return;
      if (n == 8 && GlobalWrite<8>(off, s8)) return;
    }
  }
  if (how == 0 && tl.in_kernel && n <= 8 && off + 8 <= kArenaBytes) {
    uint64_t s8;
    std::memcpy(&s8, g_state + off, 8);
    uint64_t live = 0x0101010101010101ull >> (64 - 8 * n), shared = 0x0202020202020202ull >> (64 - 8 * n);
    if ((s8 & live) == live) {
      // Global memory, or any memory with races off (the timing-size input):
      // a kernel's read of live bytes needs nothing more.
      if (!(s8 & shared) || !tl.races) return;
      if ((s8 & shared) == shared && (off & (n - 1)) == 0) {
        if (n == 4 && SharedRead<4>(off)) return;
        if (n == 8 && SharedRead<8>(off)) return;
      }
    }
  }
  ArenaAccessFull(off, n, how);
}

void ArenaAccessFull(size_t off, size_t n, int how) {
  unsigned char* st = g_state + off;
  if (off + n > kArenaBytes || !AllLive(st, n)) OutOfBounds(off, n, how);
  if (!tl.in_kernel) {
    if (tl.internal) return;
    if (!(st[0] & kHostOk)) {
      Die(86, std::string("host code ") + (how == 0 ? "reads " : "writes ") + Describe(off) +
                  ": device memory is not accessible from the host on a GPU (use cudaMemcpy)");
    }
    if (how != 0)
      for (size_t i = 0; i < n; ++i) st[i] &= static_cast<unsigned char>(~(kDevVal | kHostIn));
    return;
  }
  if (how != 0) {
    if (g_launch.coop) {
      for (size_t i = 0; i < n; ++i) __atomic_fetch_or(&st[i], kDevVal, __ATOMIC_RELAXED);
    } else if (n == 4) {
      uint32_t s4;
      std::memcpy(&s4, st, 4);
      s4 |= 0x08080808u;
      std::memcpy(st, &s4, 4);
    } else if (n == 8) {
      uint64_t s8;
      std::memcpy(&s8, st, 8);
      s8 |= 0x0808080808080808ull;
      std::memcpy(st, &s8, 8);
    } else {
      for (size_t i = 0; i < n; ++i) st[i] |= kDevVal;
    }
  }
  if (how == 2) return;  // atomics never race with each other
  if (!tl.races) return;
  bool shared = st[0] & kShared;
  if (!shared && how == 0) return;  // global memory: only writes are compared
  for (size_t g = off / 4; g <= (off + n - 1) / 4; ++g) {
    unsigned mask = GranuleMask(off, n, g);
    uint64_t* e = g_race + 2 * g;
    if (!(e[0] & kValid) && !(e[1] & kValid)) {
      e[how == 0 ? 1 : 0] = Pack(g_stamp, tl.thread, mask);
      continue;
    }
    RaceCheck(e, g_arena + g * 4, mask, how, shared, g * 4);
  }
}

// Writes and atomics to __device__ variables (Access passes no reads: in
// global memory only writes are compared).
[[gnu::noinline]] void DataAccess(size_t off, size_t n, int how) {
  if (off + n > g_data_size) return;
  for (size_t i = 0; i < n; ++i) g_data_state[off + i] |= kDevVal;
  if (how == 2) return;  // atomics never race with each other
  if (!tl.races) return;
  for (size_t g = off / 4; g <= (off + n - 1) / 4; ++g) {
    unsigned mask = GranuleMask(off, n, g);
    uint64_t* e = g_data_race + 2 * g;
    if (!(e[0] & kValid) && !(e[1] & kValid)) {
      e[0] = Pack(g_stamp, tl.thread, mask);
      continue;
    }
    RaceCheck(e, g_data + g * 4, mask, how, false, SIZE_MAX);
  }
}

[[gnu::always_inline]] inline void Access(const void* p, size_t n, int how) {
  ++tl.work;
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  size_t off = a - reinterpret_cast<uintptr_t>(g_arena);
  if (off < kArenaBytes) return ArenaAccess(off, n, how);
  if (!tl.in_kernel) {
    if (how == 0 && !tl.internal && !InDelivered(a)) ++tl.host_reads;
    return;
  }
  size_t doff = a - reinterpret_cast<uintptr_t>(g_data);
  if (doff < g_data_size && how != 0) DataAccess(doff, n, how);
}

// ---- provenance ------------------------------------------------------------------------

uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}
// A blocked Bloom filter: both bits of a word in one 64-bit cell (one cache miss).
inline uint64_t* BloomCell(uint64_t h) { return &g_bloom[(h >> 16) % (kBloomBits / 64)]; }
inline uint64_t BloomBits(uint64_t h) { return (1ull << (h & 63)) | (1ull << ((h >> 6) & 63)); }
void BloomAdd(uint32_t w) {
  uint64_t h = Mix(w + 0x9e3779b97f4a7c15ull);
  *BloomCell(h) |= BloomBits(h);
  ++g_bloom_count;
}
bool BloomHas(uint32_t w) {
  uint64_t h = Mix(w + 0x9e3779b97f4a7c15ull);
  uint64_t bits = BloomBits(h);
  return (*BloomCell(h) & bits) == bits;
}

// State bytes of [p, p+n) if it is device memory or a __device__ variable.
unsigned char* StateOf(const void* p, size_t n) {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  size_t off = a - reinterpret_cast<uintptr_t>(g_arena);
  if (g_arena && off < kArenaBytes) return g_state + off;
  size_t doff = a - reinterpret_cast<uintptr_t>(g_data);
  if (g_data && doff < g_data_size && doff + n <= g_data_size) return g_data_state + doff;
  return nullptr;
}

// Adds the device-produced 4-byte words of [p, p+n) (state `st`) to the filter.
void HashDeviceWords(const unsigned char* p, const unsigned char* st, size_t n) {
  if (!g_provenance) return;
  for (size_t i = 0; i < n; i += 4) {
    size_t m = std::min<size_t>(4, n - i);
    // Every byte device-produced, or some of them and the rest copied in and
    // left alone by the kernels (kHostIn).
    bool dev = true, any = false;
    if (m == 4) {
      uint32_t s4;
      std::memcpy(&s4, st + i, 4);
      any = (s4 & 0x08080808u) != 0;
      dev = ((s4 | (s4 >> 2)) & 0x08080808u) == 0x08080808u;
    } else {
      for (size_t j = 0; j < m; ++j) {
        dev = dev && (st[i + j] & (kDevVal | kHostIn));
        any = any || (st[i + j] & kDevVal);
      }
    }
    dev = dev && any;
    if (!dev) continue;
    uint32_t w = 0;
    std::memcpy(&w, p + i, m);
    BloomAdd(w);
  }
}

void CheckRange(const void* p, size_t n, const char* what) {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  size_t off = a - reinterpret_cast<uintptr_t>(g_arena);
  if (!g_arena || off >= kArenaBytes || n == 0) return;
  if (off + n > kArenaBytes) Die(86, std::string(what) + " runs past the emulated device memory");
  for (size_t i = 0; i < n; ++i) {
    if (!(g_state[off + i] & kLive)) {
      Die(86,
          std::string(what) + " of " + std::to_string(n) + " bytes touches " + Describe(off + i));
    }
  }
}

// Device-produced words of live managed and pinned allocations.
void HashHostVisible() {
  for (const auto& [off, al] : g_allocs) {
    if (al.live && (al.kind == kManaged || al.kind == kPinned))
      HashDeviceWords(g_arena + off, g_state + off, al.size);
  }
}

void MarkRange(size_t off, size_t n, unsigned char v) { std::memset(g_state + off, v, n); }

size_t TakeRange(size_t total) {
  if (g_bump + total <= kArenaBytes) {
    size_t off = g_bump;
    g_bump += total;
    return off;
  }
  auto it = g_free.lower_bound(total);
  if (it == g_free.end()) return SIZE_MAX;
  size_t off = it->second, have = it->first;
  g_free.erase(it);
  if (have > total) g_free.emplace(have - total, off + total);
  return off;
}

}  // namespace

// ---- the interface of regrapht_cuda_emu.h ---------------------------------------------

extern "C" {

void* regrapht_emu_alloc(size_t bytes, int kind) {
  std::lock_guard<std::mutex> l(g_mu);
  InitArena();
  size_t size = std::max<size_t>(bytes, 1);
  size_t body = (size + 255) & ~size_t{255};
  size_t off = TakeRange(kRedzone + body + kRedzone);
  if (off == SIZE_MAX) return nullptr;
  off += kRedzone;
  std::memset(g_arena + off, 0xFF, body);  // NaN / -1: never zero, as on a GPU
  MarkRange(off - kRedzone, kRedzone, 0);
  MarkRange(
      off, size,
      static_cast<unsigned char>(kLive | (kind == kManaged || kind == kPinned ? kHostOk : 0)));
  MarkRange(off + size, body - size + kRedzone, 0);
  g_allocs[off] = Alloc{size, kind, true};
  return g_arena + off;
}

// 0: freed; 1: not the start of a live allocation of that family.
int regrapht_emu_free(void* p, int kind) {
  if (!p) return 0;
  std::lock_guard<std::mutex> l(g_mu);
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  size_t off = a - reinterpret_cast<uintptr_t>(g_arena);
  if (!g_arena || off >= kArenaBytes) return 1;
  auto it = g_allocs.find(off);
  if (it == g_allocs.end() || !it->second.live) return 1;
  bool host = it->second.kind == kPinned;
  if (host != (kind == kPinned)) return 1;
  if (it->second.kind == kManaged || it->second.kind == kPinned) HashHostVisible();
  size_t body = (it->second.size + 255) & ~size_t{255};
  MarkRange(off, body, kFreed);
  it->second.live = false;
  if (body >= (size_t{1} << 20)) {
    madvise(g_arena + off, body, MADV_DONTNEED);
    madvise(g_race + off / 4 * 2, body / 4 * 16, MADV_DONTNEED);
  }
  // Reused only when the arena is exhausted, so a stale pointer hits freed state first.
  g_free.emplace(kRedzone + body + kRedzone, off - kRedzone);
  return 0;
}

// The kind of the live allocation holding `p` (0 device, 1 managed, 2
// pinned host), or -1: not regrapht's device memory (host memory, freed).
int regrapht_emu_kind_of(const void* p) {
  std::lock_guard<std::mutex> l(g_mu);
  if (!g_arena) return -1;
  uintptr_t a = reinterpret_cast<uintptr_t>(p), base = reinterpret_cast<uintptr_t>(g_arena);
  if (a < base || a - base >= kArenaBytes) return -1;
  size_t off = a - base;
  auto it = g_allocs.upper_bound(off);
  if (it == g_allocs.begin()) return -1;
  --it;
  return it->second.live && off < it->first + std::max<size_t>(it->second.size, 1) ? it->second.kind : -1;
}

// Copies n bytes (the emulated cudaMemcpy*), checking device-side bounds and
// carrying the device-produced bits. Returns 0.
int regrapht_emu_copy(void* dst, const void* src, size_t n) {
  if (n == 0) return 0;
  CheckRange(src, n, "a copy's source");
  CheckRange(dst, n, "a copy's destination");
  std::memmove(dst, src, n);
  unsigned char* ss = StateOf(src, n);
  unsigned char* ds = StateOf(dst, n);
  uintptr_t sa = reinterpret_cast<uintptr_t>(src);
  const bool src_device = g_arena && sa - reinterpret_cast<uintptr_t>(g_arena) < kArenaBytes;
  if (ds) {
    for (size_t i = 0; i < n; ++i) {
      bool dev = ss && (ss[i] & kDevVal);
      bool host_in = !dev && (!src_device || (ss && (ss[i] & kHostIn)));
      ds[i] = static_cast<unsigned char>((ds[i] & ~(kDevVal | kHostIn)) | (dev ? kDevVal : 0) |
                                         (host_in ? kHostIn : 0));
    }
  }
  // A copy out of device memory into host memory (the heap, the stack, or a
  // static host variable, whose bytes the data-region state also tracks)
  // delivers device-produced values to the host.
  uintptr_t da = reinterpret_cast<uintptr_t>(dst);
  bool dst_device = g_arena && da - reinterpret_cast<uintptr_t>(g_arena) < kArenaBytes;
  if (ss && !dst_device && ss != ds) {
    HashDeviceWords(static_cast<const unsigned char*>(dst), ss, n);
    uintptr_t d = reinterpret_cast<uintptr_t>(dst);
    if (g_delivered.size() < 64) g_delivered.push_back({d, d + n});
  }
  return 0;
}

// The emulated cudaMemset: a device operation, so its bytes count as device-produced.
int regrapht_emu_fill(void* dst, int value, size_t n) {
  if (n == 0) return 0;
  unsigned char* ds = StateOf(dst, n);
  if (!ds) return 1;
  CheckRange(dst, n, "cudaMemset");
  std::memset(dst, value, n);
  for (size_t i = 0; i < n; ++i) ds[i] |= kDevVal;
  return 0;
}

void regrapht_emu_host_sync() { HashHostVisible(); }

// A kernel starts (host thread). `coop`: blocks run in parallel threads.
void regrapht_emu_launch_begin(const char* kernel, unsigned gx, unsigned gy, int coop) {
  InitArena();
  g_launch.kernel = kernel ? kernel : "kernel";
  g_launch.start = ++g_stamp;
  g_launch.coop = coop != 0;
  g_launch.gx = gx;
  g_launch.gy = gy;
  g_launch.block_starts.clear();
  g_launch.block_linear.clear();
  ++g_launches;
  tl.internal = true;
}

void regrapht_emu_launch_end() {
  tl.internal = false;
  g_launch.start = ++g_stamp;  // nothing of this launch races with what follows
}

// A block starts on this OS thread; returns its dynamic shared memory.
void* regrapht_emu_block_begin(unsigned linear, unsigned bx, unsigned by, unsigned bz, unsigned bdx,
                               unsigned bdy, unsigned nthreads, size_t dyn_smem) {
  tl.bx = bx;
  tl.by = by;
  tl.bz = bz;
  tl.bdx = bdx;
  tl.bdy = bdy;
  tl.races = !g_launch.coop && g_provenance;
  Mem().warp_sync.assign((nthreads + 31) / 32, 0);
  tl.warp_sync = Mem().warp_sync.data();
  tl.nwarps = Mem().warp_sync.size();
  if (!g_launch.coop) {
    tl.block_start = ++g_stamp;
    tl.last_block_sync = 0;
    g_launch.block_starts.push_back(tl.block_start);
    g_launch.block_linear.push_back(linear);
  }
  if (!tl.pool) {
    tl.pool = static_cast<unsigned char*>(regrapht_emu_alloc(kSharedPool, kSharedVar));
    if (!tl.pool) Die(86, "out of emulated device memory for shared memory");
    MarkRange(static_cast<size_t>(tl.pool - g_arena), kSharedPool,
              0);  // live only as variables appear
  }
  size_t poff = static_cast<size_t>(tl.pool - g_arena);
  MarkRange(poff, tl.pool_dirty, 0);
  Mem().shared_vars.clear();
  size_t dyn = (dyn_smem + 15) & ~size_t{15};
  tl.dyn_bytes = dyn_smem;
  tl.shared_bytes = dyn_smem;
  std::memset(tl.pool, 0xFF, dyn);
  MarkRange(poff, dyn_smem, kLive | kShared);
  tl.pool_used = dyn + 64;  // a redzone after the dynamic part
  tl.pool_dirty = tl.pool_used;
  return tl.pool;
}

// The static __shared__ variable `id` of the running block (the same storage
// for every thread of the block).
void* regrapht_emu_shared(unsigned id, size_t bytes, size_t align) {
  // Keyed by declaration and size: the instantiations of one template
  // declaration are different variables.
  for (const auto& v : Mem().shared_vars)
    if (v.id == id && v.bytes == bytes) return v.p;
  align = std::max<size_t>(align, 16);
  size_t at = (tl.pool_used + align - 1) & ~(align - 1);
  tl.shared_bytes += bytes;
  if (tl.shared_bytes > kSharedLimit || at + bytes + 32 > kSharedPool) {
    Die(86, "kernel " + std::string(g_launch.kernel) + " uses more than the device's " +
                std::to_string(kSharedLimit / 1024) + " KiB of shared memory per block");
  }
  unsigned char* p = tl.pool + at;
  std::memset(p, 0xFF, bytes);
  MarkRange(static_cast<size_t>(p - g_arena), bytes, kLive | kShared);
  tl.pool_used = at + bytes + 32;
  tl.pool_dirty = std::max(tl.pool_dirty, tl.pool_used);
  Mem().shared_vars.push_back(SharedVar{id, bytes, p});
  return p;
}

void regrapht_emu_block_end() {
  tl.in_kernel = false;
  FlushPending();
  if (g_launch.coop) {
    g_coop_work.fetch_add(tl.work, std::memory_order_relaxed);
    tl.work = 0;
  }
}

// The fiber of linear thread `t` (thread index x,y,z) runs now; t < 0: the scheduler.
void regrapht_emu_thread(int t, unsigned x, unsigned y, unsigned z) {
  if (t < 0) {
    tl.in_kernel = false;
    return;
  }
  tl.in_kernel = true;
  tl.work += kResumeWork;
  tl.thread = static_cast<unsigned>(t);
  tl.tx = x;
  tl.ty = y;
  tl.tz = z;
}

void regrapht_emu_sync_block() {
  if (g_launch.coop) return;
  FlushPending();
  tl.last_block_sync = ++g_stamp;
}

void regrapht_emu_sync_warp(unsigned w) {
  if (g_launch.coop) return;
  if (w < tl.nwarps) tl.warp_sync[w] = ++g_stamp;
}

// The schedule of the next call: blocks and threads in a seeded order.
uint64_t regrapht_emu_schedule(uint64_t salt) {
  uint64_t x = g_sched_seed * 0x9e3779b97f4a7c15ull + salt + g_launches * 0xbf58476d1ce4e5b9ull;
  return Mix(x);
}

// ---- the driver's interface --------------------------------------------------------------

// `provenance` 0 (the timing-size input): bounds only; races and where the
// outputs came from are checked on the test cases, where they cost less.
void regrapht_emu_call_begin(int call, int provenance) {
  InitArena();
  g_provenance = provenance != 0;
  g_sched_seed = static_cast<uint64_t>(call) + 1;
  if (g_bloom_count) std::memset(g_bloom, 0, kBloomBits / 8);
  g_bloom_count = 0;
  g_delivered.clear();
  tl.host_reads = 0;
}

void regrapht_emu_call_end() { HashHostVisible(); }

// 1 if every 4-byte word of [p, p+n) is a value device code produced and a
// copy (or host-visible device memory) brought to the host during this call.
int regrapht_emu_from_device(const void* p, size_t n) {
  const unsigned char* b = static_cast<const unsigned char*>(p);
  for (size_t i = 0; i < n; i += 4) {
    uint32_t w = 0;
    std::memcpy(&w, b + i, std::min<size_t>(4, n - i));
    if (!BloomHas(w)) return 0;
  }
  return 1;
}

// Loads the candidate's host code made during this call.
unsigned long long regrapht_emu_host_reads() { return tl.host_reads; }

// The work emulated so far (called from the host thread): every load, store
// and atomic the checker saw, plus kResumeWork per CUDA thread resumed. A
// deterministic measure of the emulator's time (the same program, inputs and
// seeded schedule give the same count on every machine), from which the
// driver predicts what the timing-size input will cost (docs/emulator.md).
unsigned long long regrapht_emu_work() {
  return tl.work + g_coop_work.load(std::memory_order_relaxed);
}

// ---- the sanitizer entry points (what -fsanitize=thread,bounds calls) -------------------

void __tsan_init() {}
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
void __tsan_ignore_thread_begin() {}
void __tsan_ignore_thread_end() {}
void __tsan_vptr_update(void**, void*) {}
void __tsan_vptr_read(void**) {}

#define RG_TSAN_RW(N)                                                   \
  void __tsan_read##N(void* p) { Access(p, N, 0); }                     \
  void __tsan_write##N(void* p) { Access(p, N, 1); }                    \
  void __tsan_unaligned_read##N(const void* p) { Access(p, N, 0); }     \
  void __tsan_unaligned_write##N(void* p) { Access(p, N, 1); }          \
  void __tsan_volatile_read##N(void* p) { Access(p, N, 0); }            \
  void __tsan_volatile_write##N(void* p) { Access(p, N, 1); }           \
  void __tsan_unaligned_volatile_read##N(void* p) { Access(p, N, 0); }  \
  void __tsan_unaligned_volatile_write##N(void* p) { Access(p, N, 1); } \
  void __tsan_read##N##_pc(void* p, void*) { Access(p, N, 0); }         \
  void __tsan_write##N##_pc(void* p, void*) { Access(p, N, 1); }
RG_TSAN_RW(1)
RG_TSAN_RW(2)
RG_TSAN_RW(4)
RG_TSAN_RW(8)
RG_TSAN_RW(16)
#undef RG_TSAN_RW

void __tsan_read_range(void* p, unsigned long n) {
  if (n) Access(p, n, 0);
}
void __tsan_write_range(void* p, unsigned long n) {
  if (n) Access(p, n, 1);
}

void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __tsan_atomic_signal_fence(int) {}

#define RG_TSAN_ATOMIC(N, T)                                                                \
  T __tsan_atomic##N##_load(const volatile T* a, int) {                                     \
    Access(const_cast<T*>(a), N / 8, 2);                                                    \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                            \
  }                                                                                         \
  void __tsan_atomic##N##_store(volatile T* a, T v, int) {                                  \
    Access(const_cast<T*>(a), N / 8, 2);                                                    \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                               \
  }                                                                                         \
  T __tsan_atomic##N##_exchange(volatile T* a, T v, int) {                                  \
    Access(const_cast<T*>(a), N / 8, 2);                                                    \
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                     \
  }                                                                                         \
  T __tsan_atomic##N##_fetch_add(volatile T* a, T v, int) {                                 \
    Access(const_cast<T*>(a), N / 8, 2);                                                    \
    return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                      \
  }                                                                                         \
  T __tsan_atomic##N##_fetch_sub(volatile T* a, T v, int) {                                 \
    Access(const_cast<T*>(a), N / 8, 2);                                                    \
    return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                      \
  }                                                                                         \
  T __tsan_atomic##N##_fetch_and(volatile T* a, T v, int) {                                 \
    Access(const_cast<T*>(a), N / 8, 2);                                                    \
    return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                      \
  }                                                                                         \
  T __tsan_atomic##N##_fetch_or(volatile T* a, T v, int) {                                  \
    Access(const_cast<T*>(a), N / 8, 2);                                                    \
    return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                       \
  }                                                                                         \
  T __tsan_atomic##N##_fetch_xor(volatile T* a, T v, int) {                                 \
    Access(const_cast<T*>(a), N / 8, 2);                                                    \
    return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST);                                      \
  }                                                                                         \
  T __tsan_atomic##N##_fetch_nand(volatile T* a, T v, int) {                                \
    Access(const_cast<T*>(a), N / 8, 2);                                                    \
    return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST);                                     \
  }                                                                                         \
  int __tsan_atomic##N##_compare_exchange_strong(volatile T* a, T* c, T v, int, int) {      \
    Access(const_cast<T*>(a), N / 8, 2);                                                    \
    return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
  }                                                                                         \
  int __tsan_atomic##N##_compare_exchange_weak(volatile T* a, T* c, T v, int, int) {        \
    Access(const_cast<T*>(a), N / 8, 2);                                                    \
    return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
  }                                                                                         \
  T __tsan_atomic##N##_compare_exchange_val(volatile T* a, T c, T v, int, int) {            \
    Access(const_cast<T*>(a), N / 8, 2);                                                    \
    __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);       \
    return c;                                                                               \
  }
RG_TSAN_ATOMIC(8, unsigned char)
RG_TSAN_ATOMIC(16, unsigned short)
RG_TSAN_ATOMIC(32, unsigned int)
RG_TSAN_ATOMIC(64, unsigned long long)
#undef RG_TSAN_ATOMIC

// -fsanitize=bounds: an index past a constant-size array (local, __shared__,
// member) in any code of the candidate.
struct RgSourceLocation {
  const char* file;
  unsigned line, column;
};
struct RgTypeDescriptor {
  unsigned short kind, info;
  char name[1];
};
struct RgOutOfBoundsData {
  RgSourceLocation loc;
  const RgTypeDescriptor* array_type;
  const RgTypeDescriptor* index_type;
};
[[noreturn]] void __ubsan_handle_out_of_bounds(RgOutOfBoundsData* d, void* index) {
  long long i = reinterpret_cast<long long>(index);
  if (d->index_type && d->index_type->kind == 0 && (d->index_type->info & 1) == 0) {
    i = static_cast<long long>(reinterpret_cast<uintptr_t>(index));  // unsigned
  }
  std::string where = tl.in_kernel ? Here() : std::string("host code");
  Die(86, "out-of-bounds index " + std::to_string(i) + " into an array of type " +
              (d->array_type ? d->array_type->name : "?") + " at line " +
              std::to_string(d->loc.line) + " (" + where + ")");
}
[[noreturn]] void __ubsan_handle_out_of_bounds_abort(RgOutOfBoundsData* d, void* index) {
  __ubsan_handle_out_of_bounds(d, index);
}

}  // extern "C"
