// Verification throughput on the compile-only path (no GPU here: each
// candidate is statically checked, compiled with nvcc, linked, and run up to
// CUDA initialisation). Three cache states:
//   cold        empty cache: driver object, candidate object and link built
//   new_source  driver cached, a candidate never seen before (the search's
//               common case)
//   same_source the candidate was verified before (all builds cached)
// Run: build/src/verify/verify_bench [--benchmark_repetitions=3]
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>

#include "core/fs.h"
#include "core/subprocess.h"
#include "regrapht/verify.h"

namespace regrapht {
namespace {

// A 60-line candidate: tiled 5-point Jacobi with a shared-memory halo.
const char* kCandidate = R"(#include <cuda_runtime.h>
#include <cstddef>
#include <vector>

#define TILE 16

__global__ void jacobi_tiled(const double* __restrict__ in, double* __restrict__ out, size_t N) {
  __shared__ double tile[TILE + 2][TILE + 2];
  long long gj = (long long)blockIdx.x * TILE + threadIdx.x;
  long long gi = (long long)blockIdx.y * TILE + threadIdx.y;
  int lj = threadIdx.x + 1, li = threadIdx.y + 1;
  auto at = [&](long long i, long long j) -> double {
    return (i >= 0 && j >= 0 && i < (long long)N && j < (long long)N) ? in[i * N + j] : 0.0;
  };
  tile[li][lj] = at(gi, gj);
  if (threadIdx.x == 0) tile[li][0] = at(gi, gj - 1);
  if (threadIdx.x == TILE - 1) tile[li][TILE + 1] = at(gi, gj + 1);
  if (threadIdx.y == 0) tile[0][lj] = at(gi - 1, gj);
  if (threadIdx.y == TILE - 1) tile[TILE + 1][lj] = at(gi + 1, gj);
  __syncthreads();
  if (gi >= (long long)N || gj >= (long long)N) return;
  double sum = tile[li][lj] + tile[li - 1][lj] + tile[li + 1][lj] + tile[li][lj - 1] + tile[li][lj + 1];
  out[gi * N + gj] = sum / 5.0;
}

static void check(cudaError_t e) {
  if (e != cudaSuccess) return;
}

void jacobi2d(std::vector<double> const& input, std::vector<double>& output, size_t N) {
  if (N == 0) return;
  size_t bytes = N * N * sizeof(double);
  double* din = nullptr;
  double* dout = nullptr;
  check(cudaMalloc(&din, bytes));
  check(cudaMalloc(&dout, bytes));
  check(cudaMemcpy(din, input.data(), bytes, cudaMemcpyHostToDevice));
  dim3 block(TILE, TILE);
  dim3 grid((unsigned)((N + TILE - 1) / TILE), (unsigned)((N + TILE - 1) / TILE));
  jacobi_tiled<<<grid, block>>>(din, dout, N);
  check(cudaGetLastError());
  check(cudaMemcpy(output.data(), dout, bytes, cudaMemcpyDeviceToHost));
  cudaFree(din);
  cudaFree(dout);
}
// variant
)";

Problem LoadJacobi() {
  const char* src = std::getenv("REGRAPHT_SOURCE_DIR");
  auto p = LoadProblem(fs::path(src ? src : ".") / "problems" / "jacobi2d");
  if (!p.ok()) std::abort();
  return *p;
}

std::atomic<int> g_unique{0};

std::string Unique() {
  return std::string(kCandidate) + "// " + std::to_string(::getpid()) + "-" + std::to_string(g_unique++) + "\n";
}

void Run(benchmark::State& state, const VerifyOptions& o, const Problem& p, const std::string& src) {
  auto runner = NewSubprocessRunner();
  Verifier v(o, runner.get());
  auto r = v.Verify(p, src);
  if (!r.ok()) {
    state.SkipWithError(r.status().ToString().c_str());
  } else if (!Unverified(r->verdict) && r->verdict != Verdict::kCorrect) {
    state.SkipWithError((std::string(VerdictName(r->verdict)) + ": " + r->detail).c_str());
  }
}

void BM_VerifyCold(benchmark::State& state) {
  Problem p = LoadJacobi();
  for (auto _ : state) {
    auto cache = TempDir::Create("rg-bench-cold");
    VerifyOptions o;
    o.cache_dir = cache->path().string();
    Run(state, o, p, Unique());
  }
  state.SetItemsProcessed(state.iterations());
}

fs::path WarmCache() {
  static fs::path dir = [] {
    auto d = TempDir::Create("rg-bench-warm");
    d->Keep();
    return d->path();
  }();
  return dir;
}

void BM_VerifyNewSource(benchmark::State& state) {
  Problem p = LoadJacobi();
  VerifyOptions o;
  o.cache_dir = WarmCache().string();
  if (state.thread_index() == 0) Run(state, o, p, Unique());  // warm the driver object
  for (auto _ : state) Run(state, o, p, Unique());
  state.SetItemsProcessed(state.iterations());
}

void BM_VerifySameSource(benchmark::State& state) {
  Problem p = LoadJacobi();
  VerifyOptions o;
  o.cache_dir = WarmCache().string();
  std::string src = std::string(kCandidate) + "// fixed\n";
  Run(state, o, p, src);
  for (auto _ : state) Run(state, o, p, src);
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(BM_VerifyCold)->Iterations(3)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_VerifyNewSource)->Iterations(4)->Threads(1)->Threads(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_VerifySameSource)->Iterations(20)->Threads(1)->Threads(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace regrapht

BENCHMARK_MAIN();
