// rg_driver.h: support code for regrapht's generated test drivers.
//
// regrapht generates, for each problem, a small C++ file that declares the
// function under test, builds its arguments and calls it; this header holds
// everything that does not depend on the signature: the deterministic random
// generators, the plan reader, output poisoning, the record writer, the
// timing loop and the CUDA hooks (L2 flush, error checks, device query).
//
// The same driver source is compiled twice with g++ (never nvcc, and with
// -ffp-contract=off) so that both processes generate bit-identical inputs:
//   reference process: driver + reference.cpp
//   candidate process: driver (-DRG_DRIVER_CUDA) + candidate.cu (nvcc)
// The harness compares the records the two write; the candidate never sees
// the reference's outputs.
//
// The record channel (docs/trust.md): records go to a pipe the harness set
// up as file descriptor RECORDS_FD before the program started, never to a
// file. The harness feeds a fresh 32-byte key on standard input; the driver
// reads it only after the last call of the function under test, appends
// "E end <tag>" with tag = SHA-256(key || SHA-256(every byte before that
// line)) and leaves with _exit(), so no static destructor or atexit handler
// of the candidate ever runs after the records are sealed. Bytes that did
// not come from this writer break the tag; bytes after the end line are
// rejected by the parser.
//
// Usage: PROGRAM PLAN RECORDS_FD
// Exit statuses: 0 done, 3 no GPU (CUDA error 35/34/100), 5 CUDA error after
// a call, 6 bad plan or I/O.
#ifndef RG_DRIVER_H_
#define RG_DRIVER_H_

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#ifdef RG_DRIVER_CUDA
#include <cuda_runtime.h>
#endif
#ifdef RG_DRIVER_CUPTI
#include <cupti.h>

#include <mutex>
#endif

// ---- deterministic random numbers: rg::SplitMix64, rg::Rng, one definition
// with the library's regrapht::Rng. The build inlines the file here in the
// copy of this header that drivers are compiled with (only this header is
// beside them).
#include "core/rng_standalone.h"  // embed: inline

namespace rg {

// Seed for argument `index` of a test case: independent streams per argument.
inline uint64_t ArgSeed(uint64_t seed, uint64_t index) {
  uint64_t s = seed * 0x100000001b3ULL + index * 0x9e3779b97f4a7c15ULL + 0x5bd1e995ULL;
  return SplitMix64(s);
}

// ---- SHA-256 (FIPS 180-4), for sealing the record channel ------------------------

class Sha256 {
 public:
  Sha256();
  void Reset();
  void Update(const void* data, size_t n);
  // The 32-byte digest; the object must be Reset() before reuse.
  void Final(unsigned char out[32]);

 private:
  static uint32_t R(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
  void Block(const unsigned char* b);
  uint32_t h_[8];
  unsigned char buf_[64];
  size_t fill_ = 0;
  uint64_t len_ = 0;
};

// The seal of a record stream: hex of SHA-256(key || SHA-256(stream)).
std::string SealHex(const unsigned char* key, size_t key_len,
                    const unsigned char stream_digest[32]);

// ---- element conversion ------------------------------------------------------

template <class T>
struct IsComplex : std::false_type {};
template <class T>
struct IsComplex<std::complex<T>> : std::true_type {};

template <class T>
T FromDouble(double v) {
  if constexpr (IsComplex<T>::value) {
    return T(static_cast<typename T::value_type>(v), 0);
  } else if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else {
    return static_cast<T>(v);
  }
}

// One value of a per-element distribution. kind: 0 uniform, 1 normal,
// 2 constant, 3 bernoulli, 4 string (a..b characters drawn from alpha).
struct Dist {
  int kind = 0;
  double a = 0, b = 1;  // uniform min/max; normal mean/std; constant value; bernoulli p
  const char* alpha = "";
  double special_p = 0;  // with this probability, one of special[0..nspecial) instead
  int nspecial = 0;
  double special[8] = {};
};

template <class T>
T DrawOne(Rng& r, const Dist& d) {
  if constexpr (std::is_same_v<T, std::string>) {
    size_t lo = static_cast<size_t>(d.a), hi = static_cast<size_t>(d.b);
    size_t len = lo + static_cast<size_t>(r.Below(hi - lo + 1));
    size_t k = std::strlen(d.alpha);
    std::string s(len, ' ');
    for (auto& c : s) c = d.alpha[r.Below(k)];
    return s;
  } else if constexpr (IsComplex<T>::value) {
    using V = typename T::value_type;
    return T(DrawOne<V>(r, d), DrawOne<V>(r, d));
  } else {
    if (d.special_p > 0 && r.Uniform() < d.special_p) {
      return FromDouble<T>(d.special[r.Below(static_cast<uint64_t>(d.nspecial))]);
    }
    switch (d.kind) {
      case 1:
        return FromDouble<T>(d.a + d.b * r.Normal());
      case 2:
        return FromDouble<T>(d.a);
      case 3:
        return FromDouble<T>(r.Uniform() < d.a ? 1.0 : 0.0);
      default:
        if constexpr (std::is_floating_point_v<T>) {
          return static_cast<T>(d.a + (d.b - d.a) * r.Uniform());
        } else {
          int64_t lo = static_cast<int64_t>(std::llround(d.a));
          int64_t hi = static_cast<int64_t>(std::llround(d.b));
          if (hi < lo) std::swap(lo, hi);
          uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
          return FromDouble<T>(static_cast<double>(lo + static_cast<int64_t>(r.Below(span))));
        }
    }
  }
}

template <class V>
void Fill(V& v, int64_t n, Rng& r, const Dist& d) {
  using T = typename V::value_type;
  v.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = DrawOne<T>(r, d);
}

template <class V>
void FillSorted(V& v, int64_t n, Rng& r, const Dist& d) {
  Fill(v, n, r, d);
  std::sort(v.begin(), v.end());
}

template <class V>
void FillPermutation(V& v, int64_t n, Rng& r) {
  using T = typename V::value_type;
  v.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<T>(i);
  for (int64_t i = n - 1; i > 0; --i) {
    int64_t j = static_cast<int64_t>(r.Below(static_cast<uint64_t>(i) + 1));
    T t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
}

// Dense n x n 0/1 adjacency matrix, row-major, no self loops.
template <class V>
void FillAdjacency(V& v, int64_t n, Rng& r, double p, bool symmetric) {
  using T = typename V::value_type;
  v.assign(static_cast<size_t>(n * n), FromDouble<T>(0));
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = symmetric ? i + 1 : 0; j < n; ++j) {
      if (i == j) continue;
      if (r.Uniform() < p) {
        v[i * n + j] = FromDouble<T>(1);
        if (symmetric) v[j * n + i] = FromDouble<T>(1);
      }
    }
  }
}

// A sparse matrix in CSR and COO form (row-major order, sorted columns).
struct Sparse {
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> row_ptr, col_idx, row_of;
  std::vector<double> values;
  int64_t nnz() const { return static_cast<int64_t>(col_idx.size()); }
};

// `diag` (when `has_diag`): every row i < min(rows, cols) also holds column
// i, valued from `diag` (drawn after the row's other values).
Sparse MakeSparse(int64_t rows, int64_t cols, int64_t nnz_min, int64_t nnz_max, Rng& r,
                  const Dist& vd, bool has_diag = false, const Dist& diag = Dist{});

template <class V, class Src>
void CopyConvert(V& dst, const Src& src) {
  using T = typename V::value_type;
  dst.resize(src.size());
  for (size_t i = 0; i < src.size(); ++i) dst[i] = FromDouble<T>(static_cast<double>(src[i]));
}

// ---- poison --------------------------------------------------------------------
//
// Outputs are filled before every call with a value the reference never
// writes: NaN for floating types, a byte pattern that differs per call for
// integers, alternating true/false for std::vector<bool>.

template <class T>
void PoisonOne(T& x, int call) {
  if constexpr (IsComplex<T>::value) {
    using V = typename T::value_type;
    x = T(std::numeric_limits<V>::quiet_NaN(), std::numeric_limits<V>::quiet_NaN());
  } else if constexpr (std::is_floating_point_v<T>) {
    x = std::numeric_limits<T>::quiet_NaN();
  } else if constexpr (std::is_same_v<T, bool>) {
    x = (call % 2) == 0;
  } else if constexpr (std::is_arithmetic_v<T>) {
    std::memset(&x, (call % 2) ? 0x5A : 0xA5, sizeof(T));
  } else {
    std::memset(static_cast<void*>(&x), (call % 2) ? 0xFE : 0xFF, sizeof(T));
  }
}

template <class V>
void PoisonAll(V& v, int64_t n, int call) {
  using T = typename V::value_type;
  v.resize(static_cast<size_t>(n));
  if constexpr (std::is_same_v<V, std::vector<bool>>) {
    for (int64_t i = 0; i < n; ++i) v[i] = (call % 2) == 0;
  } else {
    for (int64_t i = 0; i < n; ++i) PoisonOne<T>(v[i], call);
  }
}

// ---- the plan the harness writes --------------------------------------------------

// An edge case's values (plan line "edge <arg> <mode> <k>" after its case):
// argument `arg` (its index in the signature; -1: every argument) takes
// every value at its range's minimum, maximum, the integer k, or the end of
// the range with the larger magnitude (verify/edge_cases.h).
enum class EdgeMode { kNone, kMin, kMax, kInt, kMagnitude };

struct Case {
  int id = 0;
  uint64_t seed = 0;
  std::map<std::string, int64_t> sizes;
  std::map<std::string, double> scalars;
  int edge_arg = -2;  // -2: not an edge case
  EdgeMode edge = EdgeMode::kNone;
  double edge_k = 0;
  int64_t Size(const char* name) const {
    auto it = sizes.find(name);
    return it == sizes.end() ? 0 : it->second;
  }
  bool HasScalar(const char* name) const { return scalars.count(name) != 0; }
  double Scalar(const char* name) const { return scalars.at(name); }
};

// The distribution argument `arg` is drawn from in case `c`: `d` itself,
// or, in an edge case for that argument, a constant at its minimum,
// maximum, k or largest magnitude (uniform: its bounds; normal: mean +- 4
// standard deviations; bernoulli: 0 or 1; strings: the shortest or longest
// length; a range symmetric about 0: either end, at random, per value). A k
// outside the range leaves `d` as it is.
Dist Edge(const Case& c, int arg, Dist d);

struct Plan {
  std::vector<Case> cases;
  int runs = 2;
  bool timing = false;
  Case timing_case;
  uint64_t timing_seed_b = 0;
  int warmup = 2, min_reps = 5, max_reps = 50;
  double max_seconds = 2.0;
  bool flush_l2 = true;
  // The timing-size input run as a case (emulator): no provenance check.
  // Cases with this id and above are the same input at several sizes
  // ("rungs", ascending); an emulated run checks the smallest and more (RungWalk).
  int fullsize_case = -1;
  std::map<int, double> weight;  // "weight <case> <bytes>": one copy of the case's arguments
  double work_budget = 0;        // "work <units>": what the rungs run may cost in all (predicted)
  bool kernel_clock =
      false;  // "kernel_clock 1": CUPTI kernel time of each timed call (drop-in form)
  // "test_run <r>": of the test cases (ids below fullsize_case, or all) only
  // call r of the `runs` runs; the harness runs the others in other processes
  // with the same plan otherwise (verify/build/driver_gen.h). -1: every run.
  int test_run = -1;
};

bool ReadCaseTail(FILE* f, Case* c);

bool ReadPlan(const char* path, Plan* p);

// ---- records -------------------------------------------------------------------------
//
//   A <case> <call> <name> <elem_bytes> <count>\n<raw bytes>
//   E <text>\n
//   T <count>\n<doubles>

class Out {
 public:
  // Writes to `fd`, a pipe the harness owns.
  bool Open(int fd);
  void Array(int case_id, int call, const char* name, size_t elem, size_t count, const void* data);
  template <class V>
  void Vec(int case_id, int call, const char* name, const V& v) {
    using T = typename V::value_type;
    if constexpr (std::is_same_v<V, std::vector<bool>>) {
      std::vector<uint8_t> b(v.size());
      for (size_t i = 0; i < v.size(); ++i) b[i] = v[i] ? 1 : 0;
      Array(case_id, call, name, 1, b.size(), b.data());
    } else {
      Array(case_id, call, name, sizeof(T), v.size(), v.data());
    }
  }
  template <class T>
  void Scalar(int case_id, int call, const char* name, const T& x) {
    if constexpr (std::is_same_v<T, bool>) {
      uint8_t b = x ? 1 : 0;
      Array(case_id, call, name, 1, 1, &b);
    } else {
      Array(case_id, call, name, sizeof(T), 1, &x);
    }
  }
  // Keeps every byte in memory instead of sending it: a copy of what a
  // call's outputs were at a moment, to compare with a later copy.
  void Capture() { capture_ = true; }
  const std::vector<char>& Captured() const { return buf_; }
  // Events leave at once: the harness timestamps them as they arrive.
  void Event(const std::string& text);
  void Times(const std::vector<double>& t);
  void Flush();
  // Reads the key the harness sent on standard input (only now: no call of
  // the function under test comes after this), writes the end line with the
  // seal and leaves the process without running exit handlers.
  [[noreturn]] void SealAndExit(int status);

 private:
  void Put(const void* p, size_t n);
  int fd_ = -1;
  bool capture_ = false;
  std::vector<char> buf_;
  Sha256 hash_;
};

template <class V>
bool SameContents(const V& a, const V& b);

// One value (an in-out passed by reference) equal to another.
template <class T>
bool SameValue(const T& a, const T& b) {
  if constexpr (std::is_trivially_copyable_v<T>) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
  } else {
    return a == b;
  }
}

template <class V>
bool SameContents(const V& a, const V& b) {
  if (a.size() != b.size()) return false;
  if constexpr (std::is_same_v<V, std::vector<bool>> ||
                !std::is_trivially_copyable_v<typename V::value_type>) {
    return a == b;  // strings, and structs holding them (generated operator==)
  } else {
    return a.empty() ||
           std::memcmp(a.data(), b.data(), a.size() * sizeof(typename V::value_type)) == 0;
  }
}

double NowMs();

// ---- device hooks ------------------------------------------------------------------------

#ifdef RG_DRIVER_CUDA
// Writes the "gpu ..." event (device, driver, L2); non-zero: no usable GPU.
int GpuCheck(Out& out);
#endif
// Writes a buffer twice the size of L2 so the next call starts cold, and
// drops any persisting-L2 lines a candidate set up (no-op without CUDA).
void FlushL2(int rep);
// Waits for all work on all streams; reports a sticky or pending CUDA error.
bool SyncOk(std::string* err);

// ---- emulated runs: where the outputs came from ----------------------------------------
//
// Linked with the emulator's checker (verify/emu/regrapht_emu_check.cc) these
// are defined; in GPU and CPU builds they are null and nothing is checked.
extern "C" {
__attribute__((weak)) void regrapht_emu_call_begin(int call, int provenance);
__attribute__((weak)) void regrapht_emu_call_end();
__attribute__((weak)) int regrapht_emu_from_device(const void* p, size_t n);
__attribute__((weak)) unsigned long long regrapht_emu_host_reads();
__attribute__((weak)) unsigned long long regrapht_emu_work();
// Runs the work the candidate left pending on its streams (the emulator
// runs it as late as CUDA allows).
__attribute__((weak)) void regrapht_emu_device_sync();
}

// True when the candidate's host code read at least a quarter of the input
// elements itself (never fewer than 256 loads) during the call: enough to
// have computed a scalar answer on the host.
inline bool HostDidTheWork(size_t input_elements) {
  unsigned long long limit = std::max<unsigned long long>(256, input_elements / 4);
  return regrapht_emu_host_reads && regrapht_emu_host_reads() >= limit;
}

// Whether the `len` bytes at `p` are values device code produced.
inline bool FromDevice(const void* p, size_t len) { return regrapht_emu_from_device(p, len) != 0; }

// Finds an element of an output that changed during the call (against `pre`,
// or the poison of `call` when `pre` is null; every element when `fresh`)
// and holds a value no device code produced and a copy brought back. Arrays
// are checked element by element (in 4-byte windows for narrower types); a
// single value only when the host did the work (HostDidTheWork), so that
// host-side arithmetic on a device result (a mean from a sum) stays allowed.
// `same`: inputs of the same type; the first of the output's length is the
// identity source: a word equal to its word at the same place is a
// pass-through (zero steps, an untouched entry), not host compute.
template <class V, class P, class S = V>
bool HostValueIn(const V& post, const P* pre, int call, bool fresh, bool heavy, const char* name,
                 std::string* where, std::initializer_list<const S*> same = {}) {
  if constexpr (std::is_same_v<V, std::vector<bool>>) {
    return false;  // bits: no per-element provenance
  } else {
    using T = std::remove_cv_t<std::remove_reference_t<decltype(*std::data(post))>>;
    const T* data = std::data(post);
    size_t n = std::size(post);
    if (n == 0 || (n == 1 && !heavy)) return false;
    auto changed = [&](size_t i) {
      if (fresh) return true;
      T before;
      if (pre)
        before = std::data(*pre)[i];
      else
        PoisonOne<T>(before, call);
      return std::memcmp(static_cast<const void*>(&before), static_cast<const void*>(&data[i]),
                         sizeof(T)) != 0;
    };
    const unsigned char* bytes = reinterpret_cast<const unsigned char*>(data);
    // Inputs of the output's length and element size: a word equal to the
    // word at the same place of any of them passed through unchanged.
    std::vector<const unsigned char*> idents;
    if constexpr (!std::is_same_v<S, std::vector<bool>>) {
      for (const S* in : same) {
        if (std::size(*in) == n && sizeof(*std::data(*in)) == sizeof(T))
          idents.push_back(reinterpret_cast<const unsigned char*>(std::data(*in)));
      }
    }
    auto passed_through = [&](const unsigned char* word, size_t offset) {
      for (const unsigned char* id : idents) {
        if (std::memcmp(word, id + offset, 4) == 0) return true;
      }
      return false;
    };
    for (size_t i = 0; i < n; ++i) {
      if (!changed(i)) continue;
      bool dev = true;
      if (sizeof(T) >= 4) {
        // Word by word: a field the call left alone (a particle's velocity
        // next to its updated position) need not come from the device.
        T before;
        if (pre)
          before = std::data(*pre)[i];
        else
          PoisonOne<T>(before, call);
        const unsigned char* b = reinterpret_cast<const unsigned char*>(&before);
        const unsigned char* a = reinterpret_cast<const unsigned char*>(&data[i]);
        for (size_t w = 0; w + 4 <= sizeof(T) && dev; w += 4) {
          if (!fresh && std::memcmp(a + w, b + w, 4) == 0) continue;
          if (passed_through(a + w, i * sizeof(T) + w)) continue;
          dev = FromDevice(a + w, 4);
        }
      } else {
        size_t w = i * sizeof(T) / 4 * 4;
        dev = FromDevice(bytes + w, std::min<size_t>(4, n * sizeof(T) - w));
      }
      if (!dev) {
        *where = std::string(name) + (n > 1 ? "[" + std::to_string(i) + "]" : std::string());
        return true;
      }
    }
    return false;
  }
}

// A single value (reference output or return value) as a one-element range.
template <class T>
bool HostScalarIn(const T& post, const T* pre, int call, bool heavy, const char* name,
                  std::string* where) {
  struct One {
    const T* p;
    const T* data() const { return p; }
    size_t size() const { return 1; }
  };
  One o{&post};
  One before{pre};
  return HostValueIn(o, pre ? &before : static_cast<const One*>(nullptr), call, false, heavy, name,
                     where);
}

// The record stream of this run (set by Main).
inline Out* g_out = nullptr;

}  // namespace rg

// The kernel form's adapter reports the CUDA-event time of its launch here;
// the timing loop records the sum over one call as "k1 <rep> <ms>".
namespace rg {
inline double g_kernel_ms = -1;  // < 0: no kernel time reported during this call
}  // namespace rg
extern "C" void regrapht_driver_kernel_ms(double ms);

namespace rg {
// Length of the union of [start, end) intervals (sorts `spans`).
double SpanUnionNs(std::vector<std::pair<uint64_t, uint64_t>>* spans);
}  // namespace rg

// ---- kernel-only time of a drop-in call (CUPTI) ----------------------------------------
//
// The drop-in form times the whole call; beside it the driver measures the
// time the GPU spent running the call's kernels, from CUPTI's activity API
// (GPU timestamps of every kernel, docs/bench.md): the union of the kernels'
// [start, end] intervals, so that overlapping kernels count once and the
// figure never exceeds the call. It lives here, in the harness's code: the
// candidate may neither call nor define a CUPTI function (object checks:
// every name the driver uses is refused as a definition, and cupti* is not on
// the allow-list of calls). Without CUPTI (not built in, not initialised,
// records dropped) there is no figure: no "k1" record, never a zero.
namespace rg {
// Starts recording kernels; false where CUPTI cannot (the figure is absent).
bool KernelClockStart();
// Forgets every kernel recorded so far (before a timed call).
void KernelClockReset();
// Kernel time since the last reset, in ms; < 0 when there is none to give.
double KernelClockMs();
}  // namespace rg

// Emulated runs: the candidate reached device inline assembly the emulator
// cannot run. The cases recorded so far are judged; the rest is unknown.
extern "C" [[noreturn]] void regrapht_driver_not_emulated(int line);

namespace rg {

// ---- the driver loop --------------------------------------------------------------------
//
// Hooks the generated code provides, for its Data (one test case's pristine
// arguments) and Slot (the working copies a call receives):
//   Generate(const Case&, Data*)       build the arguments from the seed
//   Prepare(const Data&, Slot*, call)  copy inputs, poison outputs
//   Call(const Data&, Slot*)           call the function under test
//   Emit(Out&, case, call, const Slot&) write outputs and the return value
//   Mutated(const Data&, const Slot&)  name of an input the call changed, or ""
//   HostOutput(const Data&, const Slot&, call)  emulated runs: "output[i]"
//                                      the host wrote itself, or ""
//   Untouched(const Data&, const Slot&)  space-separated in-outs the call
//                                      left equal to their input, or ""

template <class Data, class Slot>
struct Hooks {
  void (*generate)(const Case&, Data*);
  void (*prepare)(const Data&, Slot*, int);
  void (*call)(const Data&, Slot*);
  void (*emit)(Out&, int, int, const Slot&);
  const char* (*mutated)(const Data&, const Slot&);
  const char* (*host_output)(const Data&, const Slot&, int);
  const char* (*untouched)(const Data&, const Slot&);
};

// The driver loop, type-erased so that it is compiled once into the runtime
// object rather than into every generated driver: Data and Slot objects are
// made and freed through the hooks, which cast back to the generated types.
struct ErasedHooks {
  void* (*new_data)();
  void (*delete_data)(void*);
  void* (*new_slot)();  // slots live until the process leaves
  void (*generate)(const Case&, void*);
  void (*prepare)(const void*, void*, int);
  void (*call)(const void*, void*);
  void (*emit)(Out&, int, int, const void*);
  const char* (*mutated)(const void*, const void*);
  const char* (*host_output)(const void*, const void*, int);
  const char* (*untouched)(const void*, const void*);  // may be null
};

int RunMain(int argc, char** argv, const ErasedHooks& h);

template <class Data, class Slot>
inline const Hooks<Data, Slot>* g_hooks = nullptr;

// Runs the plan in argv[1] with the generated hooks; never returns once the
// record channel is open (SealAndExit).
template <class Data, class Slot>
int Main(int argc, char** argv, const Hooks<Data, Slot>& h) {
  g_hooks<Data, Slot> = &h;
  ErasedHooks e;
  e.new_data = []() -> void* { return new Data(); };
  e.delete_data = [](void* d) { delete static_cast<Data*>(d); };
  e.new_slot = []() -> void* { return new Slot(); };
  e.generate = [](const Case& c, void* d) {
    g_hooks<Data, Slot>->generate(c, static_cast<Data*>(d));
  };
  e.prepare = [](const void* d, void* s, int call) {
    g_hooks<Data, Slot>->prepare(*static_cast<const Data*>(d), static_cast<Slot*>(s), call);
  };
  e.call = [](const void* d, void* s) {
    g_hooks<Data, Slot>->call(*static_cast<const Data*>(d), static_cast<Slot*>(s));
  };
  e.emit = [](Out& o, int c, int call, const void* s) {
    g_hooks<Data, Slot>->emit(o, c, call, *static_cast<const Slot*>(s));
  };
  e.mutated = [](const void* d, const void* s) {
    return g_hooks<Data, Slot>->mutated(*static_cast<const Data*>(d), *static_cast<const Slot*>(s));
  };
  e.host_output = [](const void* d, const void* s, int call) {
    return g_hooks<Data, Slot>->host_output(*static_cast<const Data*>(d),
                                            *static_cast<const Slot*>(s), call);
  };
  e.untouched = nullptr;
  if (h.untouched) {
    e.untouched = [](const void* d, const void* s) {
      return g_hooks<Data, Slot>->untouched(*static_cast<const Data*>(d),
                                            *static_cast<const Slot*>(s));
    };
  }
  return RunMain(argc, argv, e);
}
}  // namespace rg

#endif  // RG_DRIVER_H_

// ---- the runtime's definitions ----------------------------------------------------------
//
// Everything above that is not a template is defined here, once: the harness
// compiles this header with RG_DRIVER_IMPLEMENTATION defined into the driver
// runtime object (same flags as the driver) and links it with each generated
// driver, so a driver's own translation unit compiles only what depends on
// its signature (docs/emulator.md, "Cost").
// stb-style: a translation unit that defines RG_DRIVER_IMPLEMENTATION and
// includes this header (first or again) gets the definitions, once.
#if defined(RG_DRIVER_IMPLEMENTATION) && !defined(RG_DRIVER_IMPLEMENTATION_DONE)
#define RG_DRIVER_IMPLEMENTATION_DONE
namespace rg {

Sha256::Sha256() { Reset(); }

void Sha256::Reset() {
  static const uint32_t kInit[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::memcpy(h_, kInit, sizeof h_);
  len_ = 0;
  fill_ = 0;
}

void Sha256::Update(const void* data, size_t n) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  len_ += n;
  while (n > 0) {
    size_t take = std::min(n, sizeof buf_ - fill_);
    std::memcpy(buf_ + fill_, p, take);
    fill_ += take;
    p += take;
    n -= take;
    if (fill_ == sizeof buf_) {
      Block(buf_);
      fill_ = 0;
    }
  }
}

void Sha256::Final(unsigned char out[32]) {
  uint64_t bits = len_ * 8;
  unsigned char pad = 0x80;
  Update(&pad, 1);
  unsigned char zero = 0;
  while (fill_ != 56) Update(&zero, 1);
  unsigned char lenb[8];
  for (int i = 0; i < 8; ++i) lenb[i] = static_cast<unsigned char>(bits >> (56 - 8 * i));
  Update(lenb, 8);
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<unsigned char>(h_[i] >> (24 - 8 * j));
  }
}

void Sha256::Block(const unsigned char* b) {
  static const uint32_t k[64] = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
      0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
      0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
      0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
      0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
      0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
      0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
      0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
      0xc67178f2};
  uint32_t w[64];
  for (int i = 0; i < 16; ++i) {
    w[i] = (uint32_t(b[4 * i]) << 24) | (uint32_t(b[4 * i + 1]) << 16) |
           (uint32_t(b[4 * i + 2]) << 8) | uint32_t(b[4 * i + 3]);
  }
  for (int i = 16; i < 64; ++i) {
    uint32_t s0 = R(w[i - 15], 7) ^ R(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = R(w[i - 2], 17) ^ R(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = h_[0], bb = h_[1], c = h_[2], d = h_[3], e = h_[4], f = h_[5], g = h_[6], h = h_[7];
  for (int i = 0; i < 64; ++i) {
    uint32_t t1 = h + (R(e, 6) ^ R(e, 11) ^ R(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
    uint32_t t2 = (R(a, 2) ^ R(a, 13) ^ R(a, 22)) + ((a & bb) ^ (a & c) ^ (bb & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = bb;
    bb = a;
    a = t1 + t2;
  }
  h_[0] += a;
  h_[1] += bb;
  h_[2] += c;
  h_[3] += d;
  h_[4] += e;
  h_[5] += f;
  h_[6] += g;
  h_[7] += h;
}

std::string SealHex(const unsigned char* key, size_t key_len,
                    const unsigned char stream_digest[32]) {
  Sha256 h;
  h.Update(key, key_len);
  h.Update(stream_digest, 32);
  unsigned char d[32];
  h.Final(d);
  static const char* kHex = "0123456789abcdef";
  std::string s;
  for (unsigned char c : d) {
    s += kHex[c >> 4];
    s += kHex[c & 15];
  }
  return s;
}

Dist Edge(const Case& c, int arg, Dist d) {
  if (c.edge == EdgeMode::kNone || (c.edge_arg != -1 && c.edge_arg != arg)) return d;
  double lo = d.a, hi = d.b;
  switch (d.kind) {
    case 0:
      break;
    case 1:
      lo = d.a - 4 * d.b;
      hi = d.a + 4 * d.b;
      break;
    case 3:
      lo = 0;
      hi = 1;
      break;
    case 4: {  // strings: the length
      Dist s = d;
      s.special_p = 0;
      if (c.edge == EdgeMode::kMin) s.b = s.a;
      if (c.edge == EdgeMode::kMax || c.edge == EdgeMode::kMagnitude) s.a = s.b;
      return s;
    }
    default:
      return d;  // constants stay
  }
  if (hi < lo) std::swap(lo, hi);
  double v = 0;
  switch (c.edge) {
    case EdgeMode::kMin:
      v = lo;
      break;
    case EdgeMode::kMax:
      v = hi;
      break;
    case EdgeMode::kInt:
      if (c.edge_k < lo || c.edge_k > hi) return d;
      v = c.edge_k;
      break;
    default:
      v = std::fabs(lo) > std::fabs(hi) ? lo : hi;
  }
  Dist e;
  e.kind = 2;
  e.a = v;
  // A range symmetric about 0 (a normal of mean 0, uniform [-a, a]): each
  // value takes either end at random, so that the largest magnitudes come
  // with both signs and an array is not one value repeated (whose exact
  // answer, a variance of 0 say, a reference may only approximate).
  if (c.edge == EdgeMode::kMagnitude && lo < 0 && lo == -hi) {
    e.special_p = 0.5;
    e.nspecial = 1;
    e.special[0] = -v;
  }
  return e;
}

bool ReadCaseTail(FILE* f, Case* c) {
  int k = 0;
  if (std::fscanf(f, "%d", &k) != 1) return false;
  for (int i = 0; i < k; ++i) {
    char name[256];
    long long v;
    if (std::fscanf(f, "%255s %lld", name, &v) != 2) return false;
    c->sizes[name] = v;
  }
  if (std::fscanf(f, "%d", &k) != 1) return false;
  for (int i = 0; i < k; ++i) {
    char name[256];
    double v;
    if (std::fscanf(f, "%255s %lf", name, &v) != 2) return false;
    c->scalars[name] = v;
  }
  return true;
}

bool ReadPlan(const char* path, Plan* p) {
  FILE* f = std::fopen(path, "r");
  if (!f) return false;
  char word[64];
  int version = 0;
  if (std::fscanf(f, "%63s %d", word, &version) != 2 || std::strcmp(word, "regrapht-plan") != 0 ||
      version != 1) {
    std::fclose(f);
    return false;
  }
  bool ok = true;
  while (ok && std::fscanf(f, "%63s", word) == 1) {
    if (!std::strcmp(word, "end")) break;
    if (!std::strcmp(word, "runs")) {
      ok = std::fscanf(f, "%d", &p->runs) == 1;
    } else if (!std::strcmp(word, "case")) {
      Case c;
      unsigned long long seed;
      ok = std::fscanf(f, "%d %llu", &c.id, &seed) == 2 && ReadCaseTail(f, &c);
      c.seed = seed;
      p->cases.push_back(c);
    } else if (!std::strcmp(word, "edge")) {
      int arg = 0, mode = 0;
      double k = 0;
      ok = !p->cases.empty() && std::fscanf(f, "%d %d %lf", &arg, &mode, &k) == 3 && mode >= 1 && mode <= 4;
      if (ok) {
        p->cases.back().edge_arg = arg;
        p->cases.back().edge = static_cast<EdgeMode>(mode);
        p->cases.back().edge_k = k;
      }
    } else if (!std::strcmp(word, "kernel_clock")) {
      int on = 0;
      ok = std::fscanf(f, "%d", &on) == 1;
      p->kernel_clock = on != 0;
    } else if (!std::strcmp(word, "fullsize")) {
      ok = std::fscanf(f, "%d", &p->fullsize_case) == 1;
    } else if (!std::strcmp(word, "weight")) {
      int id = 0;
      double bytes = 0;
      ok = std::fscanf(f, "%d %lf", &id, &bytes) == 2;
      p->weight[id] = bytes;
    } else if (!std::strcmp(word, "work")) {
      ok = std::fscanf(f, "%lf", &p->work_budget) == 1;
    } else if (!std::strcmp(word, "test_run")) {
      ok = std::fscanf(f, "%d", &p->test_run) == 1 && p->test_run >= 0 && p->test_run < p->runs;
    } else if (!std::strcmp(word, "timing")) {
      unsigned long long sa, sb;
      int flush;
      ok = std::fscanf(f, "%llu %llu %d %d %d %lf %d", &sa, &sb, &p->warmup, &p->min_reps,
                       &p->max_reps, &p->max_seconds, &flush) == 7 &&
           ReadCaseTail(f, &p->timing_case);
      p->timing = true;
      p->timing_case.seed = sa;
      p->timing_case.id = 1000000;
      p->timing_seed_b = sb;
      p->flush_l2 = flush != 0;
    } else {
      ok = false;
    }
  }
  std::fclose(f);
  return ok;
}

double NowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Sparse MakeSparse(int64_t rows, int64_t cols, int64_t nnz_min, int64_t nnz_max, Rng& r,
                  const Dist& vd, bool has_diag, const Dist& diag) {
  Sparse s;
  s.rows = rows;
  s.cols = cols;
  s.row_ptr.push_back(0);
  std::vector<int64_t> picked;
  for (int64_t i = 0; i < rows; ++i) {
    int64_t k =
        nnz_min + static_cast<int64_t>(r.Below(static_cast<uint64_t>(nnz_max - nnz_min + 1)));
    if (k > cols) k = cols;
    picked.clear();
    // Floyd's sampling of k distinct columns.
    for (int64_t j = cols - k; j < cols; ++j) {
      int64_t t = static_cast<int64_t>(r.Below(static_cast<uint64_t>(j) + 1));
      if (std::find(picked.begin(), picked.end(), t) == picked.end())
        picked.push_back(t);
      else
        picked.push_back(j);
    }
    bool on_diag = has_diag && i < cols;
    if (on_diag && std::find(picked.begin(), picked.end(), i) == picked.end()) picked.push_back(i);
    std::sort(picked.begin(), picked.end());
    for (int64_t c : picked) {
      s.col_idx.push_back(c);
      s.row_of.push_back(i);
      s.values.push_back(DrawOne<double>(r, vd));
    }
    if (on_diag) {
      size_t at = s.col_idx.size() - picked.size() +
                  static_cast<size_t>(std::find(picked.begin(), picked.end(), i) - picked.begin());
      s.values[at] = DrawOne<double>(r, diag);
    }
    s.row_ptr.push_back(static_cast<int64_t>(s.col_idx.size()));
  }
  return s;
}

#ifdef RG_DRIVER_CUDA
int GpuCheck(Out& out) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    int code = e != cudaSuccess ? static_cast<int>(e) : 100;
    out.Event(std::string("nogpu ") + std::to_string(code) + " " +
              (e != cudaSuccess ? cudaGetErrorName(e) : "cudaErrorNoDevice"));
    return code;
  }
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  int drv = 0, rt = 0, l2 = 0, sms = 0, clock_khz = 0, mem_clock_khz = 0, bus_bits = 0;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rt);
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, 0);
  cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0);
  cudaGetLastError();  // an attribute a driver does not report stays 0
  char buf[512];
  std::snprintf(
      buf, sizeof buf,
      "gpu "
      "name=%s|cc=%d.%d|driver=%d|runtime=%d|l2=%d|sms=%d|mem=%zu|clock_khz=%d|mem_clock_khz=%d|"
      "bus_bits=%d",
      p.name, p.major, p.minor, drv, rt, l2, sms, static_cast<size_t>(p.totalGlobalMem), clock_khz,
      mem_clock_khz, bus_bits);
  std::string s = buf;
  for (auto& c : s) {
    if (c == ' ') c = '_';
  }
  out.Event(s.replace(0, 4, "gpu "));
  return 0;
}

}  // namespace rg

// ---- device memory starts poisoned, as in the emulator ------------------------------
//
// The candidate's link wraps every CUDA allocation call (-Wl,--wrap=NAME,
// verify/verifier.cc): fresh device, managed and pinned memory is filled
// with 0xFF bytes (NaN, -1) before the candidate sees it, so a kernel that
// reads memory it never wrote is wrong on a GPU too (fresh device memory
// reads as zeros there). The fill runs on a stream of the driver's own and
// is waited for, ordering nothing else; stream-ordered allocations are
// filled in their stream's order. The candidate cannot reach the unwrapped
// functions: `__real_*` is not on the object checks' allow-list, and the
// driver API entry points (cudaGetDriverEntryPoint*) are refused.
extern "C" {
cudaError_t __real_cudaMalloc(void** p, size_t n);
cudaError_t __real_cudaMallocManaged(void** p, size_t n, unsigned flags);
cudaError_t __real_cudaMallocPitch(void** p, size_t* pitch, size_t w, size_t h);
cudaError_t __real_cudaMalloc3D(cudaPitchedPtr* p, cudaExtent e);
cudaError_t __real_cudaMallocAsync(void** p, size_t n, cudaStream_t s);
cudaError_t __real_cudaMallocFromPoolAsync(void** p, size_t n, cudaMemPool_t pool, cudaStream_t s);
cudaError_t __real_cudaMallocHost(void** p, size_t n);
cudaError_t __real_cudaHostAlloc(void** p, size_t n, unsigned flags);
}

namespace rg {
namespace {
cudaStream_t PoisonStream() {
  static cudaStream_t s = [] {
    cudaStream_t t = nullptr;
    if (cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking) != cudaSuccess) t = nullptr;
    return t;
  }();
  return s;
}
void PoisonDevice(void* p, size_t n) {
  if (!p || n == 0) return;
  cudaStream_t s = PoisonStream();
  cudaMemsetAsync(p, 0xFF, n, s);
  cudaStreamSynchronize(s);
}
}  // namespace
}  // namespace rg

extern "C" {
cudaError_t __wrap_cudaMalloc(void** p, size_t n) {
  cudaError_t e = __real_cudaMalloc(p, n);
  if (e == cudaSuccess) rg::PoisonDevice(*p, n);
  return e;
}
cudaError_t __wrap_cudaMallocManaged(void** p, size_t n, unsigned flags) {
  cudaError_t e = __real_cudaMallocManaged(p, n, flags);
  if (e == cudaSuccess) rg::PoisonDevice(*p, n);
  return e;
}
cudaError_t __wrap_cudaMallocPitch(void** p, size_t* pitch, size_t w, size_t h) {
  cudaError_t e = __real_cudaMallocPitch(p, pitch, w, h);
  if (e == cudaSuccess) rg::PoisonDevice(*p, *pitch * h);
  return e;
}
cudaError_t __wrap_cudaMalloc3D(cudaPitchedPtr* p, cudaExtent ext) {
  cudaError_t e = __real_cudaMalloc3D(p, ext);
  if (e == cudaSuccess) rg::PoisonDevice(p->ptr, p->pitch * ext.height * ext.depth);
  return e;
}
cudaError_t __wrap_cudaMallocAsync(void** p, size_t n, cudaStream_t s) {
  cudaError_t e = __real_cudaMallocAsync(p, n, s);
  if (e == cudaSuccess && *p && n) cudaMemsetAsync(*p, 0xFF, n, s);
  return e;
}
cudaError_t __wrap_cudaMallocFromPoolAsync(void** p, size_t n, cudaMemPool_t pool, cudaStream_t s) {
  cudaError_t e = __real_cudaMallocFromPoolAsync(p, n, pool, s);
  if (e == cudaSuccess && *p && n) cudaMemsetAsync(*p, 0xFF, n, s);
  return e;
}
cudaError_t __wrap_cudaMallocHost(void** p, size_t n) {
  cudaError_t e = __real_cudaMallocHost(p, n);
  if (e == cudaSuccess && *p) std::memset(*p, 0xFF, n);
  return e;
}
cudaError_t __wrap_cudaHostAlloc(void** p, size_t n, unsigned flags) {
  cudaError_t e = __real_cudaHostAlloc(p, n, flags);
  if (e == cudaSuccess && *p) std::memset(*p, 0xFF, n);
  return e;
}
}

namespace rg {

// Writes a buffer twice the size of L2 so the next call starts cold, and
// drops any persisting-L2 lines a candidate set up.
void FlushL2(int rep) {
  static void* buf = nullptr;
  static size_t bytes = 0;
  if (!buf) {
    int l2 = 0;
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
    bytes = std::max<size_t>(static_cast<size_t>(l2) * 2, size_t{64} << 20);
    if (cudaMalloc(&buf, bytes) != cudaSuccess) {
      buf = nullptr;
      cudaGetLastError();
      return;
    }
  }
  cudaMemset(buf, rep & 0xff, bytes);
  cudaCtxResetPersistingL2Cache();
  cudaDeviceSynchronize();
}

// Waits for all work on all streams; reports a sticky or pending CUDA error.
bool SyncOk(std::string* err) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) {
    *err = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
    return false;
  }
  return true;
}
#else
void FlushL2(int) {}
bool SyncOk(std::string*) {
  if (regrapht_emu_device_sync) regrapht_emu_device_sync();
  return true;
}
#endif

}  // namespace rg
extern "C" void regrapht_driver_kernel_ms(double ms) {
  rg::g_kernel_ms = (rg::g_kernel_ms < 0 ? 0 : rg::g_kernel_ms) + ms;
}
namespace rg {

double SpanUnionNs(std::vector<std::pair<uint64_t, uint64_t>>* spans) {
  std::sort(spans->begin(), spans->end());
  double total = 0;
  uint64_t lo = 0, hi = 0;
  bool open = false;
  for (const auto& [a, b] : *spans) {
    if (open && a <= hi) {
      hi = std::max(hi, b);
      continue;
    }
    if (open) total += static_cast<double>(hi - lo);
    lo = a;
    hi = b;
    open = true;
  }
  if (open) total += static_cast<double>(hi - lo);
  return total;
}

#ifdef RG_DRIVER_CUPTI
#if CUPTI_API_VERSION >= 130000
using CuptiKernelRecord = CUpti_ActivityKernel10;
#else
using CuptiKernelRecord = CUpti_ActivityKernel9;
#endif
struct KernelClock {
  std::mutex mu;
  bool on = false;
  bool lost = false;  // records dropped: no figure from here on
  std::vector<std::pair<uint64_t, uint64_t>> spans;
};
KernelClock g_kclock;

void CUPTIAPI KernelClockBufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = size_t{4} << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI KernelClockBufferCompleted(CUcontext ctx, uint32_t stream, uint8_t* buffer, size_t,
                                         size_t valid) {
  std::lock_guard<std::mutex> lock(g_kclock.mu);
  CUpti_Activity* rec = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
    if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
        rec->kind != CUPTI_ACTIVITY_KIND_KERNEL)
      continue;
    const auto* k = reinterpret_cast<const CuptiKernelRecord*>(rec);
    if (k->end > k->start) g_kclock.spans.emplace_back(k->start, k->end);
  }
  size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS && dropped > 0)
    g_kclock.lost = true;
  std::free(buffer);
}

// Starts recording kernels; false where CUPTI cannot (the figure is absent).
bool KernelClockStart() {
  if (cuptiActivityRegisterCallbacks(KernelClockBufferRequested, KernelClockBufferCompleted) !=
      CUPTI_SUCCESS)
    return false;
  if (cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) return false;
  g_kclock.on = true;
  return true;
}

// Delivers what was recorded so far (the device is synchronised first).
bool KernelClockFlush() {
  cudaDeviceSynchronize();
  return cuptiActivityFlushAll(0) == CUPTI_SUCCESS;
}

// Forgets every kernel recorded so far (before a timed call).
void KernelClockReset() {
  if (!g_kclock.on) return;
  if (!KernelClockFlush()) g_kclock.on = false;
  std::lock_guard<std::mutex> lock(g_kclock.mu);
  g_kclock.spans.clear();
}

// Kernel time since the last reset, in ms; < 0 when there is none to give.
double KernelClockMs() {
  if (!g_kclock.on) return -1;
  if (!KernelClockFlush()) {
    g_kclock.on = false;
    return -1;
  }
  std::lock_guard<std::mutex> lock(g_kclock.mu);
  if (g_kclock.lost || g_kclock.spans.empty()) return -1;
  return SpanUnionNs(&g_kclock.spans) / 1e6;
}
#else
bool KernelClockStart() { return false; }
void KernelClockReset() {}
double KernelClockMs() { return -1; }
#endif

}  // namespace rg
extern "C" [[noreturn]] void regrapht_driver_not_emulated(int line) {
  if (!rg::g_out) std::_Exit(88);
  rg::g_out->Event("not_emulated " + std::to_string(line));
  rg::g_out->SealAndExit(0);
}
namespace rg {

bool Out::Open(int fd) {
  if (fd < 3 || ::write(fd, "", 0) < 0) return false;
  fd_ = fd;
  return true;
}

void Out::Array(int case_id, int call, const char* name, size_t elem, size_t count,
                const void* data) {
  char head[512];
  int n =
      std::snprintf(head, sizeof head, "A %d %d %s %zu %zu\n", case_id, call, name, elem, count);
  Put(head, static_cast<size_t>(n));
  if (count) Put(data, elem * count);
}

void Out::Event(const std::string& text) {
  std::string line = "E " + text + "\n";
  Put(line.data(), line.size());
  Flush();
}

void Out::Times(const std::vector<double>& t) {
  char head[64];
  int n = std::snprintf(head, sizeof head, "T %zu\n", t.size());
  Put(head, static_cast<size_t>(n));
  if (!t.empty()) Put(t.data(), sizeof(double) * t.size());
}

void Out::Flush() {
  size_t done = 0;
  while (done < buf_.size()) {
    ssize_t w = ::write(fd_, buf_.data() + done, buf_.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) ::_exit(6);  // the harness went away
    done += static_cast<size_t>(w);
  }
  buf_.clear();
}

[[noreturn]] void Out::SealAndExit(int status) {
  unsigned char key[32];
  size_t got = 0;
  while (got < sizeof key) {
    ssize_t r = ::read(0, key + got, sizeof key - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += static_cast<size_t>(r);
  }
  unsigned char digest[32];
  hash_.Final(digest);
  std::string line = "E end " + SealHex(key, got, digest) + "\n";
  buf_.insert(buf_.end(), line.begin(), line.end());
  Flush();
  std::fflush(stdout);
  std::fflush(stderr);
  ::_exit(status);
}

void Out::Put(const void* p, size_t n) {
  const char* c = static_cast<const char*>(p);
  if (capture_) {
    buf_.insert(buf_.end(), c, c + n);
    return;
  }
  hash_.Update(p, n);
  if (buf_.size() + n > (size_t{1} << 20)) {
    Flush();
    if (n > (size_t{1} << 20)) {
      buf_.assign(c, c + n);
      Flush();
      return;
    }
  }
  buf_.insert(buf_.end(), c, c + n);
}

using Owned = std::unique_ptr<void, void (*)(void*)>;

// The emulator's walk up the timing-size rungs (cases from
// plan.fullsize_case on, ascending sizes). The smallest runs when its
// predicted work fits plan.work_budget (else none runs, and an event
// "emu_rung none predicted P budget B" says why); then, repeatedly, the
// largest rung whose predicted work fits what is left of the budget (none:
// the walk stops; no budget: the largest rung), the rungs in between skipped. The prediction is a power law in the input's
// bytes through the two largest cases measured so far (`seen`: bytes, work
// of test cases and rungs): the largest L and the largest S of at most 2/3 of
// L's bytes, exponent log(wL/wS)/log(bL/bS) clamped to [1, 3] (2 without
// such an S). Work counts are deterministic, so the same rungs run on every
// machine.
struct RungWalk {
  const Plan& plan;
  double spent = 0;  // work of the rungs run so far
  int target = -1;   // the rung to run next
  bool stopped = false;

  double Bytes(int id) const {
    auto it = plan.weight.find(id);
    return it == plan.weight.end() ? 0.0 : it->second;
  }
  double Predict(int id, const std::vector<std::pair<double, double>>& seen, double* exponent) const {
    double bl = 0, wl = 0, bs = 0, ws = 0;
    for (const auto& [b, w] : seen)
      if (b > bl || (b == bl && w > wl)) bl = b, wl = w;
    for (const auto& [b, w] : seen)
      if (b * 1.5 <= bl && (b > bs || (b == bs && w > ws))) bs = b, ws = w;
    double p = 2;
    if (bs > 0 && ws > 0 && wl > 0) p = std::clamp(std::log(wl / ws) / std::log(bl / bs), 1.0, 3.0);
    *exponent = p;
    if (bl <= 0 || wl <= 0) return 0;
    return wl * std::pow(std::max(Bytes(id), 1.0) / bl, p);
  }
  // Whether rung `id` (called in ascending order) runs; an event says which
  // rung comes next and why.
  bool Runs(int id, const std::vector<std::pair<double, double>>& seen, Out& out) {
    if (stopped) return false;
    if (id == plan.fullsize_case) {
      double p = 0, w = Predict(id, seen, &p);
      if (plan.work_budget > 0 && w > plan.work_budget) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "emu_rung none predicted %.0f budget %.0f exponent %.2f", w,
                      plan.work_budget, p);
        out.Event(buf);
        stopped = true;
        return false;
      }
      target = id;
    }
    if (id > target) {
      double p = 0, w = 0;
      target = -1;
      for (const Case& c : plan.cases) {
        if (c.id < id) continue;
        double cw = Predict(c.id, seen, &p);
        if (plan.work_budget <= 0 || spent + cw <= plan.work_budget) target = c.id, w = cw;
      }
      char buf[160];
      std::snprintf(buf, sizeof buf, "emu_rung next %d predicted %.0f spent %.0f budget %.0f exponent %.2f",
                    target, w, spent, plan.work_budget, p);
      out.Event(buf);
      stopped = target < 0;
    }
    return id == target;
  }
};

#ifdef RG_DRIVER_CUDA
constexpr bool kDeviceWork = true;
#else
constexpr bool kDeviceWork = false;  // unless the emulator is linked in
#endif

// The outputs of a call as they are now (Emit into memory).
std::vector<char> Outputs(const ErasedHooks& h, int case_id, int run, const void* slot) {
  Out o;
  o.Capture();
  h.emit(o, case_id, run, slot);
  return o.Captured();
}

// One call of test case `c` (run `run`, call number `this_call`) on slot
// `s` of data `d`: the call, then its outputs checked (late, host-computed,
// mutated inputs, untouched in-outs) and emitted. Seals the records and
// exits where a check ends the run.
static void RunCaseCall(const ErasedHooks& h, Out& out, const Case& c, int run, void* d, void* s, int this_call,
                        bool timing_size) {
  std::string err;
  h.prepare(d, s, this_call);
  out.Event("call " + std::to_string(c.id) + " " + std::to_string(run));
  // Races and output provenance on the test cases; the timing-size input
  // (emulator) gets bounds checks only.
  const bool origin = !timing_size;
  if (regrapht_emu_call_begin) regrapht_emu_call_begin(this_call, origin ? 1 : 0);
  h.call(d, s);
  // The drop-in contract: the outputs are complete when the function
  // returns. They are compared as they are now, and again after the
  // driver's own synchronisation: work the call left running (a
  // stream nobody synchronised, a copy into pinned memory) changes them.
  const bool device = kDeviceWork || regrapht_emu_device_sync;
  std::vector<char> at_return;
  if (device) at_return = Outputs(h, c.id, run, s);
  if (!SyncOk(&err)) {
    out.Event("cuda_error " + std::to_string(c.id) + " " + std::to_string(run) + " " + err);
    out.SealAndExit(5);
  }
  if (device && Outputs(h, c.id, run, s) != at_return) {
    out.Event("late_output " + std::to_string(c.id) + " " + std::to_string(run));
    out.SealAndExit(0);
  }
  if (regrapht_emu_call_end && origin) {
    regrapht_emu_call_end();
    const char* where = h.host_output(d, s, this_call);
    if (where && *where) {
      out.Event("host_compute " + std::to_string(c.id) + " " + std::to_string(run) + " " +
                where);
      out.SealAndExit(0);
    }
  }
  if (const char* m = h.mutated(d, s)) {
    if (*m) out.Event("mutated " + std::to_string(c.id) + " " + std::to_string(run) + " " + m);
  }
  if (const char* u = h.untouched ? h.untouched(d, s) : nullptr) {
    if (*u)
      out.Event("untouched " + std::to_string(c.id) + " " + std::to_string(run) + " " + u);
  }
  h.emit(out, c.id, run, s);
}

// The plan's test cases, `plan.runs` calls each (only call plan.test_run when
// set); the emulator's timing-size rungs only while RungWalk says they fit
// the work budget. Call k of the n-th case run is call number n * runs + k
// whichever calls this process makes, so that a case's poison and the
// emulator's schedule are the same as in a run that makes them all.
static void RunCases(const Plan& plan, const ErasedHooks& h, Out& out, int* call_no) {
  std::vector<std::pair<double, double>> seen;  // bytes and emulated work (all runs) of the cases run
  RungWalk walk{plan};
  const int first = *call_no;
  int ordinal = 0;
  for (const Case& c : plan.cases) {
    const bool timing_size = plan.fullsize_case >= 0 && c.id >= plan.fullsize_case;
    if (timing_size && regrapht_emu_work && !walk.Runs(c.id, seen, out)) continue;
    const unsigned long long work0 = regrapht_emu_work ? regrapht_emu_work() : 0;
    Owned d(h.new_data(), h.delete_data);
    h.generate(c, d.get());
    static void* slots[2] = {h.new_slot(), h.new_slot()};
    const bool one_run = plan.test_run >= 0 && !timing_size;
    for (int run = 0; run < plan.runs; ++run) {
      if (one_run && run != plan.test_run) continue;
      RunCaseCall(h, out, c, run, d.get(), slots[run % 2], first + ordinal * plan.runs + run, timing_size);
    }
    ++ordinal;
    if (regrapht_emu_work) {
      // One run measured stands for all of them: the rungs' predictions
      // and budget are the same as in a process that runs every call.
      const double work = double(regrapht_emu_work() - work0) * (one_run ? plan.runs : 1);
      out.Event("emu_work " + std::to_string(c.id) + " " + std::to_string(regrapht_emu_work() - work0));
      if (timing_size) walk.spent += work;
      if (walk.Bytes(c.id) > 0) seen.emplace_back(walk.Bytes(c.id), work);
    }
  }
  *call_no = first + ordinal * plan.runs;
}

// The timed repetitions: up to plan.max_reps calls rotating `slots` and
// alternating `sets`, until min_reps are done and max_seconds measured.
// Records each time (and, with `kernel_clock`, the CUPTI kernel time);
// returns the number of reps.
static int TimeCalls(const Plan& plan, const ErasedHooks& h, Out& out, void* const sets[2], void* const slots[3],
                     bool kernel_clock, int* call_no, std::vector<double>* times) {
  std::string err;
  double total = 0;
  int reps = 0;
  for (int r = 0; r < plan.max_reps; ++r) {
    void* s = slots[r % 3];
    const void* d = sets[r % 2];
    h.prepare(d, s, (*call_no)++);
    if (plan.flush_l2) FlushL2(r);
    if (kernel_clock) KernelClockReset();
    out.Event("t0 " + std::to_string(r));
    g_kernel_ms = -1;
    double t0 = NowMs();
    h.call(d, s);
    bool ok = SyncOk(&err);
    double t1 = NowMs();
    if (!ok) {
      out.Event("cuda_error timing " + std::to_string(r) + " " + err);
      out.SealAndExit(5);
    }
    if (kernel_clock) g_kernel_ms = KernelClockMs();
    times->push_back(t1 - t0);
    char sample[96];
    std::snprintf(sample, sizeof sample, "t1 %d %.6f", r, t1 - t0);
    out.Event(sample);
    if (g_kernel_ms >= 0) {
      std::snprintf(sample, sizeof sample, "k1 %d %.6f", r, g_kernel_ms);
      out.Event(sample);
    }
    total += t1 - t0;
    reps = r + 1;
    if (reps >= plan.min_reps && total >= plan.max_seconds * 1000.0) break;
  }
  return reps;
}

// The timing run: warm-up calls, the timed calls, then the outputs of the
// last call on each input set checked.
static void RunTiming(const Plan& plan, const ErasedHooks& h, Out& out, int* call_no) {
  std::string err;
  Owned set0(h.new_data(), h.delete_data), set1(h.new_data(), h.delete_data);
  void* sets[2] = {set0.get(), set1.get()};
  Case cb = plan.timing_case;
  h.generate(plan.timing_case, sets[0]);
  cb.seed = plan.timing_seed_b;
  h.generate(cb, sets[1]);
  // Three working slots rotate while the input set alternates, so neither
  // the argument addresses nor the sizes let a call reuse an earlier result.
  static void* slots[3] = {h.new_slot(), h.new_slot(), h.new_slot()};
  out.Event("warmup");
  for (int w = 0; w < plan.warmup; ++w) {
    h.prepare(sets[w % 2], slots[w % 3], (*call_no)++);
    h.call(sets[w % 2], slots[w % 3]);
    if (!SyncOk(&err)) {
      out.Event("cuda_error timing warmup " + err);
      out.SealAndExit(5);
    }
  }
  // Kernel time from CUPTI when the plan asks (drop-in form); the kernel
  // form's adapter reports its own (regrapht_driver_kernel_ms).
  const bool kernel_clock = plan.kernel_clock && KernelClockStart();
  std::vector<double> times;
  double wall0 = NowMs();
  int reps = TimeCalls(plan, h, out, sets, slots, kernel_clock, call_no, &times);
  double wall1 = NowMs();
  // The last two calls used both input sets: validate what they produced.
  for (int r = std::max(0, reps - 2); r < reps; ++r) {
    int set = r % 2;
    h.emit(out, 1000000 + set, r, slots[r % 3]);
    if (const char* m = h.mutated(sets[set], slots[r % 3])) {
      if (*m)
        out.Event("mutated " + std::to_string(1000000 + set) + " " + std::to_string(r) + " " + m);
    }
  }
  out.Times(times);
  char buf[128];
  std::snprintf(buf, sizeof buf, "timing_wall_ms %.6f", wall1 - wall0);
  out.Event(buf);
}

int RunMain(int argc, char** argv, const ErasedHooks& h) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s PLAN RECORDS_FD\n", argv[0]);
    return 6;
  }
  Plan plan;
  if (!ReadPlan(argv[1], &plan)) {
    std::fprintf(stderr, "driver: cannot read plan %s\n", argv[1]);
    return 6;
  }
  static Out out;
  g_out = &out;
  if (!out.Open(std::atoi(argv[2]))) {
    std::fprintf(stderr, "driver: cannot write records to file descriptor %s\n", argv[2]);
    return 6;
  }
#ifdef RG_DRIVER_CUDA
  if (GpuCheck(out) != 0) out.SealAndExit(3);
#endif
  out.Event("begin");
  int call_no = 0;
  RunCases(plan, h, out, &call_no);
  if (plan.timing) RunTiming(plan, h, out, &call_no);
  out.SealAndExit(0);
}

}  // namespace rg
#endif  // RG_DRIVER_IMPLEMENTATION
