// The reference check's record lookups against the number of test cases
// (issue 14: DriverRecords::Find was once linear; docs/performance.md "The
// harness").
// For N test cases the driver writes two calls per case; the check parses
// the stream, then looks up both calls' output of every case, as
// Verifier::CheckReferenceRecords and judge::Judge do. Both must grow
// linearly: the reported complexity should be O(N), not O(N^2).
// Run: build/src/verify/records_bench
#include <benchmark/benchmark.h>

#include <string>

#include "verify/judge/records.h"

namespace regrapht::verify {
namespace {

// A finished record stream: N cases x 2 calls of output "y" (4 floats) and
// "return" (1 double).
std::string Stream(int64_t n) {
  std::string s = "E begin\n";
  const std::string four(16, '\x01'), one(8, '\x02');
  for (int64_t c = 0; c < n; ++c) {
    for (int call = 0; call < 2; ++call) {
      std::string id = std::to_string(c) + " " + std::to_string(call);
      s += "E call " + id + "\n";
      s += "A " + id + " y 4 4\n" + four;
      s += "A " + id + " return 8 1\n" + one;
    }
  }
  return s + "E end\n";
}

void BM_ParseRecords(benchmark::State& state) {
  std::string data = Stream(state.range(0));
  for (auto _ : state) {
    auto r = ParseRecords(data);
    if (!r.ok() || !r->finished) state.SkipWithError("parse failed");
    benchmark::DoNotOptimize(r);
  }
  state.SetComplexityN(state.range(0));
  state.counters["cases"] = static_cast<double>(state.range(0));
}

void BM_ReferenceCheckLookups(benchmark::State& state) {
  auto records = ParseRecords(Stream(state.range(0)));
  if (!records.ok()) {
    state.SkipWithError("parse failed");
    return;
  }
  const std::string outputs[] = {"y", "return"};
  for (auto _ : state) {
    size_t found = 0;
    for (const auto& o : outputs) {
      for (int c = 0; c < state.range(0); ++c) {
        const ArrayRecord* r0 = records->Find(c, 0, o);
        const ArrayRecord* r1 = records->Find(c, 1, o);
        found += (r0 != nullptr) + (r1 != nullptr && r0->bytes == r1->bytes);
      }
    }
    if (found != 4 * static_cast<size_t>(state.range(0))) state.SkipWithError("records missing");
    benchmark::DoNotOptimize(found);
  }
  state.SetComplexityN(state.range(0));
  state.counters["ns_per_case"] = benchmark::Counter(
      static_cast<double>(state.range(0)),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

BENCHMARK(BM_ParseRecords)
    ->RangeMultiplier(8)
    ->Range(1 << 10, 1 << 21)
    ->Unit(benchmark::kMillisecond)
    ->Complexity();
BENCHMARK(BM_ReferenceCheckLookups)
    ->RangeMultiplier(8)
    ->Range(1 << 10, 1 << 21)
    ->Unit(benchmark::kMillisecond)
    ->Complexity();

}  // namespace
}  // namespace regrapht::verify

BENCHMARK_MAIN();
