// Kernel form: one thread per string, a single launch. Each thread reads the first character of
// its string (an empty string starts with its NUL terminator and counts nowhere), each block
// counts into a shared 26-bin histogram, and one 64-bit atomic per non-zero bin per block adds
// the counts to the global bins (zero on entry).
static_assert(sizeof(size_t) == sizeof(unsigned long long), "size_t bins are updated as 64-bit words");

__global__ void firstLetterCounts(const char **s, size_t N, size_t bins[26]) {
  __shared__ unsigned int local[26];
  for (int b = threadIdx.x; b < 26; b += blockDim.x) local[b] = 0u;
  __syncthreads();
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < N) {
    unsigned int k = static_cast<unsigned int>(static_cast<unsigned char>(s[i][0])) - 'a';
    if (k < 26u) atomicAdd(&local[k], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 26; b += blockDim.x) {
    unsigned int c = local[b];
    if (c) atomicAdd(reinterpret_cast<unsigned long long*>(&bins[b]), (unsigned long long)c);
  }
}
