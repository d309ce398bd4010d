// Hashing throughput: SHA-256 (OpenSSL EVP; models are checked with it after
// a download, GGUF files of several GB) and XXH3 (cache keys), over a 1 GiB
// buffer.
//
//   build/src/core/hash_bench --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>

#include "core/hash.h"
#include "core/rng.h"

namespace regrapht {
namespace {

const std::string& OneGiB() {
  static const std::string data = [] {
    std::string d(size_t{1} << 30, '\0');
    Rng rng(1);
    for (size_t i = 0; i + 8 <= d.size(); i += 8) {
      uint64_t v = rng.Next();
      std::memcpy(d.data() + i, &v, 8);
    }
    return d;
  }();
  return data;
}

void BM_Sha256OneGiB(benchmark::State& state) {
  const std::string& data = OneGiB();
  for (auto _ : state) benchmark::DoNotOptimize(Sha256Hex(data));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(data.size()));
}
BENCHMARK(BM_Sha256OneGiB)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Xxh3OneGiB(benchmark::State& state) {
  const std::string& data = OneGiB();
  for (auto _ : state) benchmark::DoNotOptimize(HashHex(data));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(data.size()));
}
BENCHMARK(BM_Xxh3OneGiB)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace regrapht

BENCHMARK_MAIN();
