#include <cuda_runtime.h>
#include <string>
#include <vector>

// Step 1 (thread_mapping): one thread computes one pair's distance.
// Step 2 (data_layout_transformation): the host packs the strings into
// column-major arrays (character j of pair p at j * n + p, zero padded to
// the longest string) plus length arrays, so when the 32 threads of a warp
// read their j-th characters the loads are contiguous.
// Step 3 (register_caching): the DP needs only three rows (the OSA
// transposition looks two rows back); they and the second string live in
// per-thread arrays of kOsaMax + 1 entries, so each character is read from
// global memory once. Pairs whose second string is longer than kOsaMax use
// rows in a global scratch buffer instead.
constexpr int kOsaMax = 64;
constexpr int kOsaBlock = 128;

template <typename Row>
__device__ int osa_rows(const char* __restrict__ sa, int la, const char* tb, int lb, long long n, Row r0, Row r1,
                        Row r2, long long p) {
  // r0 = row i-2, r1 = row i-1, r2 = row i (rotated by pointer swaps).
  for (int j = 0; j <= lb; ++j) r1[j] = j;
  char prev_a = 0;
  for (int i = 1; i <= la; ++i) {
    char ca = sa[(long long)(i - 1) * n + p];
    r2[0] = i;
    for (int j = 1; j <= lb; ++j) {
      char cb = tb[j - 1];
      int best = min(min(r1[j] + 1, r2[j - 1] + 1), r1[j - 1] + (ca == cb ? 0 : 1));
      if (i > 1 && j > 1 && ca == tb[j - 2] && prev_a == cb) best = min(best, r0[j - 2] + 1);
      r2[j] = best;
    }
    Row t = r0;
    r0 = r1;
    r1 = r2;
    r2 = t;
    prev_a = ca;
  }
  return r1[lb];
}

__global__ void osa_kernel(const char* __restrict__ sa, const int* __restrict__ la, const char* __restrict__ sb,
                           const int* __restrict__ lb, long long n, int* __restrict__ scratch, int row_len,
                           int pair_stride, int* __restrict__ dist) {
  long long p = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  const int na = la[p], nb = lb[p];
  if (nb <= kOsaMax) {
    char tb[kOsaMax];
    int r0[kOsaMax + 1], r1[kOsaMax + 1], r2[kOsaMax + 1];
    for (int j = 0; j < nb; ++j) tb[j] = sb[(long long)j * n + p];
    dist[p] = osa_rows(sa, na, tb, nb, n, r0, r1, r2, p);
  } else {
    // This pair's slice of the scratch buffer: three rows, then its string.
    int* base = scratch + p * (long long)pair_stride;
    char* tb = reinterpret_cast<char*>(base + 3 * row_len);
    for (int j = 0; j < nb; ++j) tb[j] = sb[(long long)j * n + p];
    dist[p] = osa_rows(sa, na, tb, nb, n, base, base + row_len, base + 2 * row_len, p);
  }
}

static void osa_pack(const std::vector<std::string>& s, size_t width, std::vector<char>& chars,
                     std::vector<int>& lens) {
  const size_t n = s.size();
  chars.assign(width * n, 0);
  lens.resize(n);
  for (size_t p = 0; p < n; ++p) {
    lens[p] = (int)s[p].size();
    for (size_t j = 0; j < s[p].size(); ++j) chars[j * n + p] = s[p][j];
  }
}

void osaDistances(const std::vector<std::string>& a, const std::vector<std::string>& b, std::vector<int>& dist) {
  const size_t n = a.size();
  if (n == 0) return;
  size_t wa = 1, wb = 1;
  for (size_t p = 0; p < n; ++p) {
    wa = a[p].size() > wa ? a[p].size() : wa;
    wb = b[p].size() > wb ? b[p].size() : wb;
  }
  std::vector<char> ha, hb;
  std::vector<int> hla, hlb;
  osa_pack(a, wa, ha, hla);
  osa_pack(b, wb, hb, hlb);
  char *da = nullptr, *db = nullptr;
  int *dla = nullptr, *dlb = nullptr, *dd = nullptr, *dscratch = nullptr;
  cudaMalloc(&da, ha.size());
  cudaMalloc(&db, hb.size());
  cudaMalloc(&dla, n * sizeof(int));
  cudaMalloc(&dlb, n * sizeof(int));
  cudaMalloc(&dd, n * sizeof(int));
  cudaMemcpy(da, ha.data(), ha.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb.data(), hb.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(dla, hla.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(dlb, hlb.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int row_len = 0, pair_stride = 0;
  if (wb > (size_t)kOsaMax) {
    // Per pair: three rows of wb + 1 ints, then wb characters rounded up to ints.
    row_len = (int)(wb + 1);
    pair_stride = 3 * row_len + (int)((wb + sizeof(int) - 1) / sizeof(int));
    cudaMalloc(&dscratch, n * (size_t)pair_stride * sizeof(int));
  }
  osa_kernel<<<(unsigned)((n + kOsaBlock - 1) / kOsaBlock), kOsaBlock>>>(da, dla, db, dlb, (long long)n, dscratch,
                                                                          row_len, pair_stride, dd);
  cudaMemcpy(dist.data(), dd, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dla);
  cudaFree(dlb);
  cudaFree(dd);
  cudaFree(dscratch);
}
